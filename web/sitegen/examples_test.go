package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDescribe(t *testing.T) {
	src := "-- Peterson's algorithm.\n--\n-- Two processes\n-- take turns.\n\nvar x: boolean;\n-- not part of it\n"
	got := describe("peterson.m", src)
	want := Example{File: "peterson.m", Title: "Peterson's algorithm", Description: "Two processes take turns."}
	if got != want {
		t.Errorf("describe = %+v, want %+v", got, want)
	}
	if got := describe("bare.m", "var x: boolean;"); got.Title != "bare" || got.Description != "" {
		t.Errorf("describe(no comment) = %+v", got)
	}
}

func TestLessonsOrderTheIndex(t *testing.T) {
	from, public := t.TempDir(), t.TempDir()
	for name, src := range map[string]string{"a.m": "-- Alpha.\nvar x: boolean;\n", "b.m": "-- Beta.\n", "c.m": "-- Gamma.\n"} {
		if err := os.WriteFile(filepath.Join(from, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lessons := `[{"lesson": "L1", "examples": [{"file": "c.m", "title": "Cee", "teaches": "c things"}, {"file": "a.m"}]}]`
	if err := os.WriteFile(filepath.Join(from, "lessons.json"), []byte(lessons), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyExamples(from, public); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(public, "examples", "index.json"))
	var got []Example
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := []Example{
		{File: "c.m", Title: "Cee", Description: "c things", Lesson: "L1", Teaches: "c things"},
		{File: "a.m", Title: "Alpha", Lesson: "L1"},
		{File: "b.m", Title: "Beta", Lesson: "More examples"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("index:\n%+v\nwant\n%+v", got, want)
	}
	os.WriteFile(filepath.Join(from, "lessons.json"), []byte(`[{"lesson": "L", "examples": [{"file": "missing.m"}]}]`), 0o644)
	if err := copyExamples(from, public); err == nil {
		t.Fatal("a lesson naming a missing file is accepted")
	}
}
