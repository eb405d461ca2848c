package infer

import "testing"

// TestLate76Generate holds session 44's blind StarCoder2 generate points
// (testdata/late76: starcoder2-3b bf16 StaticCache b4 p512 n128,
// starcoder2-7b bf16 DynamicCache b8 p1000 n200), evaluated once with
// 32ee144's replay: allocated within 0.02%, reserved +0.22% and +0.25%
// (allowance included), both inside both bands.
func TestLate76Generate(t *testing.T) { checkGenerateSet(t, "late76", 2, 0.0027, 0.0003, 1) }
