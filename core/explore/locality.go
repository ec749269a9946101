package explore

// This file measures transition locality (Penna et al., "Exploiting
// transition locality in automatic verification of finite-state concurrent
// systems", §3) during an exact BFS: for every transition s -> s', k =
// level(s') - level(s); δ(s, k) is the share of the transitions from s
// that are k-transitions, and E{Δ(k)}, σ(k) are its mean and standard
// deviation over the reachable states.
//
// A rule that leaves the state unchanged is not counted as a transition: in
// the paper's Table 1, n_peterson has E{Δ(0)} = 0 although a quarter of its
// rule firings (324,889 of 1,143,086, the rules fired of its Table 3) lead
// back to the same state, so the measured Murphi left them out.

import (
	"math"
	"sort"

	"github.com/locus-mc/locus/core/job"
)

type localityStats struct {
	// Per state being expanded: its transitions and its k = -1, 0, 1 ones.
	n    int64
	near [3]int64
	// Over all states.
	states      int64
	sum, sumSq  [3]float64
	transitions int64
	selfLoops   int64
	hist        map[int]int64
}

func newLocalityStats(s *searcher) *localityStats {
	return &localityStats{hist: make(map[int]int64)}
}

func (l *localityStats) begin() { l.n, l.near = 0, [3]int64{} }

// selfLoop records a rule firing that leaves the state unchanged.
func (l *localityStats) selfLoop() { l.selfLoops++ }

// edge records a transition from level from to level to.
func (l *localityStats) edge(from, to int) {
	k := to - from
	l.n++
	l.transitions++
	l.hist[k]++
	if k >= -1 && k <= 1 {
		l.near[k+1]++
	}
}

// end closes the state being expanded. A state with no transition counts
// with δ(s, k) = 0 for every k, as in the paper (Table 1's ns, whose
// deadlocked states make SumAvg 0.68, is reproduced to every printed digit
// only that way).
func (l *localityStats) end() {
	l.states++
	if l.n == 0 {
		return
	}
	for i, c := range l.near {
		d := float64(c) / float64(l.n)
		l.sum[i] += d
		l.sumSq[i] += d * d
	}
}

func (l *localityStats) result() *job.Locality {
	out := &job.Locality{States: l.states, Transitions: l.transitions, SelfLoops: l.selfLoops}
	for i := range l.near {
		var mean, sd float64
		if l.states > 0 {
			mean = l.sum[i] / float64(l.states)
			sd = math.Sqrt(math.Max(0, l.sumSq[i]/float64(l.states)-mean*mean))
		}
		out.Delta = append(out.Delta, job.LocalityK{K: i - 1, Mean: mean, StdDev: sd})
		out.SumAvg += mean
	}
	for k, c := range l.hist {
		out.Histogram = append(out.Histogram, job.LocalityCount{K: k, Count: c})
	}
	sort.Slice(out.Histogram, func(i, j int) bool { return out.Histogram[i].K < out.Histogram[j].K })
	return out
}
