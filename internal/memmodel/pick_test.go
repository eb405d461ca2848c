package memmodel_test

import (
	"math"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestFitPicksFastest is the blind check of issue 14's last target on
// testdata/late/pick: the top candidates of `plan --fit` for four models,
// each timed alone on the H200 after the round-2 step-time model was final
// and evaluated once (seen since). The candidate the model ranks first must
// run within 5% of the measured fastest. GPT-2 medium: b16×2 ranked first,
// 3.0% behind b32×1; LLaMA-small and BERT-base: the fastest. ResNet-50
// b256: fp16 AMP ran 17% faster than bf16 (87.9 vs 105.4 ms), which rounds
// 1–3 ranked the other way round (bf16 first, 19.8% behind). Round 4 timed
// the convolutions at batch 256 (their batch-64 backward times were not
// the kernels') and gave BatchNorm its backends (cuDNN for fp16, ATen's
// per-channel kernels for bf16): fp16 b256 is ranked first now.
// Each step time is held to the bounds as well (median 4.1%, max
// 11.4% after round 4, was 21.9%), and every same-model pair differing by
// more than 5% is ordered (16 of 16, was 14).
func TestFitPicksFastest(t *testing.T) {
	checkPickFile(t, "../../testdata/late/pick/results.jsonl", memmodel.CalibrationHostCosts(), 16,
		stepTargets{median: 0.10, max: 0.25, ratioMedian: 0.10, ratioMax: 0.10, order: 0.95}, 4)
}

// checkPickFile evaluates a timed pick file of rows rows, timed on host,
// against want and requires models' first picks to run within 5% of their
// fastest; skip names the rows the reader must skip, in order. It returns
// the evaluation for further checks.
func checkPickFile(t *testing.T, path string, host memmodel.HostCosts, rows int, want stepTargets, models int, skip ...string) measured.StepEval {
	t.Helper()
	ws, skipped, err := measured.ReadTimed(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != len(skip) || len(ws) != rows {
		t.Fatalf("%d rows read, skipped %v", len(ws), skipped)
	}
	for i, s := range skipped {
		if !strings.HasPrefix(s, skip[i]+":") {
			t.Fatalf("skipped %q, want %q", s, skip[i])
		}
	}
	if len(ws) != rows {
		t.Fatalf("%d rows read, skipped %v", len(ws), skipped)
	}
	ev, err := measured.EvalStepTimeWith(ws, host)
	if err != nil {
		t.Fatal(err)
	}
	checkStepEval(t, ev, rows, want)
	checkFirstPicks(t, ev, models, nil)
	return ev
}

// checkFirstPicks groups ev's rows by model (pickModel) and requires, for
// each of the want models, that the row predicted fastest runs within 5%
// of the row measured fastest; a model in known may miss (and must: a
// known miss that passes is reported, to be dropped).
func checkFirstPicks(t *testing.T, ev measured.StepEval, want int, known map[string]bool) {
	t.Helper()
	type pick struct{ first, fastest measured.StepRow }
	picks := map[string]*pick{}
	for _, r := range ev.Rows {
		m := pickModel(r.Name)
		p := picks[m]
		if p == nil {
			p = &pick{r, r}
			picks[m] = p
		}
		if r.Predicted < p.first.Predicted {
			p.first = r
		}
		if r.Measured < p.fastest.Measured {
			p.fastest = r
		}
	}
	if len(picks) != want {
		t.Fatalf("models %v, want %d", picks, want)
	}
	for m, p := range picks {
		behind := p.first.Measured/p.fastest.Measured - 1
		t.Logf("%-16s ranked first %-40s %.1f ms; fastest %-40s %.1f ms (+%.1f%%)", m, p.first.Name,
			1e3*p.first.Measured, p.fastest.Name, 1e3*p.fastest.Measured, 100*behind)
		switch miss := behind > 0.05 || math.IsNaN(behind); {
		case miss && known[m]:
			t.Logf("known miss: %s: the first pick %s runs %.1f%% behind the fastest %s", m, p.first.Name, 100*behind, p.fastest.Name)
		case miss:
			t.Errorf("%s: the first pick %s runs %.1f%% behind the fastest %s", m, p.first.Name, 100*behind, p.fastest.Name)
		case known[m]:
			t.Errorf("%s: the first pick is within 5%% of the fastest now: drop it from the known misses", m)
		}
	}
}

// pickModel is the model part of a pick row's name
// (pick-gpt2-medium-s1024-bf16-b32x1 or grid-gpt2-medium-s1024-fp32-b8x4 → gpt2-medium).
func pickModel(name string) string {
	m := name
	for _, p := range []string{"pick-", "pick2-", "pick3-", "pick4-", "pick5-", "pick6-", "grid-"} {
		m = strings.TrimPrefix(m, p)
	}
	for _, cut := range []string{"-s2048", "-s1024", "-s512", "-bf16", "-fp16", "-fp32"} {
		if i := strings.Index(m, cut); i > 0 {
			m = m[:i]
		}
	}
	return m
}
