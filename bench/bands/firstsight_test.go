package main

import (
	"strings"
	"testing"
)

// The blind sets whose first sight is one table of each kind, checked as
// tables: the sets with memory rows (firstSightSets) and the step-time
// sets (firstSightStepSets).

// firstSightStepSet is a step-time-only blind set's first-sight record:
// how many step times it has and some of them (ms measured, predicted).
type firstSightStepSet struct {
	prefix   string
	steps    int
	stepErrs map[string]struct{ meas, pred float64 }
}

// firstSightStepSets are the step-time-only sets, each read from the print
// on the models it was captured to test (the tables of the models before
// come after it and are not read).
var firstSightStepSets = []firstSightStepSet{
	// late27 (c4b991c): ResNet-101 b64 checkpointed 128.6 ms against 112.1,
	// EfficientNet-B1 b64 77.7 against 57.7
	{"late27-", 16, map[string]struct{ meas, pred float64 }{
		"late27-t-resnet101-b64-bf16-ckpt":  {112.1, 128.6},
		"late27-t-efficientnet-b1-b64-bf16": {57.7, 77.7},
	}},
	// late29 (58c85e4; b9ad895's table after it): EfficientNet-B3 b48 70.6
	// ms against 57.2, ResNet-50 b32 checkpointed 63.4 against 76.0
	{"late29-", 12, map[string]struct{ meas, pred float64 }{
		"late29-t-efficientnet-b3-b48-bf16": {57.2, 70.6},
		"late29-t-resnet50-b32-bf16-ckpt":   {76.0, 63.4},
	}},
	// late32 (0592c44): eager ResNet-152 b64 85.0 ms against 61.3, compiled
	// ConvNeXt-S b64 32.9 against 45.2
	{"late32-", 11, map[string]struct{ meas, pred float64 }{
		"late32-t-resnet152-b64-bf16":              {61.3, 85.0},
		"late32-t-convnext-small-b64-bf16-compile": {45.2, 32.9},
	}},
	// late63 (5135451 on the H100, 4ecda6f on the slow H200 host, the same
	// models): eager ResNet-101 b16 60.6 ms against 51.5 on the H100,
	// compiled ResNet-34 b16 25.1 against 17.0 on the H200
	{"late63-", 15, map[string]struct{ meas, pred float64 }{
		"late63-t-resnet101-b16-bf16":        {60.6, 51.5},
		"late63-t-resnet34-b16-bf16-compile": {25.1, 17.0},
	}},
	// late99 (1ee570ac, H100, a fast host): eager ResNet-101 b16 28.0 ms
	// against 51.5 (late63's H100 ran it at 60.6), compiled ConvNeXt-T b32
	// 27.0 against 22.1
	{"late99-", 6, map[string]struct{ meas, pred float64 }{
		"late99-t-resnet101-b16-bf16":             {28.0, 51.5},
		"late99-t-convnext-tiny-b32-bf16-compile": {27.0, 22.1},
	}},
	// late64 (2df8de9, H100): checkpointed GPT-2 s256 b2 73.5 ms against
	// 57.4, ViT-B/16 b8 28.1 against 36.6 (planned against
	// measured)
	{"late64-", 13, map[string]struct{ meas, pred float64 }{
		"late64-t-gpt2-s256-b2-bf16-ckpt": {57.4, 73.5},
		"late64-t-vitb16-b8-bf16":         {36.6, 28.1},
	}},
	// late65 (e1bb40b, H100, a fast host): GPT-2 medium s256 b1 73.3 ms
	// against 48.8, EfficientNet-B0 b16 fp32 31.2 against 28.5
	{"late65-", 13, map[string]struct{ meas, pred float64 }{
		"late65-t-gpt2-medium-s256-b1-bf16": {48.8, 73.3},
		"late65-t-efficientnet-b0-b16-fp32": {28.5, 31.2},
	}},
	// late66 (4c5a4c5, H100, the fastest host): RoBERTa-base s128 b8
	// checkpointed 81.7 ms against 45.1, Whisper-base b8 fp32 (GPU-bound)
	// 82.3 against 81.4
	{"late66-", 15, map[string]struct{ meas, pred float64 }{
		"late66-t-roberta-base-s128-b8-bf16-ckpt": {45.1, 81.7},
		"late66-t-whisper-base-b8-fp32":           {81.4, 82.3},
	}},
	// late67 (4c5a4c5, H100, a medium-slow host): ConvNeXt-T b12 bf16
	// 30.2 ms against 21.3, Llama-small s128 b2 94.5 against 121.8
	{"late67-", 12, map[string]struct{ meas, pred float64 }{
		"late67-t-convnext-tiny-b12-bf16":   {21.3, 30.2},
		"late67-t-llama-small-s128-b2-bf16": {121.8, 94.5},
	}},
	// late68 (3f68d09, H100, a fast host): BERT-base s256 b16x2 fp16
	// 74.0 ms against 47.9, fp32 BERT-base s256 b32 114.0 against 115.3
	{"late68-", 17, map[string]struct{ meas, pred float64 }{
		"late68-t-bert-base-s256-b16x2-fp16": {47.9, 74.0},
		"late68-t-bert-base-s256-b32-fp32":   {115.3, 114.0},
	}},
	// late69 (df70067, H100): RoBERTa-base s256 b16x2 fp16 74.6 ms against
	// 53.5, OLMo 2 1B s2048 b2 173.3 against 171.5
	{"late69-", 17, map[string]struct{ meas, pred float64 }{
		"late69-t-roberta-base-s256-b16x2-fp16": {53.5, 74.6},
		"late69-t-olmo2-1b-s2048-b2-bf16":       {171.5, 173.3},
	}},
}

// TestFirstSightStepSets checks each of firstSightStepSets against the
// step-time tables first sight is read from.
func TestFirstSightStepSets(t *testing.T) {
	st, err := readFirstSightSteps(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range firstSightStepSets {
		if n := countPrefix(st, c.prefix); n != c.steps {
			t.Errorf("%s: %d step-time rows at first sight, want %d", strings.TrimSuffix(c.prefix, "-"), n, c.steps)
		}
		checkStepErrs(t, st, c.stepErrs)
	}
}

// firstSightSet is one blind set's first-sight record: how many training,
// generate and step-time rows it has, one training row's peak reserved as
// the table printed it (GiB measured and predicted) and step times (ms).
type firstSightSet struct {
	prefix            string
	train, gen, steps int
	row               string
	meas, pred        float64
	stepErrs          map[string]struct{ meas, pred float64 }
}

// firstSightSets are the sets whose first sight is its session-start
// tables, each checked by TestFirstSightSets.
var firstSightSets = []firstSightSet{
	// late17 (testdata/late17/RESULTS.md): EfficientNet-B7 b32 +4.41%; 3
	// generate rows (the Phi-3 mini row plan refuses is no figure)
	{"late17-", 21, 3, 32, "late17-efficientnet-b7-b32-bf16", 9.695, 10.123, map[string]struct{ meas, pred float64 }{
		"late17-t-llama31-8b-s1024-b2-bf16-lora16-ckpt": {325.7, 236.7},
		"late17-t-mixtral-g-s1024-b4-bf16":              {200.1, 242.9},
	}},
	// late19: ViT-L/16 fp16 b128 checkpointed -8.94%
	{"late19-", 16, 5, 24, "late19-vitl16-b128-fp16-ckpt", 8.799, 8.012, map[string]struct{ meas, pred float64 }{
		"late19-t-smollm2-360m-s1024-b8x2-bf16": {279.5, 230.5},
		"late19-t-convnext-large-b32x2-bf16":    {145.4, 117.1},
	}},
	// late22 (8e472b0): ViT-B/16 b256 bf16 +3.14%
	{"late22-", 16, 5, 23, "late22-vitb16-b256-bf16", 18.002, 18.567, map[string]struct{ meas, pred float64 }{
		"late22-t-sd15-unet-b8-bf16":            {181.5, 142.7},
		"late22-t-convnext-base-b128-bf16-ckpt": {130.7, 159.0},
	}},
	// late30 (de48888): 11 families and 3 world-size-1 parallel rows (two
	// GPT-2 rows failed on the GPU; late30b's capture of them, cb42e40, has
	// the same prefix: 16 rows), TP with checkpointing on TinyLlama
	// +19.57%; 4 generate points; 13 step times
	{"late30-", 16, 4, 13, "late30-ws1-tp-tinyllama-s1024-b4-ckpt", 17.734, 21.205, map[string]struct{ meas, pred float64 }{
		"late30-t-dit-l-2-b64-bf16":      {170.0, 138.1},
		"late30-t-vitb16-b128-bf16-ckpt": {87.3, 74.5},
	}},
	// late31 (ae14292): 5 world-size-1 parallel rows, TP with checkpointing
	// on Llama 3.2 1B -3.17%; 6 CNN step times
	{"late31-", 5, 0, 6, "late31-ws1-tp-llama32-1b-s1024-b4-ckpt", 26.318, 25.484, map[string]struct{ meas, pred float64 }{
		"late31-t-resnet152-b96-fp16": {81.4, 98.0},
	}},
	// late33 (9efb315): 7 channels-last families, ResNet-50 b96 fp32
	// -3.42%; 12 CNN step times, NCHW and channels-last
	{"late33-", 7, 0, 12, "late33-resnet50-b96-fp32-cl", 9.475, 9.151, map[string]struct{ meas, pred float64 }{
		"late33-t-resnet34-b256-fp16-cl":        {24.5, 30.0},
		"late33-t-efficientnet-b1-b128-fp16-cl": {73.7, 57.6},
	}},
	// late34 (6934c31): 5 channels-last families, EfficientNet-B0 b192 fp32
	// +54.38% (the 7×7 workspace rule); 11 CNN step times
	{"late34-", 5, 0, 11, "late34-efficientnet-b0-b192-fp32-cl", 17.564, 27.115, map[string]struct{ meas, pred float64 }{
		"late34-t-resnet101-b128-fp16-cl":       {43.7, 58.9},
		"late34-t-efficientnet-b0-b192-fp32-cl": {49.2, 62.5},
	}},
	// late35 (0840771): 4 channels-last families, EfficientNet-B4 b32 bf16
	// +5.93%; 8 step times
	{"late35-", 4, 0, 8, "late35-efficientnet-b4-b32-bf16-cl", 3.973, 4.208, map[string]struct{ meas, pred float64 }{
		"late35-t-resnet152-b128-fp16-cl":     {51.1, 85.3},
		"late35-t-convnext-small-b64-fp32-cl": {172.3, 164.9},
	}},
	// late36 (5842a75): 10 rows of the capture script's models, ResNet-50
	// b48 x 2 fp16 +4.74%; 21 step times
	{"late36-", 10, 0, 21, "late36-resnet50-b48x2-fp16", 2.547, 2.668, map[string]struct{ meas, pred float64 }{
		"late36-t-resnet50-b48x2-fp16":          {39.1, 55.5},
		"late36-t-bert-base-s128-b64-bf16-ckpt": {60.3, 80.2},
	}},
	// late37 (882b1b7): 11 BERT and channels-last rows, EfficientNet-B3
	// b48 bf16 channels-last checkpointed -10.44%; 9 step times
	{"late37-", 11, 0, 9, "late37-efficientnet-b3-b48-bf16-cl-ckpt", 1.688, 1.511, map[string]struct{ meas, pred float64 }{
		"late37-t-resnet34-b128-fp16-cl":    {14.5, 20.3},
		"late37-t-bert-large-s384-b24-fp16": {70.4, 85.3},
	}},
	// late38 (874aa6a): 10 channels-last and BERT rows, ResNet-18 b128
	// bf16 channels-last +11.03%; no step times
	{"late38-", 10, 0, 0, "late38-resnet18-b128-bf16-cl", 1.975, 2.192, nil},
	// late39 (ba72579): 11 float32 transformer rows, BERT-tiny s512 b256
	// checkpointed +1.06% the worst reserved; 4 step times
	{"late39-", 11, 0, 4, "late39-bert-tiny-s512-b256-fp32-ckpt", 1.736, 1.755, map[string]struct{ meas, pred float64 }{
		"late39-t-gpt2-s1024-b4-fp32": {95.3, 99.0},
	}},
	// late40 (a0afabb): 11 ViT and Whisper rows, ViT-B/16 b160 float32
	// checkpointed -7.47%; 4 step times
	{"late40-", 11, 0, 4, "late40-vitb16-b160-fp32-ckpt", 4.752, 4.397, nil},
	// late41 (b2a0eb0): 12 float32 ViT, Whisper and capture-script rows,
	// ResNet-50 b96 fp16 -1.43%; no step times
	{"late41-", 12, 0, 0, "late41-resnet50-b96-fp16", 5.078, 5.005, nil},
	// late42 (105d802): 13 decoder and T5 rows and 2 world-size-1 rows,
	// DDP checkpointed on TinyLlama +16.09% the worst reserved (OLMo 2
	// selective -3.57%); 3 generate points; 10 step times, T5-large -21.5%
	{"late42-", 15, 3, 10, "late42-ws1-ddp-tinyllama-s2048-b2-ckpt", 24.941, 28.955, map[string]struct{ meas, pred float64 }{
		"late42-t-t5-large-s512-b16-bf16": {442.2, 347.1},
	}},
	// late43 (9cc4fda): 13 selective, Phi-3, float32 and T5 rows, T5-base
	// s1024 b8 fp16 checkpointed -3.61% the worst reserved; 4 step times
	{"late43-", 13, 0, 4, "late43-t5-base-s1024-b8-fp16-ckpt", 7.164, 6.905, nil},
	// late44 (e458df8): 24 two-GPU rank rows, DDP checkpointed on
	// TinyLlama rank 1 +18.06% the worst reserved (FSDP2 to -12.07%)
	{"late44-", 24, 0, 0, "late44-ws2-ddp-tinyllama-s1024-b4-ckpt-rank1", 24.941, 29.445, nil},
	// late46 (6486b50): 10 families and 4 world-size-1 DDP rows (6 more
	// in repeats/, out of the band data), DDP on Llama 3.2 1B +5.27% the
	// worst reserved; 3 generate points; its step times are no first
	// sight (five repeat earlier timed configurations)
	{"late46-", 20, 3, 0, "late46-ws1-ddp-llama32-1b-s1024-b8", 52.992, 55.785, nil},
	// late47 (bdc7106): 12 capture-script rows, ResNet-50 fp16 b256
	// -2.18% the worst reserved; 12 step times, T5-small checkpointed
	// -16.6%
	{"late47-", 12, 0, 12, "late47-resnet50-b256-fp16", 13.129, 12.843, map[string]struct{ meas, pred float64 }{
		"late47-t-t5-small-s1024-b16-bf16-ckpt": {193.3, 161.3},
	}},
	// late48 (d6ef284): 12 capture-script rows, ResNet-50 b160 bf16
	// checkpointed -3.89% the worst reserved; 14 step times, BERT-base
	// s256 b96 fp16 checkpointed +18.1%
	{"late48-", 12, 0, 14, "late48-resnet50-b160-bf16-ckpt", 5.148, 4.948, map[string]struct{ meas, pred float64 }{
		"late48-t-bert-base-s256-b96-fp16-ckpt": {69.7, 82.2},
	}},
	// late49 (fb0fa94): 12 T5, BERT-large, RoBERTa-large and GPT-2 rows,
	// T5-base s512 b24 bf16 checkpointed -1.70% the worst reserved; 10
	// step times, BERT-large checkpointed +16.2%
	{"late49-", 12, 0, 10, "late49-t5-base-s512-b24-bf16-ckpt", 9.104, 8.949, map[string]struct{ meas, pred float64 }{
		"late49-t-bert-large-s384-b32-bf16-ckpt": {138.4, 160.8},
	}},
	// late50 (2a12793): 8 NCHW half-precision ResNet rows, ResNet-50 b48
	// fp16 +6.39% the worst reserved (over); no step times
	{"late50-", 8, 0, 0, "late50-resnet50-b48-fp16", 2.498, 2.658, nil},
	// late45 (6971daa): 20 two-GPU rank rows, DDP on GPT-2 large +9.76%
	// the worst reserved (over); no step times
	{"late45-", 20, 0, 0, "late45-ws2-ddp-gpt2-large-s1024-b4-rank0", 31.648, 34.737, nil},
	// late51 (a9fa7be): 12 pipeline-parallel stage rows, the small Llama
	// 1F1B m8 checkpointed stage 0 +45.25% the worst reserved (over); no
	// step times
	{"late51-", 12, 0, 0, "late51-ws2-pp-llama-small-s1024-b4-m8-1f1b-ckpt-rank0", 4.201, 6.102, nil},
	// late52 (da1bdfa): 9 NCHW half-precision ResNet rows, ResNet-34 b192
	// fp16 +2.23% the worst reserved (over); no step times
	{"late52-", 9, 0, 0, "late52-resnet34-b192-fp16", 4.412, 4.511, nil},
	// late56 (66b1cb8): 14 rows of fourteen families, ResNet-101 b112
	// bf16 checkpointed +0.82% the worst reserved (over); no step times
	{"late56-", 14, 0, 0, "late56-resnet101-b112-bf16-ckpt", 4.303, 4.338, nil},
	// pick10 (5b57fe3): plan --fit's 3 first picks under a memory budget,
	// BERT-large checkpointed +0.65% the worst reserved (over); 11 step
	// times, BERT-large b32 x 2 checkpointed +13.5%
	{"pick10-", 3, 0, 11, "pick10-bert-large-s512-b64-bf16-ckpt", 9.424, 9.485, map[string]struct{ meas, pred float64 }{
		"pick10-bert-large-bf16-block-b32x2": {275.8, 313.1},
	}},
	// late26 (56a33fe): 12 families and 4 world-size-1 parallel rows, TP
	// on Llama 3.2 1B +3.89%
	{"late26-", 16, 3, 17, "late26-ws1-tp-llama32-1b-s1024-b4", 31.283, 32.501, map[string]struct{ meas, pred float64 }{
		"late26-t-resnet152-b128-bf16-ckpt":  {179.6, 226.1},
		"late26-t-efficientnet-b2-b128-fp32": {152.5, 139.7},
	}},
}

// TestFirstSightSets checks each of firstSightSets against the tables its
// first sight is read from.
func TestFirstSightSets(t *testing.T) {
	for _, c := range firstSightSets {
		t.Run(strings.TrimSuffix(c.prefix, "-"), func(t *testing.T) {
			steps := checkSetFirstSight(t, c.prefix, c.train, c.gen, c.steps, c.row, c.meas, c.pred)
			checkStepErrs(t, steps, c.stepErrs)
		})
	}
}
