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
