package ui

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestUIDoesNotLinkTheEngine: the page binary talks to the engine only
// through Web Workers and wasm/protocol, so no core/ package but core/job
// (the plain options, progress and result types, which import nothing of
// Locus) may be among its dependencies (the engine would double the page's
// download).
func TestUIDoesNotLinkTheEngine(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "github.com/locus-mc/locus/ui/app")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps printed too little: %q", out)
	}
	for _, p := range deps {
		if p == "github.com/locus-mc/locus/core/job" {
			continue
		}
		if strings.HasPrefix(p, "github.com/locus-mc/locus/core/") || p == "github.com/locus-mc/locus/storagefs" {
			t.Errorf("ui/app depends on %s", p)
		}
	}
}
