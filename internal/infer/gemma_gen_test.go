package infer

import "testing"

// TestGenerateGemmaDev72 holds generate for the Gemma family (Gemma,
// Gemma 2 and Gemma 3 text) to dev72, its first generate captures
// (development data, testdata/dev72: DynamicCache and StaticCache points
// below and past the sliding windows, and four traced calls). The traces
// showed the scaled embedding made inside the module, Gemma's float32
// x·(1+w) norm and DynamicSlidingWindowLayer's order (both concatenations
// before either old tensor goes); dev73's traces then the rotary tables'
// order, the masks' place (after the embedding) and shape (the sliding
// overlay's q×kv booleans; the additive mask unpadded, with no boolean
// logical_not), and repeat_kv's view from a single key/value head. Now
// allocated within 0.1% at all 14 points, reserved within the allowance
// (+0.25%) at 11, +0.7% and -0.9% at two StaticCache points, and -3.5% at
// Gemma 3 1B b4 p2000 n64, which no trace covers.
func TestGenerateGemmaDev72(t *testing.T) { checkGenerateSet(t, "dev72", 14, 0.036, 0.001, 1) }

// TestGenerateGemmaDev73 holds the three dev73 points (two traced calls
// and dev72's b8 point alone in a fresh process, which measured what it
// measured second in its process): reserved within 0.5%.
func TestGenerateGemmaDev73(t *testing.T) { checkGenerateSet(t, "dev73", 3, 0.005, 0.001, 1) }
