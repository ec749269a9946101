package verify

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCompile times the front end and the compiler on corpus models
// whose rulesets and procedures expand into large compiled code. Every
// check in the browser compiles its model first (and each of a parallel
// check's helper Workers compiles it again), at about 4x these times.
func BenchmarkCompile(b *testing.B) {
	for _, name := range []string{"sci/sci.m", "dash/adash.m", "sym/cache3.m"} {
		src, err := os.ReadFile(filepath.Join("../../../shared/models/cmurphi", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if m, diags := Compile(name, src); m == nil {
					b.Fatal(diags)
				}
			}
		})
	}
}
