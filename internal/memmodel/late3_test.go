package memmodel_test

import (
	"path/filepath"
	"testing"
)

// late3Dir is the third blind set (testdata/late3/README.md): captured
// after every memory model of session 3 was final and evaluated once
// (testdata/late3/RESULTS.md).
const late3Dir = "../../testdata/late3"

// TestLate3Blind: 11 training rows. At its evaluation: peak reserved
// median 0.37%, max 11.52% (ViT-B/16 fp16 ckpt, over; ResNet-50 b160 fp32
// ckpt −9.21%), 9 of 11 under (3 more than 2% low); allocated max 2.22%;
// every row inside both bands. Held there, except what the allowance for
// untraced allocations moves (bands.json, 26 MiB + 1% of the model's
// figure): 3 under (1 more than 2% low), median 1.14%, max 13.73% (the
// ViT row, over). With the set in the band data and the bands on the
// calibrated figure, two rows lie outside their reserved band: the ViT row
// below the bottom, ResNet-50 b160 (-8.0%) above the top. Session 6
// (cuDNN workspaces of both passes, conv_workspace.go): ResNet-50 b160
// fp32 ckpt -8.00% -> +2.59%, inside its band; 2 under (none more than 2%
// low).
// Session 6 (late6 and late7 became band data): the allowance re-derived
// on 136 held-out rows is 28 MiB + 1.25% (was 26 MiB + 1%), which lifts
// every row's figure by about 0.25%: median 1.40%, max 14.18%.
// Session 8 (memmodel replays top-down, autocast casts the weight before the input, the wide
// bias-gradient scratch, bands re-derived): median 1.40% -> 0.91%, max 14.18% -> 7.86% (ViT-B/16
// fp16 ckpt), none under.
// Session 9: with the OLMo 2 rows no longer 3-5% over, the re-derived
// bands are narrower and the ViT-B/16 fp16 ckpt row (+7.86%, its figure
// unchanged) lies 1% below its reserved band's bottom again, as at the
// set's first band derivation.
func TestLate3Blind(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 11 workloads")
	}
	// Session 7 (bands8): with late8, late9 and late9q as band rows the
	// bands follow 240 rows' leave-one-out error (229 inside); ViT-B fp16
	// checkpointed's reserved (the model over by 0.4% more than its band's
	// low end) is outside it.
	// Session 9 (resv9b: ViT's attention as torchvision runs it: no copy after flash/cuDNN SDPA, seq-first LayerNorm inputs copied contiguous, MHA's locals alive until it returns):
	// ViT-B/16 fp16 checkpointed +7.86% -> +2.02% reserved, inside its band
	// Session 26 (float32 1×1 expansions of 4 MiB or more keep no split-K
	// partials): ResNet-50 b160 float32 checkpointed +1.94% -> -0.33%.
	known := map[string]bool{}
	checkBlindSet(t, late3Dir, 11, known, blindLimits{resvMedian: 0.0096, resvMax: 0.0791, allocMax: 0.025, under: 1, farUnder: 0})
}

// TestStepTimeLate3: 10 blind step times, at evaluation median 5.0%, max
// 28.1% (ConvNeXt-S bf16, predicted too fast), Qwen3 ckpt/plain ratio off
// by 19%; same-model order 3/3. Held there, but for the median: pricing
// GPT-2's odd-vocabulary GEMMs from measurements (linearGEMM) moved GPT-2
// medium fp16 from -6.6% to +1.7% and exposed its checkpointed twin's
// recompute drain (+1.9% -> +8.6%, testdata/profile README round 8), so
// the median is 6.8%.
func TestStepTimeLate3(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(late3Dir, "timing", "results.jsonl"))
	checkStepEval(t, ev, 10, stepTargets{median: 0.07, max: 0.29, ratioMedian: 0.10, ratioMax: 0.25, order: 0.95})
}
