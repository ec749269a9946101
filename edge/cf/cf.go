//go:build js && wasm

// Package cf connects the edge handlers to the Cloudflare Workers runtime:
// KV, the rate-limiting binding, the static-assets binding, environment
// variables and serving. It is the only package that imports
// github.com/syumai/workers: upstream renamed the module to
// github.com/syumai/workers-go, and moving to it is a change here only.
package cf

import (
	"context"
	"fmt"
	"net/http"
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/kv"

	"github.com/locus-mc/locus/edge"
	"github.com/locus-mc/locus/internal/jsutil"
)

// Serve serves h as the Worker's fetch handler and never returns.
func Serve(h http.Handler) { workers.Serve(h) }

// Getenv returns a variable of the Worker's environment ("" if unset).
func Getenv(name string) string { return cloudflare.Getenv(name) }

// KV is a Workers KV namespace as an edge.KV.
type KV struct{ ns *kv.Namespace }

// NewKV opens the KV namespace bound to binding.
func NewKV(binding string) (*KV, error) {
	ns, err := kv.NewNamespace(binding)
	if err != nil {
		return nil, fmt.Errorf("KV binding %s: %w", binding, err)
	}
	return &KV{ns}, nil
}

// Get implements edge.KV.
func (k *KV) Get(key string) (string, bool, error) {
	return edge.FromWorkersKV(k.ns.GetString(key, nil))
}

// Put implements edge.KV.
func (k *KV) Put(key, value string) error { return k.ns.PutString(key, value, nil) }

// limiter is a Workers rate-limiting binding: limit({key}) resolves to
// {success: false} once the key is over its limit.
type limiter struct{ b js.Value }

// NewLimiter returns the rate limiter bound to binding, or nil (no limit)
// if the Worker has no such binding.
func NewLimiter(binding string) edge.Limiter {
	b := cloudflare.GetBinding(binding)
	if b.IsUndefined() || b.IsNull() {
		return nil
	}
	return limiter{b}
}

func (l limiter) Allow(key string) (bool, error) {
	v, err := jsutil.Await(l.b.Call("limit", map[string]any{"key": key}))
	if err != nil {
		return false, err
	}
	return v.Get("success").Truthy(), nil
}

// Assets returns the app's page and a handler for the rest of the site,
// both read through the static-assets binding's fetch. (Not through
// net/http's Client: that links its whole transport, HTTP/2 and TLS
// included, and made the Worker 2.9 MB compressed instead of 1.8 MB.)
func Assets(binding string) (shell func(context.Context) ([]byte, error), static http.Handler) {
	b := cloudflare.GetBinding(binding)
	get := func(method, path string, header http.Header) (status int, h http.Header, body []byte, err error) {
		if b.IsUndefined() || b.IsNull() {
			return 0, nil, nil, fmt.Errorf("no assets binding %s", binding)
		}
		init := js.Global().Get("Object").New()
		init.Set("method", method)
		headers := js.Global().Get("Headers").New()
		for k, vs := range header {
			for _, v := range vs {
				headers.Call("append", k, v)
			}
		}
		init.Set("headers", headers)
		// The host is ignored: the binding serves the Worker's own assets.
		res, err := jsutil.Await(b.Call("fetch", "https://assets.invalid"+path, init))
		if err != nil {
			return 0, nil, nil, err
		}
		h = http.Header{}
		it := res.Get("headers").Call("entries")
		for {
			e := it.Call("next")
			if e.Get("done").Bool() {
				break
			}
			kv := e.Get("value")
			h.Add(http.CanonicalHeaderKey(kv.Index(0).String()), kv.Index(1).String())
		}
		buf, err := jsutil.Await(res.Call("arrayBuffer"))
		if err != nil {
			return 0, nil, nil, err
		}
		u8 := js.Global().Get("Uint8Array").New(buf)
		body = make([]byte, u8.Length())
		js.CopyBytesToGo(body, u8)
		return res.Get("status").Int(), h, body, nil
	}
	shell = func(context.Context) ([]byte, error) {
		// "/" rather than "/index.html": the assets service redirects the
		// latter to the former.
		status, _, body, err := get(http.MethodGet, "/", nil)
		if err == nil && status != http.StatusOK {
			err = fmt.Errorf("the assets binding answered %d for /", status)
		}
		return body, err
	}
	static = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method not allowed.", http.StatusMethodNotAllowed)
			return
		}
		status, h, body, err := get(r.Method, r.URL.RequestURI(), r.Header)
		if err != nil {
			http.Error(w, "The site's files are not available.", http.StatusBadGateway)
			return
		}
		for k, vs := range h {
			// The body arrives decoded and is sent whole.
			if k != "Content-Encoding" && k != "Content-Length" && k != "Transfer-Encoding" {
				w.Header()[k] = vs
			}
		}
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	})
	return shell, static
}
