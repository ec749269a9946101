package protocol

import (
	"reflect"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/job"
)

func TestEncodeDecode(t *testing.T) {
	opts := &Options{Algorithm: "dfs", Symmetry: "off", Deadlock: "stuck", MemoryBytes: 64 * MiB}
	for _, m := range []Message{
		{Type: TypeCheck, ID: 1, Filename: "a.m", Source: "var x: boolean;", Options: opts},
		{Type: TypeDiagnose, ID: 2, Filename: "a.m", Source: "x"},
		{Type: TypeReady, Storage: StorageOPFS, Engines: []EngineInfo{{Name: "bfs", Title: "t", Exact: true, Params: []job.ParamInfo{{Name: "p", Default: 1, Max: 2}}}}},
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
		{`{"type":"check","id":1,"options":{"memory_bytes":67108864,"hash_compaction":8}}`, "hash compaction"},
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
