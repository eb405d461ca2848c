package memmodel_test

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// late44Dir is the forty-fourth blind set (testdata/late44/README.md): the
// first sharded runs on two H200s (call 92), one row and one snapshot per
// rank, evaluated with the models of e458df8 (testdata/late44/RESULTS.md).
const late44Dir = "../../testdata/late44"

// TestLate44TwoGPUs: 12 runs × 2 ranks (DDP, FSDP2 ±checkpointing ±reshard
// and ZeRO-1 on GPT-2 medium; DDP and FSDP2 ±checkpointing, TP
// ±checkpointing and ZeRO-1 on TinyLlama). At first sight (e458df8):
// reserved median 3.94%, max 18.06%, 12 of 24 under (every FSDP2 row, to
// -12.07%). With FSDP2's sharded gradients on the reduce-scatter stream and
// the all-gather buffers per gather (read off these snapshots, so no
// longer blind): FSDP2 within -1.68..+1.65% reserved and 0.13% allocated;
// reserved median 1.53%, max 18.06% (DDP on TinyLlama, over: the
// construction-time buckets freed before the rebuilt ones, which the model
// keeps together), 10 under, none more than 2% low. Loading the whole model
// before fully_shard shards it unit by unit (the whole parameters' segments
// stay cached): FSDP2 +0.40..+0.59% but TinyLlama checkpointed -2.16%;
// reserved median 0.78%, 4 under (the TinyLlama checkpointed ranks more
// than 2% low). Session 24, DDP's rebuilt buckets at their own sizes
// (ddpBuckets: 250 MiB then 44/44/44/36 MiB a layer, into the blocks
// zero_grad freed, where one 4 GiB buffer took a segment of its own):
// TinyLlama DDP checkpointed +12.55/+18.06% -> +0.55/+5.47% (rank 1 let
// the construction-time buffer go earlier), plain +15.93% -> +13.72%
// (both ranks let it go before the rebuild; allocated +14.15%); reserved
// median 0.59%, max 13.72%. With the release figures as the bands' low
// ends (Result.ReleaseReserved) the DDP ranks are inside their allocated
// bands too.
func TestLate44TwoGPUs(t *testing.T) {
	known := map[string]bool{
		// TP checkpointed: allocated 0.56% low (rank 0 and 1 alike)
		"late44-ws2-tp-tinyllama-s1024-b4-ckpt-rank0 allocated": true,
		"late44-ws2-tp-tinyllama-s1024-b4-ckpt-rank1 allocated": true,
	}
	checkBlindGroups(t, late44Dir, 24, known,
		blindLimits{resvMedian: 0.0060, resvMax: 0.138, allocMax: 0.142, under: 4, farUnder: 2}, "sharded")
}

// TestLate44ProcessMemory: the process memory plan prints (peak reserved,
// the CUDA context and NCCL's buffers) against every rank's NVML reading on
// two GPUs. With NCCL's two-GPU figures (846 MiB a rank, 1224 under TP):
// median 0.58%; +0.25..+2.23% on the FSDP2, ZeRO-1, TP and GPT-2 DDP ranks
// but TinyLlama FSDP2 checkpointed -1.89% and TP checkpointed rank 1 -1.62%
// (their reserved, under); DDP on TinyLlama +11.9..+17.0% (its buckets, see
// above; +13.0% plain, +0.5/+5.2% checkpointed since session 24). Never
// more than 2% low.
func TestLate44ProcessMemory(t *testing.T) {
	checkProcessMemory(t, late44Dir, 24, -0.02, 0.006)
}

// checkProcessMemory holds the process memory plan prints (peak reserved,
// the CUDA context and NCCL's buffers) against every rank's NVML reading
// of the set in dir: n ranks, none lower than low (a fraction, negative),
// the median |error| at most median.
func checkProcessMemory(t *testing.T, dir string, n int, low, median float64) {
	t.Helper()
	rows, err := measured.ReadGTRows(filepath.Join(dir, "sharded", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var errs []float64
	for _, m := range rows {
		if m.NVMLUsed <= 0 {
			t.Fatalf("%s: no NVML reading", m.Name)
		}
		r := planRow(t, m)
		e := measured.Rel(r.Process, m.NVMLUsed)
		t.Logf("%-50s process %+.2f%%", m.Name, 100*e)
		if e < low {
			t.Errorf("%s: process memory %.2f%% low", m.Name, 100*e)
		}
		errs = append(errs, e)
	}
	if s := measured.Summarize(errs); s.MedianAbs > median || len(errs) != n {
		t.Errorf("process memory over %d ranks: median |err| %.2f%% (want ≤%.2f%%)", len(errs), 100*s.MedianAbs, 100*median)
	}
}
