package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, name string, data []byte, mod time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, mod, mod); err != nil {
		t.Fatal(err)
	}
}

func gzipped(t *testing.T, data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().Truncate(time.Second)
	wasm := []byte("\x00asm\x01\x00\x00\x00 engine")
	writeFile(t, filepath.Join(dir, "index.html"), []byte("<!doctype html>home"), now)
	writeFile(t, filepath.Join(dir, "engine.wasm"), wasm, now)
	writeFile(t, filepath.Join(dir, "engine.wasm.gz"), gzipped(t, wasm), now)
	writeFile(t, filepath.Join(dir, "old.js"), []byte("new();"), now)
	writeFile(t, filepath.Join(dir, "old.js.gz"), gzipped(t, []byte("stale();")), now.Add(-time.Hour))
	// A stale .gz with a newer time, as a copied site may have: not sent.
	writeFile(t, filepath.Join(dir, "copied.js"), []byte("fresh();"), now.Add(-time.Hour))
	writeFile(t, filepath.Join(dir, "copied.js.gz"), gzipped(t, []byte("frash();")), now)
	// An up-to-date .gz with an older time: sent.
	writeFile(t, filepath.Join(dir, "app.css"), []byte("body{}"), now)
	writeFile(t, filepath.Join(dir, "app.css.gz"), gzipped(t, []byte("body{}")), now.Add(-time.Hour))
	writeFile(t, filepath.Join(dir, "manifest.webmanifest"), []byte("{}"), now)
	writeFile(t, filepath.Join(dir, "examples", "mutex.m"), []byte("var x: boolean;"), now)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()

	for _, c := range []struct {
		path, accept string
		status       int
		ctype, enc   string
		body         string
	}{
		{"/", "", 200, "text/html; charset=utf-8", "", "<!doctype html>home"},
		{"/index.html", "", 200, "text/html; charset=utf-8", "", "<!doctype html>home"},
		{"/engine.wasm", "", 200, "application/wasm", "", string(wasm)},
		{"/engine.wasm", "gzip, deflate", 200, "application/wasm", "gzip", string(wasm)},
		{"/engine.wasm", "gzip;q=0", 200, "application/wasm", "", string(wasm)},
		{"/old.js", "gzip", 200, "text/javascript; charset=utf-8", "", "new();"},
		{"/copied.js", "gzip", 200, "text/javascript; charset=utf-8", "", "fresh();"},
		{"/app.css", "gzip", 200, "text/css; charset=utf-8", "gzip", "body{}"},
		{"/manifest.webmanifest", "", 200, "application/manifest+json", "", "{}"},
		{"/examples/mutex.m", "", 200, "text/plain; charset=utf-8", "", "var x: boolean;"},
		{"/engine.wasm.gz", "", 404, "", "", ""},
		{"/missing.js", "", 404, "", "", ""},
		{"/../../etc/passwd", "", 404, "", "", ""},
	} {
		req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
		req.Header.Set("Accept-Encoding", c.accept) // set even when empty: stops the client's transparent gzip
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("GET %s: status %d, want %d", c.path, resp.StatusCode, c.status)
			continue
		}
		if c.status != 200 {
			continue
		}
		if got := resp.Header.Get("Content-Type"); got != c.ctype {
			t.Errorf("GET %s: Content-Type %q, want %q", c.path, got, c.ctype)
		}
		if got := resp.Header.Get("Content-Encoding"); got != c.enc {
			t.Errorf("GET %s (Accept-Encoding %q): Content-Encoding %q, want %q", c.path, c.accept, got, c.enc)
		}
		if got := resp.Header.Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache", c.path, got)
		}
		for k, v := range map[string]string{"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"} {
			if got := resp.Header.Get(k); got != v {
				t.Errorf("GET %s: %s %q, want %q (the page must be cross-origin isolated)", c.path, k, got, v)
			}
		}
		body := raw
		if c.enc == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			body, _ = io.ReadAll(zr)
		}
		if string(body) != c.body {
			t.Errorf("GET %s: body %q, want %q", c.path, body, c.body)
		}
	}

	resp, err := http.Post(srv.URL+"/", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: status %d, want 405", resp.StatusCode)
	}
}

func TestLogRequests(t *testing.T) {
	var b strings.Builder
	h := logRequests(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("hello"))
	}), &b)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x.wasm", nil))
	if got := b.String(); got != "418 5 /x.wasm\n" {
		t.Fatalf("log %q", got)
	}
}

func TestBrotliOnlyWhenItMatches(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	wasm := bytes.Repeat([]byte("wasm"), 1000)
	writeFile(t, filepath.Join(dir, "index.html"), []byte("<html>"), now)
	writeFile(t, filepath.Join(dir, "e.wasm"), wasm, now)
	writeFile(t, filepath.Join(dir, "e.wasm.br"), []byte("pretend brotli"), now)
	sum := sha256.Sum256(wasm)
	writeFile(t, filepath.Join(dir, "e.wasm.br.sum"), []byte(hex.EncodeToString(sum[:])+"\n"), now)
	writeFile(t, filepath.Join(dir, "old.js"), []byte("new();"), now)
	writeFile(t, filepath.Join(dir, "old.js.br"), []byte("pretend"), now)
	writeFile(t, filepath.Join(dir, "old.js.br.sum"), []byte("0000\n"), now)
	h := Handler(dir)
	for _, tc := range []struct {
		path, accept, encoding string
		body                   string
	}{
		{"/e.wasm", "gzip, br", "br", "pretend brotli"},
		{"/e.wasm", "gzip", "", string(wasm)},
		{"/old.js", "br", "", "new();"}, // a stale .br is not sent
		{"/e.wasm.br", "br", "", "404 page not found\n"},
		{"/e.wasm.br.sum", "", "", "404 page not found\n"},
	} {
		req := httptest.NewRequest("GET", tc.path, nil)
		req.Header.Set("Accept-Encoding", tc.accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if got := w.Header().Get("Content-Encoding"); got != tc.encoding {
			t.Errorf("%s (%s): Content-Encoding %q, want %q", tc.path, tc.accept, got, tc.encoding)
		}
		if w.Body.String() != tc.body {
			t.Errorf("%s (%s): body %.40q, want %.40q", tc.path, tc.accept, w.Body.String(), tc.body)
		}
	}
}
