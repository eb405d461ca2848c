package memmodel_test

import (
	"math"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// TestLate103Blind: late103 (call 209, blind, evaluated once in session 58
// with the model of its predictions file's status line,
// bench/gpu/gt/late103_predictions.md) timed the technique pairs of
// ELECTRA-base, Whisper-base, Marian and ResNet-152, alternated step by
// step in one process, on a slow lent H100 host (an op issued in 10.3 us,
// the median lent host's 7.5). Its figures (testdata/late103/RESULTS.md),
// with the lent H100 hosts' costs an H100's plan takes: 9 pairs, 6 within
// 10%, median |ratio error| 7.6%, max 21.1% (Whisper-base's autocast);
// 13 steps, median |error| 8.3%, max 20.1%, 12 under; same-model order 14
// of 14. With the H200 hosts' costs: 6 within, 9.2%, 16.6%; steps 7.7%.
// Since the ResNets' compiled host factor (session 60, late106): 7
// within, 6.7%, 21.1%; steps 8.1%, 11 under (ResNet-152 b8's compile
// pair -0.8%, from -10.6%). Since late107's H100 checkpoint region
// (session 62): 8 within, 3.9%, 21.1%; steps 11.6% (the slow host's
// checkpointed steps planned further under), 11 under. A model change
// moves these and this test until RESULTS.md says so.
func TestLate103Blind(t *testing.T) {
	checkAlternatedSet(t, "../../testdata/late103/late103-timing/results.jsonl", blindWant{
		pairs: 9, within: 8, over: 3, median: 0.039, worst: 0.211,
		steps: 13, stepMedian: 0.116, under: 11, ordered: 14, compared: 14})
}

// TestDev115RatiosMoveWithTheHost: dev115 timed, on late103's slow host,
// six configurations that dev112, dev114 and late101 had timed on other
// lent H100 hosts, each alternated step by step with its technique twins.
// The same pair's measured ratio moved by up to 10% between hosts
// (EfficientNet-B0 b16 checkpointing 2.177 -> 2.406, GPT-2 s256 b2
// autocast 1.129 -> 1.225) and by a median of about 2%: as much as the
// plan's ratio error on the worst pairs, which is why no per-model refit
// is made on one host's pairs (testdata/dev115/README.md).
func TestDev115RatiosMoveWithTheHost(t *testing.T) {
	here := measuredRatios(t, "dev115/dev115-timing/results.jsonl")
	var moves []float64
	for _, o := range []struct{ file, prefix string }{
		{"dev112/dev112-timing/results.jsonl", "dev112-"},
		{"dev114/dev114-timing/results.jsonl", "dev114-"},
		{"late101/late101-timing/results.jsonl", "late101-"},
	} {
		for name, r := range measuredRatios(t, o.file) {
			h, ok := here[name]
			if !ok {
				continue
			}
			moves = append(moves, math.Abs(h/r-1))
			t.Logf("%-40s %s %.3f, dev115 %.3f (%+.1f%%)", name, strings.TrimSuffix(o.prefix, "-"), r, h, 100*(h/r-1))
		}
	}
	s := measured.Summarize(moves)
	t.Logf("%d pairs timed on two hosts: the ratio moved a median %.1f%%, max %.1f%%", len(moves), 100*s.MedianAbs, 100*s.MaxAbs)
	if len(moves) != 18 || s.MaxAbs < 0.09 || s.MaxAbs > 0.11 || s.MedianAbs > 0.05 {
		t.Errorf("the README says 18 pairs, moved up to 10%% (median under 5%%)")
	}
}

// TestDev117AlternatedAgainstOwnProcesses: on one H100 host, the same
// technique pairs alternated step by step in one process and timed each
// configuration in its own process (testdata/dev117/README.md). The
// procedures disagree by 5.7-13.6% in either direction (BERT-base autocast
// 1.254 alternated, 1.42 alone; checkpointing 1.824 and 1.63; GPT-2
// autocast 1.172 and 1.24): a process's speed is part of a ratio timed
// across processes, so such a ratio cannot check a plan to 10%.
func TestDev117AlternatedAgainstOwnProcesses(t *testing.T) {
	alt := measuredRatios(t, "dev117/alternated/results.jsonl", "dev117-timing-swin")
	own := measuredRatios(t, "dev117/own/results.jsonl", "dev117-timing-gpt2-bf16-ckpt", "dev117-timing-swin-fp32", "dev117-timing-swin-bf16", "dev117-timing-swin-bf16-ckpt")
	want := map[string][2]float64{
		"amp t-bert-base-s128-b8-bf16":             {1.254, 1.42},
		"checkpoint t-bert-base-s128-b8-bf16-ckpt": {1.824, 1.63},
		"amp t-gpt2-s256-b2-bf16":                  {1.172, 1.24},
	}
	if len(own) != len(want) || len(alt) != 4 {
		t.Fatalf("%d alternated and %d own-process pairs, want 4 and %d", len(alt), len(own), len(want))
	}
	for k, w := range want {
		a, o := alt[k], own[k]
		t.Logf("%-40s alternated %.3f, own processes %.3f (%+.1f%%)", k, a, o, 100*(o/a-1))
		if math.Abs(a-w[0]) > 0.0015 || math.Abs(o-w[1]) > 0.006 {
			t.Errorf("%s: %.3f and %.3f, the README says %.3f and %.2f", k, a, o, w[0], w[1])
		}
		if d := math.Abs(o/a - 1); d < 0.05 || d > 0.15 {
			t.Errorf("%s: the procedures differ by %.1f%%, the README says 5.7-13.6%%", k, 100*d)
		}
	}
}

// measuredRatios is the measured ratio of each technique pair of a timed
// file under testdata (failed: the rows its run could not complete), keyed
// by the technique and the variant's configuration, set and procedure
// prefixes dropped (measured.ConfigName: "amp t-bert-base-s128-b8-bf16"), so that one
// configuration's pairs from several sets share a key.
func measuredRatios(t *testing.T, file string, failed ...string) map[string]float64 {
	t.Helper()
	ev := evalTimedFile(t, "../../testdata/"+file, failed...)
	m := map[string]float64{}
	for _, p := range ev.Pairs {
		m[p.Kind+" "+measured.ConfigName(p.Num)] = p.Measured
	}
	return m
}
