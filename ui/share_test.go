package ui

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/locus-mc/locus/wasm/protocol"
)

const mutex = `-- a tiny model
var x: boolean;
startstate begin x := false; end;
rule "flip" true ==> begin x := !x; end;
invariant "anything" true;
`

func TestShareRoundTrip(t *testing.T) {
	in := Shared{Filename: "mutex.m", Source: mutex, Options: protocol.Options{Algorithm: "dfs", Symmetry: "heuristic", Deadlock: "stuck", MemoryBytes: 64 * protocol.MiB}}
	frag, err := EncodeShare(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(frag, "m=") || strings.ContainsAny(frag, "+/ #") {
		t.Errorf("fragment %q is not m=<base64url>&...", frag)
	}
	for _, f := range []string{frag, "#" + frag} {
		got, ok, err := DecodeShare(f)
		if err != nil || !ok {
			t.Fatalf("DecodeShare: ok=%v err=%v", ok, err)
		}
		if !reflect.DeepEqual(got, in) {
			t.Errorf("DecodeShare(EncodeShare(s)) = %+v, want %+v", got, in)
		}
	}
}

func TestShareDefaults(t *testing.T) {
	frag, err := EncodeShare(Shared{Source: "var x: boolean;"})
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := DecodeShare(frag)
	if err != nil || !ok {
		t.Fatalf("DecodeShare: ok=%v err=%v", ok, err)
	}
	want := Shared{Filename: "model.m", Source: "var x: boolean;", Options: protocol.Options{MemoryBytes: protocol.DefaultMemoryMB * protocol.MiB}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestShareNotALink(t *testing.T) {
	for _, f := range []string{"", "#", "#top", "#x=1"} {
		if _, ok, err := DecodeShare(f); ok || err != nil {
			t.Errorf("DecodeShare(%q) = ok %v, err %v; want not a share link", f, ok, err)
		}
	}
}

func TestShareDamaged(t *testing.T) {
	frag, _ := EncodeShare(Shared{Filename: "mutex.m", Source: mutex})
	m := frag[:strings.Index(frag, "&")]
	for _, f := range []string{
		"m=!!!notbase64",
		m[:len(m)/2],          // cut off: truncated deflate stream
		"m=" + "AAAA" + m[6:], // corrupted
		"m=%zz",
	} {
		_, ok, err := DecodeShare(f)
		if !ok || err == nil {
			t.Errorf("DecodeShare(%.30q) = ok %v, err %v; want a damaged-link error", f, ok, err)
		}
	}
}

func TestShareBadOptions(t *testing.T) {
	frag, _ := EncodeShare(Shared{Filename: "a.m", Source: mutex})
	// An unknown algorithm is caught once the Worker reports its engines
	// (TestAdoptEngines).
	for _, extra := range []string{"&mem=1", "&mem=lots", "&sym=full", "&dl=sometimes"} {
		got, ok, err := DecodeShare(frag + extra)
		if !ok || err == nil || !strings.Contains(err.Error(), "defaults") {
			t.Errorf("DecodeShare(...%s): ok %v, err %v; want the model with a note about defaults", extra, ok, err)
		}
		if got.Source != mutex || got.Options.MemoryBytes != protocol.DefaultMemoryMB*protocol.MiB || got.Options.Algorithm != "" {
			t.Errorf("DecodeShare(...%s) = %+v; want the model with default options", extra, got)
		}
	}
}

func TestShareLimits(t *testing.T) {
	// Random text does not compress: far over the link limit.
	r := rand.New(rand.NewSource(1))
	b := make([]byte, 2*MaxShareChars)
	for i := range b {
		b[i] = byte('a' + r.Intn(26))
	}
	if _, err := EncodeShare(Shared{Source: string(b)}); err != ErrShareTooLong {
		t.Errorf("EncodeShare(128 KiB of noise) err = %v, want ErrShareTooLong", err)
	}
	if _, ok, err := DecodeShare("m=" + strings.Repeat("A", MaxShareChars)); !ok || err == nil {
		t.Errorf("DecodeShare(over-long) = ok %v, err %v; want an error", ok, err)
	}
	// A small link that inflates past MaxSharedBytes (a "zip bomb").
	frag, err := EncodeShare(Shared{Source: strings.Repeat(" ", MaxSharedBytes+10)})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := DecodeShare(frag); !ok || err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("DecodeShare(bomb) = ok %v, err %v; want a too-large error", ok, err)
	}
}

func TestCleanFilename(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "model.m",
		"mutex.m":          "mutex.m",
		"../../etc/passwd": "passwd.m",
		`C:\models\dash.m`: "dash.m",
		"<b>x y":           "bxy.m",
		".m":               "model.m",
	} {
		if got := cleanFilename(in); got != want {
			t.Errorf("cleanFilename(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAdoptEngines(t *testing.T) {
	engines := []protocol.EngineInfo{{Name: "bfs"}, {Name: "auto"}}
	a := &App{Algorithm: "astar"}
	a.adoptEngines(engines)
	if a.Algorithm != protocol.DefaultAlgorithm || a.Notice.Kind != "warning" || !strings.Contains(a.Notice.Text, "astar") {
		t.Errorf("after adopting the engines: algorithm %q, notice %+v; want the default and a warning", a.Algorithm, a.Notice)
	}
	b := &App{Algorithm: "bfs"}
	b.adoptEngines(engines)
	if b.Algorithm != "bfs" || b.Notice.Kind != "" {
		t.Errorf("a known algorithm was changed: %q, %+v", b.Algorithm, b.Notice)
	}
}
