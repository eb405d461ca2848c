package infer

import "testing"

// TestLate81Generate holds session 45's blind Falcon StaticCache point
// (testdata/late81: falcon-7b bf16 b4 p512 n128 under no_grad), evaluated
// once with dfb94da's replay: -5.24% allocated, -4.92% reserved, inside
// their bands; after it, the math kernel over the StaticCache's full
// length: +0.62% and +0.61%.
func TestLate81Generate(t *testing.T) { checkGenerateSet(t, "late81", 1, 0.0085, 0.0065, 1) }
