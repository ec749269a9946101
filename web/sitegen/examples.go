// This file copies the example models into the site with an index.

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Example is one entry of examples/index.json, read by the UI.
type Example struct {
	File        string `json:"file"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Lesson      string `json:"lesson,omitempty"`
	Teaches     string `json:"teaches,omitempty"`
}

// lessonFile groups the examples into lessons (examples/lessons.json):
// the order, a title for files whose first comment is a licence, and a
// sentence on what each teaches.
type lessonFile []struct {
	Lesson   string `json:"lesson"`
	Examples []struct {
		File    string `json:"file"`
		Title   string `json:"title"`
		Teaches string `json:"teaches"`
	} `json:"examples"`
}

// describe takes an example's title from its first comment line and its
// description from the comment lines right after it.
func describe(file, src string) Example {
	ex := Example{File: file}
	var desc []string
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "--") {
			break
		}
		text := strings.TrimSpace(strings.TrimPrefix(line, "--"))
		if ex.Title == "" {
			ex.Title = text
		} else if text != "" {
			desc = append(desc, text)
		}
	}
	ex.Title = strings.TrimSuffix(ex.Title, ".")
	if ex.Title == "" {
		ex.Title = strings.TrimSuffix(file, ".m")
	}
	ex.Description = strings.Join(desc, " ")
	return ex
}

func copyExamples(from, public string) error {
	names, err := filepath.Glob(filepath.Join(from, "*.m"))
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("no example models in %s", from)
	}
	sort.Strings(names)
	out := filepath.Join(public, "examples")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	keep := map[string]bool{"index.json": true}
	byFile := map[string]Example{}
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		base := filepath.Base(name)
		keep[base] = true
		byFile[base] = describe(base, string(src))
		if err := writeIfChanged(filepath.Join(out, base), src); err != nil {
			return err
		}
	}
	var index []Example
	var lessons lessonFile
	if b, err := os.ReadFile(filepath.Join(from, "lessons.json")); err == nil {
		if err := json.Unmarshal(b, &lessons); err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(from, "lessons.json"), err)
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	for _, l := range lessons {
		for _, e := range l.Examples {
			ex, ok := byFile[e.File]
			if !ok {
				return fmt.Errorf("lessons.json names %s, which is not in %s", e.File, from)
			}
			if e.Title != "" {
				ex.Title = e.Title
			}
			ex.Lesson, ex.Teaches = l.Lesson, e.Teaches
			if e.Teaches != "" {
				ex.Description = e.Teaches // the header of a shipped file may be its licence
			}
			index = append(index, ex)
			delete(byFile, e.File)
		}
	}
	for _, name := range names {
		if ex, ok := byFile[filepath.Base(name)]; ok {
			ex.Lesson = "More examples"
			index = append(index, ex)
		}
	}
	// Remove examples that are no longer shipped.
	old, _ := os.ReadDir(out)
	for _, e := range old {
		if !keep[e.Name()] {
			os.Remove(filepath.Join(out, e.Name()))
		}
	}
	b, err := json.MarshalIndent(index, "", "  ")
	if err != nil {
		return err
	}
	return writeIfChanged(filepath.Join(out, "index.json"), append(b, '\n'))
}
