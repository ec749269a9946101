package edge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

var errTest = errors.New("KV is down")

const shell = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Locus · Murphi model checker</title>
<link rel="stylesheet" href="dist/app.css">
</head>
<body><div id="app"></div><script src="dist/app.js"></script></body>
</html>`

type fixture struct {
	t      *testing.T
	kv     *MemKV
	h      http.Handler
	now    time.Time
	writes *MemLimiter
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, kv: NewMemKV(), now: time.Unix(1e9, 0)}
	clock := func() time.Time { return f.now }
	f.writes = &MemLimiter{Limit: 5, Period: time.Minute, Now: clock}
	f.h = Handler(Config{
		KV:     f.kv,
		Writes: f.writes,
		Reads:  &MemLimiter{Limit: 1000, Period: time.Minute, Now: clock},
		Shell:  func(context.Context) ([]byte, error) { return []byte(shell), nil },
		Static: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "static "+r.URL.Path)
		}),
		AllowedOrigins: []string{"https://teacher.example"},
	})
	return f
}

type response struct {
	status int
	header http.Header
	body   string
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(r.body), &v); err != nil {
		t.Fatalf("body %q is not JSON: %v", r.body, err)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	return v
}

func (f *fixture) do(method, path string, body io.Reader, header ...string) response {
	f.t.Helper()
	req := httptest.NewRequest(method, "http://locus.test"+path, body)
	req.Header.Set("CF-Connecting-IP", "192.0.2.1")
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	return response{rec.Code, rec.Header(), rec.Body.String()}
}

func (f *fixture) post(body string, header ...string) response {
	f.t.Helper()
	return f.do(http.MethodPost, "/api/share", strings.NewReader(body), header...)
}

func TestShareAndFetch(t *testing.T) {
	f := newFixture(t)
	model := "-- a <b>model</b> & \"quotes\"\nvar x: boolean;\n"
	body, _ := json.Marshal(map[string]any{"model": model, "options": map[string]any{"filename": "x.m", "memory_mb": 64}})
	r := f.post(string(body))
	if r.status != http.StatusCreated {
		t.Fatalf("POST = %d %s", r.status, r.body)
	}
	v := r.json(t)
	id, _ := v["id"].(string)
	if !ValidID(id) || v["url"] != "http://locus.test/s/"+id || r.header.Get("Location") != v["url"] {
		t.Fatalf("POST answered %s (Location %q)", r.body, r.header.Get("Location"))
	}
	// Sharing it again is the same link, and is not stored twice.
	if r2 := f.post(string(body)); r2.status != http.StatusOK || r2.json(t)["id"] != id || f.kv.Puts != 1 {
		t.Errorf("second POST = %d %s, %d puts", r2.status, r2.body, f.kv.Puts)
	}

	g := f.do("GET", "/api/share/"+id, nil)
	if g.status != http.StatusOK {
		t.Fatalf("GET = %d %s", g.status, g.body)
	}
	got := g.json(t)
	if got["model"] != model || got["options"].(map[string]any)["filename"] != "x.m" {
		t.Errorf("GET = %s", g.body)
	}
	if cc := g.header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("Cache-Control = %q, want immutable", cc)
	}
	if g.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("no nosniff on a document with user text")
	}
	if nm := f.do("GET", "/api/share/"+id, nil, "If-None-Match", g.header.Get("ETag")); nm.status != http.StatusNotModified || nm.body != "" {
		t.Errorf("conditional GET = %d %q", nm.status, nm.body)
	}
	if h := f.do("HEAD", "/api/share/"+id, nil); h.status != http.StatusOK || h.body != "" {
		t.Errorf("HEAD = %d %q", h.status, h.body)
	}
}

func TestShareLesson(t *testing.T) {
	f := newFixture(t)
	r := f.post(`{"title":"Week 3","models":[{"title":"Peterson","model":"-- p\n"},{"title":"Dekker","model":"-- d\n","options":{"filename":"dekker.m"}}]}`)
	v := r.json(t)
	if r.status != http.StatusCreated || v["lesson"] != true || v["models"] != 2.0 {
		t.Fatalf("POST lesson = %d %s", r.status, r.body)
	}
	g := f.do("GET", "/api/share/"+v["id"].(string), nil).json(t)
	models := g["models"].([]any)
	if g["title"] != "Week 3" || len(models) != 2 || models[1].(map[string]any)["title"] != "Dekker" {
		t.Errorf("GET lesson = %v", g)
	}
}

func TestBadInput(t *testing.T) {
	f := newFixture(t)
	f.writes.Limit = 100
	big := `{"model":"` + strings.Repeat("x", MaxBody) + `"}`
	for _, tc := range []struct {
		name   string
		body   io.Reader
		header []string
		status int
		want   string
	}{
		{"oversized", strings.NewReader(big), nil, 413, "larger than 256 KiB"},
		// Without a Content-Length (chunked) the limit holds while reading.
		{"oversized, no length", io.MultiReader(strings.NewReader(big)), nil, 413, "larger than 256 KiB"},
		{"binary", strings.NewReader("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff"), nil, 400, "not UTF-8"},
		{"binary as a file", strings.NewReader("\x00\x01\x02"), []string{"Content-Type", "application/octet-stream"}, 415, "application/json"},
		{"form post", strings.NewReader("model=x"), []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "application/json"},
		{"not JSON", strings.NewReader("var x: boolean;"), nil, 400, "invalid JSON"},
		{"lone surrogate", strings.NewReader(`{"model":"\ud800"}`), nil, 400, "surrogate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do("POST", "/api/share", tc.body, tc.header...)
			if r.status != tc.status || !strings.Contains(r.json(t)["error"].(string), tc.want) {
				t.Errorf("POST = %d %s; want %d and %q", r.status, r.body, tc.status, tc.want)
			}
		})
	}
	if f.kv.Puts != 0 {
		t.Errorf("bad input stored %d documents", f.kv.Puts)
	}
}

func TestFetchIDs(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/api/share/AAAAAAAAAAAAAAAA", 404},
		{"/api/share/short", 400},
		{"/api/share/AAAAAAAAAAAAAAAAA", 400},
		{"/api/share/AAAAAAAA%2FAAAAAAA", 400},
		{"/api/share/AAAAAAAA.AAAAAAA", 400},
		{"/api/share/../../etc/passwd", 400},
		{"/api/share/", 400},
		{"/api/share/AAAAAAAAAAAAAAAA/x", 400},
		{"/api/other", 404},
		{"/api/sharex", 404},
	} {
		before := f.kv.Gets
		r := f.do("GET", tc.path, nil)
		if r.status != tc.status {
			t.Errorf("GET %s = %d %s, want %d", tc.path, r.status, r.body, tc.status)
		}
		if _, ok := r.json(t)["error"].(string); !ok {
			t.Errorf("GET %s: no JSON error in %s", tc.path, r.body)
		}
		if looked := f.kv.Gets - before; (tc.status == 404) != (looked == 1) && tc.path != "/api/other" && tc.path != "/api/sharex" {
			t.Errorf("GET %s made %d lookups", tc.path, looked)
		}
	}
	if f.kv.Gets != 1 {
		t.Errorf("%d KV lookups; only the well-formed unknown id may reach the store", f.kv.Gets)
	}
	if r := f.do("DELETE", "/api/share/AAAAAAAAAAAAAAAA", nil); r.status != 405 || r.header.Get("Allow") == "" {
		t.Errorf("DELETE = %d (Allow %q)", r.status, r.header.Get("Allow"))
	}
	if r := f.do("GET", "/api/share", nil); r.status != 405 {
		t.Errorf("GET /api/share = %d", r.status)
	}
}

func TestCORS(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		origin string
		status int
		acao   string
	}{
		{"", 201, ""},
		{"http://locus.test", 200, "http://locus.test"},
		{"https://teacher.example", 200, "https://teacher.example"},
		{"https://evil.example", 403, ""},
		{"http://locus.test.evil.example", 403, ""},
		{"null", 403, ""},
	} {
		var r response
		if tc.origin == "" {
			r = f.post(`{"model":"m"}`)
		} else {
			r = f.post(`{"model":"m"}`, "Origin", tc.origin)
		}
		if r.status != tc.status || r.header.Get("Access-Control-Allow-Origin") != tc.acao {
			t.Errorf("Origin %q: %d, ACAO %q; want %d, %q", tc.origin, r.status, r.header.Get("Access-Control-Allow-Origin"), tc.status, tc.acao)
		}
	}
	pre := f.do("OPTIONS", "/api/share", nil, "Origin", "https://teacher.example", "Access-Control-Request-Method", "POST")
	if pre.status != 204 || pre.header.Get("Access-Control-Allow-Origin") != "https://teacher.example" ||
		!strings.Contains(pre.header.Get("Access-Control-Allow-Methods"), "POST") || pre.header.Get("Access-Control-Allow-Headers") != "Content-Type" {
		t.Errorf("preflight = %d %v", pre.status, pre.header)
	}
	if bad := f.do("OPTIONS", "/api/share", nil, "Origin", "https://evil.example"); bad.status != 403 || bad.header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from another origin = %d %v", bad.status, bad.header)
	}
}

func TestRateLimit(t *testing.T) {
	f := newFixture(t)
	statuses := []int{}
	for i := 0; i < 7; i++ {
		statuses = append(statuses, f.post(`{"model":"m"}`).status)
	}
	if want := []int{201, 200, 200, 200, 200, 429, 429}; !equalInts(statuses, want) {
		t.Errorf("burst of 7 POSTs = %v, want %v", statuses, want)
	}
	r := f.post(`{"model":"m"}`)
	if r.status != 429 || r.header.Get("Retry-After") == "" || !strings.Contains(r.json(t)["error"].(string), "too many") {
		t.Errorf("over the limit: %d %s (Retry-After %q)", r.status, r.body, r.header.Get("Retry-After"))
	}
	// Another address is not limited; after the window the first is again.
	if r := f.post(`{"model":"m"}`, "CF-Connecting-IP", "198.51.100.7"); r.status != 200 {
		t.Errorf("another address = %d", r.status)
	}
	f.now = f.now.Add(time.Minute)
	if r := f.post(`{"model":"m"}`); r.status != 200 {
		t.Errorf("next window = %d", r.status)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSharePage(t *testing.T) {
	f := newFixture(t)
	evil := `</title><script>alert("x")</script>`
	id := f.post(`{"model":"-- <script>alert(1)</script>\n","options":{"filename":"` + strings.ReplaceAll(evil, `"`, `\"`) + `"}}`).json(t)["id"].(string)
	r := f.do("GET", "/s/"+id, nil)
	if r.status != 200 || r.header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("GET /s/%s = %d %s", id, r.status, r.header.Get("Content-Type"))
	}
	if r.header.Get("Cross-Origin-Opener-Policy") != "same-origin" || r.header.Get("Cross-Origin-Embedder-Policy") != "require-corp" {
		t.Errorf("GET /s/%s is not cross-origin isolated: COOP %q, COEP %q", id, r.header.Get("Cross-Origin-Opener-Policy"), r.header.Get("Cross-Origin-Embedder-Policy"))
	}
	if strings.Contains(r.body, "<script>alert") || strings.Contains(r.body, "-- ") {
		t.Errorf("the page echoes shared text unescaped:\n%s", r.body)
	}
	want := `<title>&lt;/title&gt;&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; · Locus</title>`
	if !strings.Contains(r.body, want) || !strings.Contains(r.body, `<meta property="og:title" content="&lt;/title&gt;`) {
		t.Errorf("the page lacks the escaped title %s:\n%s", want, r.body)
	}
	if !strings.Contains(r.body, "<head>\n<base href=\"/\">") || strings.Count(r.body, "<title>") != 1 {
		t.Errorf("the page lacks its <base> right after <head>:\n%s", r.body)
	}

	gets := f.kv.Gets
	for path, status := range map[string]int{"/s/AAAAAAAAAAAAAAAA": 404, "/s/not-an-id": 404, "/s/%3Cscript%3E": 404, "/s/": 404} {
		r := f.do("GET", path, nil)
		if r.status != status || !strings.Contains(r.body, `<div id="app">`) || !strings.Contains(r.body, "Share link not found") {
			t.Errorf("GET %s = %d, want %d and the app", path, r.status, status)
		}
		if strings.Contains(r.body, "script%3E") || strings.Contains(r.body, "<script>") {
			t.Errorf("GET %s echoes the path", path)
		}
	}
	if f.kv.Gets != gets+1 {
		t.Errorf("malformed ids reached the store (%d lookups, want 1)", f.kv.Gets-gets)
	}
	if r := f.do("POST", "/s/"+id, strings.NewReader("x")); r.status != 405 {
		t.Errorf("POST /s/ = %d", r.status)
	}
	// Lessons are named after their title.
	lid := f.post(`{"models":[{"model":"a"},{"model":"b"}]}`).json(t)["id"].(string)
	if r := f.do("GET", "/s/"+lid, nil); !strings.Contains(r.body, "<title>Lesson of 2 models · Locus</title>") {
		t.Errorf("lesson page title:\n%s", r.body)
	}
}

func TestStaticAndErrors(t *testing.T) {
	f := newFixture(t)
	if r := f.do("GET", "/dist/app.js", nil); r.body != "static /dist/app.js" {
		t.Errorf("static = %d %q", r.status, r.body)
	}
	// A store that fails answers 503, with JSON, and never a stack trace.
	h := Handler(Config{KV: failingKV{}, Shell: func(context.Context) ([]byte, error) { return []byte(shell), nil }})
	for _, tc := range []struct{ method, path, body string }{
		{"POST", "/api/share", `{"model":"m"}`},
		{"GET", "/api/share/AAAAAAAAAAAAAAAA", ""},
	} {
		req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 503 || !strings.Contains(rec.Body.String(), `"error"`) || strings.Contains(rec.Body.String(), "down") {
			t.Errorf("%s %s with a failing store = %d %s", tc.method, tc.path, rec.Code, rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/s/AAAAAAAAAAAAAAAA", nil))
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), `<div id="app">`) {
		t.Errorf("/s/ with a failing store = %d", rec.Code)
	}
	// No static handler: 404.
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != 404 {
		t.Errorf("no static handler: %d", rec.Code)
	}
}

type failingKV struct{}

func (failingKV) Get(string) (string, bool, error) { return "", false, errTest }
func (failingKV) Put(string, string) error         { return errTest }

func TestSharePageTags(t *testing.T) {
	// Tags in any case, with attributes, after text whose lowercase is longer (İ).
	got := string(SharePage([]byte("<!-- İİİ --><HTML><Head lang=x><TITLE>old</Title></HEAD><header>h</header>"), "new"))
	want := "<!-- İİİ --><HTML><Head lang=x>\n<base href=\"/\">\n<meta property=\"og:title\" content=\"new · Locus\">\n<meta property=\"og:type\" content=\"website\">\n<TITLE>new · Locus</Title></HEAD><header>h</header>"
	if got != want {
		t.Errorf("SharePage =\n%q\nwant\n%q", got, want)
	}
}

func TestSharePageWithoutHead(t *testing.T) {
	got := string(SharePage([]byte("<p>x</p>"), "a & b"))
	if !strings.HasPrefix(got, `<base href="/">`) || !strings.Contains(got, `content="a &amp; b · Locus"`) {
		t.Errorf("SharePage without <head> = %q", got)
	}
	long := strings.Repeat("x", 200)
	if got := string(SharePage([]byte(shell), long)); !strings.Contains(got, strings.Repeat("x", maxPageTitle-1)+"… · Locus") {
		t.Errorf("long titles are not shortened: %q", got)
	}
}
