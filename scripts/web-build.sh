#!/usr/bin/env bash
# web-build.sh: build the Locus web app into public/.
#   - vugu gen for ui/ (the generated *_gen.go are committed; this keeps them current)
#   - public/locus-ui.wasm (the page) and public/engine.wasm (the engine Worker)
#   - public/dist/app.{js,css}: CodeMirror, uPlot and the page's JS/CSS, bundled by esbuild
#   - public/dist/graph-worker.js: Graphviz (@viz-js/viz) for the state graph, loaded on first use
#   - public/wasm_exec.js from this Go's GOROOT
#   - examples, icons, .gz files and the service worker (web/sitegen), .br files (scripts/brotli.mjs)
# Idempotent; unchanged inputs are not rebuilt (Go's build cache, a stamp for esbuild).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ ! -x node_modules/.bin/esbuild ]; then
	echo "web-build.sh: node_modules is missing; run: npm ci" >&2
	exit 1
fi
mkdir -p public/dist .web-build

# 1. vugu gen, then gofmt (vugu's output is not gofmt'd). Only when a .vugu changed.
if [ -n "$(find ui -maxdepth 1 -name '*.vugu' -newer .web-build/vugu.stamp 2>/dev/null)" ] || [ ! -f .web-build/vugu.stamp ]; then
	go tool vugu gen --skip-go-mod --skip-main ui
	rm -f ui/0_missing_gen.go
	# vugu's template leaves a note to its own authors in every event
	# handler; it is not ours to act on.
	sed -i '/TODO: implement capture, etc. mostly need to decide syntax/d' ui/*_gen.go
	gofmt -w ui/*_gen.go
	touch .web-build/vugu.stamp
fi

# 2. The two wasm binaries. The page must not link the engine.
if GOOS=js GOARCH=wasm go list -deps ./ui/app | grep '^github.com/locus-mc/locus/core/' | grep -qv '^github.com/locus-mc/locus/core/job$'; then
	echo "web-build.sh: ui/app imports core/ (the engine); it must talk to it only through wasm/protocol (core/job, the plain types, is allowed)" >&2
	exit 1
fi
GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o public/locus-ui.wasm.tmp ./ui/app
GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o public/engine.wasm.tmp ./wasm/worker
for f in locus-ui engine; do
	# keep the old file (and its mtime) when the build is byte-identical
	if cmp -s "public/$f.wasm.tmp" "public/$f.wasm"; then rm "public/$f.wasm.tmp"; else mv "public/$f.wasm.tmp" "public/$f.wasm"; fi
done

# 3. JavaScript and CSS bundle.
if [ ! -f public/dist/app.js ] || [ -n "$(find web/src package-lock.json -newer public/dist/app.js -type f 2>/dev/null)" ]; then
	node_modules/.bin/esbuild web/src/app.js --bundle --minify --sourcemap --format=iife --target=es2020 \
		--outdir=public/dist --entry-names=app --log-level=warning
	node_modules/.bin/esbuild web/src/graph-worker.js --bundle --minify --format=iife --target=es2020 \
		--outfile=public/dist/graph-worker.js --log-level=warning
fi

# 4. wasm_exec.js must match the Go that built the binaries.
wasm_exec="$(go env GOROOT)/lib/wasm/wasm_exec.js"
cmp -s "$wasm_exec" public/wasm_exec.js || cp "$wasm_exec" public/wasm_exec.js

# 5. Examples, icons, .gz, service worker; then .br (Node's zlib has Brotli, Go's standard library does not).
go run ./web/sitegen -public public -examples examples -sw web/src/sw.js
node scripts/brotli.mjs public
