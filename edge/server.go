// This file implements the HTTP side: routing, CORS, rate limits and the
// JSON answers of /api/share.

package edge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// Config is what the handler needs from its surroundings.
type Config struct {
	KV KV
	// Writes limits POST /api/share per client IP; Reads limits the GETs
	// that reach the store. Nil means no limit.
	Writes, Reads Limiter
	// Shell returns the app's page (the site's index.html), which /s/{id}
	// serves with the share's title and a <base> so its relative URLs work.
	Shell func(ctx context.Context) ([]byte, error)
	// Static serves the rest of the site. In Workers the static-assets
	// service answers those paths before the Worker runs; this is the
	// fallback for paths routed to the Worker. Nil answers 404.
	Static http.Handler
	// AllowedOrigins may call the API from other sites' pages, besides the
	// Worker's own origin (which serves the app).
	AllowedOrigins []string
}

// keyPrefix namespaces share documents in the KV store.
const keyPrefix = "share/"

// documentCache is how long a fetched document may be cached: forever,
// since an id is the hash of its document.
const documentCache = "public, max-age=31536000, immutable"

// Handler returns the Worker's HTTP handler.
func Handler(c Config) http.Handler {
	s := &server{c}
	return http.HandlerFunc(s.serveHTTP)
}

type server struct{ Config }

func (s *server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/api" || strings.HasPrefix(p, "/api/"):
		s.serveAPI(w, r)
	case strings.HasPrefix(p, "/s/"):
		s.servePage(w, r, strings.TrimPrefix(p, "/s/"))
	case s.Static != nil:
		s.Static.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// apiError is the JSON body of every error answer.
type apiError struct {
	Error string `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, apiError{msg})
}

func (s *server) serveAPI(w http.ResponseWriter, r *http.Request) {
	if !s.cors(w, r) {
		writeError(w, http.StatusForbidden, "this origin may not use the share API")
		return
	}
	rest, isShare := strings.CutPrefix(r.URL.Path, "/api/share")
	if !isShare || (rest != "" && !strings.HasPrefix(rest, "/")) {
		writeError(w, http.StatusNotFound, "no such API")
		return
	}
	id := strings.TrimPrefix(rest, "/")
	allow := "POST, OPTIONS"
	if rest != "" {
		allow = "GET, HEAD, OPTIONS"
	}
	switch {
	case r.Method == http.MethodOptions:
		h := w.Header()
		h.Set("Allow", allow)
		h.Set("Access-Control-Allow-Methods", allow)
		h.Set("Access-Control-Allow-Headers", "Content-Type")
		h.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
	case rest == "" && r.Method == http.MethodPost:
		s.create(w, r)
	case rest != "" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		s.fetch(w, r, id)
	default:
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, r.Method+" is not allowed here; use "+allow)
	}
}

// cors sets the CORS headers for an allowed Origin and reports whether the
// request may go on: requests without an Origin (not from a browser page)
// and from the Worker's own origin always may.
func (s *server) cors(w http.ResponseWriter, r *http.Request) bool {
	origin := r.Header.Get("Origin")
	w.Header().Add("Vary", "Origin")
	if origin == "" {
		return true
	}
	ok := origin == requestOrigin(r)
	for _, o := range s.AllowedOrigins {
		ok = ok || origin == o
	}
	if ok {
		w.Header().Set("Access-Control-Allow-Origin", origin)
	}
	return ok
}

// requestOrigin is the scheme://host the request was sent to.
func requestOrigin(r *http.Request) string {
	if r.URL.IsAbs() {
		return r.URL.Scheme + "://" + r.URL.Host
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// clientIP identifies the client for rate limiting: Cloudflare puts the
// connecting address in CF-Connecting-IP and overwrites any the client sent.
func clientIP(r *http.Request) string {
	if ip := r.Header.Get("CF-Connecting-IP"); ip != "" {
		return ip
	}
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	if r.RemoteAddr != "" {
		return r.RemoteAddr
	}
	return "unknown"
}

// limited answers 429 and reports true when l refuses the client. A
// limiter that fails lets the request through: sharing matters more than
// the limit.
func limited(w http.ResponseWriter, r *http.Request, l Limiter, json bool) bool {
	if l == nil {
		return false
	}
	ok, err := l.Allow(clientIP(r))
	if err != nil {
		log.Printf("edge: rate limiter failed, request allowed: %v", err)
		return false
	}
	if ok {
		return false
	}
	w.Header().Set("Retry-After", "60")
	if json {
		writeError(w, http.StatusTooManyRequests, "too many requests from your address; wait a minute and try again")
	} else {
		http.Error(w, "Too many requests from your address; wait a minute and try again.", http.StatusTooManyRequests)
	}
	return true
}

// shareResponse is the answer to a successful POST.
type shareResponse struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Lesson bool   `json:"lesson,omitempty"`
	Models int    `json:"models"`
}

func (s *server) create(w http.ResponseWriter, r *http.Request) {
	if limited(w, r, s.Writes, true) {
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "send the share document as Content-Type: application/json")
		return
	}
	if r.ContentLength > MaxBody {
		writeError(w, http.StatusRequestEntityTooLarge, tooLarge)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			writeError(w, http.StatusRequestEntityTooLarge, tooLarge)
			return
		}
		writeError(w, http.StatusBadRequest, "the body could not be read")
		return
	}
	doc, err := ParseDocument(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	status := http.StatusOK
	_, exists, err := s.KV.Get(keyPrefix + doc.ID)
	if err == nil && !exists {
		status = http.StatusCreated
		err = s.KV.Put(keyPrefix+doc.ID, string(doc.Canonical))
	}
	if err != nil {
		log.Printf("edge: storing %s: %v", doc.ID, err)
		writeError(w, http.StatusServiceUnavailable, "the share could not be stored; try again later")
		return
	}
	url := requestOrigin(r) + "/s/" + doc.ID
	w.Header().Set("Location", url)
	writeJSON(w, status, shareResponse{ID: doc.ID, URL: url, Lesson: doc.Lesson, Models: doc.Models})
}

var tooLarge = "the share document is larger than " + strconv.Itoa(MaxBody>>10) + " KiB; share the .m file instead"

func (s *server) fetch(w http.ResponseWriter, r *http.Request, id string) {
	if !ValidID(id) {
		writeError(w, http.StatusBadRequest, "this is not a share id (16 characters of A-Z a-z 0-9 - _)")
		return
	}
	etag := `"` + id + `"`
	if r.Header.Get("If-None-Match") == etag {
		w.Header().Set("ETag", etag)
		w.Header().Set("Cache-Control", documentCache)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if limited(w, r, s.Reads, true) {
		return
	}
	doc, ok, err := s.KV.Get(keyPrefix + id)
	if err != nil {
		log.Printf("edge: reading %s: %v", id, err)
		writeError(w, http.StatusServiceUnavailable, "the share could not be read; try again later")
		return
	}
	if !ok {
		writeError(w, http.StatusNotFound, "no model or lesson is shared under this id")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", documentCache)
	h.Set("ETag", etag)
	h.Set("Content-Length", strconv.Itoa(len(doc)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		io.WriteString(w, doc)
	}
}
