package main

import (
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// TestKindTallies: only pairs both of whose rows were alternated are
// sorted, by technique and the variant's kind of model; a row without a
// kind counts as "other".
func TestKindTallies(t *testing.T) {
	row := func(name, kind string, alt bool) measured.StepRow {
		return measured.StepRow{Name: name, ModelKind: kind, Alternated: alt}
	}
	ev := measured.StepEval{
		Rows: []measured.StepRow{
			row("r-bf16", "cnn", true), row("r-ckpt", "cnn", true),
			row("b-bf16", "encoder", true), row("b-ckpt", "encoder", true),
			row("g-bf16", "decoder", true), row("g-ckpt", "decoder", false), // not alternated: left out
			row("x-bf16", "", true), row("x-ckpt", "", true),
		},
		Pairs: []measured.TechniquePair{
			{Kind: "checkpoint", Num: "r-ckpt", Den: "r-bf16", Measured: 2.5, Predicted: 2.3}, // -8.0%
			{Kind: "checkpoint", Num: "b-ckpt", Den: "b-bf16", Measured: 1.9, Predicted: 2.2}, // +15.8%
			{Kind: "checkpoint", Num: "g-ckpt", Den: "g-bf16", Measured: 1.8, Predicted: 1.8},
			{Kind: "checkpoint", Num: "x-ckpt", Den: "x-bf16", Measured: 2.0, Predicted: 2.0},
		},
	}
	m := kindTallies(ev)
	c, e, o := m["checkpoint, cnn"], m["checkpoint, encoder"], m["checkpoint, other"]
	if len(m) != 3 || c == nil || c.within != 1 || e == nil || e.within != 0 || o == nil || o.n != 1 {
		t.Errorf("by kind %v: want cnn (within 10%%), encoder (outside), other; the decoder pair was not alternated", m)
	}
}
