package main

import (
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// The same configuration timed in several sets (dev19's three host
// probes, late10 and late14) must share one key, and different
// configurations must not.
func TestPairKey(t *testing.T) {
	p := func(kind, num, den string) measured.TechniquePair {
		return measured.TechniquePair{Kind: kind, Num: num, Den: den}
	}
	same := [][2]measured.TechniquePair{
		{p("checkpoint", "dev19-p1-t-bert-large-s512-b16-bf16-ckpt", "dev19-p1-t-bert-large-s512-b16-bf16"),
			p("checkpoint", "dev19-p3-t-bert-large-s512-b16-bf16-ckpt", "dev19-p3-t-bert-large-s512-b16-bf16")},
		{p("checkpoint", "late10-t-convnext-tiny-b128-bf16-ckpt", "late10-t-convnext-tiny-b128-bf16"),
			p("checkpoint", "late14-t-convnext-tiny-b128-bf16-ckpt", "late14-t-convnext-tiny-b128-bf16")},
		{p("lora", "late11q-t-x-lora16", "late11q-t-x"), p("lora", "t-x-lora16", "t-x")},
		{p("amp", "dev117-alt-t-bert-base-s128-b8-bf16", "dev117-alt-t-bert-base-s128-b8-fp32"),
			p("amp", "dev112-t-bert-base-s128-b8-bf16", "dev112-t-bert-base-s128-b8-fp32")},
	}
	for _, c := range same {
		if a, b := pairKey(c[0]), pairKey(c[1]); a != b {
			t.Errorf("%q and %q: one configuration, two keys", a, b)
		}
	}
	if pairKey(p("amp", "late4-t-a-bf16", "late4-t-a-fp32")) == pairKey(p("amp", "late4-t-b-bf16", "late4-t-b-fp32")) {
		t.Error("two configurations share a key")
	}
}

func TestBoundOf(t *testing.T) {
	gpu := measured.StepRow{HostS: 0.02, GPUS: 0.05}
	host := measured.StepRow{HostS: 0.06, GPUS: 0.05}
	if boundOf(gpu, gpu) != "GPU-bound" || boundOf(gpu, host) != "host-bound" || boundOf(host, gpu) != "host-bound" {
		t.Error("a pair is GPU-bound only when both steps are")
	}
}

// TestTallyPairsByGPU: only host-bound pairs are sorted by the GPU whose
// host timed them, keyed by the variant's GPU and whether both rows were
// alternated in one process; every pair is sorted by bound; a pair whose
// rows the evaluation lacks is left out.
func TestTallyPairsByGPU(t *testing.T) {
	row := func(name, gpu string, host, dev float64) measured.StepRow {
		return measured.StepRow{Name: name, GPU: gpu, HostS: host, GPUS: dev}
	}
	alt := func(r measured.StepRow) measured.StepRow { r.Alternated = true; return r }
	ev := measured.StepEval{
		Rows: []measured.StepRow{
			alt(row("a-fp32", "h100", 0.03, 0.01)), alt(row("a-bf16", "h100", 0.04, 0.01)), // host-bound, alternated
			alt(row("b-fp32", "h200", 0.03, 0.01)), row("b-bf16", "h200", 0.04, 0.01), // host-bound, one row alternated
			row("c-fp32", "h200", 0.01, 0.20), row("c-bf16", "h200", 0.01, 0.07), // GPU-bound
		},
		Pairs: []measured.TechniquePair{
			{Kind: "amp", Num: "a-bf16", Den: "a-fp32", Measured: 1.10, Predicted: 1.25}, // +13.6%
			{Kind: "amp", Num: "b-bf16", Den: "b-fp32", Measured: 1.20, Predicted: 1.25}, // +4.2%
			{Kind: "amp", Num: "c-bf16", Den: "c-fp32", Measured: 0.35, Predicted: 0.34},
			{Kind: "amp", Num: "d-bf16", Den: "d-fp32", Measured: 1, Predicted: 1}, // rows not evaluated
		},
	}
	byBound, byGPU, repeats, _ := tallyPairs(ev)
	if h := byBound["amp, host-bound"]; h == nil || h.n != 2 || h.within != 1 {
		t.Errorf("host-bound amp pairs %+v, want 2 with 1 within 10%%", h)
	}
	if g := byBound["amp, GPU-bound"]; g == nil || g.n != 1 || g.within != 1 {
		t.Errorf("GPU-bound amp pairs %+v, want 1 within 10%%", g)
	}
	a, p := byGPU["amp, h100, alternated"], byGPU["amp, h200, in blocks"]
	if len(byGPU) != 2 || a == nil || a.within != 0 || p == nil || p.n != 1 || p.within != 1 {
		t.Errorf("by GPU %v: want the host-bound pairs only, h100's alternated outside 10%%, h200's (one row alternated: not a pair that was) inside", byGPU)
	}
	if len(repeats) != 3 {
		t.Errorf("%d configurations with measured ratios, want 3", len(repeats))
	}
}

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
