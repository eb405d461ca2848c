package analyze

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFirstStepOOMExtrapolates: ViT-L/16 (24 encoder blocks) at batch 96
// in fp32 died in its first forward pass under a memory fraction. The
// whole forward's activations per sample, extrapolated from the blocks
// that ran, must match what the same model measured at batch 32 in a full
// run: (max_allocated 14503618560 − 3748357120 kept between steps:
// weights and AdamW state) / 32 — within 10%.
func TestFirstStepOOMExtrapolates(t *testing.T) {
	o := DefaultOptions()
	o.Batch = 96
	d := analyzePath(t, "../../testdata/analyze/oom-vitl16-b96-fp32.pickle.gz", o)
	if d.OOM == nil || d.OOM.FirstStep == nil {
		t.Fatalf("oom %+v: no first-step explanation", d.OOM)
	}
	fs := d.OOM.FirstStep
	if fs.Blocks != 24 || fs.LowerBound {
		t.Errorf("blocks %d (lower bound %v), ViT-L has 24", fs.Blocks, fs.LowerBound)
	}
	measured := (int64(14503618560) - 3748357120) / 32
	if e := relErr(fs.PerSample, measured); e > 0.10 {
		t.Errorf("per sample %d, measured %d (%.1f%%)", fs.PerSample, measured, 100*e)
	}
	if d.Categories.Other > d.Categories.Activations/10 {
		t.Errorf("other %d vs activations %d: the forward's saved tensors are activations", d.Categories.Other, d.Categories.Activations)
	}
	if fs.LargestBatch < 1 || fs.LargestBatch >= 96 || !hasAdvice(d, "lower the batch") {
		t.Errorf("largest batch %d, advice %+v", fs.LargestBatch, d.Advice)
	}
}

// TestGeneration reads the captured Hugging Face generate traces
// (TinyLlama-1.1B config, bf16 weights, batch 4, prompt 256, 64 new
// tokens): one prefill and 63 decode passes; a DynamicCache growing by
// 2 (keys, values) × 22 layers × 4 KV heads × 64 head dim × 2 B = 22,528 B
// per token of each sequence; a StaticCache allocated once for the whole
// length. Neither is training, autocast, or an eval missing no_grad.
func TestGeneration(t *testing.T) {
	const perToken = 2 * 22 * 4 * 64 * 2
	o := DefaultOptions()
	o.Batch = 4
	for _, cache := range []string{"dynamic", "static"} {
		d := analyzePath(t, "../../testdata/captures/generate/gentrace-tinyllama-bf16-"+cache+".pickle.gz", o)
		g := d.Generation
		if g == nil || !d.Traits.Inference || d.Traits.IsTraining() || d.Traits.AMP || d.Traits.Precision != PrecisionHalf {
			t.Fatalf("%s: generation %+v, traits %+v (the weights are bf16)", cache, g, d.Traits)
		}
		if g.Calls != 1 || g.DecodeSteps != 63 {
			t.Errorf("%s: %d prefills, %d decode steps; generate ran 1 and 63", cache, g.Calls, g.DecodeSteps)
		}
		if g.StaticCache != (cache == "static") {
			t.Errorf("%s: static cache %v", cache, g.StaticCache)
		}
		// The cache holds every position but the last generated token's.
		if e := relErr(g.KVCacheMax, 4*(256+62)*perToken); e > 0.01 {
			t.Errorf("%s: KV cache at most %d, config says about %d", cache, g.KVCacheMax, 4*(256+62)*perToken)
		}
		if cache == "dynamic" && g.KVPerToken != perToken {
			t.Errorf("dynamic: %d B per token, config says %d", g.KVPerToken, perToken)
		}
		if g.PeakIn != "prefill" || d.PeakAllocatedAt.Iteration != 1 {
			t.Errorf("%s: peak in %s (pass %d), want the prefill", cache, g.PeakIn, d.PeakAllocatedAt.Iteration)
		}
		if hasAdvice(d, "no_grad") {
			t.Errorf("%s: no_grad advice on generate, which runs under no_grad", cache)
		}
		// a decode step's own peak is its sampling (the float32 copy of
		// the last token's logits), after its forward freed its
		// intermediates: generate's code, not setup
		for _, p := range d.IterationPeaks[1:] {
			if p.Phase != "sampling" && p.Phase != "forward" {
				t.Errorf("%s: decode step %d peaks in %q", cache, p.Iteration, p.Phase)
			}
		}
		if p := d.IterationPeaks[0]; p.Phase != "forward" {
			t.Errorf("%s: the prefill peaks in %q, want forward", cache, p.Phase)
		}
	}
}

// TestGenerationBeamSearch: dev100's beam-search traces (four beams:
// BART-large, GPT-2 medium, TinyLlama) are read as beam search, whose
// reordered cache is KV cache; the greedy TinyLlama trace is not.
func TestGenerationBeamSearch(t *testing.T) {
	o := DefaultOptions()
	for _, m := range []string{"bart-large", "gpt2-medium", "tinyllama"} {
		d := analyzePath(t, "../../testdata/dev100/beam/generate/dev100-gen-beam4-"+m+"-bf16.pickle.gz", o)
		if g := d.Generation; g == nil || !g.BeamSearch || g.KVCacheMax == 0 || g.DecodeSteps < 60 {
			t.Errorf("%s: generation %+v, want beam search with a KV cache over 60+ decode steps", m, g)
		}
	}
	d := analyzePath(t, "../../testdata/captures/generate/gentrace-tinyllama-bf16-dynamic.pickle.gz", o)
	if d.Generation == nil || d.Generation.BeamSearch {
		t.Errorf("greedy TinyLlama: generation %+v, want no beam search", d.Generation)
	}
}

// TestGenerationPeakAtLoad reads a generate trace that records the model's
// construction (dev73: Gemma 2 2B built on the GPU from its config, whose
// LM head, 256000 × 2304 bf16, is allocated and then freed as it is tied
// to the embedding): the trace peaks before the first forward pass, at the
// weights (the run's weights_bytes, 5,229,733,888) plus that head rounded
// to 2 MiB blocks (1,180,696,576), above the prefill's 6,060,187,648 (the
// run's own max_allocated across generate). The analysis says so, and its
// only generation advice is the load's transient, saving the difference;
// no prefill or KV-cache advice claims to lower a peak it does not set.
func TestGenerationPeakAtLoad(t *testing.T) {
	o := DefaultOptions()
	o.Batch = 4
	d := analyzePath(t, "../../testdata/dev73/generate/dev73-gentrace-gemma2-2b-bf16-static-b4.pickle.gz", o)
	g := d.Generation
	if g == nil {
		t.Fatal("no generation")
	}
	const load, prefill = 5_229_733_888 + 1_180_696_576, 6_060_187_648
	if g.PeakIn != "load" || g.LoadPeak != load || g.PrefillPeak != prefill {
		t.Errorf("peak in %q, load peak %d (want %d), prefill peak %d (want %d)", g.PeakIn, g.LoadPeak, load, g.PrefillPeak, prefill)
	}
	var gen []Advice
	for _, a := range d.Advice {
		if strings.Contains(a.Action, "load the model") || strings.Contains(a.Action, "prefill") || strings.Contains(a.Action, "KV cache") {
			gen = append(gen, a)
		}
	}
	if len(gen) != 1 || !strings.Contains(gen[0].Action, "load the model") || gen[0].Saving != load-prefill {
		t.Errorf("generation advice %+v, want only the load's, saving %d", gen, load-prefill)
	}
}

// capRow is a testdata/captures (or heldout) row.
type capRow struct {
	Name         string  `json:"name"`
	Status       string  `json:"status"`
	Snapshot     string  `json:"snapshot"`
	Prec         string  `json:"prec"`
	Opt          string  `json:"opt"`
	Lora         int     `json:"lora"`
	Ckpt         string  `json:"ckpt"`
	Strategy     string  `json:"strategy"`
	Reshard      *bool   `json:"reshard"`
	B            int     `json:"b"`
	Fraction     float64 `json:"fraction"`
	MaxAllocated int64   `json:"max_allocated"`
}

func capRows(t *testing.T, set, group string) []capRow {
	t.Helper()
	f, err := os.Open(filepath.Join("../../testdata", set, group, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []capRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r capRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// checkCaptured checks one captured training snapshot against its spec:
// PyTorch's peak to the byte, the precision it ran in, the optimizer, a
// frozen base under LoRA, the sharding code it used, and no advice for
// what it already does.
func checkCaptured(t *testing.T, set, group string, r capRow) {
	d := analyzePath(t, filepath.Join("../../testdata", set, group, r.Snapshot), DefaultOptions())
	if d.PeakAllocated != r.MaxAllocated {
		t.Errorf("peak %d, PyTorch %d", d.PeakAllocated, r.MaxAllocated)
	}
	tr := d.Traits
	if !tr.IsTraining() {
		t.Fatalf("training %v", tr.Training)
	}
	want := map[string]string{"fp32": PrecisionFP32, "bf16": PrecisionAMP, "bf16w": PrecisionHalf, "fp16": PrecisionAMPFP16, "": PrecisionAMP}[r.Prec]
	if r.Strategy == "fsdp2" {
		want = PrecisionFSDPMixed
	}
	if tr.Precision != want {
		t.Errorf("precision %s (%s), ran %q", tr.Precision, tr.PrecisionEvidence, r.Prec)
	}
	switch r.Opt {
	case "adafactor":
		if !strings.Contains(tr.Optimizer, "Adafactor") || strings.Contains(tr.Optimizer, "stateless") {
			t.Errorf("optimizer %q on Adafactor", tr.Optimizer)
		}
	case "adamw", "":
		if !strings.Contains(tr.Optimizer, "Adam") {
			t.Errorf("optimizer %q on AdamW", tr.Optimizer)
		}
	}
	if (r.Lora > 0) != tr.FrozenBase {
		t.Errorf("frozen base %v with lora %d", tr.FrozenBase, r.Lora)
	}
	sharding := strings.Join(tr.Sharding, ",")
	if w := map[string]string{"fsdp2": "fsdp2", "ddp": "ddp", "tp": "dtensor", "zero1": "zero-1", "": ""}[r.Strategy]; sharding != w {
		t.Errorf("sharding %q, ran %q", sharding, r.Strategy)
	}
	if r.Strategy == "zero1" && !strings.Contains(tr.Optimizer, "ZeroRedundancyOptimizer") {
		t.Errorf("optimizer %q under ZeRO-1", tr.Optimizer)
	}
	for _, a := range d.Advice {
		if (r.Ckpt == "block" && strings.Contains(a.Action, "checkpoint")) ||
			(want != PrecisionFP32 && strings.Contains(a.Action, "mixed precision")) {
			t.Errorf("advises %q, which the run already does", a.Action)
		}
	}
}

// TestCapturedTraining runs checkCaptured on every captured training
// snapshot: module-level scripts, optimizers and precisions, sharded runs
// at world size 1.
func TestCapturedTraining(t *testing.T) {
	n := 0
	for _, g := range []string{"scripts", "optim", "sharded1", "families"} {
		for _, r := range capRows(t, "captures", g) {
			if r.Snapshot == "" || r.Status != "ok" {
				continue
			}
			n++
			t.Run(r.Name, func(t *testing.T) { checkCaptured(t, "captures", g, r) })
		}
	}
	if n < 15 {
		t.Errorf("only %d captured training snapshots", n)
	}
}

func adviceSaving(d Device, sub string) (int64, bool) {
	for _, a := range d.Advice {
		if strings.Contains(a.Action, sub) {
			return a.Saving, true
		}
	}
	return 0, false
}

// TestShardedAdviceConfirmed: the advice on the world-size-1 sharded
// captures names changes their sibling captures measured. Checkpointing
// the FSDP2 LLaMA-small run lowered max_memory_allocated from
// 11,150,188,544 to 7,756,108,800 B; resharding after forward (the
// default) kept it at 11,150,188,544 B where reshard_after_forward=False
// reached 11,801,452,544 B. The savings must be within the ±30% the
// advice states.
func TestShardedAdviceConfirmed(t *testing.T) {
	dir := "../../testdata/captures/sharded1/"
	d := analyzePath(t, dir+"ws1-fsdp2-llama-small-s1024-b4.pickle.gz", DefaultOptions())
	s, ok := adviceSaving(d, "checkpoint")
	if e := relErr(s, 11150188544-7756108800); !ok || e > 0.30 {
		t.Errorf("fsdp2: checkpointing saves %d (advised %v), measured %d (%.0f%% off)", s, ok, int64(11150188544-7756108800), 100*e)
	}
	d = analyzePath(t, dir+"ws1-fsdp2-noreshard-llama-small-s1024-b4.pickle.gz", DefaultOptions())
	s, ok = adviceSaving(d, "reshard_after_forward=True")
	if e := relErr(s, 11801452544-11150188544); !ok || e > 0.30 {
		t.Errorf("fsdp2 no reshard: resharding saves %d (advised %v), measured %d (%.0f%% off)", s, ok, int64(11801452544-11150188544), 100*e)
	}
	for _, name := range []string{"ws1-ddp-llama-small-s1024-b4", "ws1-tp-llama-small-s1024-b4", "ws1-zero1-llama-small-s1024-b4",
		"ws1-fsdp2-llama-small-s1024-b4"} {
		d := analyzePath(t, dir+name+".pickle.gz", DefaultOptions())
		if len(d.Advice) == 0 || !strings.Contains(d.Advice[0].Action, "checkpoint") && !strings.Contains(d.Advice[1].Action, "checkpoint") {
			t.Errorf("%s: checkpointing not among the first two changes: %+v", name, d.Advice)
		}
		if _, ok := adviceSaving(d, "reshard"); ok {
			t.Errorf("%s: advises resharding, which it does", name)
		}
	}
}

// TestFirstStepOOMConfirmed: a ViT-L/16 script at batch 512 in fp32 died
// in its first forward on the whole H200; the same script measured ok at
// batch 128 (46,691,772,928 B), with bf16 autocast at 512 and with
// per-block checkpointing at 512. Under a 0.1 memory fraction ViT-B/16
// died at batch 256, fitted at 64 and 96 and died at 128. The explanation
// must agree with every one of those runs.
func TestFirstStepOOMConfirmed(t *testing.T) {
	o := DefaultOptions()
	o.Batch = 512
	d := analyzePath(t, "../../testdata/captures/oom/vitl16-b512-fp32.pickle.gz", o)
	if d.OOM == nil || d.OOM.FirstStep == nil || d.OOM.Cause != CauseCapacity {
		t.Fatalf("oom %+v", d.OOM)
	}
	fs := d.OOM.FirstStep
	if fs.LargestBatch < 128 || fs.LargestBatch >= 512 {
		t.Errorf("largest batch %d: 128 fitted and 512 did not", fs.LargestBatch)
	}
	perSample := (46691772928 - fs.FixedBytes - fs.StateBytes) / 128
	if e := relErr(fs.PerSample, perSample); e > 0.10 {
		t.Errorf("per sample %d, batch 128's measured peak gives %d (%.1f%%)", fs.PerSample, perSample, 100*e)
	}
	for _, fix := range []string{"mixed precision", "checkpoint"} {
		found := false
		for _, a := range d.Advice {
			if strings.Contains(a.Action, fix) {
				found = a.FixesFailure
			}
		}
		if !found {
			t.Errorf("%s at batch 512 fitted on the GPU; the advice does not say it fixes the OOM: %+v", fix, d.Advice)
		}
	}
	if d.Categories.Activations*10 < d.PeakAllocated*9 {
		t.Errorf("activations %d of %d at the OOM: the forward's saved tensors are most of it", d.Categories.Activations, d.PeakAllocated)
	}

	o.Batch = 256
	d = analyzePath(t, "../../testdata/captures/oom/vitb16-b256-fp32-frac0.1.pickle.gz", o)
	if d.OOM == nil || d.OOM.FirstStep == nil {
		t.Fatalf("vit-b: oom %+v", d.OOM)
	}
	if b := d.OOM.FirstStep.LargestBatch; b < 86 || b >= 128 {
		t.Errorf("vit-b under fraction 0.1: largest batch %d; 96 fitted (10%% headroom allowed), 128 did not", b)
	}
}
