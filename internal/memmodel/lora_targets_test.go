package memmodel

import (
	"errors"
	"strings"
	"testing"
)

// LoRA targets that name no Linear of the model are refused, as PEFT
// refuses them (NoMatchingPeftModuleError); a list with at least one match
// is planned, as PEFT adapts the modules that exist. Phi-3's fused
// qkv_proj with PEFT's default target adapts 10 layers of late13's
// Phi-3 (f) config: r·(1280 + 1792) = 49,152 parameters each, the
// 491,520 trainable parameters its capture printed.
func TestLoRATargetsMustMatch(t *testing.T) {
	spec := func(targets ...string) Spec {
		s, err := ParseSpec(strings.NewReader(`{"hf_config":{"model_type":"phi3","hidden_size":1280,
			"intermediate_size":3584,"num_hidden_layers":10,"num_attention_heads":20,"num_key_value_heads":4,
			"vocab_size":32064,"max_position_embeddings":4096},"batch":4,"seq":1024,"precision":"bf16-amp",
			"checkpoint":"block","gpu":"h200"}`))
		if err != nil {
			t.Fatal(err)
		}
		s.LoRA = &LoRA{Rank: 16, Targets: targets}
		return s
	}
	_, err := Estimate(spec("q_proj", "v_proj"), Options{SkipReserved: true})
	if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "qkv_proj") {
		t.Fatalf("q_proj/v_proj on Phi-3: want a spec error naming qkv_proj, got %v", err)
	}
	for _, targets := range [][]string{nil, {"q_proj", "qkv_proj"}} {
		s := spec(targets...)
		r, err := Estimate(s, Options{SkipReserved: true})
		if err != nil {
			t.Fatalf("targets %v: %v", targets, err)
		}
		if r.TrainableParams != 491_520 {
			t.Errorf("targets %v: %d trainable, the capture had 491,520", targets, r.TrainableParams)
		}
		// the family's default targets go into the estimate, not into the
		// caller's spec: plan's search shares one spec between goroutines
		// (it wrote them there, a data race under go test -race)
		if len(s.LoRA.Targets) != len(targets) {
			t.Errorf("targets %v: Estimate changed the caller's spec to %v", targets, s.LoRA.Targets)
		}
	}
}
