package memmodel_test

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestDev84HFViT holds transformers' ViTForImageClassification (family
// hf-vit) to dev84's traces (testdata/dev84, development, not blind:
// ViT-B/16 at 224 pixels b64 bf16 AMP, checkpointed, b32 float32, with
// snapshots). At first sight, the family written from those traces'
// forward order: allocated within 0.04%, reserved +0.72% to +1.04%.
func TestDev84HFViT(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev84", 3, nil,
		blindLimits{resvMedian: 0.008, resvMax: 0.0105, allocMax: 0.0005, under: 3, farUnder: 0}, "families")
}

// TestHFViTParams: ViTForImageClassification from google/vit-base-patch16-
// 224's config.json with 1000 labels counts 86,567,656 parameters on the
// lent GPU (dev84's rows).
func TestHFViTParams(t *testing.T) {
	name := "hf-vit-base-patch16"
	r, err := memmodel.Estimate(memmodel.Spec{Model: &name, Batch: 1, Image: 224, Precision: "bf16", Checkpoint: "none",
		Accum: 1, Optimizer: "sgd", Parallel: memmodel.Parallel{Strategy: "none", GPUs: 1, TP: 1, PP: 1, MicroBatches: 1},
		GPU: "h200"}, memmodel.Options{Steps: 1, SkipReserved: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Params != 86_567_656 {
		t.Errorf("%d params, PyTorch counts 86,567,656", r.Params)
	}
}
