package edge

import (
	"strings"
	"testing"
)

func TestParseDocumentSameID(t *testing.T) {
	// The same model and options give the same id however they are spelled.
	base, err := ParseDocument([]byte(`{"model":"var x: boolean;\n","options":{"algorithm":"dfs","memory_mb":64}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !ValidID(base.ID) || base.Models != 1 || base.Lesson {
		t.Fatalf("ParseDocument = %+v", base)
	}
	for _, same := range []string{
		`{ "options": {"memory_mb": 64.0, "algorithm": "dfs"}, "model": "var x: boolean;\n" }`,
		`{"model":"var x: boolean;\u000a","options":{"memory_mb":6.4e1,"algorithm":"\u0064fs"}}`,
	} {
		d, err := ParseDocument([]byte(same))
		if err != nil {
			t.Fatalf("ParseDocument(%s): %v", same, err)
		}
		if d.ID != base.ID || string(d.Canonical) != string(base.Canonical) {
			t.Errorf("ParseDocument(%s) = %s %s, want %s %s", same, d.ID, d.Canonical, base.ID, base.Canonical)
		}
	}
	for _, other := range []string{
		`{"model":"var x: boolean;\n","options":{"algorithm":"bfs","memory_mb":64}}`,
		`{"model":"var x: boolean; \n","options":{"algorithm":"dfs","memory_mb":64}}`,
		`{"model":"var x: boolean;\n","options":{"algorithm":"dfs","memory_mb":"64"}}`,
	} {
		d, err := ParseDocument([]byte(other))
		if err != nil {
			t.Fatalf("ParseDocument(%s): %v", other, err)
		}
		if d.ID == base.ID {
			t.Errorf("ParseDocument(%s) has the same id as a different document", other)
		}
	}
	// Absent and empty options are the same thing.
	a, _ := ParseDocument([]byte(`{"model":"m"}`))
	b, _ := ParseDocument([]byte(`{"model":"m","options":{}}`))
	if a == nil || b == nil || a.ID != b.ID || string(a.Canonical) != `{"model":"m","options":{}}` {
		t.Errorf("absent vs empty options: %+v, %+v", a, b)
	}
}

func TestParseDocumentLesson(t *testing.T) {
	d, err := ParseDocument([]byte(`{"title":" Mutual exclusion ","models":[
		{"title":"Peterson","model":"-- p\n","options":{"filename":"peterson.m"}},
		{"model":"-- d\n"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"models":[{"model":"-- p\n","options":{"filename":"peterson.m"},"title":"Peterson"},{"model":"-- d\n","options":{},"title":""}],"title":"Mutual exclusion"}`
	if string(d.Canonical) != want || !d.Lesson || d.Models != 2 || d.Title != "Mutual exclusion" {
		t.Errorf("lesson = %+v\n canonical %s\n want      %s", d, d.Canonical, want)
	}
}

func TestParseDocumentRejects(t *testing.T) {
	many := `{"models":[` + strings.Repeat(`{"model":"m"},`, MaxLessonModels) + `{"model":"m"}]}`
	for _, tc := range []struct {
		name, body, want string
	}{
		{"binary", "\x00\x01\x02\xff\xfe", "not UTF-8"},
		{"latin-1 inside JSON", "{\"model\":\"caf\xe9\"}", "not UTF-8"},
		{"empty", "", "empty"},
		{"not an object", `["model"]`, "expected a JSON object"},
		{"a string", `"var x: boolean;"`, "expected a JSON object"},
		{"bad JSON", `{"model": }`, "invalid JSON"},
		{"cut off", `{"model": "abc`, "cut off"},
		{"trailing data", `{"model":"m"} {}`, "more after"},
		{"unknown field", `{"model":"m","extra":1}`, `unknown field "extra"`},
		{"model missing", `{"options":{}}`, "model is missing"},
		{"model empty", `{"model":"  \n"}`, "model is empty"},
		{"model not text", `{"model":"var\u0000x"}`, "U+0000"},
		{"escape control", `{"model":"\u001b[31m"}`, "U+001B"},
		{"lone high surrogate", `{"model":"a\ud800b"}`, "lone UTF-16 surrogate"},
		{"lone low surrogate", `{"model":"\udc00"}`, "lone UTF-16 surrogate"},
		{"reversed pair", `{"model":"\udc00\ud800"}`, "lone UTF-16 surrogate"},
		{"model a number", `{"model":42}`, `"model" must not be a JSON number`},
		{"options a list", `{"model":"m","options":[1]}`, `"options" must not be a JSON array`},
		{"nested option", `{"model":"m","options":{"a":{"b":1}}}`, "options.a must be a string"},
		{"null option", `{"model":"m","options":{"a":null}}`, "options.a must be a string"},
		{"option key", `{"model":"m","options":{"Bad Key":1}}`, "lowercase name"},
		{"long option", `{"model":"m","options":{"a":"` + strings.Repeat("x", MaxOptionBytes+1) + `"}}`, "longer than"},
		{"option newline", `{"model":"m","options":{"filename":"a\nb"}}`, "U+000A"},
		{"huge number", `{"model":"m","options":{"a":1e999}}`, "out of range"},
		{"title without lesson", `{"title":"t","model":"m"}`, "belongs to a lesson"},
		{"lesson with model", `{"models":[{"model":"m"}],"model":"m"}`, "belong to each"},
		{"empty lesson", `{"models":[]}`, "1 to 100 models, not 0"},
		{"too many", many, "not 101"},
		{"lesson item model missing", `{"models":[{"model":"m"},{"title":"x"}]}`, "models[1].model is missing"},
		{"lesson item unknown field", `{"models":[{"model":"m","x":1}]}`, `unknown field "x"`},
		{"long title", `{"title":"` + strings.Repeat("é", MaxTitleRunes+1) + `","models":[{"model":"m"}]}`, "201 characters"},
		{"title newline", `{"title":"a\nb","models":[{"model":"m"}]}`, "title holds the control character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseDocument([]byte(tc.body))
			if err == nil {
				t.Fatalf("ParseDocument accepted it: %s", d.Canonical)
			}
			if _, ok := err.(*InputError); !ok {
				t.Errorf("error %v is a %T, want *InputError", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestParseDocumentKeepsText(t *testing.T) {
	// Any Unicode, paired surrogates, tabs, CR LF and form feeds are text.
	d, err := ParseDocument([]byte(`{"model":"-- caf\u00e9 \ud83d\ude00 ☃\r\n\tx\f<script>&"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"model\":\"-- café \U0001F600 ☃\\r\\n\\tx\\f<script>&\",\"options\":{}}"
	if string(d.Canonical) != want {
		t.Errorf("canonical = %s, want %s", d.Canonical, want)
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"AbCdEfGh0123-_xY":  true,
		"AbCdEfGh0123-_x":   false, // 15
		"AbCdEfGh0123-_xYz": false,
		"AbCdEfGh0123+/xY":  false,
		"AbCdEfGh0123..xY":  false,
		"":                  false,
		"ÀbCdEfGh0123-_x":   false, // 16 bytes, not the alphabet
	} {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestFromWorkersKV(t *testing.T) {
	if _, ok, err := FromWorkersKV("<null>", nil); ok || err != nil {
		t.Errorf(`"<null>" = ok %v, err %v; want not found`, ok, err)
	}
	if v, ok, err := FromWorkersKV(`{"model":"m"}`, nil); !ok || err != nil || v != `{"model":"m"}` {
		t.Errorf("a value = %q, %v, %v", v, ok, err)
	}
	if _, ok, err := FromWorkersKV("", errTest); ok || err != errTest {
		t.Errorf("an error = ok %v, err %v", ok, err)
	}
}
