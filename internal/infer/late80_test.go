package infer

import "testing"

// TestLate80Generate holds session 45's blind BLOOM StaticCache point
// (testdata/late80: bloom-1b1 bf16 b4 p512 n128 under no_grad), evaluated
// once with 0499245's replay: -2.09% allocated, -3.68% reserved, both
// inside their bands; after it, the prefill priced over the StaticCache's
// full length (bloomKeys): -0.03% and -1.20%.
func TestLate80Generate(t *testing.T) { checkGenerateSet(t, "late80", 1, 0.0125, 0.0005, 1) }
