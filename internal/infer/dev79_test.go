package infer

import "testing"

// TestDev79Generate holds StarCoder2 under generate to dev79's trace
// (development, not blind: starcoder2-3b bf16 DynamicCache b4 p256 n64):
// written from transformers' source, allocated -0.02%, reserved +0.22%.
func TestDev79Generate(t *testing.T) { checkGenerateSet(t, "dev79", 1, 0.0025, 0.0003, 1) }
