// Package protocol defines the messages between the Locus page and its
// engine Web Workers.
//
// Every message is one JSON object, sent with postMessage as a string, with a
// "type" field that says which of the fields below it carries. The page sends:
//
//	{"type":"check",    "id":N, "filename":"f.m", "source":"...", "options":{...}}
//	{"type":"diagnose", "id":N, "filename":"f.m", "source":"..."}
//	{"type":"check", ..., "store":"locus-ckpt-..."}  resume a checkpointed run (its model and options)
//	{"type":"runs"}                                   list the checkpointed runs in browser storage
//	{"type":"delete-run", "store":"locus-ckpt-..."}   delete one (answered by runs)
//
// and a worker answers with:
//
//	{"type":"ready", "storage":"opfs"|"indexeddb"|"", "engines":[...]}
//	                                                   once, when the engine has loaded
//	{"type":"diagnostics", "id":N, "diagnostics":[...]} the front end's messages for a diagnose
//	{"type":"progress", "id":N, "progress":{...}}      about ten times a second during a check
//	{"type":"result", "id":N, "result":{...}}          once, at the end of a check
//	{"type":"runs", "runs":[...]}                      the checkpointed runs, see StoredRun
//	{"type":"error", "id":N, "message":"..."}        the worker could not produce a result;
//	                                                   without an id: the Worker itself failed
//
// The page never cancels a check by message: it terminates the Worker, which
// really stops the engine, and starts a fresh one. A check therefore always
// runs in a Worker of its own, and as-you-type diagnostics run in a second,
// long-lived Worker so that parsing never waits behind a check.
//
// The options, result, progress and diagnostic types are core/run's, which
// the page may import without linking the engine; the engine descriptions
// in the ready message come from the engine registry, so the page offers
// exactly the engines (and parameters) the Worker runs.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Message types.
const (
	TypeCheck       = "check"       // page -> worker: run a check
	TypeDiagnose    = "diagnose"    // page -> worker: run only the front end
	TypeReady       = "ready"       // worker -> page: the engine is loaded
	TypeDiagnostics = "diagnostics" // worker -> page: answer to diagnose
	TypeProgress    = "progress"    // worker -> page: one progress sample
	TypeResult      = "result"      // worker -> page: the outcome of a check
	TypeError       = "error"       // worker -> page: no result could be produced
	TypeSimulate    = "simulate"    // page -> worker: follow a simulation path
	TypeSim         = "sim"         // worker -> page: the simulation's state
	TypeGraph       = "graph"       // page -> worker: draw the state graph; worker -> page: its summary
	TypeGraphPath   = "graph-path"  // page -> worker: the states on the way to a graph node
	TypeTrace       = "trace"       // worker -> page: a sequence of states (see TraceSummary)
	// TypePart: an engine Worker -> a helper Worker it started: serve part
	// Part of the parallel check (Options.Workers parts); the parts then
	// speak the binary protocol of core/explore's ServePart.
	TypePart = "part"
	// TypeRuns asks (page -> worker) for the checkpointed runs kept in
	// browser storage and answers with them (worker -> page).
	TypeRuns      = "runs"
	TypeDeleteRun = "delete-run" // page -> worker: delete stored run Store; answered by runs
)

// Storage kinds a worker reports in its ready message.
const (
	StorageOPFS      = "opfs"
	StorageIndexedDB = "indexeddb"
	StorageNone      = "" // no browser storage: the queue never spills to disk
)

// Message is the envelope of every message in either direction. Which fields
// are set depends on Type; see the package documentation.
type Message struct {
	Type        string       `json:"type"`
	ID          int64        `json:"id,omitempty"`
	Filename    string       `json:"filename,omitempty"`
	Source      string       `json:"source,omitempty"`
	Options     *Options     `json:"options,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	Progress    *Progress    `json:"progress,omitempty"`
	Result      *Result      `json:"result,omitempty"`
	Message     string       `json:"message,omitempty"`
	Storage     string       `json:"storage,omitempty"`

	// Simulation requests: the path to follow (a start state number, then
	// rule instance numbers), and whether to add one random step to it.
	Path   []int `json:"path,omitempty"`
	Random bool  `json:"random,omitempty"`
	// Have is how many states of Path the page already holds (so the
	// worker sends only the rest).
	Have int      `json:"have,omitempty"`
	Sim  *SimView `json:"sim,omitempty"`

	// Graph requests and answers.
	MaxStates int           `json:"max_states,omitempty"`
	Node      int           `json:"node,omitempty"`
	Graph     *GraphSummary `json:"graph,omitempty"`

	// Trace describes the states a trace message carries.
	Trace *TraceSummary `json:"trace,omitempty"`

	Engines []EngineInfo `json:"engines,omitempty"`
	Part    int          `json:"part,omitempty"`

	// Store names a checkpointed run's browser store: in a check message
	// it resumes that run (with its own model and options; Storage says
	// which kind of store it is), in a delete-run message it deletes it.
	Store string `json:"store,omitempty"`
	// Runs lists the checkpointed runs in browser storage.
	Runs []StoredRun `json:"runs,omitempty"`
}

// Encode returns m as the string posted to the other side.
func Encode(m Message) (string, error) {
	if err := m.validate(); err != nil {
		return "", err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// Decode parses one posted string and checks that it carries what its type
// requires.
func Decode(data string) (Message, error) {
	var m Message
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		return Message{}, fmt.Errorf("bad message: %w", err)
	}
	if err := m.validate(); err != nil {
		return Message{}, err
	}
	return m, nil
}

var errNoID = errors.New("message has no id")

func (m Message) validate() error {
	switch m.Type {
	case TypeCheck:
		if m.ID == 0 {
			return errNoID
		}
		if m.Options == nil {
			return errors.New("check message has no options")
		}
		return ValidateOptions(m.Options)
	case TypePart:
		if m.ID == 0 {
			return errNoID
		}
		if m.Options == nil || m.Part < 1 || m.Part >= m.Options.Workers {
			return fmt.Errorf("part message for part %d of a check that has no such part", m.Part)
		}
		return ValidateOptions(m.Options)
	case TypeDiagnose, TypeDiagnostics, TypeGraphPath:
		if m.ID == 0 {
			return errNoID
		}
	case TypeSimulate, TypeGraph:
		if m.ID == 0 {
			return errNoID
		}
		if m.Options != nil {
			return ValidateOptions(m.Options)
		}
	case TypeSim:
		if m.ID == 0 {
			return errNoID
		}
		if m.Sim == nil {
			return errors.New("sim message has no sim")
		}
	case TypeTrace:
		if m.ID == 0 {
			return errNoID
		}
		if m.Trace == nil {
			return errors.New("trace message has no trace")
		}
	case TypeError:
		// An error without an id comes from the Worker itself (the engine
		// failed to load or stopped); it concerns whatever that Worker was
		// doing.
	case TypeProgress:
		if m.ID == 0 {
			return errNoID
		}
		if m.Progress == nil {
			return errors.New("progress message has no progress")
		}
	case TypeResult:
		if m.ID == 0 {
			return errNoID
		}
		if m.Result == nil {
			return errors.New("result message has no result")
		}
	case TypeDeleteRun:
		if m.Store == "" {
			return errors.New("delete-run message names no store")
		}
	case TypeReady, TypeRuns:
	case "":
		return errors.New("message has no type")
	default:
		return fmt.Errorf("unknown message type %q", m.Type)
	}
	return nil
}
