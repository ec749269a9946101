// This file implements the static file handler.

package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
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
// When the client accepts Brotli and a file has a name.br beside it made
// from the same content (name.br.sum holds its SHA-256), that is sent
// instead; else, when it accepts gzip and name.gz holds the same content,
// that.
// Every response makes the page cross-origin isolated (COOP and COEP),
// which lets the engine's Web Workers share memory (SharedArrayBuffer) in
// a parallel check; the app loads nothing from other origins.
func Handler(dir string) http.Handler {
	gz := &gzipIndex{known: make(map[gzipKey]bool), same: sameContent}
	br := &gzipIndex{known: make(map[gzipKey]bool), same: sameBrotli}
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
		if err != nil || strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".br.sum") {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		for k, v := range isolation {
			h.Set(k, v)
		}
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		if ct, ok := contentTypes[path.Ext(full)]; ok {
			h.Set("Content-Type", ct)
		}
		h.Add("Vary", "Accept-Encoding")
		send := full
		if accepts(r, "br") {
			if brInfo, err := os.Stat(full + ".br"); err == nil && br.matches(full, info, brInfo) {
				send = full + ".br"
				info = brInfo
				h.Set("Content-Encoding", "br")
			}
		}
		if send == full && accepts(r, "gzip") {
			if gzInfo, err := os.Stat(full + ".gz"); err == nil && gz.matches(full, info, gzInfo) {
				send = full + ".gz"
				info = gzInfo
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

// isolation are the headers that make a page cross-origin isolated.
var isolation = map[string]string{
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Embedder-Policy": "require-corp",
	"Cross-Origin-Resource-Policy": "same-origin",
}

// accepts reports whether the request accepts the content coding.
func accepts(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == coding && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// gzipIndex remembers which compressed files (name.gz, or name.br) hold
// their name's content. File times cannot tell (a copied site gets new
// times in any order), so same checks the pair (the gzip trailer's CRC-32
// and length; the SHA-256 recorded for the .br), once per version of it.
type gzipIndex struct {
	mu    sync.Mutex
	known map[gzipKey]bool
	same  func(name string, size int64) bool
}

type gzipKey struct {
	name         string
	mod, gzMod   time.Time
	size, gzSize int64
}

func (x *gzipIndex) matches(name string, info, gzInfo os.FileInfo) bool {
	key := gzipKey{name, info.ModTime(), gzInfo.ModTime(), info.Size(), gzInfo.Size()}
	x.mu.Lock()
	ok, seen := x.known[key]
	x.mu.Unlock()
	if seen {
		return ok
	}
	ok = x.same(name, info.Size())
	x.mu.Lock()
	x.known[key] = ok
	x.mu.Unlock()
	return ok
}

// sameContent reports whether name.gz's trailer (CRC-32 and length of the
// uncompressed data) matches name, which is size bytes long.
func sameContent(name string, size int64) bool {
	g, err := os.Open(name + ".gz")
	if err != nil {
		return false
	}
	defer g.Close()
	var trailer [8]byte
	if st, err := g.Stat(); err != nil || st.Size() < 18 {
		return false
	} else if _, err := g.ReadAt(trailer[:], st.Size()-8); err != nil {
		return false
	}
	if binary.LittleEndian.Uint32(trailer[4:]) != uint32(size) {
		return false
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, f); err != nil {
		return false
	}
	return h.Sum32() == binary.LittleEndian.Uint32(trailer[:4])
}

// sameBrotli reports whether name.br was made from name: name.br.sum holds
// the SHA-256 of what was compressed (scripts/brotli.mjs writes both).
func sameBrotli(name string, size int64) bool {
	sum, err := os.ReadFile(name + ".br.sum")
	if err != nil {
		return false
	}
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha256.New()
	if n, err := io.Copy(h, f); err != nil || n != size {
		return false
	}
	return strings.TrimSpace(string(sum)) == hex.EncodeToString(h.Sum(nil))
}
