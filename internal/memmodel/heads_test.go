package memmodel

import (
	"errors"
	"strings"
	"testing"
)

// TestMaskedLMHeadParams: spec head "masked-lm" plans BertForMaskedLM /
// RobertaForMaskedLM / XLMRobertaForMaskedLM, whose parameter counts
// transformers reports for the released checkpoints (bert-base-uncased
// 109,514,298; roberta-base 124,697,433; xlm-roberta-base 278,295,186):
// no pooler, the LM head's transform and bias, the decoder tied to the
// word embedding. Another family's head is refused by name.
func TestMaskedLMHeadParams(t *testing.T) {
	for name, want := range map[string]int64{
		"bert-base":        109_514_298,
		"roberta-base":     124_697_433,
		"xlm-roberta-base": 278_295_186,
	} {
		r, err := estimateJSON(t, `{"model":"`+name+`","batch":1,"seq":16,"head":"masked-lm"}`)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Params != want {
			t.Errorf("%s masked-lm: %d params, transformers counts %d", name, r.Params, want)
		}
	}
	_, err := estimateJSON(t, `{"model":"gpt2","batch":1,"seq":16,"head":"masked-lm"}`)
	if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "head:") {
		t.Errorf("gpt2 with a masked-LM head: %v, want a spec error naming head", err)
	}
}

// TestMaskedLMHeadLogits: the masked-LM head's logits are batch × seq ×
// vocab; under bf16 autocast the loss upcasts them to float32, so at
// XLM-RoBERTa's 250,002 tokens a b32 s256 step holds at least the bf16
// logits and their float32 copy (2 + 4 bytes each, 11.4 GiB) more than
// the classification head's.
func TestMaskedLMHeadLogits(t *testing.T) {
	cls, err := estimateJSON(t, `{"model":"xlm-roberta-base","batch":32,"seq":256,"precision":"bf16-amp"}`)
	if err != nil {
		t.Fatal(err)
	}
	mlm, err := estimateJSON(t, `{"model":"xlm-roberta-base","batch":32,"seq":256,"precision":"bf16-amp","head":"masked-lm"}`)
	if err != nil {
		t.Fatal(err)
	}
	if d, min := mlm.PeakAllocated-cls.PeakAllocated, int64(32*256*250002*6); d < min {
		t.Errorf("masked-LM head adds %d bytes at the peak, less than its logits' %d", d, min)
	}
}
