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
	var index []Example
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		base := filepath.Base(name)
		keep[base] = true
		index = append(index, describe(base, string(src)))
		if err := writeIfChanged(filepath.Join(out, base), src); err != nil {
			return err
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
