#!/usr/bin/env bash
# edge/build.sh: build the Worker into edge/build/ for wrangler (edge/wrangler.jsonc):
# syumai/workers's JavaScript glue (worker.mjs, runtime.mjs, wasm_exec.js) and
# the Go program as app.wasm. The site it serves is public/ (scripts/web-build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
out=edge/build
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go tool workers-assets-gen -mode=go -o "$tmp"
GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o "$tmp/app.wasm" ./edge/worker
# Replace only what changed, so a running `wrangler dev` reloads only when needed.
for f in "$tmp"/*; do
	cmp -s "$f" "$out/$(basename "$f")" || cp "$f" "$out/"
done
