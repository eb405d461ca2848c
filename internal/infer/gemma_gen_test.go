package infer

import "testing"

// TestGenerateGemmaDev72 holds generate for the Gemma family (Gemma,
// Gemma 2 and Gemma 3 text) to dev72, its first generate captures
// (development data, testdata/dev72: DynamicCache and StaticCache points
// below and past the sliding windows, and four traced calls). The traces
// showed the scaled embedding made inside the module, Gemma's float32
// x·(1+w) norm and DynamicSlidingWindowLayer's order (both concatenations
// before either old tensor goes); with them allocated within 0.1% at all
// 14 points, reserved within 0.3% at 12 and -2.37% / +2.13% at the two
// dev73 traces (Gemma 3 1B b8 p1024 n256, Gemma 2 2B b2 p5000 n64).
func TestGenerateGemmaDev72(t *testing.T) { checkGenerateSet(t, "dev72", 14, 0.024, 0.0012, 1) }
