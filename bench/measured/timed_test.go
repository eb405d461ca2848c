package measured

import (
	"slices"
	"testing"
)

// A timed capture row without lora_targets is translated with the module list the capture harness
// handed PEFT, as GTSpec translates memory rows: Phi-3's fused qkv_proj (PEFT refuses q_proj/v_proj on
// it, and so does plan), diffusers' attention projections, q_proj/v_proj elsewhere; explicit targets win.
func TestTimedRowLoRATargets(t *testing.T) {
	cfg := []byte(`{"model_type":"phi3"}`)
	for _, c := range []struct {
		model    string
		explicit []string
		want     []string
	}{
		{"Phi3ForCausalLM", nil, []string{"qkv_proj"}},
		{"df:sd15-unet", nil, []string{"to_q", "to_k", "to_v", "to_out"}},
		{"LlamaForCausalLM", nil, []string{"q_proj", "v_proj"}},
		{"GPT2LMHeadModel", []string{"c_attn"}, []string{"c_attn"}},
	} {
		row := captureRow{Name: "r", Status: "ok", StepMedianS: 0.1, Model: c.model, HFConfig: cfg, B: 1,
			Seq: 16, Prec: "bf16", LoRA: 16, LoRATargets: c.explicit}
		w, why, err := fromCaptureRow(row)
		if err != nil || why != "" {
			t.Fatalf("%s: %v %s", c.model, err, why)
		}
		if w.Spec.LoRA == nil || !slices.Equal(w.Spec.LoRA.Targets, c.want) {
			t.Errorf("%s: targets %v, want %v", c.model, w.Spec.LoRA, c.want)
		}
	}
}
