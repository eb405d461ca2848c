package measured

import (
	"math"
	"testing"
)

// TestPairedRatioTakesOutDrift: late101's EfficientNet-B0 process drifted
// (every configuration about a fifth faster after its fifth round), and
// the medians of all steps put compiled over eager at 0.88, where round by
// round it was 0.977, its two halves 0.952 and 0.994. Rows of different
// processes, or not alternated, are not paired.
func TestPairedRatioTakesOutDrift(t *testing.T) {
	ws, _, err := ReadTimed("../../testdata/late101/late101-timing/results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Timed{}
	for _, w := range ws {
		by[w.Name] = w
	}
	c, e := by["late101-t-efficientnet-b0-b16-bf16-compile"], by["late101-t-efficientnet-b0-b16-bf16"]
	if len(c.Rounds) != 12 || len(e.Rounds) != 12 {
		t.Fatalf("%d and %d rounds, want 12 each", len(c.Rounds), len(e.Rounds))
	}
	r, ok := PairedRatio(c, e)
	if !ok || math.Abs(r-0.977) > 0.0005 {
		t.Errorf("paired ratio %.4f (%v), want 0.977", r, ok)
	}
	if m := c.StepS / e.StepS; math.Abs(m-0.883) > 0.001 {
		t.Errorf("ratio of medians %.4f, want 0.883", m)
	}
	h1, h2, err := HalvesRatio(c, e)
	if err != nil || math.Abs(h1-0.952) > 0.0005 || math.Abs(h2-0.994) > 0.0005 {
		t.Errorf("halves %.4f %.4f (%v), want 0.952 0.994", h1, h2, err)
	}
	other := by["late101-t-resnet101-b8-bf16"]
	if _, ok := PairedRatio(c, other); ok {
		t.Error("paired across two processes")
	}
	plain := Timed{Name: "x", Source: c.Source, StepS: 0.03}
	if _, ok := PairedRatio(plain, e); ok {
		t.Error("paired a row that was not alternated")
	}
}
