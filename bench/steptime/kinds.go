package main

import "github.com/vramkit/vramkit/bench/measured"

// kindTallies sorts ev's alternated technique pairs (both rows timed step
// by step in one process, the host's drift taken out) by technique and the
// kind of model the plan gives the variant (measured.StepRow.ModelKind):
// an error a kind of model shares, where the others are centred, is the
// kind's and not one price of the step's (session 59: the compiled ResNets
// against the EfficientNets, the checkpointed transformers against the
// CNNs). Pairs whose rows the evaluation lacks are left out.
func kindTallies(ev measured.StepEval) classTallies {
	rows := map[string]measured.StepRow{}
	for _, r := range ev.Rows {
		rows[r.Name] = r
	}
	out := classTallies{}
	for _, p := range ev.Pairs {
		v, okV := rows[p.Num]
		b, okB := rows[p.Den]
		if !okV || !okB || procedure(v, b) != "alternated" {
			continue
		}
		k := v.ModelKind
		if k == "" {
			k = "other"
		}
		out.add(p.Kind+", "+k, p)
	}
	return out
}
