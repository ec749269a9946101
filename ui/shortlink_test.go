package ui

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/locus-mc/locus/wasm/protocol"
)

func TestWantShortLink(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		linkLen int
		fits    bool
		want    bool
	}{
		{ShareAuto, 300, true, false},
		{ShareAuto, ShortLinkOver, true, false},
		{ShareAuto, ShortLinkOver + 1, true, true},
		{ShareAuto, 0, false, true},
		{ShareShort, 300, true, true},
		{ShareInLink, 50000, true, false},
		{ShareInLink, 0, false, false},
		{"", 300, true, false}, // unknown modes act as auto
	} {
		if got := WantShortLink(tc.mode, tc.linkLen, tc.fits); got != tc.want {
			t.Errorf("WantShortLink(%q, %d, %v) = %v, want %v", tc.mode, tc.linkLen, tc.fits, got, tc.want)
		}
	}
}

func TestShortLinkID(t *testing.T) {
	for _, tc := range []struct {
		page, root string
		id         string
		ok, bad    bool
	}{
		{"https://locus.example/s/AbCdEfGh0123-_xY", "https://locus.example/", "AbCdEfGh0123-_xY", true, false},
		{"https://locus.example/s/AbCdEfGh0123-_xY?utm=1", "https://locus.example/", "AbCdEfGh0123-_xY", true, false},
		{"https://locus.example/#s=AbCdEfGh0123-_xY", "https://locus.example/", "AbCdEfGh0123-_xY", true, false},
		{"https://x.example/locus/s/AbCdEfGh0123-_xY", "https://x.example/locus/", "AbCdEfGh0123-_xY", true, false},
		{"https://locus.example/s/AbCdEfGh01", "https://locus.example/", "", true, true},
		{"https://locus.example/s/AbCdEfGh0123-_xY/", "https://locus.example/", "", true, true},
		{"https://locus.example/#s=", "https://locus.example/", "", true, true},
		{"https://locus.example/", "https://locus.example/", "", false, false},
		{"https://locus.example/#m=abc", "https://locus.example/", "", false, false},
		{"https://locus.example/docs/s/AbCdEfGh0123-_xY", "https://locus.example/", "", false, false},
	} {
		id, ok, err := ShortLinkID(tc.page, tc.root)
		if id != tc.id || ok != tc.ok || (err != nil) != tc.bad {
			t.Errorf("ShortLinkID(%q) = %q, %v, %v; want %q, %v, bad %v", tc.page, id, ok, err, tc.id, tc.ok, tc.bad)
		}
	}
}

func TestShareRequestRoundTrip(t *testing.T) {
	in := Shared{Filename: "dash.m", Source: mutex, Options: protocol.Options{Algorithm: "dfs", Symmetry: "off", Deadlock: "stuck", MemoryBytes: 64 * protocol.MiB}}
	body, err := ShareRequest(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":` + jsonString(mutex) + `,"options":{"filename":"dash.m","algorithm":"dfs","symmetry":"off","deadlock":"stuck","memory_mb":64}}`
	if string(body) != want {
		t.Errorf("ShareRequest =\n %s\nwant\n %s", body, want)
	}
	// What the server stores is the same document in canonical key order.
	stored := `{"model":` + jsonString(mutex) + `,"options":{"algorithm":"dfs","deadlock":"stuck","filename":"dash.m","memory_mb":64,"symmetry":"off"}}`
	for _, doc := range []string{string(body), stored} {
		got, note, lesson, err := DecodeSharedDocument([]byte(doc))
		if err != nil || note != "" || lesson != nil || !reflect.DeepEqual(got, in) {
			t.Errorf("DecodeSharedDocument = %+v, %q, %v, %v; want %+v", got, note, lesson, err, in)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestDecodeSharedDocument(t *testing.T) {
	// Defaults, and options the app cannot use.
	got, note, _, err := DecodeSharedDocument([]byte(`{"model":"m","options":{}}`))
	if err != nil || note != "" || got.Filename != "model.m" || got.Options.MemoryBytes != protocol.DefaultMemoryMB*protocol.MiB {
		t.Errorf("defaults: %+v %q %v", got, note, err)
	}
	got, note, _, err = DecodeSharedDocument([]byte(`{"model":"m","options":{"symmetry":"full","filename":"../x"}}`))
	if err != nil || !strings.Contains(note, "defaults") || got.Options.Symmetry != "" || got.Filename != "x.m" {
		t.Errorf("bad options: %+v %q %v", got, note, err)
	}
	// A lesson.
	_, _, l, err := DecodeSharedDocument([]byte(`{"models":[{"model":"a","options":{"filename":"a.m"},"title":"First"},{"model":"b","options":{"memory_mb":1},"title":""}],"title":"Week 1"}`))
	if err != nil || l == nil || l.Title != "Week 1" || len(l.Items) != 2 {
		t.Fatalf("lesson: %+v %v", l, err)
	}
	if l.Items[0].Title != "First" || l.Items[0].Shared.Source != "a" || l.Items[1].Title != "2. model.m" || l.Items[1].Note == "" {
		t.Errorf("lesson items: %+v", l.Items)
	}
	for _, bad := range []string{``, `[]`, `{"model":""}`, `{"models":[]}`, `{"models":"x"}`, `<html>`} {
		if _, _, _, err := DecodeSharedDocument([]byte(bad)); err == nil {
			t.Errorf("DecodeSharedDocument(%q) accepted it", bad)
		}
	}
}

func TestLessonRequest(t *testing.T) {
	body, err := LessonRequest("Week 1", []LessonItem{{Title: "First", Shared: Shared{Filename: "a.m", Source: "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"title":"Week 1","models":[{"title":"First","model":"a","options":{"filename":"a.m"}}]}`
	if string(body) != want {
		t.Errorf("LessonRequest = %s, want %s", body, want)
	}
}

func TestShareResponse(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		id     string
		err    string
	}{
		{201, `{"id":"AbCdEfGh0123-_xY","url":"x"}`, "AbCdEfGh0123-_xY", ""},
		{200, `{"id":"AbCdEfGh0123-_xY"}`, "AbCdEfGh0123-_xY", ""},
		{413, `{"error":"the share document is larger than 256 KiB"}`, "", "larger than 256 KiB"},
		{429, `{"error":"too many requests"}`, "", "too many"},
		{200, `{"id":"<script>"}`, "", "HTTP 200"},
		{502, `<html>bad gateway</html>`, "", "HTTP 502"},
	} {
		id, err := ShareResponse(tc.status, tc.body)
		if id != tc.id || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ShareResponse(%d, %s) = %q, %v; want %q, %q", tc.status, tc.body, id, err, tc.id, tc.err)
		}
	}
}

func TestFetchProblem(t *testing.T) {
	for _, tc := range []struct {
		status  int
		offline bool
		want    string
	}{
		{404, false, "No model is shared"},
		{0, true, "You are offline"},
		{0, false, "could not be reached"},
		{429, false, "wait a minute"},
		{500, false, "HTTP 500"},
	} {
		if got := FetchProblem(tc.status, tc.offline); !strings.Contains(got, tc.want) {
			t.Errorf("FetchProblem(%d, %v) = %q, want %q", tc.status, tc.offline, got, tc.want)
		}
	}
}

func TestLessonPanel(t *testing.T) {
	a := &App{Lesson: &Lesson{Title: "W", Items: []LessonItem{{Title: "a"}, {Title: "b"}}}, LessonAt: 1}
	c := &LessonPanel{App: a}
	if c.Count() != "2 models" || c.ItemClass(1) != "lesson-item current" || c.ItemClass(0) != "lesson-item" || c.Current(1) != "true" {
		t.Errorf("Count %q, classes %q %q", c.Count(), c.ItemClass(0), c.ItemClass(1))
	}
	a.Draft = []LessonItem{{Title: "x"}, {Title: "y"}, {Title: "z"}}
	a.RemoveFromLesson(1)
	a.RemoveFromLesson(7)
	if len(a.Draft) != 2 || a.Draft[1].Title != "z" {
		t.Errorf("RemoveFromLesson: %+v", a.Draft)
	}
	a.CloseLesson()
	if a.Lesson != nil || (&LessonPanel{App: a}).Count() != "" {
		t.Errorf("CloseLesson left %+v", a.Lesson)
	}
}
