package infer

import "testing"

// TestDev87Generate holds BLOOM under generate to dev87's trace
// (development, not blind: bloom-560m bf16 DynamicCache b4 p256 n64). As
// first written -0.71% allocated (the softmax's float32 input freed before
// the bf16 cast was made, where the trace's peak holds all three); now
// -0.08%, reserved +0.40%.
func TestDev87Generate(t *testing.T) { checkGenerateSet(t, "dev87", 1, 0.0045, 0.0010, 1) }
