package memmodel

import (
	"errors"
	"strings"
	"testing"
)

// Sizes past what the replay can hold are refused by name, never a
// panic, a hang or a wrapped-around negative figure.
func TestSpecBoundsRefusedByName(t *testing.T) {
	for _, tc := range []struct{ spec, field string }{
		{`{"model":"gpt2","batch":1,"seq":128,"accum":1000000000}`, "accum"},
		{`{"model":"gpt2","batch":1,"seq":128,"accum":1000000000000000000}`, "accum"},
		{`{"model":"gpt2","batch":1,"seq":128,"lora":{"rank":1000000000000000000}}`, "lora.rank"},
		{`{"model":"gpt2","batch":1,"seq":128,"lora":{"rank":2000000}}`, "lora.rank"},
		{`{"model":"llama3.2-1b","batch":1,"seq":128,"override":{"num_hidden_layers":1000000000}}`, "override.num_hidden_layers"},
		{`{"model":"llama3.2-1b","batch":1,"seq":128,"override":{"low_rank":1000000000000000000}}`, "override.low_rank"},
		{`{"model":"llama3.2-1b","batch":1,"seq":128,"override":{"low_rank":2048}}`, "override.low_rank"},
		{`{"model":"llama3.2-1b","batch":1,"seq":128,"override":{"intermediate_size":1000000000000000000}}`, "override"},
		{`{"hf_config":{"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":100000,"num_attention_heads":4,"num_key_value_heads":4,"vocab_size":100,"max_position_embeddings":512},"batch":1,"seq":128}`, "hf_config"},
	} {
		_, err := estimateJSON(t, tc.spec)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.field+":") {
			t.Errorf("%s: error %v, want ErrSpec naming %s", tc.spec, err, tc.field)
		}
	}
}

// A LoRA rank past the hidden size is planned, as PEFT builds it, with a
// note that the extra rank costs memory and buys no capacity; its adapter
// parameters are counted at the rank given (GPT-2's c_attn, 768 -> 2304,
// in 12 blocks: 1024·(768+2304)·12 trainable).
func TestLoRARankPastHiddenPlanned(t *testing.T) {
	r, err := estimateJSON(t, `{"model":"gpt2","batch":1,"seq":128,"lora":{"rank":1024}}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(1024 * (768 + 2304) * 12); r.TrainableParams != want {
		t.Errorf("%d trainable parameters, want %d", r.TrainableParams, want)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "past gpt2's hidden size 768") {
		t.Errorf("no rank note: %q", r.Notes)
	}
	r, err = estimateJSON(t, `{"model":"gpt2","batch":1,"seq":128,"lora":{"rank":768}}`)
	if err != nil || strings.Contains(strings.Join(r.Notes, "\n"), "hidden size") {
		t.Errorf("rank 768: %v, notes %q", err, r.Notes)
	}
}

// A key the plan would not read is refused by name rather than planned
// as if it were absent.
func TestSpecUnreadKeysRefused(t *testing.T) {
	for _, tc := range []struct{ spec, field string }{
		{`{"model":"gpt2","batch":1,"image":224}`, "image"},
		{`{"model":"resnet50","batch":1,"seq":128}`, "seq"},
		{`{"model":"gpt2","batch":1,"padding":"bucket"}`, "padding"},
		{`{"model":"llama-small","batch":1,"parallel":{"strategy":"ddp","gpus":2,"micro_batches":8}}`, "parallel.micro_batches"},
		{`{"model":"llama-small","batch":1,"parallel":{"strategy":"ddp","gpus":2,"schedule":"gpipe"}}`, "parallel.schedule"},
		{`{"model":"llama-small","batch":1,"parallel":{"strategy":"ddp","gpus":2,"reshard_after_forward":false}}`, "parallel.reshard_after_forward"},
	} {
		_, err := estimateJSON(t, tc.spec)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.field+":") {
			t.Errorf("%s: error %v, want ErrSpec naming %s", tc.spec, err, tc.field)
		}
	}
}
