package memmodel_test

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestCatalogParamCounts checks the new families' graphs parameter by
// parameter against the counts PyTorch reports for the released
// checkpoints (transformers' / diffusers' num_parameters() as given on
// the model cards): a missing norm, bias or tied head shows up here.
func TestCatalogParamCounts(t *testing.T) {
	for name, want := range map[string]int64{
		"gemma-2b":          2_506_172_416,
		"gemma-7b":          8_537_680_896,
		"gemma-2-9b":        9_241_705_984,
		"phi-3-mini":        3_821_079_552,
		"mixtral-8x7b":      46_702_792_704,
		"qwen1.5-moe-a2.7b": 14_315_784_192,
		"qwen3-30b-a3b":     30_532_122_624,
		"qwen3-0.6b":        596_049_920,
		"qwen3-8b":          8_190_735_360,
		"olmo-2-7b":         7_298_617_344,
		"whisper-tiny":      37_760_640,
		"whisper-base":      72_593_920,
		"whisper-small":     241_734_912,
		// WhisperForConditionalGeneration of large-v3's sizes (late87's
		// row: 128 mel bins, 51866 tokens); large-v2 and the 4-decoder-
		// layer turbo as their model cards count them
		"whisper-large-v3":       1_543_490_560,
		"whisper-large-v2":       1_543_304_960,
		"whisper-large-v3-turbo": 808_878_080,
		"llama2-7b":              6_738_415_616,
		// GPTNeoXForCausalLM and PhiForCausalLM built from the Hub's
		// configs on the lent H200 (testdata/dev77's rows)
		"pythia-160m": 162_322_944,
		"pythia-410m": 405_334_016,
		"pythia-1b":   1_011_781_632,
		"phi-1.5":     1_418_270_720,
		"phi-2":       2_779_683_840,
		// Starcoder2ForCausalLM from bigcode/starcoder2-3b's config
		// (testdata/dev79), tied head
		"starcoder2-3b": 3_030_371_328,
		// OPTForCausalLM from facebook/opt-125m, -350m and -1.3b's
		// configs (testdata/dev82), tied head
		"opt-125m": 125_239_296,
		"opt-350m": 331_196_416,
		"opt-1.3b": 1_315_758_080,
		// DistilBertForSequenceClassification from
		// distilbert-base-uncased's config, two labels (testdata/dev82)
		"distilbert-base": 66_955_010,
		// BartForConditionalGeneration from facebook/bart-base's and
		// bart-large's configs (testdata/dev85): tied LM head, the
		// final_logits_bias a buffer
		"bart-base":  139_420_416,
		"bart-large": 406_291_456,
		// ModernBertForSequenceClassification from ModernBERT-base's sizes,
		// two labels (testdata/dev92/mbert)
		"modernbert-base": 149_606_402,
		// BloomForCausalLM from bigscience/bloom-560m's config (dev87)
		"bloom-560m": 559_214_592,
		// RobertaForSequenceClassification / XLMRobertaForSequenceClassification
		// with two labels (the base models' 124,645,632 / 355,359,744 /
		// 278,043,648 / 559,890,432 less the pooler, plus the head)
		"roberta-base":      124_647_170,
		"roberta-large":     355_361_794,
		"xlm-roberta-base":  278_045_186,
		"xlm-roberta-large": 559_892_482,
		// DebertaV2ForSequenceClassification of deberta-v3-base's and a
		// 6-layer one's sizes, two labels (testdata/dev92/debv3's rows)
		"deberta-v3-base":  184_423_682,
		"deberta-v3-small": 141_896_450,
		// ElectraForSequenceClassification of electra-small-discriminator's
		// sizes, two labels (testdata/dev95/electra: 128-wide embeddings
		// projected to 256)
		"electra-small": 13_549_314,
		// CLIPModel (text and vision towers, both projections,
		// logit_scale): the published openai/clip-vit-* figures for B/32,
		// B/16 and L/14, computed module by module too; the lent H100
		// counted B/32 and B/16 (testdata/dev95/clip). L/14-336 is L/14
		// with a 24×24+1 position table (+327,680)
		"clip-vit-base-patch32":      151_277_313,
		"clip-vit-base-patch16":      149_620_737,
		"clip-vit-large-patch14":     427_616_513,
		"clip-vit-large-patch14-336": 427_944_193,
		// MarianMTModel of opus-mt-en-de's sizes (testdata/dev96/marian:
		// its two frozen 512-row sinusoid tables counted) and
		// MBartForConditionalGeneration of mbart-large-50's
		// (testdata/dev96/mbart), tied heads, final_logits_bias a buffer
		"opus-mt-en-de":  74_410_496,
		"mbart-large-50": 610_879_488,
		// PegasusForConditionalGeneration of pegasus-large's sizes
		// (testdata/dev100/pegasus: its two frozen 1024-row sinusoid
		// tables counted, 568,699,904 trainable)
		"pegasus-large": 570_797_056,
		// T5 v1.1 / Flan-T5 with their own LM heads, as their config.json
		// files say: dev100 counted the tied flan-t5-base 222,903,552,
		// the head's 32,128 × 768 = 24,674,304 fewer than this
		"flan-t5-small": 76_961_152,
		"flan-t5-base":  247_577_856,
		"flan-t5-large": 783_150_080,
		// TinyLlama-1.1B, as dev98's generate rows counted it
		"tinyllama-1.1b": 1_100_048_384,
	} {
		if r := paramsOf(t, name, 16, 0); r.Params != want {
			t.Errorf("%s: %d params, PyTorch counts %d", name, r.Params, want)
		}
	}
	// transformers' vision classifiers with 1000 labels, as the lent GPU
	// counted them (testdata/dev84, dev86, dev88, dev90, dev92): the DINOv2 table
	// is its 518-pixel grid's whatever the image
	for name, want := range map[string]int64{
		"hf-vit-base-patch16": 86_567_656, "hf-resnet50": 25_557_032, "hf-convnext-tiny": 28_589_128,
		"dinov2-base": 88_117_480,
		// SwinForImageClassification from swin-tiny's config (dev92)
		"swin-tiny": 28_288_354,
	} {
		if r := paramsOf(t, name, 0, 224); r.Params != want {
			t.Errorf("%s: %d params, PyTorch counts %d", name, r.Params, want)
		}
	}
	// Marian's sinusoid tables require no grad: dev96 counted 73,886,208
	// trainable of its 74,410,496
	if r := paramsOf(t, "opus-mt-en-de", 16, 0); r.TrainableParams != 73_886_208 {
		t.Errorf("opus-mt-en-de: %d trainable params, PyTorch counts 73,886,208", r.TrainableParams)
	}
	if r := paramsOf(t, "pegasus-large", 16, 0); r.TrainableParams != 568_699_904 {
		t.Errorf("pegasus-large: %d trainable params, PyTorch counts 568,699,904", r.TrainableParams)
	}
	// the SD 1.5 UNet's own parameters; VAE and text encoder are frozen
	if r := paramsOf(t, "sd15-unet", 0, 256); r.TrainableParams != 859_520_964 {
		t.Errorf("sd15-unet: %d trainable params, diffusers counts 859,520,964", r.TrainableParams)
	}
}

// paramsOf plans one bf16 SGD step of the catalog model name at seq tokens
// or image pixels, for its parameter counts.
func paramsOf(t *testing.T, name string, seq, image int) *memmodel.Result {
	t.Helper()
	r, err := memmodel.Estimate(memmodel.Spec{Model: &name, Batch: 1, Seq: seq, Image: image, Precision: "bf16", Checkpoint: "none",
		Accum: 1, Optimizer: "sgd", Parallel: memmodel.Parallel{Strategy: "none", GPUs: 1, TP: 1, PP: 1, MicroBatches: 1},
		GPU: "h200"}, memmodel.Options{Steps: 1, SkipReserved: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}
