package memmodel_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

func spec(t *testing.T, js string) memmodel.Spec {
	t.Helper()
	s, err := memmodel.ParseSpec(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func estimate(t *testing.T, js string, opts memmodel.Options) *memmodel.Result {
	t.Helper()
	r, err := memmodel.Estimate(spec(t, js), opts)
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return r
}

// TestRefusalsNameAlternative: every refusal of a model, model_type or
// technique says what is unsupported and what to use instead.
func TestRefusalsNameAlternative(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{`{"model": "lama-7b"}`, `did you mean "llama2-7b"`},
		{`{"model": "foobar"}`, `nearest in the catalog`},
		// no typo distance, but a shared word: a llama, not "dit-l-2"
		{`{"model": "openllama-3b"}`, `nearest in the catalog: "llama`},
		{`{"model": "whisper-xl"}`, `nearest in the catalog: "whisper-`},
		{`{"hf_config": {"model_type": "deepseek_v3", "hidden_size": 64}}`, `nearest supported: qwen2_moe`},
		{`{"hf_config": {"model_type": "gemma3", "hidden_size": 64}}`, `nearest supported: gemma3_text`},
		{`{"hf_config": {"model_type": "brandnew", "hidden_size": 64, "num_attention_heads": 4}}`, `nearest supported: llama`},
		{`{"hf_config": {"model_type": "brandnew", "num_local_experts": 8}}`, `nearest supported: mixtral`},
		{`{"hf_config": {"model_type": "mixtrall"}}`, `did you mean "mixtral"`},
		{`{"model": "gpt2", "attn": "eager"}`, `use sdpa (the default) for gpt2`},
		{`{"model": "llama-small", "attn": "flash"}`, `use mem_efficient for fp32`},
		{`{"model": "llama-small", "attn": "flsh"}`, `did you mean "flash"`},
		{`{"model": "llama-small", "quant": "nf4"}`, `need LoRA adapters`},
		{`{"model": "gpt2", "quant": "nf4", "lora": {"rank": 8}}`, `use LoRA on bf16 weights`},
		{`{"model": "llama-small", "quant": "int3"}`, `use nf4`},
		{`{"model": "llama-small", "override": {"num_key_value_heads": 5}}`, `nearest divisor: 4`},
		{`{"model": "bert-base", "override": {"low_rank": 8}}`, `hf_config instead`},
		{`{"model": "llama-small", "compile": true, "parallel": {"strategy": "ddp", "gpus": 2}}`, `without compile`},
		{`{"model": "whisper-tiny", "seq": 1000}`, `exceeds the model's 448 positions`},
	} {
		_, err := memmodel.Estimate(spec(t, c.spec), memmodel.Options{Steps: 1, SkipReserved: true})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to say %q", c.spec, err, c.want)
		}
	}
}

// TestCommonSpellings: the names people type resolve to catalog entries.
func TestCommonSpellings(t *testing.T) {
	for name, want := range map[string]string{
		"meta-llama/Llama-2-7b-hf": "llama2-7b", "meta-llama/Llama-2-7b-chat-hf": "llama2-7b",
		"Qwen/Qwen2.5-7B": "qwen2.5-7b", "Qwen/Qwen2.5-0.5B-Instruct": "qwen2.5-0.5b",
		"mistralai/Mistral-7B-v0.1": "mistral-7b", "google/gemma-2-9b": "gemma-2-9b",
		"microsoft/Phi-3-mini-4k-instruct": "phi-3-mini", "mistralai/Mixtral-8x7B-v0.1": "mixtral-8x7b",
		"Qwen/Qwen3-8B": "qwen3-8b", "Qwen/Qwen2.5-72B-Instruct": "qwen2.5-72b", "openai/whisper-small": "whisper-small", "allenai/OLMo-2-1124-7B": "olmo-2-7b",
	} {
		a, err := memmodel.Lookup(name)
		if err != nil || a.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", name, a.Name, err, want)
		}
	}
}

// TestByModuleAddsUp: the per-module view accounts for every parameter,
// gradient and optimizer byte of the plan, and layers of equal size get
// equal rows.
func TestByModuleAddsUp(t *testing.T) {
	r := estimate(t, `{"model": "qwen3-0.6b", "batch": 2, "seq": 256, "precision": "bf16-amp"}`,
		memmodel.Options{Steps: 2, ByModule: true, SkipReserved: true})
	var params, pb, gb, ob int64
	for _, m := range r.Modules {
		params += m.Params
		pb += m.ParamBytes
		gb += m.GradientBytes
		ob += m.OptimizerBytes
	}
	if params != r.Params {
		t.Errorf("modules hold %d params, the model %d", params, r.Params)
	}
	// fp32 weights under autocast: 4 bytes each, gradients as much,
	// AdamW two moments
	if pb != 4*r.Params || gb != 4*r.Params || ob != 8*r.Params {
		t.Errorf("weights %d, gradients %d, optimizer %d bytes for %d params", pb, gb, ob, r.Params)
	}
	rows := memmodel.CollapseLayers(r.Modules)
	found := false
	for _, m := range rows {
		if m.Module == "layers.{0..27}.mlp" {
			found = true
			if m.ActivationByte <= 0 {
				t.Errorf("%s saves nothing", m.Module)
			}
		}
	}
	if !found {
		t.Errorf("28 identical MLP rows not merged: %v", rows)
	}
}

// TestOverrideReplans: architecture overrides change the parameter count
// by exactly the weights they add or remove.
func TestOverrideReplans(t *testing.T) {
	base := estimate(t, `{"model": "llama3-8b", "batch": 1, "seq": 128, "precision": "bf16"}`, memmodel.Options{Steps: 1, SkipReserved: true})
	d, vocab, layers, heads := int64(4096), int64(128256), int64(32), int64(32)
	hd := d / heads
	for _, c := range []struct {
		override string
		delta    int64
	}{
		{`{"tie_word_embeddings": true}`, -vocab * d},
		{`{"num_key_value_heads": 4}`, -layers * 2 * d * 4 * hd},           // 8 → 4 kv heads
		{`{"intermediate_size": 7168}`, -layers * 3 * d * 7168},            // 14336 → 7168
		{`{"num_hidden_layers": 16}`, -16 * (2*d*d + 2*d*d/4 + 3*d*14336)}, // half the layers (q, o full; k, v a quarter)
	} {
		r := estimate(t, `{"model": "llama3-8b", "batch": 1, "seq": 128, "precision": "bf16", "override": `+c.override+`}`,
			memmodel.Options{Steps: 1, SkipReserved: true})
		if got := r.Params - base.Params; got != c.delta+normDelta(c.override, d) {
			t.Errorf("%s: params change by %d, want %d", c.override, got, c.delta)
		}
	}
	lr := estimate(t, `{"model": "llama3-8b", "batch": 1, "seq": 128, "precision": "bf16", "override": {"low_rank": 256}}`,
		memmodel.Options{Steps: 1, SkipReserved: true})
	if lr.Params >= base.Params/2 || lr.PeakAllocated >= base.PeakAllocated {
		t.Errorf("rank-256 factorisation: %d params (dense %d), peak %d (dense %d)", lr.Params, base.Params, lr.PeakAllocated, base.PeakAllocated)
	}
}

// normDelta is the two RMSNorm weights per layer a layer-count override
// also removes.
func normDelta(override string, d int64) int64 {
	if strings.Contains(override, "num_hidden_layers") {
		return -16 * 2 * d
	}
	return 0
}

// TestQLoRAWeights: 4-bit base weights take 0.5 byte per weight plus the
// double-quantised constants, the LM head and embeddings stay bf16, the
// adapters float32, and
// the output says the technique is modelled from source.
func TestQLoRAWeights(t *testing.T) {
	js := `{"model": "llama2-7b", "batch": 1, "seq": 512, "precision": "bf16", "lora": {"rank": 16}%s}`
	bf := estimate(t, strings.Replace(js, "%s", "", 1), memmodel.Options{Steps: 2, ByModule: true, SkipReserved: true})
	q := estimate(t, strings.Replace(js, "%s", `, "quant": "nf4"`, 1), memmodel.Options{Steps: 2, ByModule: true, SkipReserved: true})
	weights := func(r *memmodel.Result) (w int64) {
		for _, m := range r.Modules {
			w += m.ParamBytes
		}
		return w
	}
	d, ff, vocab, layers := 4096.0, 11008.0, 32000.0, 32.0
	linear := layers * (4*d*d + 3*d*ff)
	lora := float64(bf.TrainableParams)
	rest := float64(bf.Params) - linear - lora // embeddings, head, norms
	// the adapters are float32: get_peft_model upcasts bf16 adapters
	// (autocast_adapter_dtype, on by default)
	want := linear*(0.5+1.0/64+4.0/(64*256)) + 2*rest + 4*lora
	if got := float64(weights(q)); got < want*0.999 || got > want*1.001 {
		t.Errorf("QLoRA weights %.0f bytes, want %.0f (bf16: %d)", got, want, weights(bf))
	}
	if rest < 2*vocab*d {
		t.Errorf("embeddings and head (%.0f params) missing from the unquantised rest", rest)
	}
	if !hasNote(q, "modelled from bitsandbytes' source") {
		t.Errorf("no source note: %v", q.Notes)
	}
	// the band is the lora=qlora class's (late9q's three blind captures;
	// bands_test.go's TestQLoRABandWidenedWhenThin: fewer rows, wider)
	if !strings.Contains(strings.Join(q.BandClasses, ","), "lora=qlora") {
		t.Errorf("QLoRA band rests on %v, not on the lora=qlora class", q.BandClasses)
	}
}

func hasNote(r *memmodel.Result, s string) bool {
	for _, n := range r.Notes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// TestAttentionImplementations: eager and math attention keep the score
// matrices (batch·heads·seq² values) that flash and memory-efficient SDPA
// never materialise, so at 2k tokens they plan far more memory.
func TestAttentionImplementations(t *testing.T) {
	peak := map[string]int64{}
	for _, attn := range memmodel.AttnImpls {
		r := estimate(t, `{"model": "llama-small", "batch": 2, "seq": 2048, "precision": "bf16-amp", "attn": "`+attn+`"}`,
			memmodel.Options{Steps: 1, SkipReserved: true})
		peak[attn] = r.PeakAllocated
	}
	if peak["flash"] != peak["sdpa"] {
		t.Errorf("flash %d != sdpa %d on bf16 (SDPA picks flash)", peak["flash"], peak["sdpa"])
	}
	scores := int64(24 * 2 * 16 * 2048 * 2048) // layers · batch · heads · seq²
	for _, a := range []string{"eager", "math"} {
		if peak[a]-peak["sdpa"] < 4*scores {
			t.Errorf("%s: %d more bytes than sdpa, want at least 4 per score (float32 softmax)", a, peak[a]-peak["sdpa"])
		}
	}
	if d := peak["mem_efficient"] - peak["flash"]; d < 0 || d > peak["flash"]/100 {
		t.Errorf("mem_efficient differs from flash by %d bytes", d)
	}
}

// TestHFConfigDefaults: defaults of the new families' config.json keys
// follow transformers' configuration classes.
func TestHFConfigDefaults(t *testing.T) {
	parse := func(cfg map[string]any) memmodel.Arch {
		data, _ := json.Marshal(cfg)
		a, err := memmodel.ParseHFConfig(data)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	base := map[string]any{"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 1000}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	g := parse(with("model_type", "gemma"))
	if !g.Tied || g.HeadDim != 256 || g.Decoder.Act != "gelu_tanh" {
		t.Errorf("gemma: tied %v, head_dim %d, act %q; want tied, 256, gelu_tanh", g.Tied, g.HeadDim, g.Decoder.Act)
	}
	g2 := parse(with("model_type", "gemma2", "final_logit_softcapping", nil))
	if g2.Decoder.FinalSoftcap != 0 || g2.Decoder.AttnSoftcap != 50 {
		t.Errorf("gemma2 with final_logit_softcapping null: %+v", g2.Decoder)
	}
	m := parse(with("model_type", "mixtral"))
	if m.MoE.Experts != 8 || m.MoE.TopK != 2 || m.MoE.FFN != 128 || m.Tied {
		t.Errorf("mixtral defaults: %+v tied %v", m.MoE, m.Tied)
	}
	q := parse(with("model_type", "qwen2_moe", "num_experts", 4, "num_experts_per_tok", 2, "moe_intermediate_size", 32,
		"shared_expert_intermediate_size", 64, "decoder_sparse_step", 2))
	if !q.AttnBias || q.MoE.SharedFFN != 64 || len(q.MoE.DenseLayers) != 1 || q.MoE.DenseLayers[0] != 0 {
		t.Errorf("qwen2_moe: bias %v, %+v", q.AttnBias, q.MoE)
	}
}
