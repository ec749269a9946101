//go:build js && wasm

// Command app is the Locus page: the vugu UI compiled to WebAssembly and
// started by public/dist/app.js. It renders ui.Root into #app and talks to
// the engine only through Web Workers (wasm/protocol), so it does not link
// the engine.
package main

import (
	"log"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"

	"github.com/locus-mc/locus/ui"
)

func main() {
	renderer, err := domrender.New("#app")
	if err != nil {
		log.Fatal(err)
	}
	defer renderer.Release()
	env, err := vugu.NewBuildEnv(renderer.EventEnv())
	if err != nil {
		log.Fatal(err)
	}
	root := &ui.Root{}
	for ok := true; ok; ok = renderer.EventWait() {
		if err := renderer.Render(env.RunBuild(root)); err != nil {
			log.Fatal(err)
		}
	}
}
