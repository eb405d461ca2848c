package memmodel

import (
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// transformers' eager_attention_forward binds repeat_kv's copies to the
// locals key_states and value_states, so under autocast they outlive their
// bf16 casts: both are still allocated when the float32 softmax of the
// b·h·s² scores is made, and freed only after the output's contiguous copy.
// (Freeing them at the cast left a 32 MiB hole per recycled score segment
// that took the backward cuBLAS workspace: late-fam-qwen3-a-bf16-eager was
// 8.6% under, its peak reserved is the fixed replay's to the byte.)
func TestEagerRepeatCopiesLiveUntilReturn(t *testing.T) {
	s := DefaultSpec()
	s.HFConfig = []byte(`{"model_type": "qwen3", "hidden_size": 256, "intermediate_size": 512,
		"num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 64,
		"vocab_size": 1000}`)
	s.Batch, s.Seq, s.Precision, s.Attn = 2, 128, "bf16-amp", "eager"
	c, err := resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	g := c.buildGraph()
	st := generate(g, c.stepConfig(g, 1))
	// the repeated key is float32 (rotary under autocast), b·heads·s·hd
	repeat := int64(2 * 4 * 128 * 64 * 4)
	alloc := map[int32]int{}
	freed := map[int32]int{}
	var copies []int32
	var softmax []int
	for i, r := range st.Requests {
		tg := st.Tags[r.ID]
		if tg.Phase != PhaseForward {
			continue
		}
		if r.Kind == allocsim.ReqAlloc {
			alloc[r.ID] = i
			switch {
			case tg.Op == "copy" && r.Size == repeat:
				copies = append(copies, r.ID)
			case tg.Op == "softmax":
				softmax = append(softmax, i)
			}
		} else {
			freed[r.ID] = i
		}
	}
	if len(softmax) != 2 || len(copies) < 2*len(softmax) {
		t.Fatalf("%d softmax allocations, %d float32 repeat copies of %d B: want 2 layers of one softmax and a key and value copy each",
			len(softmax), len(copies), repeat)
	}
	for l, at := range softmax {
		for _, id := range copies[2*l : 2*l+2] {
			if alloc[id] > at {
				t.Fatalf("layer %d: repeat copy %d allocated after the softmax", l, id)
			}
			if f, ok := freed[id]; ok && f < at {
				t.Errorf("layer %d: repeat copy %d freed at request %d, before the softmax at %d (key_states/value_states are locals until the function returns)", l, id, f, at)
			}
		}
	}
}
