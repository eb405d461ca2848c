package memmodel_test

import "testing"

// TestDev95ELECTRA holds the ELECTRA family to dev95's traces
// (testdata/dev95/electra, development data: ElectraForSequenceClassification
// of electra-small-discriminator's sizes at s512 b32 bf16 AMP, whose
// 128-wide embeddings a Linear projects to 256, and
// ElectraForTokenClassification of the base sizes at s256 b16 float32,
// with snapshots). The family was written from modeling_electra's
// structure on BERT's builder before the traces came; at first sight it
// planned allocated -0.00/+0.00% and reserved +1.05/+0.84% (with the
// untraced allowance), unchanged since.
func TestDev95ELECTRA(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev95/electra", 2, nil,
		blindLimits{resvMedian: 0.011, resvMax: 0.012, allocMax: 0.0005, under: 0, farUnder: 0}, "families")
}

// TestLate87Families holds late87's blind training rows, each family's
// evaluated once: ELECTRA at e09d7f0 (electra-small QA s384 b32 float32,
// electra-large s512 b8 bf16 checkpointed: allocated -0.00% both,
// reserved +0.97% and +0.41%); CLIP at d35021a (ViT-L/14 b32 bf16 -0.00%
// and +0.58%, ViT-B/16 b128 fp16 checkpointed -0.00% and +0.79%, ViT-L/14
// b64 bf16 LoRA checkpointed -2.84% and -1.32%: under, inside both bands);
// Wav2Vec2 at 0dba189 (large CTC 15 s checkpointed +0.00% and +0.47%, base
// classification 8 s +0.09% and +6.90%, base CTC 20 s fp16 +29.39% and
// +57.67%, outside both bands: GradScaler skipped that run's first two
// optimizer steps, so its peaks never held AdamW's state, which plan's
// steady state does; RESULTS.md).
func TestLate87Families(t *testing.T) {
	known := map[string]bool{"late87-w2v-base-ctc-20s-b4-fp16-freeze allocated": true,
		"late87-w2v-base-ctc-20s-b4-fp16-freeze reserved": true}
	checkBlindGroups(t, "../../testdata/late87", 8, known,
		blindLimits{resvMedian: 0.009, resvMax: 0.58, allocMax: 0.30, under: 1, farUnder: 0}, "families")
}
