package infer

import "testing"

// TestLate72Generate holds session 43's blind generate points
// (testdata/late72: Gemma 2 2B StaticCache with a prompt past its 4096
// window, Gemma 3 1B StaticCache decoding past its 512 window, Gemma 2 2B
// DynamicCache b6 p800 n300), evaluated once with 2486a8b's replay:
// allocated within 0.04%, reserved +0.14% to +0.34% (allowance included),
// 3 of 3 inside both bands.
func TestLate72Generate(t *testing.T) { checkGenerateSet(t, "late72", 3, 0.001, 0.0005, 1) }
