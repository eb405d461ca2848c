package memmodel_test

import "testing"

// TestLate51Pipeline: the fifty-first blind set (testdata/late51/README.md),
// the first pipeline-parallel runs: 6 runs × 2 stages of the small Llama
// and TinyLlama under torch.distributed.pipelining (1F1B and GPipe, 4 and 8
// micro-batches, with and without checkpointing), evaluated at first sight
// (testdata/late51/RESULTS.md). plan's single first-stage figure: reserved
// median |err| 10.1%, -20.5%..+45.3%, 6 of 12 stages under, 3 outside the
// printed band; allocated median 9.9%, max 36.9%. Held there until the
// pipeline model plans each stage (RESULTS.md says what it misses). As band
// data they give parallel=pp a measured band (x0.67-x1.29), which holds
// every stage's reserved; four allocated figures stay outside theirs.
func TestLate51Pipeline(t *testing.T) {
	known := map[string]bool{
		"late51-ws2-pp-llama-small-s1024-b4-m4-gpipe-rank0 allocated":     true,
		"late51-ws2-pp-llama-small-s1024-b4-m8-1f1b-ckpt-rank1 allocated": true,
		"late51-ws2-pp-tinyllama-s1024-b2-m4-1f1b-rank0 allocated":        true,
		"late51-ws2-pp-tinyllama-s1024-b2-m4-1f1b-rank1 allocated":        true,
	}
	checkBlindGroups(t, "../../testdata/late51", 12, known,
		blindLimits{resvMedian: 0.102, resvMax: 0.453, allocMax: 0.369, under: 6, farUnder: 6}, "sharded")
}
