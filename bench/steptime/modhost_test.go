package main

import (
	"math"
	"testing"
)

// TestWalkBackwardNodesMatchAutograd: the walk's backward issues as many
// host items (kernel nodes, kernel-less nodes, AccumulateGrad, the
// engine's gradient sums) as autograd had nodes behind the whole models
// dev70 counted at 8 tokens (BERT-base, GPT-2, Llama-small; fp32 and bf16
// autocast): within 7% at session 38. The per-node host price of
// docs/steptime.md's next step rests on this inventory.
func TestWalkBackwardNodesMatchAutograd(t *testing.T) {
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
		for _, c := range []struct {
			prec  string
			nodes float64
		}{{"fp32", r.F32Node}, {"bf16-amp", r.AMPNode}} {
			got, err := modhostCount(modhostModels[m], c.prec, backwardUnits, 1)
			if err != nil {
				t.Fatal(err)
			}
			if e := got/c.nodes - 1; math.Abs(e) > 0.08 {
				t.Errorf("%s %s: the walk's backward has %.0f nodes, autograd %.0f (%+.1f%%)", m, c.prec, got, c.nodes, 100*e)
			}
			seen++
		}
	}
	if seen != 12 { // three models, two precisions, two processes
		t.Fatalf("%d model rows checked, want 12", seen)
	}
}
