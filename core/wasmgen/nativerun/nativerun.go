//go:build !js && !wasip1

// Package nativerun runs generated modules (core/wasmgen) as native code
// the way CMurphi runs its models: the module is translated to a Go
// program (translate.go), built once by the Go toolchain (the build is
// kept in the user's cache, keyed by the program's text), and run as a
// child process that serves the host's calls and memory reads and writes
// over a pipe. The search itself runs in the child without crossing the
// pipe: the host calls run for thousands of states at a time.
package nativerun

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/locus-mc/locus/core/wasmgen"
)

// Runtime builds and runs generated modules as native programs.
type Runtime struct {
	// CacheDir holds the built programs; "" is the user's cache
	// directory (os.UserCacheDir()/locus/native).
	CacheDir string
}

// Name implements wasmgen.Runtime.
func (Runtime) Name() string { return "go" }

// shareBytes is the memory a program shares with its host (see Share):
// address space, committed only where written. shareAlign is the
// alignment of what it shares: a page.
const (
	shareBytes = 64 << 20
	shareAlign = 4096
)

// Concurrent implements wasmgen.ConcurrentRuntime: every instance is a
// process of its own.
func (Runtime) Concurrent() bool { return true }

var goToolOnce = sync.OnceValues(func() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	if root := os.Getenv("GOROOT"); root != "" {
		p := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("native code generation needs the go command (https://go.dev/dl), which is not on PATH")
})

func goTool() (string, error) { return goToolOnce() }

// Instantiate implements wasmgen.Runtime: it builds the module's program
// (or finds it built) and starts it.
func (r Runtime) Instantiate(m *wasmgen.Module) (wasmgen.Instance, error) {
	return r.InstantiateContext(context.Background(), m)
}

// InstantiateContext implements wasmgen.ContextRuntime: cancelling ctx
// stops a build.
func (r Runtime) InstantiateContext(ctx context.Context, m *wasmgen.Module) (wasmgen.Instance, error) {
	if why := platform(); why != "" {
		return nil, errors.New(why)
	}
	bin, exports, err := r.build(ctx, m)
	if err != nil {
		return nil, err
	}
	return start(bin, exports)
}

// build returns the program for m, building it if it is not in the cache.
func (r Runtime) build(ctx context.Context, m *wasmgen.Module) (string, []string, error) {
	goCmd, err := goTool()
	if err != nil {
		return "", nil, err
	}
	root := r.CacheDir
	if root == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", nil, fmt.Errorf("nativerun: no cache directory for built models: %w", err)
		}
		root = filepath.Join(c, "locus", "native")
	}
	// A program is found by its module and the translator that made it:
	// this executable (a rebuilt locus translates again), or, where the
	// executable cannot be known, the translation itself. Translating a
	// large module takes a while (adash's: 0.3 s), which a program found
	// by its module does not pay.
	mod, err := decode(m.Code)
	if err != nil {
		return "", nil, err
	}
	exports := exportNames(mod)
	var src []byte
	key := sha256.New()
	if id := selfID(); id != "" {
		fmt.Fprintf(key, "%s\x00%d\x00%d\x00", id, mapNoReserve, madvHugePage)
		key.Write(m.Code)
	} else {
		if src, _, err = program(m.Code, mapNoReserve, madvHugePage); err != nil {
			return "", nil, err
		}
		key.Write(src)
	}
	key.Write([]byte(runtime.GOOS + "/" + runtime.GOARCH))
	dir := filepath.Join(root, hex.EncodeToString(key.Sum(nil)[:12]))
	bin := filepath.Join(dir, "model")
	if _, err := os.Stat(bin); err == nil {
		now := time.Now()
		os.Chtimes(dir, now, now) // recently used: pruned last
		return bin, exports, nil
	}
	if src == nil {
		if src, _, err = program(m.Code, mapNoReserve, madvHugePage); err != nil {
			return "", nil, err
		}
	}
	defer prune(root, maxCached)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, fmt.Errorf("nativerun: %w", err)
	}
	// Another process may build the same program at once: each builds in
	// a directory of its own and renames the result into place.
	work, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", nil, fmt.Errorf("nativerun: %w", err)
	}
	defer os.RemoveAll(work)
	if err := os.WriteFile(filepath.Join(work, "main.go"), src, 0o644); err != nil {
		return "", nil, fmt.Errorf("nativerun: %w", err)
	}
	if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte("module locusmodel\n\ngo 1.21\n"), 0o644); err != nil {
		return "", nil, fmt.Errorf("nativerun: %w", err)
	}
	cmd := exec.CommandContext(ctx, goCmd, "build", "-trimpath", "-o", "model", ".")
	killGroup(cmd)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(work)
		os.Remove(dir) // if empty: no program was built there
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		msg := strings.TrimSpace(string(out))
		if len(msg) > 2000 {
			msg = msg[:2000] + " …"
		}
		return "", nil, fmt.Errorf("nativerun: building the model's program failed: %v: %s", err, msg)
	}
	// The source stays beside the program, for profiles and bug reports.
	os.Rename(filepath.Join(work, "main.go"), filepath.Join(dir, "main.go"))
	if err := os.Rename(filepath.Join(work, "model"), bin); err != nil {
		if _, statErr := os.Stat(bin); statErr != nil {
			return "", nil, fmt.Errorf("nativerun: %w", err)
		}
	}
	return bin, exports, nil
}

// selfID identifies this executable's build (its path, size and time),
// or is "" if it cannot be known.
var selfID = sync.OnceValue(func() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	st, err := os.Stat(p)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s\x00%d\x00%d", p, st.Size(), st.ModTime().UnixNano())
})

// maxCached is how many built programs the cache keeps (each is a few
// MB): the least recently used beyond it are removed.
const maxCached = 32

// prune removes all but the keep most recently used programs of root.
func prune(root string, keep int) {
	entries, err := os.ReadDir(root)
	if err != nil || len(entries) <= keep {
		return
	}
	type built struct {
		path string
		used time.Time
	}
	var all []built
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() {
			all = append(all, built{filepath.Join(root, e.Name()), info.ModTime()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].used.After(all[j].used) })
	for _, b := range all[min(keep, len(all)):] {
		os.RemoveAll(b.path)
	}
}

// The protocol: the host sends requests, the program answers each.
//
//	call  'c' u32 export u32 n, n × u64   → 0 u64 result
//	read  'r' u32 addr u32 n              → 0, n bytes
//	write 'w' u32 addr u32 n, n bytes     → 0
//	share 's' u32 addr u32 n              → 0: the n bytes at addr are the
//	                                        next n of the shared memory
//
// A failed request is answered 1 u32 len, len bytes of message (a trap:
// a failed run-time check). On starting, the program answers 0 once it
// has its memory. Integers are little-endian.
type instance struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	w       *bufio.Writer
	r       *bufio.Reader
	stderr  *bytes.Buffer
	exports map[string]uint32
	dead    error
	buf     []byte
	// share is the memory the program shares with this process (its
	// file descriptor 3), nil where there is none; shared is how much of
	// it a Share gave out.
	share  []byte
	shared int
}

func start(bin string, exports []string) (*instance, error) {
	cmd := exec.Command(bin)
	// One goroutine computes and nothing is allocated: preempting it
	// every 10 ms (a signal each time) would only cost time.
	cmd.Env = append(os.Environ(), "GODEBUG="+strings.TrimPrefix(os.Getenv("GODEBUG")+",asyncpreemptoff=1", ","))
	detach(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	in := &instance{cmd: cmd, in: stdin, w: bufio.NewWriter(stdin), r: bufio.NewReaderSize(stdout, 1<<16), stderr: &bytes.Buffer{}, exports: map[string]uint32{}}
	cmd.Stderr = in.stderr
	shareFile, share, err := newShare()
	if err == nil {
		cmd.ExtraFiles = []*os.File{shareFile} // the program's 3
		defer shareFile.Close()                // (the mapping stays)
		in.share = share
	}
	for i, name := range exports {
		in.exports[name] = uint32(i)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("nativerun: starting the model's program: %w", err)
	}
	if err := in.answer(); err != nil {
		in.Close()
		return nil, err
	}
	return in, nil
}

// answer reads a response's status, and its message if it failed.
func (in *instance) answer() error {
	if in.dead != nil {
		return in.dead
	}
	st, err := in.r.ReadByte()
	if err != nil {
		in.dead = in.crashed()
		return in.dead
	}
	if st == 0 {
		return nil
	}
	var n uint32
	if err := binary.Read(in.r, binary.LittleEndian, &n); err != nil {
		in.dead = in.crashed()
		return in.dead
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(in.r, msg); err != nil {
		in.dead = in.crashed()
		return in.dead
	}
	return fmt.Errorf("nativerun: %s", msg)
}

// crashed is the error of a program that stopped answering.
func (in *instance) crashed() error {
	err := in.cmd.Wait()
	msg := strings.TrimSpace(in.stderr.String())
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return fmt.Errorf("nativerun: the model's program stopped (%v): %s", err, msg)
}

func (in *instance) request(op byte, x, y uint32, tail []byte) error {
	if in.dead != nil {
		return in.dead
	}
	in.buf = append(in.buf[:0], op)
	in.buf = binary.LittleEndian.AppendUint32(in.buf, x)
	in.buf = binary.LittleEndian.AppendUint32(in.buf, y)
	in.w.Write(in.buf)
	in.w.Write(tail)
	if err := in.w.Flush(); err != nil {
		in.dead = in.crashed()
		return in.dead
	}
	return in.answer()
}

// Call implements wasmgen.Instance.
func (in *instance) Call(name string, args ...uint64) (uint64, error) {
	i, ok := in.exports[name]
	if !ok {
		return 0, fmt.Errorf("wasmgen: no function %q", name)
	}
	var tail []byte
	for _, a := range args {
		tail = binary.LittleEndian.AppendUint64(tail, a)
	}
	if err := in.request('c', i, uint32(len(args)), tail); err != nil {
		return 0, err
	}
	var r [8]byte
	if _, err := io.ReadFull(in.r, r[:]); err != nil {
		in.dead = in.crashed()
		return 0, in.dead
	}
	return binary.LittleEndian.Uint64(r[:]), nil
}

// Read implements wasmgen.Instance.
func (in *instance) Read(addr uint32, b []byte) error {
	if err := in.request('r', addr, uint32(len(b)), nil); err != nil {
		return err
	}
	if _, err := io.ReadFull(in.r, b); err != nil {
		in.dead = in.crashed()
		return in.dead
	}
	return nil
}

// Write implements wasmgen.Instance.
func (in *instance) Write(addr uint32, b []byte) error {
	return in.request('w', addr, uint32(len(b)), b)
}

// Close implements wasmgen.Instance: the program ends when its input does.
func (in *instance) Close() {
	in.in.Close()
	if in.dead == nil {
		in.cmd.Wait()
		in.dead = errors.New("nativerun: the instance is closed")
	}
	if in.share != nil {
		syscall.Munmap(in.share)
		in.share = nil
	}
}

// Share implements wasmgen.SharedInstance: the program maps the next size
// bytes of the memory it shares with this process over its memory at
// addr, and the host reads and writes them in place.
func (in *instance) Share(addr, size uint32) ([]byte, error) {
	if in.share == nil {
		return nil, errors.New("nativerun: no memory is shared with the program on this system")
	}
	if addr%shareAlign != 0 || size%shareAlign != 0 || in.shared+int(size) > len(in.share) {
		return nil, fmt.Errorf("nativerun: cannot share %d bytes at %d (%d of %d shared)", size, addr, in.shared, len(in.share))
	}
	if err := in.request('s', addr, size, nil); err != nil {
		return nil, err
	}
	b := in.share[in.shared : in.shared+int(size) : in.shared+int(size)]
	in.shared += int(size)
	return b, nil
}
