package memmodel_test

import (
	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
	"path/filepath"
	"strings"
	"testing"
)

// dev8Dir holds session 8's development captures (testdata/dev8/README.md):
// memory-history snapshots of five late10 rows the planner missed.
const dev8Dir = "../../testdata/dev8"

// TestDev8VisionDiffusionCaptures holds the dev8 rows of the vision,
// diffusion and Whisper families to what the models predict since the
// fixes their snapshots led to. The SD 1.5 UNet LoRA r16 checkpointed
// row was -8.25% allocated, -9.31% reserved while the model recomputed
// whole down/up stages: diffusers checkpoints each ResnetBlock2D and each
// BasicTransformerBlock, and the up path's concatenated skips, the
// samplers and the Transformer2DModels' norm/proj_in/proj_out save their
// tensors in forward (0.85 GiB live at the end of the snapshot's forward,
// 0.17 GiB in the old model's). The ViT rows: see buildViT.
func TestDev8VisionDiffusionCaptures(t *testing.T) {
	if testing.Short() {
		t.Skip("replays dev8 workloads")
	}
	rows, err := measured.ReadGTRows(filepath.Join(dev8Dir, "families", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	type lim struct{ alloc, resvLow, resvHigh float64 }
	limits := map[string]lim{
		"dev8-sd15-unet-b4-bf16-lora16-ckpt-snap": {0.01, -0.02, 0.03},
		// +1.12% / +7.86% while the ViT copied SDPA's output and freed
		// nn.MultiheadAttention's locals early: +0.01% / +2.02%; +0.14% /
		// +3.79% since the batch is held to the step's end (heldInputs)
		"dev8-vitb16-b64-bf16-ckpt-snap": {0.005, -0.02, 0.04},
		// -0.08% / -2.52% with early frees of WhisperAttention's locals,
		// no contiguous copies before the encoder's LayerNorms and coarse
		// conv1d workspaces: +0.02% / +2.85%
		"dev8-whisper-f-b32-bf16-ckpt-snap": {0.005, -0.02, 0.035},
	}
	for _, r := range rows {
		l, ok := limits[r.Name]
		if !ok {
			continue
		}
		delete(limits, r.Name)
		res := planRow(t, r)
		ea, er := measured.Rel(res.PeakAllocated, r.MaxAllocated), measured.Rel(res.PeakReserved, r.MaxReserved)
		t.Logf("%-40s allocated %+6.2f%%  reserved %+6.2f%%", r.Name, 100*ea, 100*er)
		if ea < -l.alloc || ea > l.alloc {
			t.Errorf("%s: peak allocated %+.2f%% of measured, want within %.1f%%", r.Name, 100*ea, 100*l.alloc)
		}
		if er < l.resvLow || er > l.resvHigh {
			t.Errorf("%s: peak reserved %+.2f%% of measured, want %+.0f%%..%+.0f%%", r.Name, 100*er, 100*l.resvLow, 100*l.resvHigh)
		}
	}
	for name := range limits {
		t.Errorf("%s: not in %s", name, dev8Dir)
	}
}

// dev11Timing is call 35's development timing pairs (testdata/dev11/timing,
// seen, timed on the lent host of the blind set late13): checkpointing on
// ViT-L/16 at b8 and b64 and on the SD 1.5 UNet at b2 and b6, LoRA r16 on
// Qwen2.5-0.5B at s1024 b2 and s512 b16, checkpointing on LLaMA-3.2-1B.
var dev11Timing = filepath.Join("..", "..", "testdata", "dev11", "timing", "results.jsonl")

// TestStepTimeDev11: 14 step times. Round 16a (launch queue bounded at
// 1,024 kernels): step median 13.8%, max 37.4% (the UNet b2 without
// checkpointing, -37%: its plain steps at b2..b8 run 138-187 ms on the lent
// hosts, flat in batch, against 114 ms at b1, where the walk has 117 ms;
// its checkpointed steps are within -13%..-6%, so its ratios +40% and +28%
// are the plain step's), ratios 2 of 7 within 10% (median 13.0%, max
// 39.8%), same-model order 16 of 19. Round 16a's early stop (the
// recomputation ends at each region's last saved tensor): ViT-L b64
// checkpointing ratio +10.5% -> +6.0%, step median 13.8% -> 13.9% (ViT-L
// b8 checkpointed -17.4% -> -17.5%), ratios 3 of 7 within 10%, median
// 12.8%, max 39.6%. Held there.
func TestStepTimeDev11(t *testing.T) {
	ev := evalTimedFile(t, dev11Timing)
	checkStepEval(t, ev, 14, stepTargets{median: 0.14, max: 0.375, ratioMedian: 0.129, ratioMax: 0.397, order: 0.84})
}

// TestCheckpointAddShrinksWithBatch: what checkpointing adds to a ViT-L/16
// step is its host work (the recomputation's Python, the saved-tensor
// hooks, torch.utils.checkpoint's bookkeeping) where the GPU idles, and
// mostly the recomputed kernels where the GPU is the bottleneck: dev11
// measured +63.8 ms at b8 (host-bound) and +23.2 ms at b64, where the
// GPU's added work alone is ~23 ms. The walk adds the same host work at
// both sizes, so the step's add must shrink at b64 because the two-clock
// pipeline hides it behind backward kernels queued before each
// recomputation, not because of a batch-dependent constant. The walk:
// +58.6 and +33.1 ms, and since round 16a's early stop (no fc2 GEMM or
// residual add recomputed) +58.4 and +28.2 ms; what stays exposed at
// b64 is the checkpointed forward's host work (entry bookkeeping and
// pack hooks), which outruns the forward's kernels.
// Round 21: the walk runs on the calibration machine's host costs here,
// not the default median lent host (x1.2): these ViT-L rows ran on a fast
// host (probe loop 31 ns, the fastest of the lent hosts), and at x1.2 the
// checkpointed b64 step's host work (119 ms) outgrows its GPU work (98
// ms), so nothing hides: predicted +43.8 ms at b64 against +23.2
// measured. This test holds the pipeline's hiding, which needs the host
// that timed it.
func TestCheckpointAddShrinksWithBatch(t *testing.T) {
	ws, _, err := measured.ReadTimed(dev11Timing)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := measured.EvalStepTimeWith(ws, memmodel.CalibrationHostCosts())
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]measured.StepRow{}
	for _, r := range ev.Rows {
		rows[r.Name] = r
	}
	add := func(b string) (meas, pred, host float64) {
		p, ok1 := rows["dev11-t-vitl16-"+b+"-bf16"]
		c, ok2 := rows["dev11-t-vitl16-"+b+"-bf16-ckpt"]
		if !ok1 || !ok2 {
			t.Fatalf("dev11 ViT-L %s pair missing", b)
		}
		return c.Measured - p.Measured, c.Predicted - p.Predicted, c.HostS - p.HostS
	}
	m8, p8, h8 := add("b8")
	m64, p64, h64 := add("b64")
	t.Logf("checkpointing adds: b8 measured %+.1f ms predicted %+.1f (host %+.1f); b64 measured %+.1f predicted %+.1f (host %+.1f)",
		1e3*m8, 1e3*p8, 1e3*h8, 1e3*m64, 1e3*p64, 1e3*h64)
	if m64 > 0.5*m8 {
		t.Fatalf("the timings no longer show the add shrinking: %+.1f ms at b64, %+.1f at b8", 1e3*m64, 1e3*m8)
	}
	if h64 < 0.99*h8 || h64 > 1.01*h8 {
		t.Errorf("host issue time added: %.1f ms at b64, %.1f at b8: checkpointing's host work is per op, not per sample", 1e3*h64, 1e3*h8)
	}
	if p8 < 0.8*m8 || p8 > 1.2*m8 {
		t.Errorf("b8 (host-bound): predicted add %+.1f ms, measured %+.1f (±20%%)", 1e3*p8, 1e3*m8)
	}
	if p64 > 0.6*p8 {
		t.Errorf("b64: predicted add %+.1f ms is more than 60%% of b8's %+.1f: the host work is not hiding behind the GPU", 1e3*p64, 1e3*p8)
	}
	if p64 > 1.5*m64 {
		t.Errorf("b64: predicted add %+.1f ms, measured %+.1f (≤1.5×)", 1e3*p64, 1e3*m64)
	}
}

// dev13Timing is call 38's development timings (testdata/dev13, seen):
// three host-bound rows timed in three processes on one host (Whisper (f)
// b32 bf16 35.2-51.5 ms, Gemma 3 (e) LoRA r16 checkpointed 69.3-90.9 ms,
// ConvNeXt-T b32 bf16 24.0-34.6 ms: one timing of a host-bound row is
// known to about ±20%), Whisper (f) bf16 and fp32 at b16 and b64, and
// Gemma 3 (e) s1024 LoRA r16 with and without checkpointing at b2 and b8.
var dev13Timing = filepath.Join("..", "..", "testdata", "dev13", "timing", "results.jsonl")

// TestStepTimeDev13: 17 step times. Round 20 (layer 0's whole backward
// under LoRA with checkpointing): step median 15.6%, max 35.1% (Whisper
// b32 bf16 rep 3, host-bound; its three reps read -29%, -5% and -35%
// against one prediction), 82% under; ratios 3 of 4 within 10% (Gemma 3
// checkpointing +7.1% at b2, -8.5% at b8; Whisper AMP +5.6% at b16,
// -14.3% at b64, where the bf16 step is host-bound), same-model order 34
// of 41 (the three reps of one row are compared with each other too: they
// differ by more than the 5% noise floor under one prediction, so about
// half of those comparisons read as misordered). steptime21 (plans assume
// the median lent host, calibration host costs x1.2): median 11.2%, max
// 27.2% (Whisper b32 rep 3 now -27%, its rep 2 +6%), ratios median 11.2%,
// max 21.9% (Whisper AMP at b16: the bf16 step is host-bound, the fp32 one
// is not, so the slower host moves one side only), order 34 of 41.
// steptime25 (float32 memory-efficient attention on its padded head dim,
// 3.7x bf16, from the Whisper and SD 1.5 profiles): step median 10.3%,
// Whisper fp32 b16 -11.2% -> -7.7%, b64 -1.5% -> +1.2%; ratios median
// 12.4%, max 17.3% (AMP at b16 +22% -> +17%, at b64 -14% -> -16%: the b64
// bf16 step is 15% under, so a better-priced fp32 side widens that ratio;
// the four ratios' median is the mean of the middle two). Held there.
func TestStepTimeDev13(t *testing.T) {
	ev := evalTimedFile(t, dev13Timing)
	checkStepEval(t, ev, 17, stepTargets{median: 0.113, max: 0.273, ratioMedian: 0.125, ratioMax: 0.22, order: 0.82})
}

// TestDev54: dev54's snapshots of NCHW ResNets in fp16/bf16 AMP at batch 32
// to 512 and ResNet-50 float32 b192 (testdata/dev54/README.md). Session 26
// read off them the fp16 stem's padded image and the weight-gradient split-K
// partials cuDNN keeps from batch 96 (conv_workspace.go's halfLargeSplitK):
// reserved before -3.89%..+5.25% (ResNet-50 b128 fp16 -3.09%, b160 bf16
// checkpointed -3.89%, ResNet-34 b512 fp16 -2.24%, ResNet-18 b512 bf16
// +5.25%), after -0.91%..+1.90% (the float32 row, unchanged), allocated
// within 0.12%. With dev55's refinements (TestDev55, below): median 0.65%,
// -0.91%..+1.90%, two under; with float32 1×1 expansions keeping no
// partials (the fixtures' trace) the float32 row +1.90% -> +0.71%, max
// 1.24%.
func TestDev54(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev54", 12, nil,
		blindLimits{resvMedian: 0.0066, resvMax: 0.0125, allocMax: 0.0004, under: 2, farUnder: 0}, "dev54")
}

// TestDev55: dev55's snapshots (testdata/dev55/README.md): late50's two rows
// dev54's first rules left off (ResNet-50 b48 fp16 +6.39%, ResNet-34 b384
// bf16 -2.82%), ResNet-50 fp16 b80 (between the traced 64 and 96) and
// ResNet-34 bf16 b256. With the batch thresholds by conv kind, the
// downsamples' partials by shape and the fp16 stem's padded weight
// gradient read off them: +0.42%, +0.64%, -0.82% and +1.97% reserved
// (ResNet-34 b256's 128→256 3×3/2 keeps 2.9 MiB of partials, the rule 7).
func TestDev55(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev55", 4, nil,
		blindLimits{resvMedian: 0.0075, resvMax: 0.0200, allocMax: 0.0004, under: 1, farUnder: 0}, "dev55")
}

// TestDev74MaskedLM holds the masked-LM head to dev74, its development
// captures (testdata/dev74, not blind: BERT-base s512 b8 bf16 AMP,
// XLM-RoBERTa base s256 b16 bf16 AMP, RoBERTa-base s128 b32 float32, with
// snapshots). Written from transformers' source the head upcast the
// logits before the loss, as ForCausalLMLoss does, and came out +5.5% and
// +12.9% allocated on the two AMP runs (one bf16 logits tensor too many);
// the traces show BertForMaskedLM's CrossEntropyLoss on the logits as they
// are (bf16 log-probabilities, then nll_loss's float32 copy). Now allocated
// within 0.03% and reserved +0.6..+0.8% on all three.
func TestDev74MaskedLM(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev74", 3, nil,
		blindLimits{resvMedian: 0.0071, resvMax: 0.0081, allocMax: 0.0004, under: 0, farUnder: 0}, ".")
}

// TestDev75SeqCls holds a decoder's sequence-classification head to dev75
// (testdata/dev75, development, not blind: Qwen2.5-0.5B s1024 b8 bf16
// AMP, Llama-3.2-1B s512 b4 float32, with snapshots). At first sight, with
// the head as written from transformers' source: allocated within 0.01%
// on both; reserved -0.07% (Qwen) and +4.48% (Llama float32, whose trunk
// runs grouped-query attention through SDPA's math path: the replay's
// per-layer copies there differ from the trace's, a trunk matter the
// causal-LM plan shares and its logits hide).
func TestDev75SeqCls(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev75", 2, nil,
		blindLimits{resvMedian: 0.023, resvMax: 0.045, allocMax: 0.0002, under: 1, farUnder: 0}, ".")
}

// TestDev77NeoxPhi holds the GPT-NeoX and Phi families to dev77
// (testdata/dev77, development, not blind: Pythia-160m s1024 b8 bf16 AMP,
// Pythia-410m s1024 b4 float32 and b8 bf16 checkpointed, Pythia-1b LoRA
// r16 on query_key_value, phi-1.5 s1024 b4 bf16 and s512 b2 float32,
// phi-2 s512 b4 bf16 LoRA r16, with snapshots). As written from
// transformers' source, at first sight: allocated within 0.55% (the two
// LoRA rows +0.55%, the rest within 0.08%), reserved +0.40% to +1.63%;
// after ordering both rotations before the concatenations as the traces
// do, reserved +0.39% to +1.27%. The LoRA rows' +0.55% was layer 0 run
// without grad (its input is the frozen embedding's output: its norms
// and, in a parallel block, its whole MLP save nothing) and the final
// norm's output, which ForCausalLM holds through the loss: with both,
// allocated within 0.06% on all seven, reserved +0.35% to +0.64%.
func TestDev77NeoxPhi(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev77", 7, nil,
		blindLimits{resvMedian: 0.006, resvMax: 0.007, allocMax: 0.0008, under: 3, farUnder: 0}, "families")
}

// TestNeoxPhiConfigs: the Hub's config.json of Pythia (rotary_pct at the
// top level, as EleutherAI's files have it) and of phi-2
// (partial_rotary_factor, resid_pdrop) plan as their catalog entries;
// transformers 5's rope_parameters block is read too; what the families
// cannot hold is refused in one line.
func TestNeoxPhiConfigs(t *testing.T) {
	pythia := `{"model_type": "gpt_neox", "hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16,
		"intermediate_size": 4096, "vocab_size": 50304, "max_position_embeddings": 2048, "rotary_pct": 0.25,
		"use_parallel_residual": true, "hidden_act": "gelu", "tie_word_embeddings": false}`
	a, err := memmodel.ParseHFConfig([]byte(pythia))
	if err != nil {
		t.Fatal(err)
	}
	if a.Family != "gpt-neox" || a.Decoder.PartialRotary != 0.25 || a.Decoder.Parallel != "two-norm" || !a.AttnBias {
		t.Errorf("pythia-410m config read as %+v", a)
	}
	v5 := strings.Replace(pythia, `"rotary_pct": 0.25`, `"rope_parameters": {"partial_rotary_factor": 0.5}`, 1)
	if a, err := memmodel.ParseHFConfig([]byte(v5)); err != nil || a.Decoder.PartialRotary != 0.5 {
		t.Errorf("rope_parameters' factor: %v %v", a.Decoder.PartialRotary, err)
	}
	seq := strings.Replace(pythia, `"use_parallel_residual": true`, `"use_parallel_residual": false`, 1)
	if a, err := memmodel.ParseHFConfig([]byte(seq)); err != nil || a.Decoder.Parallel != "" {
		t.Errorf("use_parallel_residual false read as %q (%v)", a.Decoder.Parallel, err)
	}
	phi2 := `{"model_type": "phi", "hidden_size": 2560, "num_hidden_layers": 32, "num_attention_heads": 32,
		"intermediate_size": 10240, "vocab_size": 51200, "partial_rotary_factor": 0.4, "resid_pdrop": 0.1,
		"embd_pdrop": 0.0, "hidden_act": "gelu_new", "qk_layernorm": false}`
	a, err = memmodel.ParseHFConfig([]byte(phi2))
	if err != nil {
		t.Fatal(err)
	}
	if a.Family != "phi" || a.Decoder.PartialRotary != 0.4 || a.Dropout != 0.1 || a.Decoder.Act != "gelu_new" || !a.Decoder.HeadBias {
		t.Errorf("phi-2 config read as %+v", a)
	}
	for _, bad := range []struct{ doc, want string }{
		{strings.Replace(phi2, `"qk_layernorm": false`, `"qk_layernorm": true`, 1), "qk_layernorm"},
		{strings.Replace(pythia, `"rotary_pct": 0.25`, `"rotary_pct": 0`, 1), "rotary_pct 0"},
		{strings.Replace(phi2, `"partial_rotary_factor": 0.4`, `"partial_rotary_factor": 1.5`, 1), "partial_rotary_factor 1.5"},
	} {
		if _, err := memmodel.ParseHFConfig([]byte(bad.doc)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("want a refusal naming %q, got %v", bad.want, err)
		}
	}
}

// TestDev79StarCoder2 holds the StarCoder2 family to dev79
// (testdata/dev79, development, not blind: a 1024-hidden 12-layer
// StarCoder2 at s2048 b4 bf16 AMP, s1024 b4 float32 and s5000 b1 bf16
// (past its 4096-token window: the sliding mask), starcoder2-3b s1024 b2
// LoRA r16, with snapshots). At first sight, the family as written from
// transformers' source: allocated within 0.12% (the LoRA row; the first
// layer's norm saves, see noGradSaves), reserved +0.22% to +0.66%.
func TestDev79StarCoder2(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev79", 4, nil,
		blindLimits{resvMedian: 0.006, resvMax: 0.007, allocMax: 0.0013, under: 1, farUnder: 0}, "families")
}

// TestDev80Activation: dev80 ran GPT-2 s1024 b8 and phi-1.5 s1024 b4
// (bf16 autocast) with NewGELU and with gelu_pytorch_tanh. The plan reads
// the activation from each row's config (GPT-2's activation_function,
// Phi's hidden_act; GPT-2's was ignored, and its fused row planned with
// NewGELU's intermediates, +36% allocated): all four within 0.02%
// allocated, reserved +0.39% to +0.63%.
func TestDev80Activation(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev80", 4, nil,
		blindLimits{resvMedian: 0.006, resvMax: 0.007, allocMax: 0.0002, under: 4, farUnder: 0}, "families")
}

// TestOverrideHiddenAct: override.hidden_act plans the same model with
// another MLP activation: GPT-2 with gelu_pytorch_tanh is planned as
// dev80's fused run measured it (3.35 GiB below NewGELU's at s1024 b8
// bf16 autocast), a name not planned and a family whose activation is no
// choice (BERT) are refused.
func TestOverrideHiddenAct(t *testing.T) {
	plan := func(model, act string) (*memmodel.Result, error) {
		s := memmodel.DefaultSpec()
		s.Model, s.Batch, s.Seq, s.Precision = &model, 8, 512, "bf16-amp"
		if model == "gpt2" {
			s.Seq = 1024
		}
		if act != "" {
			s.Override = &memmodel.Override{HiddenAct: act}
		}
		return memmodel.Estimate(s, memmodel.Options{Steps: 3, SkipReserved: true})
	}
	base, err := plan("gpt2", "")
	if err != nil {
		t.Fatal(err)
	}
	fused, err := plan("gpt2", "gelu_pytorch_tanh")
	if err != nil {
		t.Fatal(err)
	}
	const measured = 13614942720 - 10018189312 // dev80's two runs
	if d := base.PeakAllocated - fused.PeakAllocated; d < measured*97/100 || d > measured*103/100 {
		t.Errorf("gelu_pytorch_tanh plans %d bytes below NewGELU; dev80 measured %d", d, measured)
	}
	for _, c := range []struct{ model, act, want string }{
		{"gpt2", "relu6", "is not one planned"},
		{"bert-base", "gelu", "not modelled as a choice"},
	} {
		if _, err := plan(c.model, c.act); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s hidden_act %s: %v, want %q", c.model, c.act, err, c.want)
		}
	}
}

// TestDev81BertHeads holds the token-classification and
// question-answering heads to dev81 (testdata/dev81, development, not
// blind: BERT-base token classification with 9 labels s256 b32 and QA
// s384 b32, bf16 autocast, snapshots). As written from transformers'
// source, at first sight: allocated +0.02% and -0.00%, reserved +0.78% and
// +0.68%; the parameter counts PyTorch reported (108,898,569 and
// 108,893,186: BertModel without its pooler and the head) are the
// plan's.
func TestDev81BertHeads(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev81", 2, nil,
		blindLimits{resvMedian: 0.0075, resvMax: 0.008, allocMax: 0.0003, under: 1, farUnder: 0}, "families")
}
