package store

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/locus-mc/locus/core/budget"
	"github.com/locus-mc/locus/core/state"
)

func TestExactInsertLookup(t *testing.T) {
	for _, size := range []int{1, 3, 8, 13, 64} {
		b := budget.New(0)
		tab, err := NewExact(size, b, state.Hash)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, size)
		const n = 50000
		key := func(i int) []byte {
			for j := range buf {
				buf[j] = 0
			}
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], uint64(i))
			copy(buf, w[:])
			return buf
		}
		limit := n
		if size == 1 {
			limit = 256
		}
		for i := 0; i < limit; i++ {
			k := key(i)
			idx, added, err := tab.Insert(k, state.Hash(k))
			if err != nil || !added || idx != int64(i) {
				t.Fatalf("size %d: insert %d = %d,%v,%v", size, i, idx, added, err)
			}
		}
		for i := 0; i < limit; i++ {
			k := key(i)
			if idx := tab.Lookup(k, state.Hash(k)); idx != int64(i) {
				t.Fatalf("size %d: lookup %d = %d", size, i, idx)
			}
			if _, added, _ := tab.Insert(k, state.Hash(k)); added {
				t.Fatalf("size %d: duplicate %d added", size, i)
			}
			if string(tab.Get(int64(i))) != string(k) {
				t.Fatalf("size %d: Get(%d) wrong", size, i)
			}
		}
		if tab.Len() != int64(limit) {
			t.Fatalf("Len = %d", tab.Len())
		}
		if b.Used() != tab.Bytes() {
			t.Fatalf("budget used %d, table holds %d", b.Used(), tab.Bytes())
		}
	}
}

func TestExactBudget(t *testing.T) {
	b := budget.New(64 << 10)
	tab, err := NewExact(16, b, state.Hash)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	var ex *budget.ErrExhausted
	for i := 0; i < 1<<20; i++ {
		binary.LittleEndian.PutUint64(buf, uint64(i))
		_, _, err := tab.Insert(buf, state.Hash(buf))
		if err != nil {
			if !errors.As(err, &ex) {
				t.Fatalf("unexpected error %v", err)
			}
			if b.Used() > b.Limit() {
				t.Fatalf("used %d over limit %d", b.Used(), b.Limit())
			}
			return
		}
	}
	t.Fatal("budget never exhausted")
}

func TestExactFindInsertAt(t *testing.T) {
	b := budget.New(0)
	tab, err := NewExact(12, b, state.Hash)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 12)
	for i := 0; i < 20000; i++ {
		binary.LittleEndian.PutUint64(buf, uint64(i*7919))
		h := state.Hash(buf)
		idx, at := tab.Find(buf, h)
		if idx != -1 {
			t.Fatalf("Find(%d) = %d before insert", i, idx)
		}
		got, err := tab.InsertAt(at, buf, h)
		if err != nil || got != int64(i) {
			t.Fatalf("InsertAt(%d) = %d, %v", i, got, err)
		}
		if idx, _ := tab.Find(buf, h); idx != int64(i) {
			t.Fatalf("Find after insert = %d", idx)
		}
	}
	for i := 0; i < 20000; i++ {
		binary.LittleEndian.PutUint64(buf, uint64(i*7919))
		if idx := tab.Lookup(buf, state.Hash(buf)); idx != int64(i) {
			t.Fatalf("Lookup(%d) = %d", i, idx)
		}
	}
}
