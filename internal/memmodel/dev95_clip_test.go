package memmodel_test

import "testing"

// TestDev95CLIP holds the CLIP family to dev95's traces (testdata/dev95/clip,
// development data captured with late87's blind rows: CLIPModel with its
// contrastive loss at ViT-B/32 sizes b128 bf16 AMP and LoRA r16, and at
// ViT-B/16 sizes b32 fp32 and b64 bf16 AMP checkpointed). The model was
// written from modeling_clip before they existed; at first sight allocated
// was -0.00% (fp32), +0.00% (bf16), -0.06% (checkpointed), -0.03% (LoRA)
// and reserved +2.32%, +1.91%, -3.17%, +0.43%. The traces showed
// get_image_features' visual_projection running before the text tower,
// CLIPAttention's q/k/v and the patch embeddings held until their
// function returns (what the checkpointed forward frees late), the
// pooling's and loss's small tensors as transformers 5.17 makes them, and
// the float32 memory-efficient backward's workspace rounding the sequence
// up to 64 (77 -> 128, 197 -> 256): allocated -0.02%, +0.00%, +0.04%,
// -0.02%, reserved +2.32%, +1.91%, +0.81%, +0.43%. The bf16 row's reserved
// stays over because the B/32 patch conv's weight gradient took a 9 MiB
// cuDNN workspace where vitStemWorkspace's rule (from the patch-16 ViTs)
// asks 215 MiB; one trace, left as it is.
func TestDev95CLIP(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev95/clip", 4, nil,
		blindLimits{resvMedian: 0.016, resvMax: 0.026, allocMax: 0.001, under: 1, farUnder: 0}, "families")
}
