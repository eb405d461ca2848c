package infer

import (
	"strings"
	"testing"
)

// TestMaxModelLen: vLLM's default max_model_len is the model's positions,
// stretched by linear, dynamic and YaRN rope scaling, not by Gemma 3's
// (already scaled) nor for a learned table; a config without positions
// gets 2048 (vllm/config/model.py, _get_and_verify_max_len).
func TestMaxModelLen(t *testing.T) {
	rotary, learned := &decoder{}, &decoder{learnedPos: true}
	for _, tc := range []struct {
		name   string
		pos    int
		factor float64
		local  bool
		dec    *decoder
		want   int
	}{
		{"plain", 131072, 0, false, rotary, 131072},
		{"linear x4", 32768, 4, false, rotary, 131072},
		{"yarn, factor x original / positions", 32768, 4 * 4096.0 / 32768, false, rotary, 16384},
		{"gemma 3 scaled already", 131072, 8, true, rotary, 131072},
		{"learned table", 1024, 4, false, learned, 1024},
		{"no positions", 0, 0, false, rotary, 2048},
	} {
		c := &config{dec: tc.dec}
		c.arch.MaxPos, c.arch.Decoder.RopeFactor, c.arch.Decoder.LocalRope = tc.pos, tc.factor, tc.local
		if got, why := maxModelLen(c); got != tc.want || why == "" {
			t.Errorf("%s: %d (%q), want %d", tc.name, got, why, tc.want)
		}
	}
}

// TestLongestHeld: the longest max_model_len a cache of N blocks holds is
// N × block_size for full attention (vLLM's estimate_max_model_len), and
// nothing when not one block is left.
func TestLongestHeld(t *testing.T) {
	lay := kvLayout{blockBytes: 1, groups: 1, need: func(L int64) int64 { return cdiv(L, 16) }}
	for _, tc := range []struct{ blocks, L, want int64 }{
		{3013, 131072, 3013 * 16}, {10, 100, 100}, {0, 4096, 0}, {1, 4096, 16},
	} {
		if got := lay.longestHeld(tc.blocks, tc.L); got != tc.want {
			t.Errorf("%d blocks, L %d: %d, want %d", tc.blocks, tc.L, got, tc.want)
		}
	}
}

// TestServeDefaultLength: without a context the plan counts the model's
// own length, as vLLM does; Llama 3.1 8B in bf16 on an RTX 4090 cannot
// hold one sequence of its 131072 tokens and the verdict says vLLM
// refuses, with the bytes needed and the longest length that fits.
func TestServeDefaultLength(t *testing.T) {
	s := serveSpec("llama3.1-8b", "rtx4090", "bf16")
	r, err := Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Context != 131072 || r.Fits {
		t.Fatalf("context %d fits %v, want 131072 and a refusal", r.Context, r.Fits)
	}
	// 32 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes x 131072 tokens
	if want := int64(32 * 8 * 128 * 2 * 2 * 131072); r.KVNeeded != want {
		t.Errorf("one sequence needs %d bytes, want %d", r.KVNeeded, want)
	}
	if r.MaxModelLenFit != r.Blocks*int64(r.BlockSize) || !strings.HasPrefix(r.Verdict, "vLLM refuses to start: one sequence of max_model_len 131072") {
		t.Errorf("longest held %d (blocks %d), verdict %q", r.MaxModelLenFit, r.Blocks, r.Verdict)
	}
	s.Context = 4096
	if r, err := Serve(s); err != nil || !r.Fits || r.ContextSource != "as given" || !strings.HasPrefix(r.Verdict, "vLLM starts") {
		t.Errorf("at 4096 tokens: %v, %+v", err, r)
	}
	s = serveSpec("llama3-8b", "rtx4090", "bf16")
	if r, err := Serve(s); err != nil || r.Context != 8192 || !r.Fits {
		t.Errorf("llama3-8b: %v, context %d", err, r.Context)
	}
}

// TestServeMaxNumSeqs: vLLM's scheduler config refuses max_num_seqs above
// max_num_batched_tokens (vllm/config/scheduler.py); a default
// max_num_seqs is capped at them instead.
func TestServeMaxNumSeqs(t *testing.T) {
	s := serveSpec("llama3-8b", "h100", "bf16")
	s.MaxNumSeqs = 100000
	if _, err := Serve(s); !IsSpecError(err) || !strings.Contains(err.Error(), "max_num_batched_tokens 8192") {
		t.Errorf("100000 sequences over 8192 tokens: want a spec error, got %v", err)
	}
	s.MaxNumSeqs, s.MaxNumBatchedTokens = 0, 512
	if r, err := Serve(s); err != nil || r.MaxNumSeqs != 512 {
		t.Errorf("default sequences over 512 tokens: %v, %+v", err, r)
	}
}
