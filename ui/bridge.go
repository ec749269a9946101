// This file is the UI's bridge to the JavaScript side of the page: the
// CodeMirror editor and uPlot charts bundled in public/dist/app.js (as
// window.locus), the engine Workers, and a few browser APIs. It uses vugu's
// js package, which is syscall/js in the browser and inert elsewhere, so the
// UI builds and tests natively.

package ui

import (
	"encoding/json"
	"errors"

	"github.com/vugu/vugu/js"

	"github.com/locus-mc/locus/wasm/protocol"
)

func locus(part string) js.Value { return js.Global().Get("locus").Get(part) }

func editorCreate(text string, idle js.Func) { locus("editor").Call("create", text, idle) }
func editorAttach(host js.Value)             { locus("editor").Call("attach", host) }
func editorText() string                     { return locus("editor").Call("getText").String() }
func editorSetText(text string)              { locus("editor").Call("setText", text) }
func editorGoTo(line, col int)               { locus("editor").Call("goTo", line, col) }
func editorMark(line int, kind string)       { locus("editor").Call("mark", line, kind) }
func editorTakeReplaced() bool               { return locus("editor").Call("takeReplaced").Bool() }

func editorSetDiagnostics(ds []protocol.Diagnostic) {
	b, _ := json.Marshal(ds)
	locus("editor").Call("setDiagnostics", string(b))
}

func chartsAttach(which string, host js.Value) { locus("charts").Call("attach", which, host) }
func chartsReset()                             { locus("charts").Call("reset") }
func chartsPush(p *protocol.Progress) {
	locus("charts").Call("push", p.Seconds, float64(p.States), float64(p.QueueMemory+p.QueueDisk))
}

// chartsPoints adds one sample's points to the memory, disk, cloud and
// collision charts.
func chartsPoints(p chartPoints) {
	if p == (chartPoints{}) {
		return
	}
	b, _ := json.Marshal(p)
	locus("charts").Call("points", string(b))
}

// chartsSetCloud replaces the disk cloud chart's points.
func chartsSetCloud(checks []cloudPoint) {
	b, _ := json.Marshal(checks)
	locus("charts").Call("setCloud", string(b))
}

// The state views and the traces they show (web/src/stateview.js,
// tracestore.js); key is "run", "sim" or "graph".
func stateviewAttach(key string, host js.Value) { locus("stateview").Call("attach", key, host) }
func stateviewShow(key string, step int)        { locus("stateview").Call("show", key, step) }
func stateviewFilter(key, query string, onlyChanged bool) {
	locus("stateview").Call("filter", key, query, onlyChanged)
}
func traceCut(key string, n int) { locus("traces").Call("cut", key, n) }
func traceDrop(key string)       { locus("traces").Call("drop", key) }

// traceSteps lists the rule and position of each step of trace key.
func traceSteps(key string) []StepInfo {
	var out []StepInfo
	json.Unmarshal([]byte(locus("traces").Call("steps", key).String()), &out)
	return out
}

// StepInfo names one step of a trace.
type StepInfo struct {
	Rule string `json:"rule"`
	Pos  string `json:"pos"`
}

// exportBlob is an export file ("text" or "json") that came with trace key,
// or null.
func exportBlob(key, which string) js.Value {
	ex := locus("engine").Call("exports", key)
	if ex.IsNull() || ex.IsUndefined() {
		return js.Null()
	}
	return ex.Get(which)
}

func downloadBlob(name string, blob js.Value) { locus("files").Call("downloadBlob", name, blob) }
func downloadText(name, text string)          { locus("files").Call("download", name, text) }
func copyBlob(blob js.Value) bool {
	v, err := await(locus("files").Call("copyBlob", blob))
	return err == nil && v.Truthy()
}

// The state graph view (web/src/graph.js).
func graphAttach(host js.Value, onSelect js.Func) { locus("graph").Call("attach", host, onSelect) }
func graphShow(node int)                          { locus("graph").Call("show", node) }
func graphHighlight(path []int) {
	b, _ := json.Marshal(path)
	locus("graph").Call("highlight", string(b))
}

// graphDraw lays out the graph that answered request id; it returns "" or
// why it could not.
func graphDraw(id int64) string {
	v, err := await(locus("graph").Call("draw", id))
	if err != nil {
		return err.Error()
	}
	return v.String()
}
func chartsSetLevels(sizes []int64) {
	b, _ := json.Marshal(sizes)
	locus("charts").Call("setLevels", string(b))
}

// await blocks the calling goroutine (never a JS callback) until promise
// settles.
func await(promise js.Value) (js.Value, error) {
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	then := js.FuncOf(func(this js.Value, args []js.Value) any {
		ch <- settled{v: args[0]}
		return nil
	})
	catch := js.FuncOf(func(this js.Value, args []js.Value) any {
		ch <- settled{err: errors.New(args[0].Call("toString").String())}
		return nil
	})
	promise.Call("then", then, catch)
	s := <-ch
	then.Release()
	catch.Release()
	return s.v, s.err
}

// fetchText fetches a file of the site as text.
func fetchText(url string) (string, error) {
	v, err := await(locus("util").Call("fetchText", url))
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// copyText puts text on the clipboard, reporting whether the browser let it.
func copyText(text string) bool {
	v, err := await(locus("util").Call("copyText", text))
	return err == nil && v.Truthy()
}

// browserCores is the number of logical cores the browser reports
// (navigator.hardwareConcurrency) and whether the page is cross-origin
// isolated, so that the parallel search's Workers share memory; 1 and
// false outside a browser.
func browserCores() (int, bool) {
	n := 1
	if c := js.Global().Get("navigator").Get("hardwareConcurrency"); c.Type() == js.TypeNumber && c.Int() > 1 {
		n = c.Int()
	}
	return n, js.Global().Get("crossOriginIsolated").Truthy()
}

func locationHash() string { return js.Global().Get("location").Get("hash").String() }

// pageURL is the app's address without a fragment: its root, also on a
// short link's /s/{id} page (see appRoot).
func pageURL() string { return appRoot() }

// setHash replaces the fragment without a new history entry or hashchange.
func setHash(fragment string) {
	url := pageURL()
	if fragment != "" {
		url += "#" + fragment
	}
	js.Global().Get("history").Call("replaceState", js.Null(), "", url)
}

// worker is the page's handle on one engine Web Worker (public/worker.js).
// Messages may be posted at once: worker.js keeps them until the engine has
// loaded.
type worker struct {
	w         js.Value
	onMessage js.Func
	onError   js.Func
}

// newWorker starts a Worker (with the engine the page compiled once, see
// web/src/engine.js); deliver is called, from a JavaScript callback, with
// each message it sends and must not block. Messages that carry typed
// arrays or Blobs are unpacked by the JavaScript side, which keeps the
// bulk and hands over their JSON summary.
func newWorker(deliver func(*worker, protocol.Message)) *worker {
	wk := &worker{w: locus("engine").Call("spawn")}
	wk.onMessage = js.FuncOf(func(this js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if data.Type() != js.TypeString {
			data = locus("engine").Call("accept", data)
		}
		m, err := protocol.Decode(data.String())
		if err != nil {
			m = protocol.Message{Type: protocol.TypeError, Message: "unreadable message from the engine: " + err.Error()}
		}
		deliver(wk, m)
		return nil
	})
	wk.onError = js.FuncOf(func(this js.Value, args []js.Value) any {
		msg := "the engine worker failed"
		if m := args[0].Get("message"); m.Type() == js.TypeString {
			msg += ": " + m.String()
		}
		deliver(wk, protocol.Message{Type: protocol.TypeError, Message: msg})
		return nil
	})
	wk.w.Set("onmessage", wk.onMessage)
	wk.w.Set("onerror", wk.onError)
	return wk
}

func (wk *worker) post(m protocol.Message) error {
	s, err := protocol.Encode(m)
	if err != nil {
		return err
	}
	wk.w.Call("postMessage", s)
	return nil
}

// terminate stops the Worker at once, whatever it is doing.
func (wk *worker) terminate() {
	wk.w.Call("terminate")
	wk.w.Set("onmessage", js.Null())
	wk.w.Set("onerror", js.Null())
	wk.onMessage.Release()
	wk.onError.Release()
}
