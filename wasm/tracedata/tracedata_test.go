package tracedata

import (
	"reflect"
	"strings"
	"testing"
)

func TestSegments(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"x", []string{"x"}},
		{"pc[1]", []string{"pc", "[1]"}},
		{"procs[node_2].cache.state", []string{"procs", "[node_2]", ".cache", ".state"}},
		{"a[b[1]].c", []string{"a", "[b[1]]", ".c"}},
	} {
		if got := segments(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("segments(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// rows lists each tree node as "depth label leaf/size".
func rows(tr *Tree) []string {
	var out []string
	start := int32(0)
	for i := range tr.Depth {
		out = append(out, strings.Repeat(" ", int(tr.Depth[i]))+string(tr.Labels[start:tr.Ends[i]])+
			map[bool]string{true: "", false: "/"}[tr.Leaf[i] >= 0]+string(rune('0'+tr.Size[i])))
		start = tr.Ends[i]
	}
	return out
}

func TestBuildTree(t *testing.T) {
	tr := BuildTree([]string{"locked", "pc[1]", "pc[2]", "p[1].a", "p[1].b", "p[2].a", "q"})
	want := []string{"locked1", "pc/3", " [1]1", " [2]1", "p/6", " [1]/3", "  .a1", "  .b1", " [2]/2", "  .a1", "q1"}
	if got := rows(tr); !reflect.DeepEqual(got, want) {
		t.Fatalf("tree:\n%q\nwant\n%q", got, want)
	}
	leaves := []int32{}
	for _, l := range tr.Leaf {
		if l >= 0 {
			leaves = append(leaves, l)
		}
	}
	if !reflect.DeepEqual(leaves, []int32{0, 1, 2, 3, 4, 5, 6}) {
		t.Fatalf("leaves in preorder: %v", leaves)
	}
	if want := []int32{-1, -1, 1, 1, -1, 4, 5, 5, 4, 8, -1}; !reflect.DeepEqual(tr.Parent, want) {
		t.Errorf("parents %v, want %v", tr.Parent, want)
	}
	if want := []int32{1, 2, 1, 1, 3, 2, 1, 1, 1, 1, 1}; !reflect.DeepEqual(tr.LeafCount, want) {
		t.Errorf("leaf counts %v, want %v", tr.LeafCount, want)
	}
	if want := []int32{0, 2, 3, 6, 7, 9, 10}; !reflect.DeepEqual(tr.NodeOfLeaf, want) {
		t.Errorf("nodes of leaves %v, want %v", tr.NodeOfLeaf, want)
	}
	if want := []int32{0, 7, 13, 19, 26, 33, 40, 42}; !reflect.DeepEqual(tr.NameStarts, want) {
		t.Errorf("name starts %v, want %v", tr.NameStarts, want)
	}
}

func TestEncoder(t *testing.T) {
	var e Encoder
	p := e.Reset([]string{"a", "b"}, Step{Rule: "startstate s", Values: []string{"false", "0"}})
	if string(p.Names) != "a\nb" || !reflect.DeepEqual(p.Values, []string{"false", "0"}) || !reflect.DeepEqual(p.Start, []int32{0, 1}) {
		t.Fatalf("first payload %+v", p)
	}
	p = e.Append(Step{Rule: "r1", Values: []string{"true", "0"}}, Step{Rule: "r2", Values: []string{"true", "0"}})
	if p.Base != 1 || !reflect.DeepEqual(p.Values, []string{"true"}) || !reflect.DeepEqual(p.Changes, []int32{1, 0, 2, 0}) {
		t.Fatalf("appended %+v", p)
	}
	e.Cut(1, []string{"false", "0"})
	p = e.Append(Step{Rule: "r3", Values: []string{"false", "1"}})
	if p.Base != 1 || !reflect.DeepEqual(p.Values, []string{"1"}) || !reflect.DeepEqual(p.Changes, []int32{1, 1, 3}) {
		t.Fatalf("after cut %+v", p)
	}
	if e.Steps() != 2 {
		t.Fatalf("steps %d", e.Steps())
	}
}
