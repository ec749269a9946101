//go:build js && !locuscodegen

package explore

import (
	"context"

	"github.com/locus-mc/locus/core/compile"
)

// The shipped browser engine leaves the code-generation experiment out: it
// would add about 0.4 MB (brotli) to the first load. Build the Worker with
// -tags locuscodegen to measure it (web/bench/measure.mjs --codegen).

func generatedSearch(context.Context, *compile.Model, Options) (*Result, error) {
	return nil, &errNotGenerated{"this engine was built without the code generator (-tags locuscodegen)"}
}
