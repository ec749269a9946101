// This file is the share flow's bridge to the browser: HTTP to the edge
// backend, the Cache API (so a short link opened once works offline), the
// saved share mode and the page's address.

package ui

import (
	"github.com/vugu/vugu/js"
)

// httpTimeoutMS bounds every request to the edge: a Share click must not
// hang on a network that silently drops packets.
const httpTimeoutMS = 15000

func jsObject() js.Value { return js.Global().Get("Object").New() }

// httpDo sends a request and returns the status and body text. status is
// 0 with an error when there was no answer (offline, refused, timed out).
func httpDo(method, url, body string) (status int, text string, err error) {
	init := jsObject()
	init.Set("method", method)
	if body != "" {
		h := jsObject()
		h.Set("Content-Type", "application/json")
		init.Set("headers", h)
		init.Set("body", body)
	}
	if as := js.Global().Get("AbortSignal"); as.Truthy() && as.Get("timeout").Truthy() {
		init.Set("signal", as.Call("timeout", httpTimeoutMS))
	}
	res, err := await(js.Global().Call("fetch", url, init))
	if err != nil {
		return 0, "", err
	}
	t, err := await(res.Call("text"))
	if err != nil {
		return 0, "", err
	}
	return res.Get("status").Int(), t.String(), nil
}

// sharedCache is the Cache API cache of shared documents; web/src/sw.js
// answers api/share/{id} from it. Ids are content hashes, so entries never
// go stale and outlive app versions.
const sharedCache = "shared-models"

// cacheSharedDocument keeps a shared document for offline use. Failure
// (no Cache API, storage full) only costs offline access.
func cacheSharedDocument(url, doc string) {
	caches := js.Global().Get("caches")
	if !caches.Truthy() {
		return
	}
	c, err := await(caches.Call("open", sharedCache))
	if err != nil {
		return
	}
	init := jsObject()
	h := jsObject()
	h.Set("Content-Type", "application/json; charset=utf-8")
	init.Set("headers", h)
	await(c.Call("put", url, js.Global().Get("Response").New(doc, init)))
}

// online is navigator.onLine: false means surely offline.
func online() bool {
	v := js.Global().Get("navigator").Get("onLine")
	return v.IsUndefined() || v.Truthy()
}

// appRoot is the app's root URL (ending in '/'), also on /s/{id} pages,
// whose <base href="/"> points there.
func appRoot() string {
	return js.Global().Get("URL").New("./", js.Global().Get("document").Get("baseURI")).Get("href").String()
}

// pageHref is the page's full address.
func pageHref() string { return js.Global().Get("location").Get("href").String() }

// setAddress replaces the page's address without a new history entry.
func setAddress(url string) {
	js.Global().Get("history").Call("replaceState", js.Null(), "", url)
}

// storageGet and storageSet keep a setting in localStorage; a browser that
// refuses (private mode, disabled storage) just does not remember it.
func storageGet(key string) (v string) {
	defer func() { recover() }()
	s := js.Global().Get("localStorage")
	if !s.Truthy() {
		return ""
	}
	if r := s.Call("getItem", key); r.Type() == js.TypeString {
		return r.String()
	}
	return ""
}

func storageSet(key, value string) {
	defer func() { recover() }()
	if s := js.Global().Get("localStorage"); s.Truthy() {
		s.Call("setItem", key, value)
	}
}
