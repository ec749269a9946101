// This file implements what POST /api/share accepts: a model with its
// options, or a lesson (a titled list of them), checked and brought to the
// canonical form whose hash is the share id.

package edge

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Limits on what may be shared.
const (
	MaxBody         = 256 << 10 // bytes of a POST body
	IDLength        = 16        // characters of base64url: 96 bits of SHA-256
	MaxLessonModels = 100
	MaxTitleRunes   = 200
	MaxOptions      = 16  // keys in one options object
	MaxOptionBytes  = 256 // bytes of one option's string value
)

// InputError is a problem with what the client sent; its text is safe to
// show the client.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputErrorf(format string, args ...any) error {
	return &InputError{fmt.Sprintf(format, args...)}
}

// Document is a checked share: its canonical JSON (what is stored and
// served), its id, and what the page shows about it.
type Document struct {
	Canonical []byte
	ID        string
	Title     string // the lesson's title or the model's file name, for the page's <title>
	Models    int    // 1 for a single model
	Lesson    bool
}

type rawDocument struct {
	Model   *string        `json:"model"`
	Options map[string]any `json:"options"`
	Title   *string        `json:"title"`
	Models  []rawItem      `json:"models"`
}

type rawItem struct {
	Title   *string        `json:"title"`
	Model   *string        `json:"model"`
	Options map[string]any `json:"options"`
}

// ParseDocument checks a POST body and returns its canonical document. A
// body that is not valid UTF-8, not one JSON object of the two accepted
// shapes, or holds text that is not model text gives an *InputError.
func ParseDocument(body []byte) (*Document, error) {
	if !utf8.Valid(body) {
		return nil, inputErrorf("the body is not UTF-8 text (send JSON: {\"model\": \"...\", \"options\": {...}})")
	}
	if err := checkSurrogates(body); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var raw rawDocument
	if err := dec.Decode(&raw); err != nil {
		return nil, inputErrorf("the body is not a share document: %v", jsonProblem(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, inputErrorf("the body has more after its JSON object")
	}

	var doc any
	d := &Document{}
	switch {
	case raw.Models != nil:
		if raw.Model != nil || raw.Options != nil {
			return nil, inputErrorf(`a lesson has "title" and "models"; "model" and "options" belong to each of its models`)
		}
		if len(raw.Models) == 0 || len(raw.Models) > MaxLessonModels {
			return nil, inputErrorf("a lesson has 1 to %d models, not %d", MaxLessonModels, len(raw.Models))
		}
		title, err := checkTitle("title", raw.Title)
		if err != nil {
			return nil, err
		}
		models := make([]any, len(raw.Models))
		for i, it := range raw.Models {
			where := fmt.Sprintf("models[%d]", i)
			itemTitle, err := checkTitle(where+".title", it.Title)
			if err != nil {
				return nil, err
			}
			m, err := checkModel(where+".model", it.Model)
			if err != nil {
				return nil, err
			}
			opts, err := checkOptions(where+".options", it.Options)
			if err != nil {
				return nil, err
			}
			models[i] = map[string]any{"title": itemTitle, "model": m, "options": opts}
		}
		doc = map[string]any{"title": title, "models": models}
		d.Lesson, d.Models, d.Title = true, len(models), title
		if d.Title == "" {
			d.Title = fmt.Sprintf("Lesson of %d models", len(models))
		}
	default:
		if raw.Title != nil {
			return nil, inputErrorf(`"title" belongs to a lesson ({"title": ..., "models": [...]})`)
		}
		m, err := checkModel("model", raw.Model)
		if err != nil {
			return nil, err
		}
		opts, err := checkOptions("options", raw.Options)
		if err != nil {
			return nil, err
		}
		doc = map[string]any{"model": m, "options": opts}
		d.Models, d.Title = 1, modelTitle(opts)
	}
	canon, err := appendCanonical(nil, doc)
	if err != nil {
		return nil, &InputError{err.Error()}
	}
	d.Canonical = canon
	d.ID = DocumentID(canon)
	return d, nil
}

// DocumentID is the share id of a canonical document.
func DocumentID(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return base64.RawURLEncoding.EncodeToString(sum[:])[:IDLength]
}

// ValidID reports whether id could be a share id: exactly IDLength
// characters of the base64url alphabet. Anything else is rejected before
// any storage lookup.
func ValidID(id string) bool {
	if len(id) != IDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// jsonProblem turns a decoding error into a short phrase for the client.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return "expected a JSON object"
		}
		return fmt.Sprintf("%q must not be a JSON %s", typ.Field, typ.Value)
	case err == io.EOF:
		return "the body is empty"
	case err == io.ErrUnexpectedEOF:
		return "the JSON is cut off"
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return "unknown field " + f
	}
	return msg
}

// textProblem says why s is not text a person wrote, or "" if it is: it
// may hold any Unicode but no control characters other than tab, line
// breaks and form feed (form feeds occur in old model files).
func textProblem(s string, lineBreaks bool) string {
	for i, r := range s {
		switch {
		case r == '\t':
		case (r == '\n' || r == '\r' || r == '\f') && lineBreaks:
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("holds the control character U+%04X at byte %d; only text can be shared", r, i)
		}
	}
	return ""
}

func checkModel(where string, m *string) (string, error) {
	if m == nil {
		return "", inputErrorf("%s is missing", where)
	}
	if strings.TrimSpace(*m) == "" {
		return "", inputErrorf("%s is empty", where)
	}
	if p := textProblem(*m, true); p != "" {
		return "", inputErrorf("%s %s", where, p)
	}
	return *m, nil
}

func checkTitle(where string, t *string) (string, error) {
	if t == nil {
		return "", nil
	}
	s := strings.TrimSpace(*t)
	if n := utf8.RuneCountInString(s); n > MaxTitleRunes {
		return "", inputErrorf("%s is %d characters long; at most %d", where, n, MaxTitleRunes)
	}
	if p := textProblem(s, false); p != "" {
		return "", inputErrorf("%s %s", where, p)
	}
	return s, nil
}

// optionKey reports whether k is a lowercase name: [a-z][a-z0-9_]{0,31}.
// (No regexp: it would add 0.2 MB to the Worker, whose size is limited.)
func optionKey(k string) bool {
	if len(k) == 0 || len(k) > 32 || k[0] < 'a' || k[0] > 'z' {
		return false
	}
	for i := 1; i < len(k); i++ {
		if c := k[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// checkOptions accepts a flat object of strings, numbers and booleans: the
// edge stores the app's options without interpreting them (the app checks
// them when it opens the link), but keeps them small and plain.
func checkOptions(where string, opts map[string]any) (map[string]any, error) {
	if len(opts) > MaxOptions {
		return nil, inputErrorf("%s has %d keys; at most %d", where, len(opts), MaxOptions)
	}
	out := make(map[string]any, len(opts))
	for k, v := range opts {
		if !optionKey(k) {
			return nil, inputErrorf("%s has a key that is not a lowercase name", where)
		}
		switch v := v.(type) {
		case string:
			if len(v) > MaxOptionBytes {
				return nil, inputErrorf("%s.%s is longer than %d bytes", where, k, MaxOptionBytes)
			}
			if p := textProblem(v, false); p != "" {
				return nil, inputErrorf("%s.%s %s", where, k, p)
			}
		case json.Number, bool:
		default:
			return nil, inputErrorf("%s.%s must be a string, number or boolean", where, k)
		}
		out[k] = v
	}
	return out, nil
}

// modelTitle names a single shared model by its file name, if the options
// carry one.
func modelTitle(opts map[string]any) string {
	if f, ok := opts["filename"].(string); ok && strings.TrimSpace(f) != "" {
		return strings.TrimSpace(f)
	}
	return "Shared model"
}

// checkSurrogates rejects \u escapes that name half of a UTF-16 surrogate
// pair without the other half. encoding/json would quietly turn them into
// U+FFFD; they are not text, so they are refused like invalid UTF-8.
func checkSurrogates(body []byte) error {
	in := false
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '"':
			in = !in
		case c == '\\' && in:
			if i+1 >= len(body) {
				return nil // the decoder reports the cut-off string
			}
			if body[i+1] != 'u' {
				i++ // skip the escaped character
				continue
			}
			r, ok := hex4(body, i+2)
			if !ok {
				return nil // the decoder reports the bad escape
			}
			switch {
			case r >= 0xD800 && r < 0xDC00:
				lo, ok := -1, i+7 < len(body) && body[i+6] == '\\' && body[i+7] == 'u'
				if ok {
					lo, ok = hex4(body, i+8)
				}
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return inputErrorf("the body holds a lone UTF-16 surrogate (\\u%04X at byte %d), which is not text", r, i)
				}
				i += 11
			case r >= 0xDC00 && r <= 0xDFFF:
				return inputErrorf("the body holds a lone UTF-16 surrogate (\\u%04X at byte %d), which is not text", r, i)
			default:
				i += 5
			}
		}
	}
	return nil
}

// hex4 reads four hex digits at body[i:].
func hex4(body []byte, i int) (int, bool) {
	if i+4 > len(body) {
		return 0, false
	}
	r := 0
	for _, c := range body[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
