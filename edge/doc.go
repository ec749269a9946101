// Package edge is Locus's Cloudflare Workers backend: short share links
// for models and lessons, stored in Workers KV, next to the app's static
// site.
//
// The handlers here are plain net/http and run natively in tests against
// the in-memory MemKV and MemLimiter. The Workers runtime is reached only
// through edge/cf (the one package that imports github.com/syumai/workers),
// and edge/worker is the js/wasm program wrangler runs.
//
// Routes:
//
//	POST /api/share         {"model": text, "options": {...}} or a lesson
//	                        {"title": text, "models": [{"title", "model", "options"}...]}
//	                        → {"id", "url"}; the id is the first 16 characters of the
//	                        base64url SHA-256 of the document's canonical JSON (RFC 8785)
//	GET  /api/share/{id}    the stored document (immutable, so cached for a year)
//	GET  /s/{id}            the app's page, which loads the shared document
//	anything else           the static site (Workers static assets)
package edge
