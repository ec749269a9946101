//go:build js && wasm

package main

// testCrash, set only in engines built with the locustestcrash tag (see
// crash_hook.go), crashes a check on purpose so that the browser tests can
// see every kind of engine crash end the run in the page.
var testCrash func(source string)
