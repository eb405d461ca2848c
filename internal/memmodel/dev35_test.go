package memmodel_test

import (
	"path/filepath"
	"testing"
)

// dev35Dir is session 20's development data on eager channels-last CNNs
// (testdata/dev35/README.md): snapshots of five channels-last steps, the
// calibration of channels-last convolutions and batch norm, and
// NCHW/channels-last twins timed alone on the GPU.
const dev35Dir = "../../testdata/dev35"

// TestDev35ChannelsLastMemory: the five channels-last memory rows
// (ResNet-18/50, EfficientNet-B0, ConvNeXt-T; bf16, fp16, fp32) with
// the graphs plan builds for NCHW and the maps' strides set: the maps keep
// their sizes, so memory moves only with the allocator's reuse. Reserved
// -3.2% (ResNet-50 b64 fp32) to +4.7% (ResNet-18 b128 fp16), median
// 2.2%; allocated within 0.2% but ResNet-18 fp16, -5.5%: plan's first
// steps of an fp16 ResNet skip the optimizer (GradScaler overflows, as
// ResNet-50's and ResNet-152's did), but ResNet-18's first step already
// made its Adam state (alloc_after_iter 201 MiB from the first step).
// plan's steady state, on which fits are judged, has it: 1.73 GiB
// against 1.74 measured.
func TestDev35ChannelsLastMemory(t *testing.T) {
	checkBlindGroups(t, dev35Dir, 5, map[string]bool{},
		blindLimits{resvMedian: 0.023, resvMax: 0.047, allocMax: 0.055, under: 2, farUnder: 2}, "dev35")
}

// TestStepTimeDev35: the twelve timed steps, NCHW and channels-last
// (before the calibration of dev35 was in the table, the channels-last
// steps came out +24% to +82%): median 4.7%, max 16.0% (ResNet-101 b64
// channels-last, host-bound, over); channels-last against NCHW within
// 6.5% on ResNet-50 b128, EfficientNet-B0 b128 and ConvNeXt-T b64.
func TestStepTimeDev35(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(dev35Dir, "dev35-timing", "results.jsonl"))
	checkStepEval(t, ev, 12, stepTargets{median: 0.05, max: 0.161, ratioMedian: 0.061, ratioMax: 0.127, order: 1})
	checkAllInBand(t, ev)
	for _, p := range ev.Pairs {
		if p.Kind == "channels_last" && (p.Err() > 0.066 || p.Err() < -0.066) {
			t.Errorf("%s against %s: channels-last ratio off by %+.1f%%", p.Num, p.Den, 100*p.Err())
		}
	}
}
