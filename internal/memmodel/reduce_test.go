package memmodel

import (
	"slices"
	"testing"
)

// biasGradScratch against the staging buffers and semaphores of column
// reductions read from the H200 snapshots (132 SMs, 16 CTAs of 128 threads
// each resident): ConvNeXt-T b64 fp32/bf16 (vision6) bias and layer-scale
// gradients at 96 and 384 columns, GPT-2's (gpt2-s1024-b4/b8-bf16, with and
// without checkpointing) at 2304 and 3072, and the rows too few to split.
func TestBiasGradScratchMatchesTraces(t *testing.T) {
	const limit = 132 * ctasPerSM
	for _, c := range []struct {
		name    string
		n, outF int64
		want    []int64
	}{
		{"stage-1 map, 96 columns (grid of 2 column blocks of 64)", 64 * 56 * 56, 96, []int64{25952256, 8}},
		{"stage-3 map, 384 columns, one CTA per 64 rows", 64 * 14 * 14, 384, []int64{38535168, 12}},
		{"stage-1 fc1 bias, 384 columns at the resident-grid cap", 64 * 56 * 56, 384, []int64{138412032, 12}},
		{"GPT-2 c_fc bias, b4 s1024: 3072 columns, 64 CTAs per block", 4096, 3072, []int64{100663296, 96}},
		{"GPT-2 c_fc bias, b8 s1024: 3072 columns at the grid cap", 8192, 3072, []int64{138412032, 96}},
		{"GPT-2 c_attn bias, b8 s1024: 2304 columns at the grid cap", 8192, 2304, []int64{139198464, 72}},
		{"under 256 values per thread (Reduce.cuh): no split, no staging", 512, 768, nil},
	} {
		if got := biasGradScratch(c.n, c.outF, limit); !slices.Equal(got, c.want) {
			t.Errorf("%s: biasGradScratch(%d, %d) = %v, traces show %v", c.name, c.n, c.outF, got, c.want)
		}
	}
}
