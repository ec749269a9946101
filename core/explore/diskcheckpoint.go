package explore

// This file makes disk-based searches durable: at each table check that
// falls between two expansions, the run's files are completed (the parts
// still in memory are copied to segments), flushed, and described by a
// manifest; a run killed at any point resumes from the newest complete
// manifest and ends with the counts of an uninterrupted run.
//
// Segments are write-once, so a manifest never changes: checkpoint g is
// the segment manifest-g, its JSON followed by its SHA-256, and a torn
// write (the process killed in the middle) fails the checksum and falls
// back to checkpoint g-1. Only once manifest g is durable are the segments
// of g-1 that g no longer needs deleted, and the queue segments g needs
// stay on disk (pinned) when the search reads them, until g+1 replaces g.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/locus-mc/locus/core/compile"
	"github.com/locus-mc/locus/core/job"
	"github.com/locus-mc/locus/core/queue"
	"github.com/locus-mc/locus/core/sigfile"
	"github.com/locus-mc/locus/core/trail"
	"github.com/locus-mc/locus/storagefs"
)

const (
	manifestPrefix  = "manifest-"
	manifestVersion = 1
)

// enginePrefixes are the segment names a disk search owns; whatever else
// the store holds (the front end's record of the model) it leaves alone.
var enginePrefixes = []string{"D-", "R-", "unck-", frontierPrefix, "trail-", "ck", manifestPrefix}

// ErrNoCheckpoint is what resuming a store without a manifest reports.
var ErrNoCheckpoint = errors.New("no checkpoint")

// diskManifest is one checkpoint.
type diskManifest struct {
	Version    int            `json:"version"`
	Tag        string         `json:"tag"`
	Engine     string         `json:"engine"`
	Gen        int64          `json:"gen"`
	AtLevelEnd bool           `json:"at_level_end"`
	Elapsed    float64        `json:"elapsed"` // seconds of search so far, every session
	Resumed    int            `json:"resumed"`
	Search     searchState    `json:"search"`
	Disk       diskState      `json:"disk"`
	Trail      trail.State    `json:"trail"`
	Front      queue.Snapshot `json:"front"`
	Refs       []string       `json:"refs"` // every segment the checkpoint needs
}

// searchState is the searcher's part of a checkpoint.
type searchState struct {
	Level             int          `json:"level"`
	LevelLeft         int64        `json:"level_left"`
	NextLevel         int64        `json:"next_level"`
	Expanded          int64        `json:"expanded"`
	RulesFired        int64        `json:"rules_fired"`
	LevelSizes        []int64      `json:"level_sizes"`
	Depth             int          `json:"depth"`
	Reason            string       `json:"reason,omitempty"`
	Notes             []string     `json:"notes,omitempty"`
	Phases            []string     `json:"phases,omitempty"`
	Covers            []int64      `json:"covers,omitempty"`
	CoverHits         []int64      `json:"cover_hits,omitempty"`
	Violations        []*Violation `json:"violations,omitempty"`
	SymmetryOffReason string       `json:"symmetry_off_reason,omitempty"`
}

// diskState is the disk search's part of a checkpoint.
type diskState struct {
	All          bool              `json:"all"`
	SigBits      int               `json:"sig_bits"`
	IDBytes      int               `json:"id_bytes"`
	D            sigfile.State     `json:"d"`
	R            *sigfile.State    `json:"r,omitempty"`
	RBase        int64             `json:"r_base"`
	RSkip        int64             `json:"r_skip"`
	RRules       int64             `json:"r_rules"`
	RuleBytes    int               `json:"rule_bytes"`
	LevelDepth   int               `json:"level_depth"`
	LevelStart   []int64           `json:"level_start"`
	Cloud        float64           `json:"cloud"`
	InitCloud    float64           `json:"init_cloud"`
	Window       int               `json:"window"`
	Hot          []int             `json:"hot,omitempty"`
	Yield        map[int]float64   `json:"yield,omitempty"`
	Gamma        int64             `json:"gamma"`
	Checks       int64             `json:"checks"`
	Calibrations int64             `json:"calibrations"`
	HighRuns     int               `json:"high_runs"`
	LastRead     int               `json:"last_read"`
	DRead        int64             `json:"d_read"`
	History      []job.CloudSample `json:"history,omitempty"`
	HistoryEvery int64             `json:"history_every"`
	Tests        float64           `json:"tests"`
	Candidates   int64             `json:"candidates"`
	IOWritten    int64             `json:"io_written"` // bytes written and read in every session
	IORead       int64             `json:"io_read"`
	// PriorBound is the omission bound of the signature table that
	// seeded D (auto).
	PriorBound float64 `json:"prior_bound,omitempty"`
}

// liveCheckpointRefusal refuses to checkpoint a model with liveness
// properties, naming the first: their graph of transitions is kept in
// memory, and a checkpoint would have to hold it too.
func liveCheckpointRefusal(m *compile.Model) error {
	if len(m.Liveness) == 0 {
		return nil
	}
	p := m.Liveness[0]
	return fmt.Errorf("%s: liveness property %q: a run checking liveness properties cannot be checkpointed "+
		"(their graph of transitions is kept in memory, not on disk); run without --checkpoint", m.Position(p.Pos), p.Name)
}

// diskCheckpointer writes a disk search's checkpoints.
type diskCheckpointer struct {
	fs            storagefs.FS
	tag, engine   string
	gen           int64
	refs          map[string]bool // the segments of the newest manifest
	skipLevelDone bool            // resumed at a level's end: that check is done
	before        time.Duration   // search time of earlier sessions
	resumed       int
	ioWritten     int64 // I/O of earlier sessions
	ioRead        int64
	written       int64 // checkpoints written in this session
}

func newDiskCheckpointer(l *diskBFS) (*diskCheckpointer, error) {
	s := l.s
	if err := liveCheckpointRefusal(s.m); err != nil {
		return nil, err
	}
	fc, ok := s.front.(queue.Checkpointer)
	if !ok {
		return nil, errors.New("a checkpoint needs the search queue on disk")
	}
	if segs, err := l.fs.ListSegments(manifestPrefix); err != nil {
		return nil, err
	} else if len(segs) > 0 {
		return nil, errors.New("the checkpoint storage already holds a run: resume it, or give an empty one")
	}
	c := &diskCheckpointer{fs: l.fs, tag: s.opts.RunTag, engine: s.opts.Algorithm, refs: map[string]bool{}}
	if c.engine == "" {
		c.engine = DefaultAlgorithm
	}
	// The checkpoint decides what stays on disk when the run ends.
	fc.KeepSegments()
	s.trail.KeepSegments()
	l.d.KeepSegments()
	if l.r != nil {
		l.r.KeepSegments()
	}
	return c, nil
}

// save writes checkpoint gen+1 of l, which has just checked (M and Q_unck
// are empty) and is between two expansions.
func (c *diskCheckpointer) save(l *diskBFS) error {
	s := l.s
	if l.unck.Len() != 0 {
		return fmt.Errorf("checkpoint: %d candidates left unchecked", l.unck.Len())
	}
	gen := c.gen + 1
	pref := fmt.Sprintf("ck%012d-", gen)
	man := diskManifest{Version: manifestVersion, Tag: c.tag, Engine: c.engine, Gen: gen,
		AtLevelEnd: s.levelLeft == 0, Resumed: c.resumed}
	man.Elapsed = (c.before + time.Since(s.started)).Seconds()
	var err error
	if man.Disk.D, err = l.d.Checkpoint(pref + "D"); err != nil {
		return err
	}
	refs := man.Disk.D.Segments("D-")
	if l.r != nil {
		rs, err := l.r.Checkpoint(pref + "R")
		if err != nil {
			return err
		}
		man.Disk.R = &rs
		refs = append(refs, rs.Segments("R-")...)
	}
	if man.Trail, err = s.trail.Checkpoint(pref + "trail"); err != nil {
		return err
	}
	refs = append(refs, man.Trail.Names()...)
	fc := s.front.(queue.Checkpointer)
	if man.Front, err = fc.Checkpoint(pref + "q-"); err != nil {
		return err
	}
	refs = append(refs, man.Front.Names()...)
	man.Refs = refs
	man.Search = searchState{Level: s.level, LevelLeft: s.levelLeft, NextLevel: s.nextLevel, Expanded: s.expanded,
		RulesFired: s.res.RulesFired, LevelSizes: s.res.LevelSizes, Depth: s.res.Depth, Reason: s.res.Reason,
		Notes: s.res.Notes, Phases: s.res.Phases, Covers: s.props.covers, CoverHits: s.mc.CoverHits,
		Violations: s.res.Violations, SymmetryOffReason: s.res.SymmetryOffReason}
	io := l.fs.Stats()
	man.Disk = diskState{All: l.all, SigBits: l.m.SigBits(), IDBytes: l.idBytes, D: man.Disk.D, R: man.Disk.R,
		RBase: l.rBase, RSkip: l.rSkip, RRules: l.rRules, RuleBytes: l.ruleBytes,
		LevelDepth: l.levelDepth, LevelStart: l.levelStart, Cloud: l.cloud, InitCloud: l.initCloud, Window: l.window, Hot: l.hot, Yield: l.yield, Gamma: l.gamma,
		Checks: l.checks, Calibrations: l.calibrations, HighRuns: l.highRuns, LastRead: l.lastRead, DRead: l.dRead,
		History: l.history, HistoryEvery: l.historyEvery, Tests: l.m.Tests(), Candidates: l.candidatesBefore + l.m.Stats().Inserted,
		IOWritten: c.ioWritten + io.BytesWritten - l.ioBase.BytesWritten, IORead: c.ioRead + io.BytesRead - l.ioBase.BytesRead,
		PriorBound: l.priorBound}
	body, err := json.Marshal(man)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	sum := sha256.Sum256(body)
	body = append(body, '\n')
	body = append(body, hex.EncodeToString(sum[:])...)
	// Everything the manifest names must be durable before it is.
	if err := c.fs.Sync(); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	name := manifestName(gen)
	if err := c.fs.WriteSegment(name, body); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := c.fs.Sync(); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	// Checkpoint gen is complete: retire gen-1.
	next := make(map[string]bool, len(refs))
	for _, r := range refs {
		next[r] = true
	}
	for r := range c.refs {
		if !next[r] {
			removeQuietly(c.fs, r)
		}
	}
	if c.gen > 0 {
		removeQuietly(c.fs, manifestName(c.gen))
	}
	fc.Pin(man.Front.Names())
	c.refs, c.gen = next, gen
	c.written++
	return nil
}

func manifestName(gen int64) string { return fmt.Sprintf("%s%016x", manifestPrefix, gen) }

// removeQuietly deletes a segment that may already be gone.
func removeQuietly(fs storagefs.FS, name string) {
	if err := fs.RemoveSegment(name); err != nil && !errors.Is(err, storagefs.ErrNotExist) {
		// A segment left behind is swept at the next resume or run.
		return
	}
}

// finish settles the checkpoint when the run ends: a run that completed
// (pass, fail, or stopped by its bound) needs it no more, and its files go;
// an interrupted one keeps the newest checkpoint to resume from, and what
// was written after it goes.
func (c *diskCheckpointer) finish(r *Result) {
	info := &job.CheckpointInfo{Resumed: c.resumed, Checks: c.written}
	r.Checkpoint = info
	interrupted := r.Verdict == Error || (r.Verdict == Incomplete && !strings.HasPrefix(r.Reason, "bound "))
	if interrupted && c.gen > 0 {
		info.Resumable = true
		sweep(c.fs, c.refs, manifestName(c.gen))
		return
	}
	sweep(c.fs, nil, "")
}

// sweep deletes the engine's segments that keep does not hold, but the
// manifest named manifest.
func sweep(fs storagefs.FS, keep map[string]bool, manifest string) {
	for _, p := range enginePrefixes {
		segs, err := fs.ListSegments(p)
		if err != nil {
			continue
		}
		for _, sg := range segs {
			if keep[sg.Name] || sg.Name == manifest {
				continue
			}
			removeQuietly(fs, sg.Name)
		}
	}
}

// progress adds the checkpoint's figures to a sample of a resumed run.
func (c *diskCheckpointer) progress(p *job.Progress) {
	p.Seconds += c.before.Seconds()
	p.BytesWritten += c.ioWritten
	p.BytesRead += c.ioRead
}

// readManifest returns the newest complete manifest in fs.
func readManifest(fs storagefs.FS) (*diskManifest, string, error) {
	segs, err := fs.ListSegments(manifestPrefix)
	if err != nil {
		return nil, "", err
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].Name > segs[j].Name })
	var firstErr error
	for _, sg := range segs {
		data, err := fs.ReadSegment(sg.Name, nil)
		if err != nil {
			firstErr = cmpErr(firstErr, err)
			continue
		}
		m, err := parseManifest(data)
		if err != nil {
			firstErr = cmpErr(firstErr, fmt.Errorf("%s: %w", sg.Name, err))
			continue
		}
		return m, sg.Name, nil
	}
	if firstErr != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrNoCheckpoint, firstErr)
	}
	return nil, "", ErrNoCheckpoint
}

func cmpErr(first, err error) error {
	if first == nil {
		return err
	}
	return first
}

func parseManifest(data []byte) (*diskManifest, error) {
	i := strings.LastIndexByte(string(data), '\n')
	if i < 0 {
		return nil, errors.New("torn manifest (no checksum)")
	}
	body, sum := data[:i], string(data[i+1:])
	want := sha256.Sum256(body)
	if sum != hex.EncodeToString(want[:]) {
		return nil, errors.New("torn manifest (checksum mismatch)")
	}
	var m diskManifest
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	if m.Version != manifestVersion {
		return nil, fmt.Errorf("manifest version %d, this Locus reads %d", m.Version, manifestVersion)
	}
	return &m, nil
}

// CheckpointState describes the newest checkpoint in fs, for a front end
// listing resumable runs.
func CheckpointState(fs storagefs.FS) (tag string, elapsed float64, states int64, err error) {
	m, _, err := readManifest(fs)
	if err != nil {
		return "", 0, 0, err
	}
	return m.Tag, m.Elapsed, m.Disk.D.N, nil
}

// resumeDisk continues the disk search of fs's newest checkpoint; without
// one it starts the run afresh (the run was interrupted before its first
// check).
func resumeDisk(ctx context.Context, m *compile.Model, opts Options, all bool) *Result {
	man, manName, err := readManifest(opts.FS)
	if errors.Is(err, ErrNoCheckpoint) {
		sweep(opts.FS, nil, "")
		// The new start is checkpointed as the first was.
		opts.Resume, opts.Checkpoint = false, true
		r := lookup(opts.Algorithm).run(ctx, m, opts)
		r.Notes = append(r.Notes, "no checkpoint had been written yet: the run started over")
		return r
	}
	if err != nil {
		return &Result{Verdict: Error, Reason: "resume: " + err.Error()}
	}
	if opts.RunTag != "" && man.Tag != opts.RunTag {
		return &Result{Verdict: Error, Reason: "resume: the checkpoint belongs to another model or other options"}
	}
	if man.Disk.All != all && man.Engine != "auto" {
		return &Result{Verdict: Error, Reason: fmt.Sprintf("resume: the checkpoint is of a %s run", man.Engine)}
	}
	keep := map[string]bool{}
	for _, r := range man.Refs {
		keep[r] = true
	}
	sweep(opts.FS, keep, manName)
	s, failed := newSearcher(ctx, m, opts, false)
	if failed != nil {
		return failed
	}
	r, err := restoreDisk(s, man, keep)
	if err != nil {
		if s.trail != nil {
			s.trail.Close()
		}
		if s.front != nil {
			s.front.Close()
		}
		return s.fail(fmt.Errorf("resume: %w", err))
	}
	return r.run()
}

// restoreDisk rebuilds the searcher and the disk search of a checkpoint.
func restoreDisk(s *searcher, man *diskManifest, refs map[string]bool) (*diskBFS, error) {
	var err error
	if s.trail, err = trail.Restore(s.b, s.opts.FS, "trail-", man.Trail); err != nil {
		return nil, err
	}
	if s.front, err = restoreFrontier(s.recSize(), s.b, s.opts, man.Front); err != nil {
		return nil, err
	}
	ss := man.Search
	s.level, s.levelLeft, s.nextLevel, s.expanded = ss.Level, ss.LevelLeft, ss.NextLevel, ss.Expanded
	s.res.RulesFired, s.res.LevelSizes, s.res.Depth, s.res.Reason = ss.RulesFired, ss.LevelSizes, ss.Depth, ss.Reason
	s.res.Notes, s.res.Phases, s.res.Violations = ss.Notes, ss.Phases, ss.Violations
	s.res.SymmetryOffReason = ss.SymmetryOffReason
	if len(ss.Covers) == len(s.props.covers) {
		copy(s.props.covers, ss.Covers)
	}
	if len(ss.CoverHits) == len(s.mc.CoverHits) {
		copy(s.mc.CoverHits, ss.CoverHits)
	}
	s.resumed = true
	ds := man.Disk
	l := &diskBFS{s: s, fs: s.opts.FS, all: ds.All, name: engineName(ds.All), historyEvery: ds.HistoryEvery}
	if l.historyEvery < 1 {
		l.historyEvery = 1
	}
	l.ioBase = l.fs.Stats()
	l.idBytes = ds.IDBytes
	if l.d, err = sigfile.Restore(l.fs, s.b, "D-", ds.D); err != nil {
		return nil, err
	}
	keyLen := ds.D.Entry - ds.IDBytes
	if err := l.d.IndexTail(keyLen, keyHash(ds.SigBits)); err != nil {
		l.close()
		return nil, err
	}
	if ds.R != nil {
		if l.r, err = sigfile.Restore(l.fs, s.b, "R-", *ds.R); err != nil {
			l.close()
			return nil, err
		}
	}
	if err := l.openMemory(ds.SigBits); err != nil {
		l.close()
		return nil, err
	}
	l.m.AddTests(ds.Tests)
	l.candidatesBefore = ds.Candidates
	l.entry = make([]byte, max(ds.D.Entry, 8))
	l.slots = make([]int64, s.m.NumSlots)
	l.rBase, l.rSkip, l.rRules, l.ruleBytes = ds.RBase, ds.RSkip, ds.RRules, ds.RuleBytes
	l.levelDepth, l.levelStart = ds.LevelDepth, ds.LevelStart
	l.cloud, l.initCloud, l.window, l.hot, l.yield, l.gamma = ds.Cloud, ds.InitCloud, ds.Window, ds.Hot, ds.Yield, ds.Gamma
	l.checks, l.calibrations, l.highRuns, l.lastRead, l.dRead = ds.Checks, ds.Calibrations, ds.HighRuns, ds.LastRead, ds.DRead
	l.history = ds.History
	l.priorBound = ds.PriorBound
	c := &diskCheckpointer{fs: l.fs, tag: man.Tag, engine: man.Engine, gen: man.Gen, refs: refs,
		skipLevelDone: man.AtLevelEnd, before: time.Duration(man.Elapsed * float64(time.Second)),
		resumed: man.Resumed + 1, ioWritten: ds.IOWritten, ioRead: ds.IORead}
	l.ck = c
	s.front.(queue.Checkpointer).KeepSegments()
	s.trail.KeepSegments()
	l.d.KeepSegments()
	if l.r != nil {
		l.r.KeepSegments()
	}
	return l, nil
}
