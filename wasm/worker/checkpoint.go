//go:build js && wasm

// This file keeps checkpointed runs in browser storage: a run of an engine
// that checkpoints (EngineInfo.Checkpoints) gets a store of its own under a
// stable name, with its model and options beside the engine's files, so
// that a run interrupted by a closed or reloaded tab can be listed and
// resumed on the next visit, and ends with the counts an uninterrupted run
// gives. The store is deleted when the run finishes.

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"syscall/js"
	"time"

	"github.com/locus-mc/locus/core/explore"
	"github.com/locus-mc/locus/storagefs"
	"github.com/locus-mc/locus/wasm/protocol"
)

// ckptPrefix names checkpointed runs' stores. It differs from storePrefix,
// whose stores are removed once their Worker is gone: these outlive it.
const ckptPrefix = "locus-ckpt-"

// The run's own records in its store (the engine leaves them alone).
const (
	runRecord   = "locus-run.json"
	modelRecord = "locus-model.m"
)

// savedRun is what resuming needs besides the model.
type savedRun struct {
	Filename string           `json:"filename"`
	Options  protocol.Options `json:"options"`
	Started  string           `json:"started"`
}

// ckptStore is a checkpointed run's store, held (Web Lock) by this Worker.
type ckptStore struct {
	name, kind string
	fs         storagefs.FS
}

// newCheckpointStore creates the store of a new checkpointed run of m and
// records its model and options there.
func newCheckpointStore(m protocol.Message) (*ckptStore, error) {
	name := fmt.Sprintf("%s%d-%d", ckptPrefix, time.Now().UnixNano(), m.ID)
	c, err := lockAndOpen(name, "")
	if err != nil {
		return nil, err
	}
	rec, err := json.Marshal(savedRun{Filename: m.Filename, Options: *m.Options, Started: time.Now().UTC().Format(time.RFC3339)})
	if err == nil {
		err = c.fs.WriteSegment(modelRecord, []byte(m.Source))
	}
	if err == nil {
		err = c.fs.WriteSegment(runRecord, rec)
	}
	if err == nil {
		err = c.fs.Sync()
	}
	if err != nil {
		c.remove()
		return nil, err
	}
	// A long run on disk is worth keeping: without persistence the run
	// still works, but the browser may evict its store under pressure.
	c.fs.Persist()
	return c, nil
}

// openCheckpointStore opens stored run name, of kind (as listed), to
// resume it, with its model and options.
func openCheckpointStore(name, kind string) (*ckptStore, savedRun, []byte, error) {
	var run savedRun
	c, err := lockAndOpen(name, kind)
	if err != nil {
		return nil, run, nil, err
	}
	src, rec, err := readRecords(c.fs)
	if err == nil {
		err = json.Unmarshal(rec, &run)
	}
	if err != nil {
		c.fs.Close()
		return nil, run, nil, fmt.Errorf("the stored run %s cannot be read: %w", name, err)
	}
	c.fs.Persist()
	return c, run, src, nil
}

// lockAndOpen takes the lock of store name and opens it: as kind, or where
// new stores go if kind is "".
func lockAndOpen(name, kind string) (*ckptStore, error) {
	got, err := await(js.Global().Call("locusTryLock", name))
	if err != nil {
		return nil, fmt.Errorf("cannot lock the run's storage: %w", err)
	}
	if !got.Truthy() {
		return nil, errors.New("the run is going on in another tab or window")
	}
	var fs storagefs.FS
	if kind == "" {
		fs, err = storagefs.OpenBrowser(name, storagefs.Options{})
	} else {
		fs, err = openKind(name, kind)
	}
	if err != nil {
		return nil, err
	}
	return &ckptStore{name: name, kind: fs.Kind(), fs: fs}, nil
}

func readRecords(fs storagefs.FS) (src, rec []byte, err error) {
	if src, err = fs.ReadSegment(modelRecord, nil); err != nil {
		return nil, nil, err
	}
	rec, err = fs.ReadSegment(runRecord, nil)
	return src, rec, err
}

// end keeps the store of a run that can be resumed and deletes the others
// (finished, or stopped before their first checkpoint by something a
// resume would meet again).
func (c *ckptStore) end(res *protocol.Result) {
	if res.Checkpoint != nil && res.Checkpoint.Resumable {
		res.Checkpoint.Where = c.name
		c.fs.Close()
		return
	}
	c.remove()
}

func (c *ckptStore) remove() {
	storagefs.RemoveAll(c.fs, "")
	c.fs.Close()
	deleteStore(c.name, c.kind)
}

func deleteStore(name, kind string) error {
	_, err := await(js.Global().Call("locusDeleteStore", name, kind))
	return err
}

// storeEntry is one store locusListStores found.
type storeEntry struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Held bool   `json:"held"`
}

func listStores(prefix string) ([]storeEntry, error) {
	v, err := await(js.Global().Call("locusListStores", prefix))
	if err != nil {
		return nil, err
	}
	var out []storeEntry
	err = json.Unmarshal([]byte(v.String()), &out)
	return out, err
}

func openKind(name, kind string) (storagefs.FS, error) {
	if kind == protocol.StorageOPFS {
		return storagefs.NewOPFS(name, storagefs.Options{})
	}
	return storagefs.NewIndexedDB(name, storagefs.Options{})
}

// storedRuns lists the checkpointed runs in browser storage, newest first.
// A store without the run's records (its run ended while it was being
// deleted) is deleted here.
func storedRuns() ([]protocol.StoredRun, error) {
	stores, err := listStores(ckptPrefix)
	if err != nil {
		return nil, err
	}
	var out []protocol.StoredRun
	for _, st := range stores {
		r := protocol.StoredRun{Store: st.Name, Kind: st.Kind, Running: st.Held}
		if st.Held {
			out = append(out, r)
			continue
		}
		fs, err := openKind(st.Name, st.Kind)
		if err != nil {
			r.Problem = err.Error()
			out = append(out, r)
			continue
		}
		src, rec, err := readRecords(fs)
		if errors.Is(err, storagefs.ErrNotExist) {
			storagefs.RemoveAll(fs, "")
			fs.Close()
			deleteStore(st.Name, st.Kind)
			continue
		}
		var run savedRun
		if err == nil {
			err = json.Unmarshal(rec, &run)
		}
		if err != nil {
			r.Problem = err.Error()
		} else {
			r.Filename, r.Source, r.Options, r.Started = run.Filename, string(src), run.Options, run.Started
		}
		if segs, err := fs.ListSegments(""); err == nil {
			for _, s := range segs {
				r.Bytes += s.Size
			}
		}
		if _, elapsed, states, err := explore.CheckpointState(fs); err == nil {
			r.Resumable, r.Elapsed, r.States = true, elapsed, states
		} else if !errors.Is(err, explore.ErrNoCheckpoint) && r.Problem == "" {
			r.Problem = err.Error()
		}
		fs.Close()
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Store > out[j].Store })
	return out, nil
}

// listRuns answers a runs message.
func (w *worker) listRuns(m protocol.Message) {
	runs, err := storedRuns()
	if err != nil {
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: "cannot list the stored runs: " + err.Error()})
		return
	}
	w.post(protocol.Message{Type: protocol.TypeRuns, ID: m.ID, Runs: runs})
}

// deleteRun deletes stored run m.Store, unless a Worker runs it, and
// answers with the runs left.
func (w *worker) deleteRun(m protocol.Message) {
	stores, err := listStores(ckptPrefix)
	for _, st := range stores {
		if st.Name != m.Store {
			continue
		}
		if st.Held {
			err = errors.New("it is running")
			break
		}
		var fs storagefs.FS
		if fs, err = openKind(st.Name, st.Kind); err == nil {
			storagefs.RemoveAll(fs, "")
			fs.Close()
		}
		if e := deleteStore(st.Name, st.Kind); err == nil {
			err = e
		}
	}
	if err != nil {
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: "cannot delete the stored run: " + err.Error()})
		return
	}
	w.listRuns(m)
}
