package infer

import "testing"

// TestDev82Generate holds OPT under generate to dev82's trace
// (development, not blind: opt-1.3b bf16 DynamicCache b4 p256 n64):
// written from that trace's forward order, allocated -0.04%, reserved
// +0.18%.
func TestDev82Generate(t *testing.T) { checkGenerateSet(t, "dev82", 1, 0.0020, 0.0005, 1) }
