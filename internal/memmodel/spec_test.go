package memmodel

import (
	"errors"
	"strings"
	"testing"
)

func estimateJSON(t *testing.T, js string) (*Result, error) {
	t.Helper()
	s, err := ParseSpec(strings.NewReader(js))
	if err != nil {
		return nil, err
	}
	return Estimate(s, Options{Steps: 1, SkipReserved: true})
}

// Bad specs give a one-line error that names the offending field.
func TestSpecErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ spec, field string }{
		{`{"model":"resnet5000","batch":8}`, "model"},
		{`{"model":"resnet50","batch":8,"colour":"red"}`, "colour"},
		{`{"model":"resnet50","batch":0}`, "batch"},
		{`{"model":"resnet50","batch":"eight"}`, "batch"},
		{`{"model":"gpt2","batch":1,"seq":128,"precision":"bf16-amp","gpu":"t4"}`, "precision"},
		{`{"model":"gpt2","batch":1,"seq":128,"parallel":{"strategy":"tp","gpus":5}}`, "parallel.tp"},
		{`{"model":"bert-base","batch":1,"seq":128,"checkpoint":"often"}`, "checkpoint"},
		{`{"model":"bert-base","batch":1,"seq":4096}`, "seq"},
		{`{"model":"bert-base","batch":1,"gpu":"gtx480"}`, "gpu"},
		{`{"model":"bert-base","batch":1,"optimizer":"lion"}`, "optimizer"},
		{`{"model":"bert-base","batch":1,"lora":{"rank":0}}`, "lora.rank"},
		{`{"model":null,"hf_config":{"model_type":"mamba"},"batch":1}`, "hf_config"},
		{`{"model":"resnet50","batch":2,"alloc_conf":"max_split_size_mb:abc"}`, "alloc_conf"},
	} {
		_, err := estimateJSON(t, tc.spec)
		if err == nil {
			t.Errorf("%s: no error", tc.spec)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.field) || strings.Contains(msg, "\n") {
			t.Errorf("%s: error %q does not name %q on one line", tc.spec, msg, tc.field)
		}
	}
}

func TestSpecDefaultsAndKnownError(t *testing.T) {
	s, err := ParseSpec(strings.NewReader(`{"model":"gpt2","batch":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Precision != "fp32" || s.Accum != 1 || s.Parallel.GPUs != 1 || s.GPU != "h200" {
		t.Errorf("defaults not applied: %+v", s)
	}
	_, err = Estimate(Spec{Batch: 1, Precision: "fp32", Checkpoint: "none", Accum: 1, Optimizer: "adamw", GPU: "h200",
		Parallel: Parallel{Strategy: "none", GPUs: 1, TP: 1, PP: 1, MicroBatches: 1}}, DefaultOptions())
	if !errors.Is(err, ErrSpec) {
		t.Errorf("missing model: %v, want ErrSpec", err)
	}
}

// An inline Hugging Face config builds the same model as the catalog entry.
func TestHFConfigMatchesCatalog(t *testing.T) {
	hf := `{"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,"vocab_size":50257,"n_positions":1024}`
	a, err := estimateJSON(t, `{"hf_config":`+hf+`,"batch":2,"seq":256}`)
	if err != nil {
		t.Fatal(err)
	}
	b, err := estimateJSON(t, `{"model":"gpt2","batch":2,"seq":256}`)
	if err != nil {
		t.Fatal(err)
	}
	if a.Params != b.Params || a.PeakAllocated != b.PeakAllocated {
		t.Errorf("hf_config %d params / %d bytes, catalog %d / %d", a.Params, a.PeakAllocated, b.Params, b.PeakAllocated)
	}
}
