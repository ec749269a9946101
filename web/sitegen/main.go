// Command sitegen finishes the static site in public/ after the wasm and
// JavaScript builds: it copies the example models with an index, draws the
// app icons, precompresses the large files and writes the service worker
// with the list and hash of everything it must cache.
//
//	sitegen -public public -examples examples -sw web/src/sw.js
//
// Every step rewrites a file only when its content changes, so running it
// again on an unchanged tree changes nothing and the service worker version
// stays the same.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	public := flag.String("public", "public", "the site folder")
	examples := flag.String("examples", "examples", "folder of example .m models")
	sw := flag.String("sw", "web/src/sw.js", "service worker template")
	flag.Parse()
	if err := run(*public, *examples, *sw); err != nil {
		fmt.Fprintln(os.Stderr, "sitegen:", err)
		os.Exit(1)
	}
}

func run(public, examples, swTemplate string) error {
	if err := copyExamples(examples, public); err != nil {
		return err
	}
	if err := writeIcons(public); err != nil {
		return err
	}
	version, err := writeServiceWorker(public, swTemplate)
	if err != nil {
		return err
	}
	os.Remove(filepath.Join(public, "sw.js.gz")) // from older builds
	if err := compress(public); err != nil {
		return err
	}
	fmt.Println("site version", version)
	return nil
}

// writeIfChanged writes data to name unless name already holds exactly it.
func writeIfChanged(name string, data []byte) error {
	if old, err := os.ReadFile(name); err == nil && string(old) == string(data) {
		return nil
	}
	return os.WriteFile(name, data, 0o644)
}
