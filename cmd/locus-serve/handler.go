// This file implements the static file handler.

package main

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// contentTypes are set explicitly: Go's table (and the OS's) may lack some,
// and WebAssembly.instantiateStreaming refuses anything but application/wasm.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".wasm":        "application/wasm",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".m":           "text/plain; charset=utf-8",
	".txt":         "text/plain; charset=utf-8",
}

// Handler serves the files under dir. Every response must be revalidated
// (Cache-Control: no-cache), so a new build shows up on the next load; the
// service worker, not the HTTP cache, is what keeps the app usable offline.
// When the client accepts gzip and a file has an up-to-date name.gz beside
// it, that is sent instead.
func Handler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(name, "/") || name == "/" {
			name = path.Join(name, "index.html")
		}
		full := filepath.Join(dir, filepath.FromSlash(name))
		info, err := os.Stat(full)
		if err == nil && info.IsDir() {
			full = filepath.Join(full, "index.html")
			info, err = os.Stat(full)
		}
		if err != nil || strings.HasSuffix(name, ".gz") {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		if ct, ok := contentTypes[path.Ext(full)]; ok {
			h.Set("Content-Type", ct)
		}
		h.Add("Vary", "Accept-Encoding")
		send := full
		if acceptsGzip(r) {
			if gz, err := os.Stat(full + ".gz"); err == nil && !gz.ModTime().Before(info.ModTime()) {
				send = full + ".gz"
				info = gz
				h.Set("Content-Encoding", "gzip")
			}
		}
		f, err := os.Open(send)
		if err != nil {
			http.Error(w, "cannot read "+name, http.StatusInternalServerError)
			return
		}
		defer f.Close()
		http.ServeContent(w, r, path.Base(full), info.ModTime(), f)
	})
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
