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
	// Each precached file with the SHA-256 of its content: the service
	// worker takes what the page already loaded from the HTTP cache and
	// checks it is this build's (see web/src/sw.js).
	index, err := fileHash(filepath.Join(public, "index.html"))
	if err != nil {
		return "", err
	}
	entries := [][2]string{{"./", index}}
	var lazy []string
	for _, rel := range list {
		if rel == "index.html" {
			continue // the same page as "./", which the worker serves for it
		}
		if isLazy(rel) {
			lazy = append(lazy, rel)
			continue
		}
		sum, err := fileHash(filepath.Join(public, filepath.FromSlash(rel)))
		if err != nil {
			return "", err
		}
		entries = append(entries, [2]string{rel, sum})
	}
	b, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return "", err
	}
	lb, err := json.Marshal(lazy)
	if err != nil {
		return "", err
	}
	out := strings.ReplaceAll(string(tmpl), "__VERSION__", version)
	out = strings.ReplaceAll(out, "__ASSETS__", string(b))
	out = strings.ReplaceAll(out, "__LAZY__", string(lb))
	if !strings.Contains(out, version) || strings.Contains(out, "__ASSETS__") || strings.Contains(out, "__LAZY__") {
		return "", fmt.Errorf("%s lacks the __VERSION__, __ASSETS__ or __LAZY__ placeholder", template)
	}
	return version, writeIfChanged(filepath.Join(public, "sw.js"), []byte(out))
}

func fileHash(name string) (string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// isLazy reports files the app loads only when a feature is first used
// (the Graphviz worker of the state graph) or only to install the app (the
// large icons): the service worker caches them when they are first
// fetched, not at install, so they are not part of the first load.
func isLazy(rel string) bool {
	return rel == "dist/graph-worker.js" || rel == "icons/icon-512.png" || rel == "icons/icon-maskable-512.png"
}
