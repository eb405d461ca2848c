package main

import (
	"math"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestWalkBackwardNodesMatchAutograd: the walk's backward issues as many
// host items (kernel nodes, kernel-less nodes, AccumulateGrad, the
// engine's gradient sums) as autograd had nodes behind the whole models
// dev70 counted at 8 tokens (BERT-base, GPT-2, Llama-small; fp32 and bf16
// autocast): within 7% at session 38. The per-node host price of
// docs/steptime.md's next step rests on this inventory.
func TestWalkBackwardNodesMatchAutograd(t *testing.T) {
	modhostModelPrecs(t, func(m, prec string, _ modhostRow, _, _, nodes float64) {
		got, err := modhostCount(m, prec, backwardUnits, 1)
		if err != nil {
			t.Fatal(err)
		}
		if e := got/nodes - 1; math.Abs(e) > 0.08 {
			t.Errorf("%s %s: the walk's backward has %.0f nodes, autograd %.0f (%+.1f%%)", m, prec, got, nodes, 100*e)
		}
	})
}

// TestCandidateHostSplitsLikeAutograd: the per-kind candidate hosts
// (hosts/modhost-kinds.json; hosts/modhost-layers.json, which also prices
// each family's layer) put the forward's share of a whole model's host
// time (forward and backward at 8 tokens) within 1.6x of what each of
// dev70's processes measured, in all 12 rows, and their worst row is
// closer than the committed costs' worst (BERT-base fp32: 63% of the
// host in the forward planned, 24-32% measured).
func TestCandidateHostSplitsLikeAutograd(t *testing.T) {
	hosts := map[string]memmodel.HostCosts{"committed": memmodel.DefaultHostCosts()}
	for _, f := range []string{"hosts/modhost-kinds.json", "hosts/modhost-layers.json"} {
		h, err := hostCosts("@" + f)
		if err != nil {
			t.Fatal(err)
		}
		if h.Kind["conv2d"] == 0 || h.Block == 0 {
			t.Fatalf("%s read as %+v: no per-kind prices", f, h)
		}
		hosts[f] = h
	}
	worst := map[string]float64{}
	modhostModelPrecs(t, func(m, prec string, r modhostRow, fwd, bwd, _ float64) {
		meas := fwd / (fwd + bwd)
		for name, h := range hosts {
			p, err := modhostWalk(m, prec, h)
			if err != nil {
				t.Fatal(err)
			}
			off := math.Abs(math.Log(p[0] / (p[0] + p[1]) / meas))
			worst[name] = max(worst[name], off)
			if name != "committed" && off > math.Log(1.6) {
				t.Errorf("%s %s (%s): %s puts %.2f of the host in the forward, measured %.2f", m, prec, r.Job, name, p[0]/(p[0]+p[1]), meas)
			}
		}
	})
	for name, w := range worst {
		if name != "committed" && w >= worst["committed"] {
			t.Errorf("%s's worst forward share is %.2fx off, the committed costs' %.2fx", name, math.Exp(w), math.Exp(worst["committed"]))
		}
		t.Logf("worst forward share: %s %.2fx", name, math.Exp(w))
	}
}

// modhostModelPrecs calls f for each whole-model row of dev70 in each
// precision (fp32, bf16 autocast), with its catalog model and the row's
// forward and backward host µs and autograd nodes, and checks that all 12
// (three models, two precisions, two processes) were seen.
func modhostModelPrecs(t *testing.T, f func(model, prec string, r modhostRow, fwd, bwd, nodes float64)) {
	t.Helper()
	rows, err := readModhost("../../testdata/dev70/results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range rows {
		m, ok := r.model()
		if !ok || modhostModels[m] == "" {
			continue
		}
		f(modhostModels[m], "fp32", r, r.F32Fwd, r.F32Bwd, r.F32Node)
		f(modhostModels[m], "bf16-amp", r, r.AMPFwd, r.AMPBwd, r.AMPNode)
		seen += 2
	}
	if seen != 12 {
		t.Fatalf("%d model rows checked, want 12", seen)
	}
}
