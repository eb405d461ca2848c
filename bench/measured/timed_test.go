package measured

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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
		prec := "bf16"
		row := GTRow{Name: "r", Status: "ok", StepMedianS: 0.1, Model: c.model, HFConfig: cfg, B: 1,
			Seq: 16, Prec: &prec, LoRA: 16, LoRATargets: c.explicit}
		w, why, err := fromCaptureRow(row)
		if err != nil || why != "" {
			t.Fatalf("%s: %v %s", c.model, err, why)
		}
		if w.Spec.LoRA == nil || !slices.Equal(w.Spec.LoRA.Targets, c.want) {
			t.Errorf("%s: targets %v, want %v", c.model, w.Spec.LoRA, c.want)
		}
	}
}

// Rows timed after a selective-checkpointing workload in one process are
// dropped unless the harness marked them as run with torch's own SDPA
// (sdpa_restored): before session 23 the patch leaked into them.
func TestReadTimedSelectivePatch(t *testing.T) {
	row := func(name, ckpt string, restored bool) string {
		r := `{"name":"` + name + `","status":"ok","timing":true,"job":"j","step_median_s":0.1,"model":"tv:vit_b_16","b":8,"prec":"bf16","ckpt":"` + ckpt + `"`
		if restored {
			r += `,"sdpa_restored":true`
		}
		return r + "}\n"
	}
	path := filepath.Join(t.TempDir(), "results.jsonl")
	data := row("sel", "selective", false) + row("leaked", "none", false) + row("restored", "none", true)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, skipped, err := ReadTimed(path)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range ws {
		names = append(names, w.Name)
	}
	if !slices.Equal(names, []string{"sel", "restored"}) || len(skipped) != 1 || !strings.HasPrefix(skipped[0], "leaked: timed after a selective") {
		t.Errorf("kept %v, skipped %v; want sel and restored kept, leaked skipped", names, skipped)
	}
}

// TestTableGPU maps NVML's device names, as the host probe records them,
// to the GPU table: a row timed on an H100 is predicted for the H100.
func TestTableGPU(t *testing.T) {
	for dev, want := range map[string]string{"NVIDIA H200": "h200", "NVIDIA H100 80GB HBM3": "h100"} {
		if got, err := tableGPU(dev); err != nil || got != want {
			t.Errorf("tableGPU(%q) = %q, %v; want %q", dev, got, err, want)
		}
	}
	if _, err := tableGPU("NVIDIA Quadro Z9"); err == nil {
		t.Error("an unknown device maps to a table GPU")
	}
}

// A row's phase_s (gt_work.py from session 35) becomes the median of each
// phase over the steps step_median_s is the median of: the first two are
// dropped, as the compile and the warm-up fall there.
func TestTimedRowPhases(t *testing.T) {
	prec := "bf16"
	row := GTRow{Name: "r", Status: "ok", StepMedianS: 0.03, Model: "GPT2LMHeadModel", HFConfig: []byte(`{"model_type":"gpt2"}`),
		B: 1, Seq: 16, Prec: &prec, PhaseS: [][3]float64{{9, 9, 9}, {5, 5, 5}, {0.010, 0.020, 0.003}, {0.012, 0.018, 0.004}, {0.011, 0.030, 0.002}}}
	w, why, err := fromCaptureRow(row)
	if err != nil || why != "" {
		t.Fatal(err, why)
	}
	if w.PhaseS != [3]float64{0.011, 0.020, 0.003} {
		t.Errorf("phases %v, want the medians of steps 3-5 [0.011 0.020 0.003]", w.PhaseS)
	}
	row.PhaseS = nil
	if w, _, _ = fromCaptureRow(row); w.PhaseS != [3]float64{} {
		t.Errorf("a row without phase_s has phases %v", w.PhaseS)
	}
}
