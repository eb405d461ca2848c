package infer

import "testing"

// TestDev89Generate holds Falcon under generate to dev89's trace
// (development, not blind: the 1024-hidden Falcon bf16 DynamicCache b4
// p256 n64): SDPA's math kernel with its float32 upcasts (mathAttn),
// +1.68% allocated, +4.38% reserved (over: the math kernel's temporaries
// are priced as live together where the trace frees some sooner).
func TestDev89Generate(t *testing.T) { checkGenerateSet(t, "dev89", 1, 0.0465, 0.0175, 1) }
