package infer

import (
	"errors"
	"strings"
	"testing"
)

// quantLog is one vLLM start-up log of a quantised checkpoint: the
// inputs, and what the log says — "Model loading took" (weights, GiB, one
// GPU's), and where the GPU is known "GPU KV cache size" (tokens) or
// "Available KV cache memory" (kvGiB), or V0's "# GPU blocks" (blocks).
type quantLog struct {
	src, version, model, hf, quant, prec, gpu string
	tp, context, tokensBatched, seqs, block   int
	entry                                     string
	eager                                     bool
	util                                      float64
	weightsGiB                                float64
	tokens, blocks                            int64
	kvGiB                                     float64
	// miss says why a figure of the log falls outside its band: an input
	// vramkit does not plan
	miss string
}

// Checkpoint configs the catalog lacks (the shapes that matter).
const (
	// Qwen/Qwen2.5-72B-Instruct-AWQ pads intermediate_size to 29696
	qwen72AWQ = `{"model_type":"qwen2","hidden_size":8192,"num_hidden_layers":80,"num_attention_heads":64,
"num_key_value_heads":8,"intermediate_size":29696,"vocab_size":152064,"tie_word_embeddings":false,"max_position_embeddings":32768}`
	mistralNemo = `{"model_type":"mistral","hidden_size":5120,"intermediate_size":14336,"num_hidden_layers":40,
"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"vocab_size":131072,"tie_word_embeddings":false,
"max_position_embeddings":1024000}`
)

// vllmQuantSeen are the logs read while the quantised plan was written
// (docs/inference.md; collected by someone else, /work/notes in the
// commit's session). Q-numbers are the collector's.
var vllmQuantSeen = []quantLog{
	// Q08: Qwen3-8B-AWQ, TP 2 on two sm_89 cards (which not logged)
	{src: "Q08 console log", version: "0.17.0", model: "qwen3-8b", quant: "awq", gpu: "l40s", tp: 2, context: 32768, tokensBatched: 4096, util: 0.2, weightsGiB: 2.85},
	// Q09: Qwen2.5-72B-Instruct-AWQ, TP 2 on two A40s, V0 defaults
	{src: "Q09 blog (A40)", version: "0.7.2", hf: qwen72AWQ, quant: "awq", gpu: "a40", tp: 2, context: 32768, weightsGiB: 19.3952, kvGiB: 14.63},
	// Q15: RedHatAI/Mistral-Nemo-Instruct-2407-FP8 (vllm#20052, an RTX
	// 5090 that the table lacks: weights only)
	{src: "Q15 vllm#20052", version: "0.9.2", hf: mistralNemo, quant: "fp8", gpu: "rtx4090", context: 8192, weightsGiB: 12.9014},
	// Q20, Q21: Qwen2.5-7B-Instruct GPTQ-Int4 and FP8-dynamic, L40S, defaults
	{src: "Q20 benchmark blog", version: "0.8.5", model: "qwen2.5-7b", quant: "gptq", gpu: "l40s", context: 32768, weightsGiB: 5.1811, tokens: 611248},
	{src: "Q21 benchmark blog", version: "0.8.5", model: "qwen2.5-7b", quant: "fp8", gpu: "l40s", context: 32768, weightsGiB: 8.1426, tokens: 553216},
	// Q25-Q27: Qwen2.5-7B-Instruct-AWQ on three versions (Windows, an
	// RTX 5060 Ti, an H200 under Machete): weights only
	{src: "Q25 Windows app", version: "0.19.0", model: "qwen2.5-7b", quant: "awq", gpu: "rtx4090", context: 4096, util: 0.7, weightsGiB: 5.2},
	{src: "Q26 sm_120 gate", version: "0.21.0", model: "qwen2.5-7b", quant: "awq", gpu: "rtx4090", context: 1024, weightsGiB: 5.29},
	{src: "Q27 synapse_bench", version: "0.31.0", model: "qwen2.5-7b", quant: "awq", gpu: "h200", context: 4096, weightsGiB: 5.38},
}

func (l quantLog) plan() (*ServeResult, error) {
	s := serveSpec(l.model, l.gpu, l.prec)
	if l.hf != "" {
		s.Model, s.HFConfig = nil, []byte(l.hf)
	}
	s.Quant, s.VLLM, s.Context = l.quant, l.version, l.context
	if l.tp > 1 {
		s.Parallel.TP = l.tp
	}
	s.MaxNumBatchedTokens, s.MaxNumSeqs, s.BlockSize, s.Entry = l.tokensBatched, l.seqs, l.block, l.entry
	s.EnforceEager, s.GPUMemoryUtilization = l.eager, l.util
	return Serve(s)
}

// score compares one log with its plan: the weights against the weights'
// band, the cache against the cache's. It returns how many figures fell
// inside and how many were scored.
func (l quantLog) score(t *testing.T, r *ServeResult) (inside, scored int) {
	t.Helper()
	const g = 1 << 30
	check := func(what string, got, lo, hi, want float64) {
		scored++
		in := want >= lo && want <= hi
		if in {
			inside++
		}
		t.Logf("%s (vLLM %s, %s, tp %d, %s) %s: %.6g (%.6g-%.6g), vLLM %.6g (%+.1f%%) inside %v",
			l.src, l.version, l.quant+l.prec, max(l.tp, 1), l.gpu, what, got, lo, hi, want, 100*(got-want)/want, in)
	}
	if l.weightsGiB != 0 {
		check("weights GiB", float64(r.Weights)/g, float64(r.WeightsLow)/g, float64(r.WeightsHigh)/g, l.weightsGiB)
	}
	switch {
	case l.tokens > 0:
		check("KV tokens", float64(r.Tokens), float64(r.TokensLow), float64(r.TokensHigh), float64(l.tokens))
	case l.blocks > 0:
		bs := int64(r.BlockSize)
		check("GPU blocks", float64(r.Blocks), float64(r.TokensLow/bs), float64(r.TokensHigh/bs), float64(l.blocks))
	case l.kvGiB != 0: // negative: vLLM refused to start
		check("KV GiB", float64(r.kvSigned[0])/g, float64(r.kvSigned[1])/g, float64(r.kvSigned[2])/g, l.kvGiB)
	}
	return inside, scored
}

// TestServeQuantisedSeenLogs: every seen figure inside its band, and the
// weights within 4% of the logged (the band is -1%..+5%).
func TestServeQuantisedSeenLogs(t *testing.T) {
	for i, r := range allInside(t, vllmQuantSeen) {
		l := vllmQuantSeen[i]
		if e := (float64(r.Weights)/(1<<30) - l.weightsGiB) / l.weightsGiB; e < -0.04 || e > 0.01 {
			t.Errorf("%s: weights %+.1f%% off the log", l.src, 100*e)
		}
	}
}

// allInside plans every log and fails the test for each figure outside
// its band; it returns the plans.
func allInside(t *testing.T, logs []quantLog) []*ServeResult {
	t.Helper()
	var out []*ServeResult
	for _, l := range logs {
		r, err := l.plan()
		if err != nil {
			t.Fatalf("%s: %v", l.src, err)
		}
		if in, n := l.score(t, r); in != n {
			t.Errorf("%s: %d of %d figures inside the band", l.src, in, n)
		}
		out = append(out, r)
	}
	return out
}

// TestServeQuantRefusals: formats vLLM does not load as asked are refused
// by name, not planned as something else.
func TestServeQuantRefusals(t *testing.T) {
	for _, c := range []struct{ model, quant, prec, gpu string }{
		{"llama3-8b", "aqlm", "", "h100"},    // not a format vramkit plans
		{"llama3-8b", "awq", "int4", "h100"}, // two quantisations at once
		{"llama3-8b", "awq", "fp32", "h100"}, // vLLM runs AWQ in fp16/bf16
		{"llama3-8b", "awq", "", "mi300x"},   // ROCm AWQ kernels not modelled
		{"llama3-8b", "gptq", "bf16", "t4"},  // no Marlin: fp16 only
	} {
		s := serveSpec(c.model, c.gpu, c.prec)
		s.Quant = c.quant
		if _, err := Serve(s); !errors.Is(err, ErrSpec) {
			t.Errorf("%+v: %v, want a spec error", c, err)
		}
	}
	s := serveSpec("llama3-8b", "h100", "")
	s.Quant, s.Task = "awq", nil
	if _, err := Estimate(s); !errors.Is(err, ErrSpec) {
		t.Errorf("generate with quant awq: %v, want a spec error (Hugging Face's AWQ kernels are not planned)", err)
	}
}

// Blind checkpoints' configs.
const (
	qwen3_235b = `{"model_type":"qwen3_moe","hidden_size":4096,"num_hidden_layers":94,"num_attention_heads":64,
"num_key_value_heads":4,"head_dim":128,"intermediate_size":12288,"moe_intermediate_size":1536,"num_experts":128,
"num_experts_per_tok":8,"decoder_sparse_step":1,"mlp_only_layers":[],"vocab_size":151936,"tie_word_embeddings":false,
"max_position_embeddings":262144}`
	phi4 = `{"model_type":"phi3","hidden_size":5120,"intermediate_size":17920,"num_hidden_layers":40,"num_attention_heads":40,
"num_key_value_heads":10,"vocab_size":100352,"tie_word_embeddings":false,"max_position_embeddings":16384}`
	mistral7bV02 = `{"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":32000,"tie_word_embeddings":false,
"max_position_embeddings":32768,"sliding_window":null}`
)

// vllmQuantBlind are logs collected by someone else and kept from the
// author until the plan was committed (b4a262f); the rows were written
// from their inputs alone, then the answers filled in and evaluated once
// (docs/inference.md gives the first-sight result). Where the GPU is not
// known (or its total is soft: DGX Spark, WSL2) only the weights are
// scored, and the GPU named is one of the same kernels. Not planned, so
// not rows: Q05 (AQLM) and Q18/Q19 (gpt-oss: MXFP4 experts and
// sliding-window layers).
var vllmQuantBlind = []quantLog{
	// Q01-Q06: one V0 0.5.4 benchmark notebook, Llama 3.1 8B at 512 tokens
	{src: "Q01 autoround asym", version: "0.5.4", model: "llama3-8b", quant: "gptq", gpu: "h100", context: 512, weightsGiB: 5.3767},
	{src: "Q02 autoround sym", version: "0.5.4", model: "llama3-8b", quant: "gptq", gpu: "h100", context: 512, weightsGiB: 5.3494},
	{src: "Q03 optimum gptq", version: "0.5.4", model: "llama3-8b", quant: "gptq", gpu: "h100", context: 512, weightsGiB: 5.3494},
	{src: "Q04 autoawq", version: "0.5.4", model: "llama3-8b", quant: "awq", gpu: "h100", context: 512, weightsGiB: 5.3748},
	{src: "Q06 bnb in-flight", version: "0.5.4", model: "llama3-8b", quant: "bitsandbytes", prec: "bf16", gpu: "h100", context: 512, eager: true, weightsGiB: 5.3421},
	// Q07: Llama 3 70B AWQ, TP 2 on L40S
	{src: "Q07 70B AWQ", version: "0.16.0", model: "llama3-70b", quant: "awq", gpu: "l40s", tp: 2, context: 8192, tokensBatched: 2048, weightsGiB: 18.55, tokens: 132128},
	// Q11: Qwen3-235B-A22B FP8 (block scales), TP 8 (+EP) on L40S
	{src: "Q11 235B FP8", version: "0.10.2", hf: qwen3_235b, quant: "fp8", prec: "bf16", gpu: "l40s", tp: 8, context: 32768, tokensBatched: 2048, util: 0.9, weightsGiB: 27.7183, tokens: 238208},
	// Q12, Q13: Qwen2.5-14B FP8-dynamic on a DGX Spark (weights only)
	{src: "Q12 GB10 util 0.4", version: "0.13.0", model: "qwen2.5-14b", quant: "fp8", prec: "bf16", gpu: "h100", context: 32768, tokensBatched: 2048, util: 0.4, weightsGiB: 15.2227},
	{src: "Q13 GB10 util 0.15", version: "0.13.0", model: "qwen2.5-14b", quant: "fp8", prec: "bf16", gpu: "h100", context: 32768, tokensBatched: 2048, util: 0.15, weightsGiB: 15.2227},
	// Q14: Llama 3.1 70B INT8 W8A8, TP 2 on A40s (context not logged: weights only)
	{src: "Q14 70B W8A8", version: "0.5.4", model: "llama3-70b", quant: "w8a8", gpu: "a40", tp: 2, context: 8192, weightsGiB: 33.8807},
	// Q16, Q17: Llama 3.3 70B FP8-dynamic on H100, block size 128
	{src: "Q16 70B FP8 tp2", version: "0.11.0", model: "llama3-70b", quant: "fp8", prec: "bf16", gpu: "h100", tp: 2, context: 16000, block: 128, util: 0.9, weightsGiB: 33.88, kvGiB: 32.0},
	{src: "Q17 70B FP8 tp1", version: "0.11.0", model: "llama3-70b", quant: "fp8", prec: "bf16", gpu: "h100", context: 16000, block: 128, util: 0.9, weightsGiB: 67.72, kvGiB: -1.44},
	// Q22, Q23: Unsloth's dynamic 4-bit Qwen2.5-0.5B under vLLM's V0 engine
	// with LoRA on (neither is modelled: planned as the version's default engine)
	{src: "Q22 unsloth 3090", version: "0.10.0", model: "qwen2.5-0.5b", quant: "bitsandbytes", prec: "bf16", gpu: "rtx3090", context: 32768, tokensBatched: 32768, seqs: 288, util: 0.78, weightsGiB: 0.5151, blocks: 88952, miss: "Unsloth's dynamic 4-bit keeps layer 0 and four MLPs in 16 bits, and LoRA slots load with the weights"},
	{src: "Q23 unsloth 4090", version: "0.8.5", model: "qwen2.5-0.5b", quant: "bitsandbytes", prec: "bf16", gpu: "rtx4090", context: 8192, tokensBatched: 8192, seqs: 192, util: 0.2237, weightsGiB: 0.5138, blocks: 19813, miss: "as Q22"},
	// Q24: Qwen2.5-3B bitsandbytes in-flight under WSL2 (weights only)
	{src: "Q24 WSL2", version: "0.18.0", model: "qwen2.5-3b", quant: "bitsandbytes", prec: "bf16", gpu: "rtx4090", context: 4096, tokensBatched: 2048, eager: true, util: 0.8, weightsGiB: 2.07},
	// Q28: Mistral 7B v0.2 GPTQ (act-order), forced to the gptq kernel, DGX Spark (weights only)
	{src: "Q28 GB10 gptq", version: "0.11.0", hf: mistral7bV02, quant: "gptq", gpu: "h100", context: 32768, tokensBatched: 2048, weightsGiB: 3.8844},
	// Q29: Phi-4 bitsandbytes (fp4) via Unsloth, V0 on an A100 80GB, LoRA on
	{src: "Q29 phi-4 A100", version: "0.8.2", hf: phi4, quant: "bitsandbytes", prec: "bf16", gpu: "a100-80", context: 512, tokensBatched: 512, seqs: 320, util: 0.696, weightsGiB: 8.6253, blocks: 14815},
	// Q30: Unsloth Llama 3.1 8B bnb-4bit, V0 on a T4, LoRA on
	{src: "Q30 unsloth T4", version: "0.7.2", model: "llama3-8b", quant: "bitsandbytes", prec: "fp16", gpu: "t4", context: 512, tokensBatched: 512, seqs: 160, util: 0.5959, weightsGiB: 5.3541, blocks: 1353},
	// Q31: Qwen3-0.6B W4A16 through lm-eval's LLM class (GPU not logged: weights only)
	{src: "Q31 w4a16", version: "0.19.1", model: "qwen3-0.6b", quant: "w4a16", gpu: "h100", context: 8192, tokensBatched: 8192, entry: "llm", util: 0.9, weightsGiB: 0.53},
}

// TestServeQuantisedBlindLogs plans every blind log (all must plan) and
// reports the figures inside their bands.
func TestServeQuantisedBlindLogs(t *testing.T) {
	inside, scored := 0, 0
	for _, l := range vllmQuantBlind {
		r, err := l.plan()
		if err != nil {
			t.Fatalf("%s: %v", l.src, err)
		}
		in, n := l.score(t, r)
		inside, scored = inside+in, scored+n
		if in != n && l.miss == "" {
			t.Errorf("%s: %d of %d figures inside their bands", l.src, in, n)
		}
		if in == n && l.miss != "" {
			t.Errorf("%s: inside now; drop its miss (%s)", l.src, l.miss)
		}
	}
	// first sight (b4a262f): 20 of 27; since bitsandbytes' statistics
	// before 0.10 and V0's baseline from 0.7: 24; since vLLM's rotary
	// tables are counted with the weights (Q31's Qwen3-0.6B: 40,960
	// positions of 128 in bf16, 10 MiB of its 0.03 GiB gap): 25
	if inside < 25 {
		t.Errorf("%d of %d figures inside their bands, 25 before", inside, scored)
	}
	t.Logf("%d of %d figures inside their bands", inside, scored)
}

// TestServeRefusesWhatVLLMRefuses: combinations vLLM refuses are refused
// by the key at fault, not planned as fitting (the review's reproducers).
func TestServeRefusesWhatVLLMRefuses(t *testing.T) {
	for _, c := range []struct {
		model, gpu, quant, prec, vllm string
		tp, loraRank                  int
		key                           string
	}{
		{"gpt-oss-20b", "t4", "", "", "", 2, 0, "gpu"},             // MXFP4 needs sm_80
		{"gpt-oss-20b", "h100", "", "fp32", "", 1, 0, "precision"}, // bf16 only
		{"gpt-oss-20b", "h100", "awq", "", "", 1, 0, "quant"},      // already MXFP4
		{"gpt-oss-20b", "h100", "", "", "0.5", 1, 0, "vllm"},       // before gpt-oss
		{"gemma-3-1b", "a10", "awq", "", "", 4, 0, "parallel"},     // 6912/4 not whole groups
		{"qwen3-30b-a3b", "h100", "bitsandbytes", "", "0.9", 1, 0, "quant"},
		{"qwen2.5-7b", "t4", "fp8", "", "0.8", 2, 0, "quant"}, // no fp8 on sm_75 before 0.13
		{"gpt2", "a10", "", "", "", 1, 16, "max_lora_rank"},   // GPT-2 takes no LoRA
		{"llama3-8b", "mi300x", "awq", "bf16", "", 1, 0, "quant"},
		{"gemma-3-27b", "t4", "fp8", "", "", 1, 0, "quant"}, // fp16 refused, no bf16
	} {
		s := serveSpec(c.model, c.gpu, c.prec)
		s.Quant, s.VLLM, s.MaxLoraRank = c.quant, c.vllm, c.loraRank
		if c.tp > 1 {
			s.Parallel.TP = c.tp
		}
		_, err := Serve(s)
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), ": "+c.key+": ") {
			t.Errorf("%+v: %v, want a spec error on %s", c, err, c.key)
		}
	}
	// and what vLLM accepts: Gemma 2 in fp16 before its refusal, Gemma 3
	// AWQ in bf16 through Marlin
	for _, c := range []struct{ model, gpu, quant, prec, vllm, want string }{
		{"gemma-2-9b", "t4", "", "fp16", "0.7.2", "fp16"},
		{"gemma-3-27b", "a100-80", "awq", "", "", "bf16"},
	} {
		s := serveSpec(c.model, c.gpu, c.prec)
		s.Quant, s.VLLM = c.quant, c.vllm
		if r, err := Serve(s); err != nil || r.Precision != c.want {
			t.Errorf("%+v: %v, %v; want it planned in %s", c, r, err, c.want)
		}
	}
}

// TestServeQuantCapability: vLLM refuses a format below its least compute
// capability (AWQ and FP8 need 7.5: a V100 is 7.0) when it builds the
// config, and GPTQ, which it loads there, runs through the dequantising
// kernels: Marlin never reaches sm_70.
func TestServeQuantCapability(t *testing.T) {
	for _, q := range []string{"awq", "fp8"} {
		s := serveSpec("llama3-8b", "v100-16", "auto")
		s.Quant, s.Context = q, 4096
		_, err := Serve(s)
		if !IsSpecError(err) || !strings.Contains(err.Error(), "needs compute capability 7.5 or later, v100-16 is 7.0") {
			t.Errorf("%s on a V100: want a refusal naming 7.5, got %v", q, err)
		}
	}
	s := serveSpec("llama3-8b", "t4", "auto")
	s.Quant, s.Context = "awq", 4096
	if _, err := Serve(s); err != nil {
		t.Errorf("awq on a T4 (7.5): %v", err)
	}
	s = serveSpec("llama3-8b", "v100-16", "auto")
	s.Quant, s.Context = "gptq", 4096
	r, err := Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "dequantise") {
		t.Errorf("gptq on a V100 at vLLM 0.31: want the dequantising kernels, notes %q", r.Notes)
	}
}
