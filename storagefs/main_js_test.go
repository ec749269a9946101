//go:build js && wasm

package storagefs_test

import (
	"os"
	"syscall/js"
	"testing"
)

// syncConsole makes Node's stdout and stderr writes synchronous for this
// test process. Under Node, Go writes them through the asynchronous
// fs.write, so a write made inside a JavaScript callback waits for a
// callback that cannot run: go-indexeddb logs a line from its versionchange
// handler when a test deletes a database under an open connection, and
// the process hung. Browsers' wasm_exec.js already writes synchronously.
const syncConsole = `
if (typeof process === "object" && process.versions && process.versions.node && typeof fs.writeSync === "function") {
	const write = fs.write;
	fs.write = function (fd, buf, off, len, pos, cb) {
		if (fd !== 1 && fd !== 2) return write.apply(fs, arguments);
		try { cb(null, fs.writeSync(fd, buf, off, len, pos)); } catch (e) { cb(e); }
	};
}`

func TestMain(m *testing.M) {
	js.Global().Get("Function").New("fs", syncConsole).Invoke(js.Global().Get("fs"))
	os.Exit(m.Run())
}
