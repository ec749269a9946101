// This file keeps the page's view of browser storage: the checkpointed runs
// a closed or reloaded tab left behind (listed, resumed, deleted through a
// short-lived engine Worker, so that no Worker of the page keeps their
// IndexedDB databases open), and the origin's usage, quota and persistence.

package ui

import (
	"encoding/json"
	"time"

	"github.com/locus-mc/locus/wasm/protocol"
)

// StorageState is what the storage panel shows.
type StorageState struct {
	Known     bool  // the browser reports usage and quota
	Used      int64 `json:"usage"`
	Quota     int64 `json:"quota"`
	Persisted bool  `json:"persisted"`
	// Runs are the checkpointed runs kept in storage; Listed is false until
	// the first listing arrived.
	Runs   []protocol.StoredRun
	Listed bool
	Error  string

	worker *worker // lists or deletes, then ends
}

// refreshStorage lists the stored runs and reads the origin's usage.
func (a *App) refreshStorage() {
	a.storageRequest(protocol.Message{Type: protocol.TypeRuns})
}

func (a *App) storageRequest(m protocol.Message) {
	st := &a.Storage
	if st.worker != nil {
		st.worker.terminate()
	}
	a.nextID++
	m.ID = a.nextID
	st.worker = newWorker(a.deliver)
	st.worker.post(m)
	go a.readEstimate()
}

// readEstimate asks the browser for the origin's usage, quota and
// persistence.
func (a *App) readEstimate() {
	v, err := await(locus("util").Call("storageEstimate"))
	var est StorageState
	if err == nil {
		err = json.Unmarshal([]byte(v.String()), &est)
	}
	a.post(func() bool {
		st := &a.Storage
		st.Known = err == nil && est.Quota > 0
		st.Used, st.Quota, st.Persisted = est.Used, est.Quota, est.Persisted
		return true
	})
}

// receiveStorage handles the storage Worker's answer.
func (a *App) receiveStorage(m protocol.Message) bool {
	st := &a.Storage
	switch m.Type {
	case protocol.TypeRuns:
		st.Runs, st.Listed, st.Error = m.Runs, true, ""
		// A closed tab's Worker lets go of its run's lock a moment after
		// the tab is gone: look again until no run is held but this
		// page's own.
		for _, r := range st.Runs {
			if r.Running && !a.Running() {
				go func() {
					time.Sleep(2 * time.Second)
					a.post(func() bool {
						if a.Storage.worker == nil {
							a.refreshStorage()
						}
						return false
					})
				}()
				break
			}
		}
	case protocol.TypeError:
		st.Error = m.Message
		st.Listed = true
	default:
		return false
	}
	st.worker.terminate()
	st.worker = nil
	return true
}

// RequestPersist asks the browser to keep this site's storage under
// pressure (it may ask the user, or decide by itself).
func (a *App) RequestPersist() {
	go func() {
		await(locus("util").Call("persist"))
		a.readEstimate()
	}()
}

// DeleteStoredRun is a stored run's Delete button.
func (a *App) DeleteStoredRun(store string) {
	a.storageRequest(protocol.Message{Type: protocol.TypeDeleteRun, Store: store})
}

// StoredRun returns stored run store, nil if it is not listed.
func (a *App) StoredRun(store string) *protocol.StoredRun {
	for i := range a.Storage.Runs {
		if a.Storage.Runs[i].Store == store {
			return &a.Storage.Runs[i]
		}
	}
	return nil
}

// storedKind is the kind of storage stored run store is in ("" if none).
func (a *App) storedKind(store string) string {
	if r := a.StoredRun(store); r != nil && store != "" {
		return r.Kind
	}
	return ""
}

// ResumeRun is a stored run's Resume button: it puts the run's model and
// options back on the page and continues the run from its newest
// checkpoint.
func (a *App) ResumeRun(store string) {
	r := a.StoredRun(store)
	if r == nil || r.Running || a.Running() {
		return
	}
	saved := *r
	a.setModel(saved.Filename, saved.Source)
	o := saved.Options
	a.Algorithm, a.Symmetry, a.Deadlock = o.Algorithm, o.Symmetry, o.Deadlock
	a.MemoryMB = int(o.MemoryBytes / protocol.MiB)
	a.HashBits, a.Locality, a.Seed = o.HashCompaction, o.Locality, o.Seed
	a.Params = nil
	for k, v := range o.Params {
		if a.Params == nil {
			a.Params = map[string]float64{}
		}
		a.Params[k] = v
	}
	// The run is going on again: list it as such.
	r.Running = true
	a.startCheck(o, saved.Source, store)
}

// storedSummary describes a stored run in a line.
func storedSummary(r protocol.StoredRun) string {
	if r.Running {
		return "running now (in this tab or another)"
	}
	s := r.Options.Algorithm
	if r.Started != "" {
		if t, err := time.Parse(time.RFC3339, r.Started); err == nil {
			s += ", started " + t.Local().Format("2006-01-02 15:04")
		}
	}
	if r.Resumable {
		s += "; checkpoint after " + seconds(r.Elapsed) + " of search, " + count(r.States) + " states on disk"
	} else {
		s += "; no checkpoint yet (resuming starts it over)"
	}
	return s + "; " + byteSize(r.Bytes)
}
