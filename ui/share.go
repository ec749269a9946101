// This file implements share links: the model and its options carried in
// the URL fragment, so a link works with no server at all.

package ui

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/locus-mc/locus/wasm/protocol"
)

// Share link limits. A fragment is never sent to a server, so the only
// limits are what browsers and chat programs keep intact; 64 KiB covers the
// largest teaching and cache-protocol models (the SCI model is ~26 k).
const (
	MaxShareChars  = 64 << 10 // longest fragment we make or accept
	MaxSharedBytes = 1 << 20  // largest model text we inflate from a link
)

// Shared is what a share link carries.
type Shared struct {
	Filename string
	Source   string
	Options  protocol.Options // algorithm, symmetry, deadlock and memory budget
}

// Friendly errors for links that cannot be used.
var (
	ErrShareTooLong = errors.New("this model is too large to share as a link; share the .m file instead")
	ErrShareDamaged = errors.New("this share link is damaged (perhaps cut off when it was copied), so its model could not be read; ask for the link again")
)

// EncodeShare returns the URL fragment (without '#') for s: the model as
// raw DEFLATE in base64url after "m=", then the options as plain parameters.
func EncodeShare(s Shared) (string, error) {
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", err
	}
	zw.Write([]byte(s.Source))
	if err := zw.Close(); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("m=")
	b.WriteString(base64.RawURLEncoding.EncodeToString(buf.Bytes()))
	add := func(k, v string) {
		if v != "" {
			b.WriteString("&" + k + "=" + url.QueryEscape(v))
		}
	}
	add("f", s.Filename)
	add("a", s.Options.Algorithm)
	add("sym", s.Options.Symmetry)
	add("dl", s.Options.Deadlock)
	if s.Options.MemoryBytes > 0 {
		add("mem", strconv.FormatInt(s.Options.MemoryBytes/protocol.MiB, 10))
	}
	if b.Len() > MaxShareChars {
		return "", ErrShareTooLong
	}
	return b.String(), nil
}

// DecodeShare reads a URL fragment (with or without '#'). It reports
// ok=false if the fragment is not a share link at all. A link whose model
// cannot be read gives an error; a link whose options are not valid gives
// the model with default options and an error saying so.
func DecodeShare(fragment string) (s Shared, ok bool, err error) {
	fragment = strings.TrimPrefix(fragment, "#")
	if !strings.HasPrefix(fragment, "m=") {
		return Shared{}, false, nil
	}
	if len(fragment) > MaxShareChars {
		return Shared{}, true, fmt.Errorf("this share link is longer than %d KiB, more than Locus makes, so it was not opened", MaxShareChars>>10)
	}
	q, err := url.ParseQuery(fragment)
	if err != nil {
		return Shared{}, true, ErrShareDamaged
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(q.Get("m"), "="))
	if err != nil {
		return Shared{}, true, ErrShareDamaged
	}
	src, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), MaxSharedBytes+1))
	if err != nil {
		return Shared{}, true, ErrShareDamaged
	}
	if len(src) > MaxSharedBytes {
		return Shared{}, true, fmt.Errorf("this share link holds a model larger than %d MiB, so it was not opened", MaxSharedBytes>>20)
	}
	s = Shared{Filename: cleanFilename(q.Get("f")), Source: string(src)}
	o := protocol.Options{
		Algorithm: q.Get("a"),
		Symmetry:  q.Get("sym"),
		Deadlock:  q.Get("dl"),
	}
	if mem := q.Get("mem"); mem != "" {
		mb, err := strconv.ParseInt(mem, 10, 64)
		if err != nil {
			mb = -1
		}
		o.MemoryBytes = mb * protocol.MiB
	} else {
		o.MemoryBytes = protocol.DefaultMemoryMB * protocol.MiB
	}
	if verr := protocol.ValidateOptions(&o); verr != nil {
		s.Options = protocol.Options{MemoryBytes: protocol.DefaultMemoryMB * protocol.MiB}
		return s, true, fmt.Errorf("the link's options could not be used (%v); the defaults are set instead", verr)
	}
	s.Options = o
	return s, true, nil
}

// cleanFilename keeps a shared file name to a plain, short .m name.
func cleanFilename(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	name = b.String()
	if len(name) > 64 {
		name = name[:64]
	}
	if name == "" || name == ".m" {
		return "model.m"
	}
	if !strings.HasSuffix(name, ".m") {
		name += ".m"
	}
	return name
}
