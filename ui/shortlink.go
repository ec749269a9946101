// This file implements short share links: the model and options stored by
// the edge backend (edge/) under a 16-character id, opened as /s/{id}, and
// lessons (a titled list of models shared as one link). The fragment links
// of share.go remain the fallback: they need no server.

package ui

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/locus-mc/locus/wasm/protocol"
)

// Share modes, the user's choice of link.
const (
	ShareAuto   = "auto"   // a short link when the fragment link is long
	ShareShort  = "short"  // always a short link
	ShareInLink = "inlink" // never: the link holds the model, nothing is uploaded
)

// ShareModes lists the choices, in menu order, with their labels.
var ShareModes = []Choice{
	{ShareAuto, "Short link for long models"},
	{ShareShort, "Always a short link"},
	{ShareInLink, "Model in the link (nothing uploaded)"},
}

// ShortLinkOver is the link length past which ShareAuto asks the server
// for a short link: 2,000 characters is what every browser, chat program
// and slide keeps intact.
const ShortLinkOver = 2000

// WantShortLink reports whether the Share button should ask the server for
// a short link, given the mode and the fragment link (linkLen characters,
// or fits=false if the model is too large for one).
func WantShortLink(mode string, linkLen int, fits bool) bool {
	switch mode {
	case ShareInLink:
		return false
	case ShareShort:
		return true
	}
	return !fits || linkLen > ShortLinkOver
}

// shareIDLength and the alphabet match edge.ValidID (the UI does not import
// the edge).
const shareIDLength = 16

func validShareID(id string) bool {
	if len(id) != shareIDLength {
		return false
	}
	for _, c := range id {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// ErrShortLinkDamaged is the message for a /s/ link whose id is malformed.
var ErrShortLinkDamaged = fmt.Errorf("this short link is damaged (perhaps cut off when it was copied); ask for the link again")

// ShortLinkID finds a short link's id in the page's address: the path
// s/{id} below the app's root, or a #s={id} fragment (what the address bar
// holds after the user made a short link). ok is false if the address is
// not a short link; err is set if it is one whose id is malformed.
func ShortLinkID(page, root string) (id string, ok bool, err error) {
	p, err1 := url.Parse(page)
	r, err2 := url.Parse(root)
	if err1 != nil || err2 != nil {
		return "", false, nil
	}
	if frag, found := strings.CutPrefix(p.Fragment, "s="); found {
		id = frag
	} else if rest, found := strings.CutPrefix(p.Path, strings.TrimSuffix(r.Path, "/")+"/s/"); found {
		id = rest
	} else {
		return "", false, nil
	}
	if !validShareID(id) {
		return "", true, ErrShortLinkDamaged
	}
	return id, true, nil
}

// shareOptions is the options object of a share document: what the
// fragment carries (f, a, sym, dl, mem), by name.
type shareOptions struct {
	Filename  string `json:"filename,omitempty"`
	Algorithm string `json:"algorithm,omitempty"`
	Symmetry  string `json:"symmetry,omitempty"`
	Deadlock  string `json:"deadlock,omitempty"`
	MemoryMB  int64  `json:"memory_mb,omitempty"`
}

func optionsOf(s Shared) shareOptions {
	return shareOptions{
		Filename:  s.Filename,
		Algorithm: s.Options.Algorithm,
		Symmetry:  s.Options.Symmetry,
		Deadlock:  s.Options.Deadlock,
		MemoryMB:  s.Options.MemoryBytes / protocol.MiB,
	}
}

type shareDoc struct {
	Model   string       `json:"model"`
	Options shareOptions `json:"options"`
}

// LessonItem is one model of a lesson.
type LessonItem struct {
	Title  string
	Shared Shared
	Note   string // set when the item's options could not be used
}

// Lesson is a titled list of models shared as one link.
type Lesson struct {
	ID    string
	Title string
	Items []LessonItem
}

type lessonDoc struct {
	Title  string          `json:"title"`
	Models []lessonItemDoc `json:"models"`
}

type lessonItemDoc struct {
	Title   string       `json:"title"`
	Model   string       `json:"model"`
	Options shareOptions `json:"options"`
}

// ShareRequest is the body of POST api/share for one model.
func ShareRequest(s Shared) ([]byte, error) {
	return json.Marshal(shareDoc{Model: s.Source, Options: optionsOf(s)})
}

// LessonRequest is the body of POST api/share for a lesson.
func LessonRequest(title string, items []LessonItem) ([]byte, error) {
	d := lessonDoc{Title: title}
	for _, it := range items {
		d.Models = append(d.Models, lessonItemDoc{Title: it.Title, Model: it.Shared.Source, Options: optionsOf(it.Shared)})
	}
	return json.Marshal(d)
}

// ShareResponse reads the answer to POST api/share: the id, or the
// server's error message.
func ShareResponse(status int, body string) (id string, err error) {
	var r struct {
		ID    string `json:"id"`
		Error string `json:"error"`
	}
	jerr := json.Unmarshal([]byte(body), &r)
	switch {
	case (status == 200 || status == 201) && jerr == nil && validShareID(r.ID):
		return r.ID, nil
	case jerr == nil && r.Error != "":
		return "", fmt.Errorf("%s", r.Error)
	}
	return "", fmt.Errorf("the server answered HTTP %d", status)
}

// DecodeSharedDocument reads what GET api/share/{id} returns: one model
// (lesson nil) or a lesson. A model whose options cannot be used comes with
// default options and a note saying so, as a fragment link does.
func DecodeSharedDocument(data []byte) (s Shared, note string, lesson *Lesson, err error) {
	var probe struct {
		Models json.RawMessage `json:"models"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return Shared{}, "", nil, fmt.Errorf("the shared model could not be read")
	}
	if probe.Models != nil {
		var d lessonDoc
		if err := json.Unmarshal(data, &d); err != nil || len(d.Models) == 0 {
			return Shared{}, "", nil, fmt.Errorf("the shared lesson could not be read")
		}
		l := &Lesson{Title: d.Title}
		for i, m := range d.Models {
			s, note := sharedOf(m.Model, m.Options)
			title := strings.TrimSpace(m.Title)
			if title == "" {
				title = fmt.Sprintf("%d. %s", i+1, s.Filename)
			}
			l.Items = append(l.Items, LessonItem{Title: title, Shared: s, Note: note})
		}
		if l.Title == "" {
			l.Title = "Lesson"
		}
		return Shared{}, "", l, nil
	}
	var d shareDoc
	if err := json.Unmarshal(data, &d); err != nil || d.Model == "" {
		return Shared{}, "", nil, fmt.Errorf("the shared model could not be read")
	}
	s, note = sharedOf(d.Model, d.Options)
	return s, note, nil, nil
}

// sharedOf checks a shared model's options as DecodeShare does.
func sharedOf(model string, o shareOptions) (Shared, string) {
	s := Shared{Filename: cleanFilename(o.Filename), Source: model}
	opts := protocol.Options{Algorithm: o.Algorithm, Symmetry: o.Symmetry, Deadlock: o.Deadlock, MemoryBytes: o.MemoryMB * protocol.MiB}
	if o.MemoryMB == 0 {
		opts.MemoryBytes = protocol.DefaultMemoryMB * protocol.MiB
	}
	if err := protocol.ValidateOptions(&opts); err != nil {
		s.Options = protocol.Options{MemoryBytes: protocol.DefaultMemoryMB * protocol.MiB}
		return s, fmt.Sprintf("the link's options could not be used (%v); the defaults are set instead", err)
	}
	s.Options = opts
	return s, ""
}

// FetchProblem explains why a short link could not be opened, from the
// HTTP status (0: no answer at all).
func FetchProblem(status int, offline bool) string {
	switch {
	case status == 404:
		return "No model is shared under this short link. Check that the link is complete, or ask for it again."
	case status == 0 && offline:
		return "You are offline, and this short link has not been opened on this device before, so its model is not here. Open it again when you are online."
	case status == 0:
		return "The Locus server could not be reached, so this short link could not be opened. Try again later."
	case status == 429:
		return "Too many links were opened from your address just now; wait a minute and reload."
	}
	return fmt.Sprintf("This short link could not be opened (the server answered HTTP %d). Try again later.", status)
}
