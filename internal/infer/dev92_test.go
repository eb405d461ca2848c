package infer

import "testing"

// TestDev92GPTJGenerate holds GPT-J's generate plan to dev92's two
// points (testdata/dev92/gptj/generate: a 1024-hidden 8-layer GPT-J in
// bf16, b4, prompt 256, 64 new tokens, DynamicCache and StaticCache, with
// snapshots). First sight -1.25% and -1.53% allocated; with the cast
// attention weights held to the layer's end (the attention returns them)
// -0.85% and -1.15%; with each layer's own 0.5 MiB position table among
// the weights -0.15% and -0.46%.
func TestDev92GPTJGenerate(t *testing.T) { checkGenerateSet(t, "dev92/gptj", 2, 0.0015, 0.005, 1) }

// TestLate84GPTJGenerate holds late84's two blind GPT-J generate points
// (evaluated once at 73e1ab1): allocated -4.66% and -1.37%, reserved
// -3.77% and -3.02%, both inside the widened eager band (RESULTS.md).
// After dev92's per-layer position tables and the transposed key's copy:
// -4.36% and -1.10%, reserved -0.99% and -2.05%; still under.
func TestLate84GPTJGenerate(t *testing.T) { checkGenerateSet(t, "late84", 2, 0.021, 0.044, 1) }
