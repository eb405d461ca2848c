package memmodel_test

import (
	"math"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// TestLate102RefitBlind: late102 (call 206, blind) tested a refit of two
// host prices (HostCosts.Cast 23 -> 17 us, ckptRegionCost 1.2 -> 1.0 ms),
// chosen on the seen sets before capture, on technique pairs of six
// models alternated step by step in one process
// (bench/gpu/gt/late102_predictions.md; the seventh, transformers'
// ConvNeXt, cannot checkpoint and its process failed). The candidate
// passed every criterion written there (pairs within 10% 10 -> 12 of 14,
// median |ratio error| 5.9% -> 3.0%, step median 6.9% -> 7.5%, order 26
// of 26 both) and was not kept: the suite's other timed sets showed what
// the criteria did not ask, a --fit pick lost (pick10's BERT-large, the
// first pick 22.7% behind the fastest) and checkpointing under-priced
// where the GPU is busy (the checkpointed step's added time in one
// process -23% and -25% on BERT-base s512 b32 and ConvNeXt-T b128, Llama
// 3.1 8B LoRA's ratio 1.34 against 1.80), which the cast price had been
// standing in for (testdata/late102/RESULTS.md). Every one of those
// losses was on an H200 or on an H100's GPU-busy step; split by the GPU
// whose host timed them, the H100 hosts' host-bound ratios ran about 10%
// over and the H200 hosts' did not. Since session 57 an H100's plan takes
// the candidate's two prices (steptime_lenthost.go), an H200's the
// committed ones, and this test holds late102's figures under them: 12 of
// 14 pairs within 10%, median 3.1%, max 19.0%; steps 7.5%; order 26 of 26
// (at first sight 10 of 14, 5.9%, 22.4%; 6.9%). Since the ResNets'
// compiled host factor (session 60): median 3.0%, steps 8.5%. Since
// late107's H100 checkpoint region (session 62): 13 within, max 11.8%.
func TestLate102RefitBlind(t *testing.T) {
	ev := evalTimedFile(t, "../../testdata/late102/late102-timing/results.jsonl",
		"late102-t-hfconvnext-t-b16-fp32", "late102-t-hfconvnext-t-b16-bf16", "late102-t-hfconvnext-t-b16-bf16-ckpt")
	n, within, mp, worst := pairFigures(t, ev)
	var se []float64
	for _, r := range ev.Rows {
		se = append(se, math.Abs(r.Err))
	}
	ms := measured.Median(se)
	t.Logf("%d pairs, %d within 10%%, median |ratio error| %.1f%%; %d steps, median |error| %.1f%%; order %d of %d",
		n, within, 100*mp, len(se), 100*ms, ev.Ordered, ev.Compared)
	if n != 14 || within != 13 || math.Abs(mp-0.030) > 0.0015 || math.Abs(worst-0.118) > 0.0015 {
		t.Errorf("RESULTS.md says 14 pairs, 13 within 10%%, median 3.0%%, max 11.8%% since session 62")
	}
	if len(se) != 21 || math.Abs(ms-0.085) > 0.0015 || ev.Ordered != 26 || ev.Compared != 26 {
		t.Errorf("RESULTS.md says 21 steps, median |error| 8.5%%, same-model order 26 of 26 since session 62")
	}
}
