// This file implements /s/{id}: the app's own page, named after the share
// so a link preview says what it holds, which then loads the document from
// /api/share/{id}.

package edge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"log"
	"net/http"
	"slices"
	"strconv"
	"unicode/utf8"
)

func (s *server) servePage(w http.ResponseWriter, r *http.Request, id string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method not allowed.", http.StatusMethodNotAllowed)
		return
	}
	status, title := http.StatusNotFound, "Share link not found"
	if ValidID(id) {
		if limited(w, r, s.Reads, false) {
			return
		}
		stored, ok, err := s.KV.Get(keyPrefix + id)
		switch {
		case err != nil:
			log.Printf("edge: reading %s: %v", id, err)
			status, title = http.StatusServiceUnavailable, "Shared model"
		case ok:
			status, title = http.StatusOK, storedTitle(stored)
		}
	}
	if s.Shell == nil {
		http.Error(w, "The app's page is not available.", http.StatusInternalServerError)
		return
	}
	shell, err := s.Shell(r.Context())
	if err != nil {
		log.Printf("edge: loading the app's page: %v", err)
		http.Error(w, "The app's page could not be loaded; try again later.", http.StatusBadGateway)
		return
	}
	page := SharePage(shell, title)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h.Set("Referrer-Policy", "no-referrer")
	// Cross-origin isolated, as the static pages (public/_headers): the
	// engine's Web Workers may then share memory.
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Embedder-Policy", "require-corp")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	// Unknown and malformed ids get the app too (with status 404): it
	// tells the user what is wrong with the link in its own words.
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(page)
	}
}

// storedTitle reads the page title out of a stored document.
func storedTitle(stored string) string {
	var d struct {
		Title   string         `json:"title"`
		Models  []any          `json:"models"`
		Options map[string]any `json:"options"`
	}
	if json.Unmarshal([]byte(stored), &d) != nil {
		return "Shared model"
	}
	if d.Models != nil {
		if d.Title == "" {
			return fmt.Sprintf("Lesson of %d models", len(d.Models))
		}
		return d.Title
	}
	return modelTitle(d.Options)
}

// afterTag returns the index just past the first <name> or <name ...> tag
// in page (ASCII case-insensitive), or -1.
func afterTag(page []byte, name string) int {
	lower := asciiLower(page)
	for from := 0; ; {
		i := bytes.Index(lower[from:], []byte("<"+name))
		if i < 0 {
			return -1
		}
		i += from + 1 + len(name)
		if i < len(lower) && (lower[i] == '>' || lower[i] == ' ' || lower[i] == '\t' || lower[i] == '\n' || lower[i] == '\r') {
			if end := bytes.IndexByte(lower[i:], '>'); end >= 0 {
				return i + end + 1
			}
			return -1
		}
		from = i
	}
}

// maxPageTitle keeps the page title to what a tab or a preview shows.
const maxPageTitle = 80

// SharePage returns the app's page for a share titled title: a <base> so
// the page's relative URLs point at the site's root from /s/{id} (an
// absolute path: the app may later replace the address with the root's,
// and a relative base would then point above it), and the
// title (HTML-escaped: it is text from whoever shared) in <title> and the
// link-preview tags. The model text itself is never put in the page.
func SharePage(shell []byte, title string) []byte {
	if utf8.RuneCountInString(title) > maxPageTitle {
		title = string([]rune(title)[:maxPageTitle-1]) + "…"
	}
	t := html.EscapeString(title + " · Locus")
	head := []byte(`<base href="/">` + "\n" +
		`<meta property="og:title" content="` + t + `">` + "\n" +
		`<meta property="og:type" content="website">` + "\n")
	out := bytes.Clone(shell)
	if start := afterTag(out, "title"); start >= 0 {
		if end := bytes.Index(asciiLower(out[start:]), []byte("</title>")); end >= 0 {
			out = slices.Concat(out[:start], []byte(t), out[start+end:])
		}
	}
	if at := afterTag(out, "head"); at >= 0 {
		return slices.Concat(out[:at], []byte("\n"), head, out[at:])
	}
	return append(head, out...)
}

// asciiLower lowercases A-Z only, so indexes into the result are indexes
// into b (bytes.ToLower may change the length of non-ASCII text).
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
