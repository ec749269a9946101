package explore

// This file measures transition locality (Penna et al., "Exploiting
// transition locality in automatic verification of finite-state concurrent
// systems", §3) during an exact BFS: for every transition s -> s', k =
// level(s') - level(s); δ(s, k) is the share of the transitions from s
// that are k-transitions, and E{Δ(k)}, σ(k) are its mean and standard
// deviation over the reachable states.

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
	hist        map[int]int64
}

func newLocalityStats(s *searcher) *localityStats {
	return &localityStats{hist: make(map[int]int64)}
}

func (l *localityStats) begin() { l.n, l.near = 0, [3]int64{} }

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

// end closes the state being expanded. A state with no transition has no
// fractions and is left out of the averages.
func (l *localityStats) end() {
	if l.n == 0 {
		return
	}
	l.states++
	for i, c := range l.near {
		d := float64(c) / float64(l.n)
		l.sum[i] += d
		l.sumSq[i] += d * d
	}
}

func (l *localityStats) result() *job.Locality {
	out := &job.Locality{States: l.states, Transitions: l.transitions}
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
