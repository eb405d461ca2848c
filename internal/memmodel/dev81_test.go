package memmodel_test

import "testing"

// TestDev81BertHeads holds the token-classification and
// question-answering heads to dev81 (testdata/dev81, development, not
// blind: BERT-base token classification with 9 labels s256 b32 and QA
// s384 b32, bf16 autocast, snapshots). As written from transformers'
// source, at first sight: allocated +0.02% and -0.00%, reserved +0.78% and
// +0.68%; the parameter counts PyTorch reported (108,898,569 and
// 108,893,186: BertModel without its pooler and the head) are the
// plan's.
func TestDev81BertHeads(t *testing.T) {
	checkBlindGroups(t, "../../testdata/dev81", 2, nil,
		blindLimits{resvMedian: 0.0075, resvMax: 0.008, allocMax: 0.0003, under: 1, farUnder: 0}, "families")
}
