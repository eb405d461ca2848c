package infer

import "testing"

// TestLate78Generate holds session 45's blind OPT generate points
// (testdata/late78: opt-2.7b bf16 StaticCache b4 p512 n128 under no_grad,
// opt-350m bf16 DynamicCache b8 p500 n100, its LayerNorms after the adds
// and its embedding projected in and out), evaluated once with 9140a1d's
// replay: allocated +0.15% and -0.09%, reserved +0.25% and +0.09%
// (allowance included), both inside both bands.
func TestLate78Generate(t *testing.T) { checkGenerateSet(t, "late78", 2, 0.0027, 0.0016, 1) }
