package infer

import (
	"strings"
	"testing"
)

// Qwen/Qwen2.5-72B-Instruct-AWQ's config.json as the checkpoint ships it:
// the shape qwen72AWQ gives, with its quantization_config.
const qwen72AWQCkpt = `{"model_type":"qwen2","hidden_size":8192,"num_hidden_layers":80,"num_attention_heads":64,
"num_key_value_heads":8,"intermediate_size":29696,"vocab_size":152064,"tie_word_embeddings":false,"max_position_embeddings":32768,
"torch_dtype":"float16","quantization_config":{"bits":4,"group_size":128,"modules_to_not_convert":null,"quant_method":"awq",
"version":"gemm","zero_point":true}}`

// TestServeReadsCheckpointQuant: a serve plan from a quantised
// checkpoint's config.json plans the format vLLM reads from it. The
// figure checked is log Q09's (Qwen2.5-72B-Instruct-AWQ on two A40s,
// vLLM 0.7.2: 19.3952 GiB of weights per GPU), which the plan without
// --quant must land inside, as the one with --quant awq does.
func TestServeReadsCheckpointQuant(t *testing.T) {
	l := quantLog{src: "Q09 from its config.json", version: "0.7.2", hf: qwen72AWQCkpt, gpu: "a40", tp: 2, context: 32768, weightsGiB: 19.3952}
	r, err := l.plan()
	if err != nil {
		t.Fatal(err)
	}
	if in, n := l.score(t, r); n == 0 || in != n {
		t.Errorf("%d of %d figures inside their bands", in, n)
	}
	if r.Quant != "awq" {
		t.Errorf("quant %q, want awq (read from quantization_config)", r.Quant)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "quantization_config") {
		t.Errorf("no note says the format came from config.json: %q", r.Notes)
	}
	l.quant = "awq"
	r2, err := l.plan()
	if err != nil {
		t.Fatal(err)
	}
	if r2.Weights != r.Weights {
		t.Errorf("weights %d from config.json, %d with --quant awq: the same checkpoint", r.Weights, r2.Weights)
	}
}

// TestCheckpointQuantRefusals: what vLLM or Hugging Face would refuse,
// or vramkit cannot plan, is one spec error naming the reason.
func TestCheckpointQuantRefusals(t *testing.T) {
	withQ := func(q string) string {
		return strings.Replace(qwen72AWQ, `"max_position_embeddings":32768}`, `"max_position_embeddings":32768,"quantization_config":`+q+`}`, 1)
	}
	bnb4 := withQ(`{"quant_method":"bitsandbytes","load_in_4bit":true,"bnb_4bit_quant_type":"nf4"}`)
	for _, tc := range []struct {
		name, hf, task, quant, prec, want string
	}{
		{"serve, another quant", qwen72AWQCkpt, "serve", "gptq", "", "differs from the checkpoint's"},
		{"generate, awq", qwen72AWQCkpt, "generate", "", "bf16", "--task serve"},
		{"generate, bnb 4-bit as bf16", bnb4, "generate", "", "bf16", "precision int4"},
		{"serve, compressed-tensors without quant", withQ(`{"quant_method":"compressed-tensors","format":"pack-quantized"}`), "serve", "", "", "w4a16, w8a8 or fp8"},
		{"serve, unknown method", withQ(`{"quant_method":"hqq","bits":4}`), "serve", "", "", "does not plan"},
		{"serve, no method", withQ(`{"bits":4}`), "serve", "", "", "no quant_method"},
	} {
		s := serveSpec("", "a40", tc.prec)
		task := tc.task
		s.Task, s.Model, s.HFConfig, s.Quant = &task, nil, []byte(tc.hf), tc.quant
		if task == "generate" {
			s.Batch, s.Seq = 1, 128
		}
		var err error
		if task == "serve" {
			_, err = Serve(s)
		} else {
			_, err = Estimate(s)
		}
		if err == nil || !IsSpecError(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a spec error saying %q", tc.name, err, tc.want)
		}
	}
	// accepted: a bitsandbytes checkpoint under generate at int4, and a
	// compressed-tensors one whose scheme the user names
	s := serveSpec("", "a40", "int4")
	gen := "generate"
	s.Task, s.Model, s.HFConfig, s.Batch, s.Seq = &gen, nil, []byte(strings.Replace(bnb4, `"hidden_size":8192,"num_hidden_layers":80`, `"hidden_size":8192,"num_hidden_layers":2`, 1)), 1, 128
	if _, err := Estimate(s); err != nil {
		t.Errorf("bitsandbytes 4-bit checkpoint at precision int4: %v", err)
	}
	s = serveSpec("", "a40", "")
	s.Model, s.HFConfig, s.Quant = nil, []byte(withQ(`{"quant_method":"compressed-tensors"}`)), "w4a16"
	if _, err := Serve(s); err != nil {
		t.Errorf("compressed-tensors with quant w4a16: %v", err)
	}
}
