package infer

import "testing"

// TestDev99Memory holds dev99's three traced points (late91's memory
// misses captured again with history; testdata/dev99/README.md): Whisper
// base float32 b8 reserved -3.5% (under: the matmul workspaces came before
// the first layer's LayerNorm copies where the trace has them after its
// q_proj output, which moved a 24 MiB block into a segment of its own:
// -0.3% with them there; its stride-2 Conv1d's cuDNN workspace is still 4
// MiB above GeneralConvWorkspace),
// BART-base b128 reserved +0.5% (late91's -2.6% came after its timed
// calls, which this run does not make), T5-large bf16 allocated +0.4%
// (two float32 key copies too many in SDPA math's decode step: -0.0%
// without them).
func TestDev99Memory(t *testing.T) { checkGenerateSet(t, "dev99", 3, 0.006, 0.001, 1) }
