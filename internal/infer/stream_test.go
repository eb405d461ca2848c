package infer

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

func genSpec(model string, batch, seq, gen int, prec, cache string) memmodel.Spec {
	task := "generate"
	s := memmodel.DefaultSpec()
	s.Model, s.Task, s.Batch, s.Seq, s.NewTokens, s.Precision, s.Cache = &model, &task, batch, seq, gen, prec, cache
	return s
}

// TestStreamLeavesWeightsAndCache checks the stream's bookkeeping against
// what generate keeps when it returns: the weights, a cache of exactly
// batch × tokens × bytes per token (so every torch.cat freed the tensor it
// replaced), and the grown input_ids and attention_mask.
func TestStreamLeavesWeightsAndCache(t *testing.T) {
	for _, tc := range []struct {
		model, prec, cache string
		b, s, n            int
	}{
		{"llama3.2-1b", "bf16", "", 4, 100, 7},
		{"qwen2-0.5b", "fp32", "static", 2, 64, 5},
		{"gpt2-medium", "bf16", "", 3, 50, 4},
		{"llama3.2-1b", "int4", "", 2, 30, 3},
	} {
		c, err := resolve(genSpec(tc.model, tc.b, tc.s, tc.n, tc.prec, tc.cache))
		if err != nil {
			t.Fatal(err)
		}
		m := &model{c: c, s: newStream(), w: buildWeights(c)}
		m.generate()
		var weights, kv, other int64
		for _, l := range m.s.live {
			switch l.cat {
			case CatWeights:
				weights += l.size
			case CatKVCache:
				kv += l.size
			default:
				other += l.size
			}
		}
		if weights != m.w.bytes {
			t.Errorf("%v: live weights %d, want %d", tc, weights, m.w.bytes)
		}
		if want := c.kvBytesPerToken() * c.batch * c.cacheTokens(); kv != want {
			t.Errorf("%v: live cache %d bytes, want %d", tc, kv, want)
		}
		// input_ids, attention_mask and position_ids, grown to prompt +
		// new tokens, and the cuBLAS workspace
		if want := 3*8*c.batch*(c.seq+c.gen) + c.gpu.CublasWorkspaceBytes; other != want {
			t.Errorf("%v: %d other bytes live at the end, want %d (ids and mask)", tc, other, want)
		}
	}
}

// TestPeakBreakdownAddsUp checks that the categories at the peak sum to
// the peak the stream saw, and that the replayed allocated peak is at
// least that: the caching allocator hands out whole blocks when the
// remainder of a split would be too small, which allocated_bytes counts.
func TestPeakBreakdownAddsUp(t *testing.T) {
	r, err := Estimate(genSpec("llama3.2-1b", 8, 512, 16, "bf16", ""))
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, k := range []string{"weights", "kv_cache", "activations", "logits", "temporaries"} {
		sum += r.Breakdown[k]
	}
	if sum > r.PeakAllocated || float64(r.PeakAllocated) > 1.01*float64(sum) {
		t.Errorf("breakdown sums to %d, peak allocated %d", sum, r.PeakAllocated)
	}
	if r.PeakReserved < r.PeakAllocated {
		t.Errorf("reserved %d below allocated %d", r.PeakReserved, r.PeakAllocated)
	}
}

func TestSpecErrors(t *testing.T) {
	bad := []func(*memmodel.Spec){
		func(s *memmodel.Spec) { s.Precision = "bf16-amp" },
		func(s *memmodel.Spec) { s.Cache = "paged" },
		func(s *memmodel.Spec) { s.KVDType = "int3" },
		func(s *memmodel.Spec) { s.Attn = "flash9" },
		func(s *memmodel.Spec) { s.NewTokens = -1 },
		func(s *memmodel.Spec) { s.Batch = 0 },
		func(s *memmodel.Spec) { m := "resnet50"; s.Model = &m },
		func(s *memmodel.Spec) { m := "gpt2"; s.Model = &m; s.Seq = 1000; s.NewTokens = 100 },
		func(s *memmodel.Spec) { s.GPU = "t4"; s.Precision = "bf16" },
	}
	for i, f := range bad {
		s := genSpec("llama3.2-1b", 1, 16, 4, "bf16", "")
		f(&s)
		if _, err := Estimate(s); !IsSpecError(err) {
			t.Errorf("case %d: want a spec error, got %v", i, err)
		}
	}
}
