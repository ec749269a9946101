// This file precompresses the large files of the site for locus-serve.

package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
)

// compressible are the extensions worth sending gzipped (the wasm binaries
// shrink about 4x).
var compressible = map[string]bool{".wasm": true, ".js": true, ".css": true, ".json": true, ".m": true, ".html": true}

func compress(public string) error {
	return filepath.WalkDir(public, func(name string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[filepath.Ext(name)] || filepath.Base(name) == "sw.js" {
			return err // the service worker is small and must never be stale
		}
		info, err := d.Info()
		if err != nil || info.Size() < 1024 {
			return err
		}
		gz := name + ".gz"
		if gi, err := os.Stat(gz); err == nil && !gi.ModTime().Before(info.ModTime()) {
			return nil
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(src)
		if err := zw.Close(); err != nil {
			return err
		}
		return os.WriteFile(gz, b.Bytes(), 0o644)
	})
}

// isBuildOutput reports files the service worker must not cache.
func isBuildOutput(rel string) bool {
	return strings.HasSuffix(rel, ".gz") || strings.HasSuffix(rel, ".br") || strings.HasSuffix(rel, ".br.sum") ||
		strings.HasSuffix(rel, ".map") || rel == "sw.js"
}
