package memmodel_test

import "testing"

// TestLate52Blind: the fifty-second blind set (testdata/late52/README.md),
// nine NCHW ResNets in fp16/bf16 AMP at batches and models dev54/dev55's
// traces did not cover, evaluated with the models of da1bdfa
// (testdata/late52/RESULTS.md). At first sight: allocated within 0.08%,
// reserved median 0.60%, max +2.23% (ResNet-34 b192 fp16, over), two
// under (within 0.6%), all inside their bands; with the session-start
// models median 1.54%, max -5.51%, seven under.
func TestLate52Blind(t *testing.T) {
	checkBlindGroups(t, "../../testdata/late52", 9, nil,
		blindLimits{resvMedian: 0.0061, resvMax: 0.0224, allocMax: 0.0009, under: 2, farUnder: 0}, "families")
}
