//go:build js && wasm

// This file posts the messages that carry more than JSON: sequences of
// states as typed arrays (transferred, not copied) and export files as
// Blobs, next to a JSON summary that the page's Go code reads.

package main

import (
	"encoding/binary"
	"encoding/json"
	"syscall/js"

	"github.com/locus-mc/locus/wasm/protocol"
	"github.com/locus-mc/locus/wasm/tracedata"
)

// postPayload posts {summary: JSON of m, ...fields} with the given
// ArrayBuffers transferred.
func (w *worker) postPayload(m protocol.Message, fields map[string]js.Value, transfer []js.Value) {
	s, err := protocol.Encode(m)
	if err != nil {
		w.post(protocol.Message{Type: protocol.TypeError, ID: m.ID, Message: "cannot encode " + m.Type + ": " + err.Error()})
		return
	}
	obj := js.Global().Get("Object").New()
	obj.Set("summary", s)
	for k, v := range fields {
		obj.Set(k, v)
	}
	list := make([]any, len(transfer))
	for i, t := range transfer {
		list[i] = t
	}
	js.Global().Call("postMessage", obj, js.ValueOf(list))
}

// postTrace posts one payload of the sequence key, with export files when
// exports is not nil.
func (w *worker) postTrace(id int64, key string, steps int, p *tracedata.Payload, exports map[string][]byte) {
	var transfer []js.Value
	bytesJS := func(b []byte) js.Value {
		u := js.Global().Get("Uint8Array").New(len(b))
		js.CopyBytesToJS(u, b)
		transfer = append(transfer, u.Get("buffer"))
		return u
	}
	int32sJS := func(v []int32) js.Value {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
		}
		return js.Global().Get("Int32Array").New(bytesJS(b).Get("buffer"))
	}
	data := js.Global().Get("Object").New()
	data.Set("key", key)
	data.Set("base", p.Base)
	values := make([]any, len(p.Values))
	for i, v := range p.Values {
		values[i] = v
	}
	data.Set("values", js.ValueOf(values))
	stepsJS, _ := json.Marshal(p.Steps)
	data.Set("steps", string(stepsJS))
	data.Set("changes", int32sJS(p.Changes))
	if p.Names != nil {
		data.Set("names", bytesJS(p.Names))
		data.Set("start", int32sJS(p.Start))
		tree := js.Global().Get("Object").New()
		tree.Set("depth", int32sJS(p.Tree.Depth))
		tree.Set("size", int32sJS(p.Tree.Size))
		tree.Set("leaf", int32sJS(p.Tree.Leaf))
		tree.Set("labels", bytesJS(p.Tree.Labels))
		tree.Set("ends", int32sJS(p.Tree.Ends))
		tree.Set("parent", int32sJS(p.Tree.Parent))
		tree.Set("leafCount", int32sJS(p.Tree.LeafCount))
		tree.Set("nodeOfLeaf", int32sJS(p.Tree.NodeOfLeaf))
		tree.Set("nameStarts", int32sJS(p.Tree.NameStarts))
		data.Set("tree", tree)
	}
	fields := map[string]js.Value{"trace": data}
	if exports != nil {
		ex := js.Global().Get("Object").New()
		for name, b := range exports {
			u := js.Global().Get("Uint8Array").New(len(b))
			js.CopyBytesToJS(u, b)
			ex.Set(name, js.Global().Get("Blob").New(js.ValueOf([]any{u})))
		}
		fields["exports"] = ex
	}
	w.postPayload(protocol.Message{Type: protocol.TypeTrace, ID: id,
		Trace: &protocol.TraceSummary{Key: key, Steps: steps, Exports: exports != nil}}, fields, transfer)
}
