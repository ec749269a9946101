package budget

import (
	"sync"
	"testing"
)

func TestReserveRelease(t *testing.T) {
	tests := []struct {
		name    string
		limit   int64
		reserve []int64
		want    []bool
		used    int64
	}{
		{"unlimited", 0, []int64{1 << 40, 1 << 40}, []bool{true, true}, 2 << 40},
		{"within", 100, []int64{60, 40}, []bool{true, true}, 100},
		{"refused", 100, []int64{60, 41, 40}, []bool{true, false, true}, 100},
		{"zero", 10, []int64{0, 10, 0}, []bool{true, true, true}, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := New(tc.limit)
			for i, n := range tc.reserve {
				if got := b.Reserve("x", n); got != tc.want[i] {
					t.Fatalf("Reserve(%d) = %v, want %v", n, got, tc.want[i])
				}
			}
			if b.Used() != tc.used || b.Peak() != tc.used || b.Part("x") != tc.used {
				t.Fatalf("used %d peak %d part %d, want %d", b.Used(), b.Peak(), b.Part("x"), tc.used)
			}
			b.Release("x", tc.used)
			if b.Used() != 0 || b.Peak() != tc.used {
				t.Fatalf("after release: used %d peak %d", b.Used(), b.Peak())
			}
		})
	}
}

// TestChildren checks that children share their parent's limit and that
// the parent's figures are the sum of theirs.
func TestChildren(t *testing.T) {
	root := New(100)
	a, b := root.Child(), root.Child()
	if a.Limit() != 100 || a.Available() != 100 {
		t.Fatalf("child limit %d available %d, want 100 100", a.Limit(), a.Available())
	}
	if !a.Reserve("visited", 60) || !b.Reserve("queue", 30) {
		t.Fatal("reservations within the limit refused")
	}
	if b.Reserve("queue", 11) {
		t.Fatal("a child reserved past its parent's limit")
	}
	if !root.Reserve("trail", 10) || root.Reserve("trail", 1) {
		t.Fatal("the parent's own reservations do not count its children's")
	}
	if a.Used() != 60 || b.Used() != 30 || root.Used() != 100 || root.Part("visited") != 60 || b.Part("queue") != 30 {
		t.Fatalf("used a=%d b=%d root=%d", a.Used(), b.Used(), root.Used())
	}
	a.Release("visited", 60)
	if root.Used() != 40 || root.Peak() != 100 || a.Peak() != 60 || root.Available() != 60 {
		t.Fatalf("after release: root used %d peak %d, a peak %d", root.Used(), root.Peak(), a.Peak())
	}
}

// TestChildrenConcurrent reserves from many goroutines at once (run with
// -race): the parent never lends more than its limit.
func TestChildrenConcurrent(t *testing.T) {
	const limit, workers, each = 1000, 8, 200
	root := New(limit)
	var wg sync.WaitGroup
	got := make([]int64, workers)
	for w := 0; w < workers; w++ {
		c := root.Child()
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if c.Reserve("x", 1) {
					got[w]++
				}
			}
		}(w)
	}
	wg.Wait()
	var sum int64
	for _, n := range got {
		sum += n
	}
	if sum != limit || root.Used() != limit || root.Peak() != limit {
		t.Fatalf("reserved %d in all, root used %d peak %d; want %d", sum, root.Used(), root.Peak(), limit)
	}
}
