package infer

import "testing"

// TestDev77Generate holds GPT-NeoX and Phi under generate to dev77's
// traces (development, not blind: Pythia-410m bf16 DynamicCache b4 p256
// n64, phi-1.5 bf16 StaticCache b4 p256 n64): written from transformers'
// source, allocated -0.11% and -0.03%, reserved +0.04% and +0.19%.
func TestDev77Generate(t *testing.T) { checkGenerateSet(t, "dev77", 2, 0.003, 0.0015, 1) }
