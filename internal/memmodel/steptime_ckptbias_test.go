package memmodel_test

import (
	"sort"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// lentCkptSets are the timed sets of lent H200s that hold checkpointing
// pairs (plain against checkpointed, or LoRA against LoRA+checkpointing),
// evaluated with the median lent host's costs as bench/steptime does.
var lentCkptSets = []string{
	"late2/timing", "late3/timing", "late4/timing", "late5/timing", "late5/timing-rerun",
	"late6/timing", "late7/timing", "late8/timing", "late9/timing", "late10/timing",
	"late11/timing", "late12/timing", "late13/timing", "late14/timing", "late15/timing", "late16/timing",
	"dev6/timing", "dev17/timing", "dev7/host", "dev9/host", "dev11/timing", "dev13/timing",
}

// TestStepTimeCheckpointNoGeneralBias holds what round 24 found when
// late14 (a slow lent host: Python loop 58 ns) over-predicted its
// checkpointing ratios by +47% (ConvNeXt-T b128), +31% (BERT-base s512
// b32) and +40% (Phi-3 (f) LoRA+ckpt): over the 60 checkpointing pairs of
// the lent sets the ratio error has no general sign (signed median
// +2.6%, median |err| 7.6%, −23% .. +47%). Per set the signed
// median runs from −4% (late5, late7, late11) to +31% (late14), and the
// same workload moves between processes by more than the over-charge:
// Qwen2.5-0.5B s1024 b8 added 99.9 ms in late5 and 66.4 ms in its rerun,
// the SD 1.5 UNet added 67–133 ms at b1..b8 without order, BERT-base s512
// b32 ckpt timed 54.6 ms (late14), 69.6 (late4) and 108.9 (the older
// host). Scaling the recomputation's host time down by 0.85 or 0.7 (the
// cut late14 asks for is nearer 0.3) moved late14 to +25% / +19% but
// late5, late11 and late3 to −7..−11% and late14's own DiT-B/2 from −4%
// to −13%; all-sets ratios within 10% went 118 -> 119 -> 116 of 174,
// and even 0.7 breaks TestStepTimeCheckpointHost (dev7's Llama-small b1,
// a purely host-bound pair, −23% -> −29%); at 0.35 this test's signed
// median reaches −5%. Re-deriving the per-region cost (ckptRegionCost)
// from its own seven host-bound pairs under today's lent scaling (it was
// derived on lent hosts before the ×1.2 existed and is now scaled by it
// too) gives 0.9 ms instead of 1.2: late14 +31 -> +24%, all-sets ratios
// within 10% 118 -> 120, but the step median 5.0 -> 5.2%, late5 and
// late11 −4 -> −9%, TestLentHostScale's host-bound rows 1.031 -> 1.067
// and dev7's Llama-small −23 -> −27% (TestStepTimeCheckpointHost): the
// two constants were fitted on overlapping rows and agree with them as
// they are. dev15 (call 40) reran late14's BERT-base checkpointed step
// at 83-94 ms against late14's 54.6 (predicted 80.2). The
// recomputation runs the wrapped forward again through nn.Module calls
// with autocast re-entered (torch/utils/checkpoint.py recompute_fn), so
// it pays the forward's per-op host costs; the walk keeps them. A change
// that tunes the recomputation to late14's rows fails here.
//
// Session 13 (ckpt29) added late15, late16 and dev17 (88 pairs): signed
// median +4.9%, median |err| 8.4%, −22.8% .. +47.1%. late15's ConvNeXt-B
// b64 (+46%), BERT-large s512 b16 (+20%) and ViT-H/14 b16 (+17%) were
// the fast end of their spread: dev19 reran them in three processes on
// one host at 132–145, 124–155 and 162–219 ms checkpointed (late15 92,
// 109, 127; predicted 148, 161, 172), ratios 2.13–2.23, 1.83–2.41 and
// 1.54–2.40 against the walk's 2.29, 2.08, 2.07. dev17's transition rows
// (ConvNeXt-T b32 +44%, BERT-base b32 +22%, GPT-2 b4 +25%: the
// checkpointed step faster than at b1/b8) disagree with testdata/ckpthost,
// where the same BERT-base s512 b32 pair in one process added 39.0 ms,
// as at b1 (38.8), and the walk adds 36.0. Halving the recomputation's
// host add, which late15 asks for, would put dev19's checkpointed steps
// (process means −11% .. +11% off now) roughly 24–30% (ConvNeXt-B),
// 11–29% (BERT-large) and 31–49% (ViT-H) under (host-bound: the step is
// about the walk's host time, the add 90, 86 and 94 ms of it). The sets are not
// dev19, whose rows pair across processes.
func TestStepTimeCheckpointNoGeneralBias(t *testing.T) {
	var errs []float64
	for _, s := range lentCkptSets {
		ws, _, err := measured.ReadTimed("../../testdata/" + s + "/results.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		ev, err := measured.EvalStepTimeWith(ws, memmodel.DefaultHostCosts())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ev.Pairs {
			if p.Kind == "checkpoint" {
				errs = append(errs, p.Err())
			}
		}
	}
	if len(errs) < 40 {
		t.Fatalf("%d checkpointing pairs on the lent sets, want at least 40", len(errs))
	}
	sort.Float64s(errs)
	med := errs[len(errs)/2]
	if len(errs)%2 == 0 {
		med = (errs[len(errs)/2-1] + med) / 2
	}
	s := measured.Summarize(errs)
	t.Logf("%d pairs: signed median %+.1f%%, median |err| %.1f%%, range %+.1f%% .. %+.1f%%",
		len(errs), 100*med, 100*s.MedianAbs, 100*errs[0], 100*errs[len(errs)-1])
	if med < -0.05 || med > 0.05 {
		t.Errorf("checkpointing ratios: signed median %+.1f%% (within ±5%%): a general bias", 100*med)
	}
	if s.MedianAbs > 0.10 {
		t.Errorf("checkpointing ratios: median |err| %.1f%% (≤10%%)", 100*s.MedianAbs)
	}
}
