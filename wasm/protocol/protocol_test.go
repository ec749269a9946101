package protocol

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/verify"
)

// jsonFields returns the JSON keys of struct type t with their Go types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := make(map[string]reflect.Type)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}

// sameShape reports where the JSON shapes of a (from core/verify) and b
// (from this package) differ.
func sameShape(t *testing.T, path string, a, b reflect.Type) {
	t.Helper()
	if a.Kind() != b.Kind() {
		t.Errorf("%s: verify has %s, protocol has %s", path, a, b)
		return
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Slice:
		sameShape(t, path+"[]", a.Elem(), b.Elem())
	case reflect.Struct:
		fa, fb := jsonFields(a), jsonFields(b)
		for name, ta := range fa {
			tb, ok := fb[name]
			if !ok {
				t.Errorf("%s.%s: in verify.%s, missing from protocol.%s", path, name, a.Name(), b.Name())
				continue
			}
			sameShape(t, path+"."+name, ta, tb)
		}
		for name := range fb {
			if _, ok := fa[name]; !ok {
				t.Errorf("%s.%s: in protocol.%s, not in verify.%s", path, name, b.Name(), a.Name())
			}
		}
	}
}

func TestMirrorsVerify(t *testing.T) {
	for _, c := range []struct{ verify, protocol any }{
		{verify.Options{}, Options{}},
		{verify.Progress{}, Progress{}},
		{verify.Result{}, Result{}},
		{verify.Diagnostic{}, Diagnostic{}},
	} {
		a, b := reflect.TypeOf(c.verify), reflect.TypeOf(c.protocol)
		sameShape(t, a.Name(), a, b)
	}
}

func TestResultRoundTrip(t *testing.T) {
	n := int64(1234)
	v := verify.Result{
		Verdict: verify.Fail, Reason: "r", States: &n, RulesFired: 99, Depth: 7, Seconds: 1.5,
		PeakBytes: 1 << 20, RSSBytes: 2 << 20, Algorithm: "bfs", Symmetry: "exact", Deadlock: "stuck",
		Violation: &verify.Violation{Kind: "invariant", Name: "mutex", Message: "Invariant mutex failed", Pos: "m.m:3:4",
			Trace: []verify.TraceStep{
				{Rule: "Startstate", State: []verify.VarValue{{Name: "x", Value: "0"}}},
				{Rule: "step", State: []verify.VarValue{{Name: "x", Value: "1"}}, Changed: []int{0}},
			}},
		Diagnostics:  []verify.Diagnostic{{File: "m.m", Line: 1, Col: 2, Severity: "warning", Message: "w"}},
		StatesPerSec: 10, RulesPerSec: 20, BytesPerState: 3, StateBits: 17, LevelSizes: []int64{1, 2, 3},
		Covers: []verify.Cover{{Name: "c", Count: 2}}, DiskWritten: 5, DiskRead: 6,
	}
	v.Violations = []verify.Violation{*v.Violation}
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var p Result
	if err := json.Unmarshal(want, &p); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("round trip through protocol.Result changed the JSON:\n got %s\nwant %s", got, want)
	}
}

func TestEncodeDecode(t *testing.T) {
	opts := &Options{Algorithm: "dfs", Symmetry: "off", Deadlock: "stuck", MemoryBytes: 64 * MiB}
	for _, m := range []Message{
		{Type: TypeCheck, ID: 1, Filename: "a.m", Source: "var x: boolean;", Options: opts},
		{Type: TypeDiagnose, ID: 2, Filename: "a.m", Source: "x"},
		{Type: TypeReady, Storage: StorageOPFS},
		{Type: TypeDiagnostics, ID: 2, Diagnostics: []Diagnostic{{File: "a.m", Line: 1, Col: 1, Severity: "error", Message: "m"}}},
		{Type: TypeProgress, ID: 1, Progress: &Progress{States: 5}},
		{Type: TypeResult, ID: 1, Result: &Result{Verdict: Pass}},
		{Type: TypeError, ID: 1, Message: "boom"},
	} {
		s, err := Encode(m)
		if err != nil {
			t.Fatalf("Encode(%v): %v", m.Type, err)
		}
		got, err := Decode(s)
		if err != nil {
			t.Fatalf("Decode(%s): %v", s, err)
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("Decode(Encode(m)) = %+v, want %+v", got, m)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`not json`, "bad message"},
		{`{}`, "no type"},
		{`{"type":"launch"}`, "unknown message type"},
		{`{"type":"check","filename":"a.m"}`, "no id"},
		{`{"type":"check","id":1}`, "no options"},
		{`{"type":"check","id":1,"options":{"algorithm":"astar","memory_bytes":67108864}}`, "unknown algorithm"},
		{`{"type":"check","id":1,"options":{"memory_bytes":1}}`, "memory budget"},
		{`{"type":"check","id":1,"options":{"memory_bytes":67108864,"symmetry":"full"}}`, "unknown symmetry"},
		{`{"type":"progress","id":1}`, "no progress"},
		{`{"type":"result","id":1}`, "no result"},
		{`{"type":"diagnose"}`, "no id"},
	} {
		_, err := Decode(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(%s) error = %v, want it to mention %q", c.in, err, c.want)
		}
	}
}

func TestHeapLimit(t *testing.T) {
	for _, c := range []struct{ budget, limit, hard int64 }{
		{16 * MiB, 80 * MiB, 144 * MiB},
		{256 * MiB, 320 * MiB, 384 * MiB},
		{1024 * MiB, 1280 * MiB, 1536 * MiB},
		{MaxMemoryBytes, 2560 * MiB, 3072 * MiB},
	} {
		if got := HeapLimit(c.budget); got != c.limit {
			t.Errorf("HeapLimit(%d MiB) = %d MiB, want %d MiB", c.budget/MiB, got/MiB, c.limit/MiB)
		}
		if got := HardHeapLimit(c.budget); got != c.hard {
			t.Errorf("HardHeapLimit(%d MiB) = %d MiB, want %d MiB", c.budget/MiB, got/MiB, c.hard/MiB)
		}
	}
	// The largest budget must leave the hard limit under the 3.8 GiB wasm heap ceiling.
	if HardHeapLimit(MaxMemoryBytes) >= 3800*MiB {
		t.Errorf("HardHeapLimit(MaxMemoryBytes) = %d MiB, too close to the wasm heap ceiling", HardHeapLimit(MaxMemoryBytes)/MiB)
	}
}
