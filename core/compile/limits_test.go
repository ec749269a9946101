package compile

// The compiler's and the machine's size limits: they end a hostile model
// with a located error or a run-time error, never an exhausted stack or
// heap. Inputs are generated here.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/locus-mc/locus/core/murphi"
)

func compileSrc(t *testing.T, src string) (*Model, error) {
	t.Helper()
	ast, errs := murphi.ParseFile("t.m", []byte(src))
	if errs.HasErrors() {
		t.Fatalf("parse: %v", errs)
	}
	ck, errs := murphi.Check(ast)
	if errs.HasErrors() {
		t.Fatalf("check: %v", errs)
	}
	return Compile(ck)
}

// TestCompiledSizeLimit: a ruleset that multiplies its body past the
// budget fails to compile with a located error.
func TestCompiledSizeLimit(t *testing.T) {
	defer func(n int) { maxCompiledNodes = n }(maxCompiledNodes)
	maxCompiledNodes = 10000
	const model = `var x: 0..1;
startstate begin x := 0; end;
ruleset i: 0..%d do rule begin x := (x + i) %% 2; end; end;
`
	if _, err := compileSrc(t, fmt.Sprintf(model, 100)); err != nil {
		t.Fatalf("101 instances: %v", err)
	}
	_, err := compileSrc(t, fmt.Sprintf(model, 100000))
	ce, ok := err.(*CompileError)
	if !ok || !strings.Contains(ce.Msg, "too large to compile") || ce.Pos.Line < 1 {
		t.Fatalf("100001 instances: got %v, want a located 'too large to compile' error", err)
	}
}

// recursion is a function whose recursive call sits under nest levels of
// expression, called n deep by the start state.
func recursion(nest, n int) string {
	return fmt.Sprintf(`type t: 0..%d;
var x: t;
function f(n: t): t;
begin
  if n = 0 then return 0; endif;
  return %sf(n - 1)%s;
end;
startstate begin x := f(%d); end;
rule begin x := x; end;
`, n, strings.Repeat("0 + (", nest), strings.Repeat(")", nest), n)
}

func runStart(t *testing.T, src string) *RuntimeError {
	t.Helper()
	m, err := compileSrc(t, src)
	if err != nil {
		t.Fatal(err)
	}
	rerr, _ := m.NewMachine().RunStart(0)
	return rerr
}

// TestCallLevels: the machine bounds the code that nested calls hold on
// the stack, not only their number, so a recursion whose recursive call is
// deep inside an expression stops with a run-time error before the stack
// runs out; a shallow one may still recurse MaxCallDepth deep.
func TestCallLevels(t *testing.T) {
	if err := runStart(t, recursion(1, MaxCallDepth-1)); err != nil {
		t.Fatalf("shallow recursion %d deep: %v", MaxCallDepth, err)
	}
	const nest = 100 // "0 + (" costs the parser four levels
	err := runStart(t, recursion(nest, MaxCallDepth-1))
	if err == nil || err.Kind != ErrRecursion || !strings.Contains(err.Msg, "levels of code") {
		t.Fatalf("recursion nested %d deep: got %v, want a %s error about levels of code", nest, err, ErrRecursion)
	}
	// Well inside the budget, the same function runs.
	if err := runStart(t, recursion(nest, MaxCallLevels/(4*nest))); err != nil {
		t.Fatalf("recursion nested %d deep, %d calls: %v", nest, MaxCallLevels/(4*nest), err)
	}
}
