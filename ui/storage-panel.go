package ui

import "github.com/locus-mc/locus/wasm/protocol"

// StoragePanel shows the browser storage: used, quota, persisted, and the
// checkpointed runs kept there, to resume or delete.
type StoragePanel struct {
	App *App
}

// Usage is the origin's usage and quota.
func (c *StoragePanel) Usage() string {
	st := c.App.Storage
	if !st.Known {
		return "usage unknown"
	}
	return byteSize(st.Used) + " used of " + byteSize(st.Quota)
}

// PersistNote says whether the browser may evict the site's storage.
func (c *StoragePanel) PersistNote() string {
	if c.App.Storage.Persisted {
		return "Persistent: the browser keeps this site's data under storage pressure."
	}
	return "Not persistent: under storage pressure the browser may delete stored runs."
}

// Name is a stored run's model file name.
func (c *StoragePanel) Name(r protocol.StoredRun) string {
	if r.Filename == "" {
		return r.Store
	}
	return r.Filename
}

// Summary describes a stored run.
func (c *StoragePanel) Summary(r protocol.StoredRun) string { return storedSummary(r) }

// CannotResume: the run is going on, its records are unreadable, or a
// check is running on the page.
func (c *StoragePanel) CannotResume(r protocol.StoredRun) bool {
	return r.Running || r.Source == "" || c.App.Running()
}
