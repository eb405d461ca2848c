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
// -3.2% (ResNet-50 b64 fp32) to +5.2% (ResNet-18 b128 fp16), median
// 2.2%; allocated within 0.4%. ResNet-18 fp16's first step makes Adam's
// state (alloc_after_iter 201 MiB from the first step): plan's first
// steps had left it out, as for the ResNets whose GradScaler overflows,
// and put it 5.5% low (Arch.scalerOverflows: bottleneck ResNets only).
// With the float32 channels-last stem's weight-gradient workspace read off
// ResNet-50 fp32's trace: -3.16 -> +0.68%; reserved median 1.14%, max
// 5.17% (ResNet-18 fp16, over), one under (EfficientNet-B0, -2.24%).
// Session 21 (dev39's trace: the NCHW batch copied to channels-last, the
// 7×7 stem's padded image, ResNet-18's first downsampling conv's
// workspace, all transient): ResNet-18 fp16 +5.17 -> +2.29%, allocated
// max 0.39 -> 0.20%; EfficientNet-B0 -2.24 -> -2.30% (the batch's copy
// moves its cache), median 1.14 -> 1.20%. With the NHWC pooling buffer
// of its squeeze-excitations (avgPool, dev39's EfficientNet-B4 trace):
// EfficientNet-B0 -2.53%, the largest error now.
func TestDev35ChannelsLastMemory(t *testing.T) {
	checkBlindGroups(t, dev35Dir, 5, map[string]bool{},
		blindLimits{resvMedian: 0.0121, resvMax: 0.0254, allocMax: 0.0021, under: 1, farUnder: 1}, "dev35")
}

// TestStepTimeDev35: the twelve timed steps, NCHW and channels-last
// (before the calibration of dev35 was in the table, the channels-last
// steps came out +24% to +82%): median 4.3%, max 16.0% (ResNet-101 b64
// channels-last, host-bound, over); channels-last against NCHW within
// 7.3% on ResNet-50 b128 (+7.3%), EfficientNet-B0 b128 and ConvNeXt-T b64.
func TestStepTimeDev35(t *testing.T) {
	ev := evalTimedFile(t, filepath.Join(dev35Dir, "dev35-timing", "results.jsonl"))
	// session 27: bias-gradient sums and half-precision GELU at their own kernels' rates (dev56); technique ratios' median 6.2 -> 6.3% (ConvNeXt-T's NCHW step +3%, its channels-last twin +3%)
	checkStepEval(t, ev, 12, stepTargets{median: 0.044, max: 0.161, ratioMedian: 0.064, ratioMax: 0.127, order: 1})
	checkAllInBand(t, ev)
	for _, p := range ev.Pairs {
		if p.Kind == "channels_last" && (p.Err() > 0.074 || p.Err() < -0.074) {
			t.Errorf("%s against %s: channels-last ratio off by %+.1f%%", p.Num, p.Den, 100*p.Err())
		}
	}
}

// TestDev37FP32ChannelsLastMemory: dev37's snapshots of float32
// channels-last EfficientNet-B0 b64 and B2 b32 (testdata/dev37). Their
// 3×3 and 5×5 depthwise convolutions take no weight-gradient workspace of
// the kind ConvNeXt's 7×7 ones do (channelsLastConvWorkspace): with that
// rule they came out 54% and 35% over reserved; without it +0.83% and
// -1.05%, allocated within 0.2%; with the batch's channels-last copy
// (session 21) +0.79% and -1.09%; with the squeeze-excitation's NHWC
// pooling buffer (49-132 MiB here, avgPool) +0.73% and -1.31%, allocated
// within 0.08%.
func TestDev37FP32ChannelsLastMemory(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev37", 2, map[string]bool{},
		blindLimits{resvMedian: 0.0103, resvMax: 0.0132, allocMax: 0.001, under: 1, farUnder: 0}, "dev37")
}

// TestDev39ChannelsLastMemory: dev39's snapshots of the two channels-last
// rows session 20's blind sets left furthest over (testdata/dev39):
// ResNet-18 b512 bf16 checkpointed and EfficientNet-B4 b32 bf16. With the
// transients their traces showed (the batch's channels-last copy, the
// stem's padded image, the first downsampling conv's workspace, the
// squeeze-excitation's NHWC pooling buffer): +5.42% and +2.52% reserved
// (from +6.73% and +5.93%), allocated within 0.1%; with the reductions'
// staging sized as ATen sizes it (dev40) +5.42% and +1.34%.
func TestDev39ChannelsLastMemory(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev39", 2, map[string]bool{},
		blindLimits{resvMedian: 0.0339, resvMax: 0.0543, allocMax: 0.0011, under: 0, farUnder: 0}, "dev39")
}

// TestDev40EfficientNetCheckpointed: dev40's snapshots of late37's miss,
// EfficientNet-B3 b48 bf16 channels-last checkpointed, and its NCHW
// checkpointed and channels-last plain twins (testdata/dev40). The twins
// were planned within 0.3% before; the channels-last checkpointed step
// peaks in the backward of an early squeeze-excitation, where the scale's
// gradient reduces a 56×56 NHWC map through ATen's staging buffer (135
// MiB): without it -5.73% allocated, -10.44% reserved; with it +3.34% and
// -1.95% (allocated over and below its band's narrow low end: in the model
// the product's temporary and the staging are live together at the peak,
// on the GPU not; recorded). All three reserved within 2%, under. Session
// 44's bands (late75 joining, its allocated errors all within 0.004%)
// put the NCHW checkpointed twin's -0.32% 0.008% past its band's top.
func TestDev40EfficientNetCheckpointed(t *testing.T) {
	known := map[string]bool{"dev40-efficientnet-b3-b48-bf16-cl-ckpt allocated": true,
		"dev40-efficientnet-b3-b48-bf16-ckpt allocated": true}
	checkBlindGroups(t, "../../testdata/dev40", 3, known,
		blindLimits{resvMedian: 0.0042, resvMax: 0.0196, allocMax: 0.0335, under: 3, farUnder: 0}, "dev40")
}

// TestDev41ResNet18ChannelsLast: dev41's snapshot of late38's reserved
// miss, ResNet-18 b128 bf16 channels-last (testdata/dev41): allocated
// exact; reserved +11% (over), the model's first step growing the cache
// exactly as PyTorch's did and its second step taking one more 196 MiB
// segment for max_pool2d's backward (README); inside its band since late38
// joined the band data, below its bottom again since session 26 narrowed
// the ResNet family's band (TestLate38Blind). Held there until resolved.
func TestDev41ResNet18ChannelsLast(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev41", 1, map[string]bool{"dev41-resnet18-b128-bf16-cl reserved": true},
		blindLimits{resvMedian: 0.111, resvMax: 0.111, allocMax: 0.001, under: 0, farUnder: 0}, "dev41")
}

// TestDev43ViTFloat32Checkpointed: dev43's snapshot of late40's reserved
// miss, ViT-B/16 b160 float32 checkpointed (testdata/dev43): the patch
// conv's float32 forward workspace (217 MiB, the channels padded to four)
// made a segment PyTorch's forward reuses and the model lacked; with it
// -7.47% -> +0.79% reserved, allocated exact. The replay then matches the
// trace through the first forward and parts ways in the float32
// memory-efficient attention's backward (README).
func TestDev43ViTFloat32Checkpointed(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev43", 1, map[string]bool{},
		blindLimits{resvMedian: 0.0080, resvMax: 0.0080, allocMax: 0.001, under: 0, farUnder: 0}, "dev43")
}

// TestDev44: dev44's snapshots of late39's T5-small float32 checkpointed
// and late41's ResNet-50 b96 fp16 rows (testdata/dev44/README.md).
// T5-small: the trace holds at backward's start what the encoder's final
// norm and dropout and the decoder's embedding dropout save (the last
// encoder block's output, the norm's product, two dropout masks: 40 MiB),
// which the model had dropped as recomputed inside the last encoder
// block's checkpoint; with them outside it, allocated -0.98% -> +0.00%
// (exact to the block), reserved -0.84% -> -0.23%. ResNet-50 reserved
// -1.43% (its fp16 stem workspace, not landed).
func TestDev44(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev44", 2, nil,
		blindLimits{resvMedian: 0.0085, resvMax: 0.0144, allocMax: 0.0011, under: 2, farUnder: 0}, "dev44")
}

// TestDev18Phi3: dev18's Phi-3 (f) snapshots (float32 checkpointed and
// plain, bf16 AMP) and a Llama of Phi-3's sizes (testdata/dev18). Session
// 23 read two mechanisms off them: the math-path softmax's backward copies
// its strided incoming gradient after allocating its output (float32
// grouped-query SDPA: allocated -4.82% -> -0.02%), and flash/cuDNN write
// the output in the query's layout, which Phi-3's concatenated rotary
// makes heads-first, so the transpose back copies it (bf16: -1.36% ->
// -0.01%). Allocated within 0.1% on all four, reserved +0.4..+0.8%.
func TestDev18Phi3(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev18", 4, nil,
		blindLimits{resvMedian: 0.0070, resvMax: 0.0085, allocMax: 0.001, under: 0, farUnder: 0}, "families")
}

// TestDev45: dev45's snapshots of the rows session 23's changes moved
// (testdata/dev45/README.md). Allocated exact on Phi-3 (f) s2048 b2 bf16
// checkpointed and 12-layer T5-large s512 b4 bf16 checkpointed, whose
// reserved are -2.68% and -2.94% (placement: the replay finds room for
// blocks PyTorch makes segments for); T5-large s128 b64 checkpointed
// allocated -2.84%, reserved +5.66%. Held there.
func TestDev45(t *testing.T) {
	known := map[string]bool{
		"dev45-phi3-f-s2048-b2-bf16-ckpt reserved":      true,
		"dev45-t5-large12-s128-b64-bf16-ckpt allocated": true,
	}
	checkBlindGroups(t, "../../testdata/dev45", 3, known,
		blindLimits{resvMedian: 0.030, resvMax: 0.057, allocMax: 0.029, under: 2, farUnder: 2}, "dev45")
}
