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
	"io"
	"net/http"
	"syscall/js"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/fetch"
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
// both read through the static-assets binding.
func Assets(binding string) (shell func(context.Context) ([]byte, error), static http.Handler) {
	client := fetch.NewClient(fetch.WithBinding(cloudflare.GetBinding(binding))).HTTPClient(fetch.RedirectModeManual)
	shell = func(ctx context.Context) ([]byte, error) {
		// "/" rather than "/index.html": the assets service redirects the
		// latter to the former.
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://assets.invalid/", nil)
		if err != nil {
			return nil, err
		}
		res, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("the assets binding answered %s for /", res.Status)
		}
		return io.ReadAll(res.Body)
	}
	static = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body io.Reader
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			body = r.Body
		}
		req, err := http.NewRequestWithContext(r.Context(), r.Method, "https://assets.invalid"+r.URL.RequestURI(), body)
		if err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		req.Header = r.Header.Clone()
		res, err := client.Do(req)
		if err != nil {
			http.Error(w, "the site's files are not available", http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		for k, vs := range res.Header {
			w.Header()[k] = vs
		}
		w.WriteHeader(res.StatusCode)
		io.Copy(w, res.Body)
	})
	return shell, static
}
