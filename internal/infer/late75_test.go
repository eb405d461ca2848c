package infer

import "testing"

// TestLate75Generate holds session 44's blind generate points
// (testdata/late75: Pythia-1b bf16 DynamicCache b8 p1000 n200, phi-2 bf16
// StaticCache b4 p512 n128, Pythia-410m float32 DynamicCache b16 p500
// n300), evaluated once with 7bc1ffd's replay: allocated within 0.03%,
// reserved +0.23% to +0.40% (allowance included), 3 of 3 inside both
// bands.
func TestLate75Generate(t *testing.T) { checkGenerateSet(t, "late75", 3, 0.0041, 0.0004, 1) }
