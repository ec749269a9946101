// This file writes the service worker with the site's asset list and version.

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// assets lists the files under public the service worker caches, as
// relative URLs, sorted.
func assets(public string) ([]string, error) {
	var list []string
	err := filepath.WalkDir(public, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(public, name)
		rel = filepath.ToSlash(rel)
		// _headers configures the static host (Cloudflare), which does
		// not serve it.
		if d.IsDir() || strings.HasPrefix(filepath.Base(name), ".") || isBuildOutput(rel) || rel == "_headers" {
			return nil
		}
		list = append(list, rel)
		return nil
	})
	sort.Strings(list)
	return list, err
}

// writeServiceWorker fills the template's __VERSION__ (a hash of every
// asset's name and content, so any change makes browsers install the new
// build) and __ASSETS__, and returns the version.
func writeServiceWorker(public, template string) (string, error) {
	tmpl, err := os.ReadFile(template)
	if err != nil {
		return "", err
	}
	list, err := assets(public)
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		return "", fmt.Errorf("%s is empty", public)
	}
	h := sha256.New()
	h.Write(tmpl)
	for _, rel := range list {
		data, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(rel)))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", rel, len(data))
		h.Write(data)
	}
	version := hex.EncodeToString(h.Sum(nil))[:16]
	urls := append([]string{"./"}, list...)
	b, err := json.MarshalIndent(urls, "", "  ")
	if err != nil {
		return "", err
	}
	out := strings.ReplaceAll(string(tmpl), "__VERSION__", version)
	out = strings.ReplaceAll(out, "__ASSETS__", string(b))
	if !strings.Contains(out, version) || strings.Contains(out, "__ASSETS__") {
		return "", fmt.Errorf("%s lacks the __VERSION__ or __ASSETS__ placeholder", template)
	}
	return version, writeIfChanged(filepath.Join(public, "sw.js"), []byte(out))
}
