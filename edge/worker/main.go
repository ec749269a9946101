//go:build js && wasm

// Command worker is Locus's Cloudflare Worker: edge.Handler over the
// bindings named in edge/wrangler.jsonc. Build it with edge/build.sh.
package main

import (
	"log"
	"net/http"
	"strings"

	"github.com/locus-mc/locus/edge"
	"github.com/locus-mc/locus/edge/cf"
)

// Binding names; edge/wrangler.jsonc declares them.
const (
	kvBinding    = "SHARES"
	writeLimit   = "SHARE_WRITE_LIMIT"
	readLimit    = "SHARE_READ_LIMIT"
	assetBinding = "ASSETS"
	originsVar   = "ALLOWED_ORIGINS" // comma-separated origins besides the Worker's own
)

func main() {
	store, err := cf.NewKV(kvBinding)
	if err != nil {
		log.Printf("worker: %v", err)
		cf.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "this Worker has no KV namespace bound as "+kvBinding+" (see edge/wrangler.jsonc)", http.StatusInternalServerError)
		}))
		return
	}
	shell, static := cf.Assets(assetBinding)
	var origins []string
	for _, o := range strings.Split(cf.Getenv(originsVar), ",") {
		if o = strings.TrimSpace(o); o != "" {
			origins = append(origins, strings.TrimSuffix(o, "/"))
		}
	}
	cf.Serve(edge.Handler(edge.Config{
		KV:             store,
		Writes:         cf.NewLimiter(writeLimit),
		Reads:          cf.NewLimiter(readLimit),
		Shell:          shell,
		Static:         static,
		AllowedOrigins: origins,
	}))
}
