package infer

import "testing"

// TestDev99Memory holds dev99's three traced points (late91's memory
// misses captured again with history; testdata/dev99/README.md): Whisper
// base float32 b8 reserved -3.5% (under: its stride-2 Conv1d's cuDNN
// workspace is 4 MiB above GeneralConvWorkspace, the rest not located),
// BART-base b128 reserved +0.5% (late91's -2.6% came after its timed
// calls, which this run does not make), T5-large bf16 allocated +0.4%
// (two float32 key copies too many in SDPA math's decode step: -0.0%
// without them).
func TestDev99Memory(t *testing.T) { checkGenerateSet(t, "dev99", 3, 0.04, 0.001, 0.66) }
