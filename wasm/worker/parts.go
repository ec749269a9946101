//go:build js && wasm

// This file runs a parallel check over several Web Workers. The engine
// Worker that got the check is the coordinator and runs part 0; it starts
// one helper Worker (this same program) per other part and sends it a
// "part" message, after which they speak explore's binary part protocol
// (core/explore/partwire.go). The bytes travel through SharedArrayBuffers
// when the page is cross-origin isolated (crossOriginIsolated: the server
// and the service worker send COOP and COEP), synchronised with
// Atomics.wait and notify; otherwise as transferred ArrayBuffers in
// postMessage batches (one message per phase and part).

package main

import (
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/locus-mc/locus/wasm/protocol"
)

// sabBytes is the data room of each shared channel: a message larger than
// this goes in several chunks.
const sabBytes = 2 << 20

// partMsg is a message from a part, or the reason there will be none.
type partMsg struct {
	data []byte
	err  error
}

// partWorkers is the coordinator's end of the helper Workers: it
// implements explore.PartTransport, and explore.PartReleaser: a search
// that gives them up (generated code on one Worker, or auto going on alone
// past its exact phase) ends them, and onRelease gives this Worker the
// whole budget back.
type partWorkers struct {
	helpers   []js.Value
	inbox     []chan partMsg // per part: messages that came by postMessage, and failures
	to        []*sabChan     // per part, when shared memory is used
	from      []*sabChan
	onRelease func()
}

// sharedMemory reports whether this Worker may use SharedArrayBuffers,
// unless the Worker was started with ?transport=message (to measure both).
func sharedMemory() bool {
	g := js.Global()
	if !g.Get("crossOriginIsolated").Truthy() || g.Get("SharedArrayBuffer").Type() != js.TypeFunction {
		return false
	}
	return g.Get("location").Get("search").String() != "?transport=message"
}

// startParts starts the helper Workers of check m (m.Options.Workers
// parts) and sends each its part message.
func startParts(m protocol.Message) (*partWorkers, error) {
	n := m.Options.Workers
	p := &partWorkers{inbox: make([]chan partMsg, n), to: make([]*sabChan, n), from: make([]*sabChan, n)}
	shared := sharedMemory()
	script := js.Global().Get("location").Get("href").String()
	for i := 1; i < n; i++ {
		ch := make(chan partMsg, 8)
		p.inbox[i] = ch
		w := js.Global().Get("Worker").New(script)
		onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
			data := args[0].Get("data")
			if data.Type() == js.TypeString {
				msg, err := protocol.Decode(data.String())
				switch {
				case err != nil:
					offer(ch, partMsg{err: err})
				case msg.Type == protocol.TypeError:
					offer(ch, partMsg{err: errors.New(msg.Message)})
				}
				return nil // the helper's ready message
			}
			offer(ch, partMsg{data: bytesOf(data)})
			return nil
		})
		onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
			// Handled here: not reported again as this Worker's own
			// error, which would end the check on the page.
			args[0].Call("preventDefault")
			offer(ch, partMsg{err: fmt.Errorf("its Worker failed: %s", args[0].Get("message").String())})
			return nil
		})
		w.Set("onmessage", onMessage)
		w.Set("onerror", onError)
		// worker.js waits for the compiled engine (or null: fetch it)
		// before anything else.
		first := js.Global().Get("Object").New()
		first.Set("module", js.Global().Get("locusModule"))
		w.Call("postMessage", first)
		p.helpers = append(p.helpers, w)
		setup := m
		setup.Type, setup.Part = protocol.TypePart, i
		s, err := protocol.Encode(setup)
		if err != nil {
			p.close()
			return nil, err
		}
		env := js.Global().Get("Object").New()
		env.Set("setup", s)
		if shared {
			p.to[i], p.from[i] = newSabChan(), newSabChan()
			env.Set("to", p.to[i].sab)
			env.Set("from", p.from[i].sab)
		}
		w.Call("postMessage", env)
	}
	return p, nil
}

// offer queues a message without blocking (a JavaScript callback must
// not): a part or a helper has at most one answer outstanding, and a
// failure or two.
func offer[T any](ch chan T, m T) {
	select {
	case ch <- m:
	default:
	}
}

// bytesOf copies an ArrayBuffer into Go memory.
func bytesOf(buf js.Value) []byte {
	u8 := js.Global().Get("Uint8Array").New(buf)
	b := make([]byte, u8.Length())
	js.CopyBytesToGo(b, u8)
	return b
}

// postBytes posts msg to target as a transferred ArrayBuffer.
func postBytes(target js.Value, msg []byte) {
	buf := bytesToJS(msg)
	target.Call("postMessage", buf, []any{buf})
}

// Send implements explore.PartTransport.
func (p *partWorkers) Send(i int, msg []byte) error {
	if p.to[i] != nil {
		return p.to[i].send(msg, p.inbox[i])
	}
	postBytes(p.helpers[i-1], msg)
	return nil
}

// Recv implements explore.PartTransport.
func (p *partWorkers) Recv(i int) ([]byte, error) {
	if p.from[i] != nil {
		return p.from[i].recv(p.inbox[i])
	}
	m := <-p.inbox[i]
	return m.data, m.err
}

// Release implements explore.PartReleaser.
func (p *partWorkers) Release() {
	p.close()
	if p.onRelease != nil {
		p.onRelease()
		p.onRelease = nil
	}
}

// close stops the helpers (again, harmlessly). Their handlers stay: a helper stopped while it
// loads (released before the search needed it) fails its importScripts,
// and that error event still arrives, to be handled (not reported as this
// Worker's) by a function that is still there. This Worker ends with the
// check, and they with it.
func (p *partWorkers) close() {
	for _, w := range p.helpers {
		w.Call("terminate")
	}
}

// sabChan is one direction of a shared-memory channel: a header of int32s
// (state: 0 empty, 1 full; the chunk's length; 1 if more chunks follow)
// and the chunk's bytes.
type sabChan struct {
	sab, hdr, data, atomics js.Value
}

func newSabChan() *sabChan {
	return sabChanOf(js.Global().Get("SharedArrayBuffer").New(16 + sabBytes))
}

func sabChanOf(sab js.Value) *sabChan {
	g := js.Global()
	return &sabChan{sab: sab, atomics: g.Get("Atomics"),
		hdr: g.Get("Int32Array").New(sab, 0, 4), data: g.Get("Uint8Array").New(sab, 16)}
}

// waitFor blocks until the state is want. Waits are short, and between
// them the goroutine sleeps, which lets the event loop deliver what a
// failing peer posted (failed, if not nil, then ends the wait).
func (c *sabChan) waitFor(want int, failed chan partMsg) error {
	for c.atomics.Call("load", c.hdr, 0).Int() != want {
		if c.atomics.Call("wait", c.hdr, 0, 1-want, 50).String() == "timed-out" && failed != nil {
			time.Sleep(time.Millisecond)
			select {
			case m := <-failed:
				if m.err != nil {
					return m.err
				}
			default:
			}
		}
	}
	return nil
}

func (c *sabChan) send(msg []byte, failed chan partMsg) error {
	for first := true; first || len(msg) > 0; first = false {
		if err := c.waitFor(0, failed); err != nil {
			return err
		}
		n := len(msg)
		if n > sabBytes {
			n = sabBytes
		}
		js.CopyBytesToJS(c.data.Call("subarray", 0, n), msg[:n])
		more := 0
		if n < len(msg) {
			more = 1
		}
		c.hdr.SetIndex(1, n)
		c.hdr.SetIndex(2, more)
		c.atomics.Call("store", c.hdr, 0, 1)
		c.atomics.Call("notify", c.hdr, 0)
		msg = msg[n:]
	}
	return nil
}

func (c *sabChan) recv(failed chan partMsg) ([]byte, error) {
	var out []byte
	for {
		if err := c.waitFor(1, failed); err != nil {
			return nil, err
		}
		n := c.hdr.Index(1).Int()
		more := c.hdr.Index(2).Int()
		at := len(out)
		out = append(out, make([]byte, n)...)
		js.CopyBytesToGo(out[at:], c.data.Call("subarray", 0, n))
		c.atomics.Call("store", c.hdr, 0, 0)
		c.atomics.Call("notify", c.hdr, 0)
		if more == 0 {
			return out, nil
		}
	}
}

// partServer is a helper Worker's end: messages from the coordinator,
// through shared memory or postMessage.
type partServer struct {
	in       chan []byte
	to, from *sabChan
}

func (s *partServer) recv() ([]byte, error) {
	if s.to != nil {
		return s.to.recv(nil)
	}
	return <-s.in, nil
}

func (s *partServer) send(msg []byte) error {
	if s.from != nil {
		return s.from.send(msg, nil)
	}
	postBytes(js.Global(), msg)
	return nil
}
