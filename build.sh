#!/usr/bin/env bash
# build.sh: the two commands the README promises.
#   ./build.sh serve [PORT]   build everything and serve the app (http://localhost:8080)
#   ./build.sh test           every test: gofmt, go vet, go test (conformance included),
#                             core under js/wasm in Node, storage under Node + fake-indexeddb,
#                             the browser tests in headless Chromium, and the edge
#                             Worker under wrangler dev
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$(go env GOROOT)/lib/wasm:$PATH"

step() { printf '\n== %s\n' "$*"; }

# conformance runs the corpus test and shows its tally and skips.
conformance() {
	local log
	log=$(mktemp)
	if [ "$1" = js ]; then
		GOOS=js GOARCH=wasm go test -count=1 -timeout 30m -v -run TestConformance ./core/conformance >"$log" 2>&1 || { cat "$log"; rm -f "$log"; exit 1; }
	else
		go test -count=1 -timeout 30m -v -run TestConformance ./core/conformance >"$log" 2>&1 || { cat "$log"; rm -f "$log"; exit 1; }
	fi
	grep -E 'skip |deviation |js/wasm:' "$log" | sed 's/^ *conformance_test.go:[0-9]*: /  /' || true
	grep -E '^conformance:' "$log"
	rm -f "$log"
}

build_cli() {
	mkdir -p bin
	go build -o bin/locus ./cmd/locus
}

ensure_npm() {
	if [ ! -d node_modules ] || [ package.json -nt node_modules/.package-lock.json ]; then
		npm ci --no-audit --no-fund >/dev/null
	fi
}

case "${1:-}" in
serve)
	port="${2:-${PORT:-8080}}"
	build_cli
	if [ -x scripts/web-build.sh ]; then
		ensure_npm
		scripts/web-build.sh
		exec scripts/web-serve.sh "$port"
	fi
	# Until the browser app exists: check a shipped example with the CLI.
	exec bin/locus check examples/peterson.m
	;;
test)
	step "gofmt"
	bad=$(gofmt -l $(git ls-files '*.go' | grep -v '^node_modules/') 2>/dev/null || true)
	if [ -n "$bad" ]; then echo "gofmt needed on:"; echo "$bad"; exit 1; fi
	step "go vet"
	go vet ./...
	GOOS=js GOARCH=wasm go vet ./...
	step "go test"
	# core/explore alone takes 7-9 minutes on two slow cores (it builds the
	# translated programs its comparisons run): past go test's default 10.
	go test -timeout 30m $(go list ./... | grep -v /core/conformance)
	step "conformance (../shared/models)"
	conformance ""
	step "go test (js/wasm under Node): core"
	GOOS=js GOARCH=wasm go test -timeout 30m $(GOOS=js GOARCH=wasm go list ./core/... | grep -v /core/conformance)
	step "conformance under js/wasm"
	conformance "js"
	if [ -d storagefs ] && ls storagefs/*_test.go >/dev/null 2>&1; then
		step "go test (js/wasm under Node + fake-indexeddb): storagefs"
		ensure_npm
		NODE_OPTIONS=--require=fake-indexeddb/auto GOOS=js GOARCH=wasm go test ./storagefs/...
	fi
	if ls web/test/*.test.mjs >/dev/null 2>&1; then
		step "browser tests (headless Chromium)"
		ensure_npm
		[ -x scripts/web-build.sh ] && scripts/web-build.sh
		node --test --test-concurrency=1 web/test/
	fi
	if [ -f edge/test/edge.test.mjs ]; then
		step "edge: the Worker under wrangler dev (local workerd, no network)"
		ensure_npm
		[ -x scripts/web-build.sh ] && scripts/web-build.sh
		node --test --test-concurrency=1 edge/test/
	fi
	echo
	echo "all tests passed"
	;;
*)
	echo "usage: ./build.sh serve [PORT] | ./build.sh test" >&2
	exit 2
	;;
esac
