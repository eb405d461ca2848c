package infer

import (
	"math"
	"slices"
	"testing"
)

// TestStageLayers: vLLM's get_pp_indices (from 0.8): L//P a stage, the
// remainder one layer each to stages P-2, P-3, ... (DeepSeek V3's 61
// layers over 4 stages: 15, 15, 16, 15).
func TestStageLayers(t *testing.T) {
	for _, c := range []struct {
		L, P int64
		want []int64
	}{{61, 4, []int64{15, 15, 16, 15}}, {80, 3, []int64{27, 27, 26}}, {28, 2, []int64{14, 14}}, {32, 4, []int64{8, 8, 8, 8}}} {
		if got := stageLayers(c.L, c.P); !slices.Equal(got, c.want) {
			t.Errorf("%d layers over %d stages: %v, want %v", c.L, c.P, got, c.want)
		}
	}
}

// TestServePipelineQwen3: a public log of Qwen3-0.6B at pipeline-parallel
// size 2 (vllm-ascend 0.9.2, an NPU not in the GPU table: seen in the PP
// notes, PP03) loaded 0.7079 GiB on each stage, the tied embedding's copy
// on the last; its first worker's "Available memory: 44070370406" held
// 768,512 tokens in blocks of 128, each block a token of the stage's 14
// layers: the layout the plan cuts the binding stage's cache into.
func TestServePipelineQwen3(t *testing.T) {
	s := serveSpec("qwen3-0.6b", "h100", "bf16")
	s.Parallel.PP, s.BlockSize = 2, 128
	r, err := Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := float64(r.Weights) / (1 << 30); math.Abs(got-0.7079)/0.7079 > 0.01 {
		t.Errorf("weights %.4f GiB a stage, the log 0.7079", got)
	}
	if !slices.Equal(r.StageLayers, []int64{14, 14}) {
		t.Errorf("stages %v, want [14 14]", r.StageLayers)
	}
	if tokens := 44070370406 / r.BlockBytes * 128; tokens != 768512 {
		t.Errorf("the log's available memory cut into the stage's blocks (%d B) holds %d tokens, vLLM logged 768512", r.BlockBytes, tokens)
	}
	s.Parallel.PP = 1
	one, err := Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Blocks <= one.Blocks {
		t.Errorf("two stages hold %d blocks of half the layers, one GPU %d: want more", r.Blocks, one.Blocks)
	}
}

// TestServePipelineRefusals: what is not planned under pipeline
// parallelism is refused, not planned as one stage.
func TestServePipelineRefusals(t *testing.T) {
	for _, c := range []struct{ model, vllm string }{{"gemma-2-9b", ""}, {"llama3-8b", "0.6.5"}} {
		s := serveSpec(c.model, "h100", "bf16")
		s.Parallel.PP, s.VLLM = 2, c.vllm
		if _, err := Serve(s); err == nil {
			t.Errorf("%s pp 2 on %q: planned, want refused", c.model, c.vllm)
		}
	}
	s := serveSpec("llama3-8b", "h100", "bf16")
	s.Parallel.PP, s.MaxLoraRank = 2, 16
	if _, err := Serve(s); err == nil {
		t.Error("LoRA at pp 2: planned, want refused")
	}
}

// TestServePipelineWeights: the stages of Llama 3 70B at TP 4 × PP 2
// hold the model between them once (untied: the first the embedding,
// the last the head), each GPU an eighth.
func TestServePipelineWeights(t *testing.T) {
	s := serveSpec("llama3-70b", "h100", "bf16")
	s.Parallel.TP, s.Parallel.PP = 4, 2
	r, err := Serve(s)
	if err != nil {
		t.Fatal(err)
	}
	eighth := float64(r.Params) * 2 / 8
	if e := (float64(r.Weights) - eighth) / eighth; math.Abs(e) > 0.02 {
		t.Errorf("weights %d B a GPU, an eighth of the model %0.f (%+.1f%%)", r.Weights, eighth, 100*e)
	}
}

// TestServePipelineBlindLogs: the two blind pipeline-parallel logs whose
// model vramkit knows, planned before their figures were read (weights a
// rank; their GPUs, a GH200 and an RTX PRO 6000, were not in the table;
// the RTX PRO 6000 is since session 32, TestServeRTXPro6000Logs).
// Qwen3-32B at PP 2 on vLLM 0.27.1: 30.52 GiB on both stages, planned
// 30.52. Qwen3-30B-A3B at TP 4 × PP 2 on 0.10.1: 7.33 GiB, planned 7.12
// (-2.9%; the MoE's tensor-parallel weights were low before, see the MoE
// logs). The GH200 log shows the last stage binding, as planned: its PP1
// workers had 5.57 GiB less for the cache than PP0's (the sampler), and
// the engine took their 385,471 blocks, 23.53x of 262,144 tokens (the
// RTX PRO log's 56,640 tokens sit just below what its first stage's 6.92
// GiB holds, 56,688: the last stage's or the rounding's).
func TestServePipelineBlindLogs(t *testing.T) {
	for _, l := range []struct {
		src, model, hf, vllm string
		tp                   int
		weightsGiB, tol      float64
	}{
		{"PP04 Qwen3-32B", "", qwen3_32b, "0.27.1", 1, 30.52, 0.005},
		{"PP02 Qwen3-30B-A3B", "qwen3-30b-a3b", "", "0.10.1", 4, 7.3272, 0.03},
	} {
		s := serveSpec(l.model, "h100", "bf16")
		if l.hf != "" {
			s.Model, s.HFConfig = nil, []byte(l.hf)
		}
		s.VLLM, s.Parallel.TP, s.Parallel.PP = l.vllm, l.tp, 2
		r, err := Serve(s)
		if err != nil {
			t.Fatalf("%s: %v", l.src, err)
		}
		got := float64(r.Weights) / (1 << 30)
		if e := (got - l.weightsGiB) / l.weightsGiB; math.Abs(e) > l.tol {
			t.Errorf("%s: weights %.3f GiB a rank, logged %.4f (%+.1f%%)", l.src, got, l.weightsGiB, 100*e)
		}
		if r.Stage != 1 {
			t.Errorf("%s: stage %d binds, want the last (it samples)", l.src, r.Stage)
		}
	}
}

// TestServeRTXPro6000Logs: PP04's source (Qwen3-32B bf16 on two RTX PRO
// 6000 Blackwell, vLLM 0.27.1, util 0.426, max_model_len 32768) ran at
// PP 2 and at TP 2; both logs were read in session 31, so this is a seen
// check. Model Runner V2, vLLM's default for dense models from 0.25,
// profiles the sampler without top-k/top-p (profileSampler): the TP 2
// run left 1.66 GiB for everything but weights and cache, where the
// sorting sampler alone would take 5 GiB. Planned with it: TP 2 64,400
// tokens, logged 67,296 (-4.3%); PP 2 63,120, logged 56,640 (+11.4%,
// the last stage binding in both). The pipeline's stages hold about 1.1
// GiB more outside weights and cache than the TP 2 ranks (3.03 against
// 1.66 GiB, the log's author's figures), which the plan does not know;
// both logged figures are inside the printed bands.
func TestServeRTXPro6000Logs(t *testing.T) {
	for _, l := range []struct {
		src    string
		tp, pp int
		tokens int64
		lo, hi float64
	}{
		{"TP 2", 2, 1, 67296, -0.06, 0.0},
		{"PP 2", 1, 2, 56640, 0.0, 0.12},
	} {
		s := serveSpec("", "rtx-pro-6000", "bf16")
		s.Model, s.HFConfig = nil, []byte(qwen3_32b)
		s.VLLM, s.Parallel.TP, s.Parallel.PP = "0.27.1", l.tp, l.pp
		s.Context, s.GPUMemoryUtilization = 32768, 0.426
		r, err := Serve(s)
		if err != nil {
			t.Fatalf("%s: %v", l.src, err)
		}
		e := float64(r.Tokens-l.tokens) / float64(l.tokens)
		t.Logf("%s: %d tokens (%d-%d), logged %d (%+.1f%%); activation %.2f GiB", l.src, r.Tokens, r.TokensLow, r.TokensHigh, l.tokens, 100*e, float64(r.Activation)/(1<<30))
		if e < l.lo || e > l.hi {
			t.Errorf("%s: %+.1f%% against the log, want %+.0f%%..%+.0f%%", l.src, 100*e, 100*l.lo, 100*l.hi)
		}
		if l.tokens < r.TokensLow || l.tokens > r.TokensHigh {
			t.Errorf("%s: logged %d tokens outside the band %d-%d", l.src, l.tokens, r.TokensLow, r.TokensHigh)
		}
		if r.Activation > 2<<30 {
			t.Errorf("%s: activation %.2f GiB: Model Runner V2 profiles the sampler without sorting", l.src, float64(r.Activation)/(1<<30))
		}
	}
}
