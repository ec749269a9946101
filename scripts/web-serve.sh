#!/usr/bin/env bash
# web-serve.sh PORT: serve the built web app (public/) on http://localhost:PORT.
# Set LOCUS_HOST=0.0.0.0 to let other machines (a classroom) reach it.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:-8080}"
if [ ! -f public/index.html ] || [ ! -f public/engine.wasm ]; then
	echo "web-serve.sh: public/ is not built; run scripts/web-build.sh first" >&2
	exit 1
fi
mkdir -p bin
go build -o bin/locus-serve ./cmd/locus-serve
exec bin/locus-serve -dir public -addr "${LOCUS_HOST:-localhost}:$port"
