package memmodel

import (
	"strings"
	"testing"
)

// TestBandKind: the kind is the family, the techniques not at their
// default and the precision; the GPU and the kind of network are not.
func TestBandKind(t *testing.T) {
	got := BandKind([]string{"family=qwen3", "kind=decoder", "precision=bf16-amp", "checkpoint=block", "lora=yes", "optimizer=adamw", "parallel=none", "gpu=h200"})
	if want := "qwen3 checkpoint=block lora=yes bf16-amp"; got != want {
		t.Errorf("BandKind = %q, want %q", got, want)
	}
	plain := BandKind([]string{"family=gpt2", "kind=decoder", "precision=fp32", "checkpoint=none", "lora=no", "optimizer=adamw", "parallel=none", "gpu=rtx4090"})
	if plain != "gpt2 fp32" {
		t.Errorf("plain run's kind = %q, want \"gpt2 fp32\"", plain)
	}
}

// TestRiskOnEmbeddedTable: on the committed table, a kind captured
// without a first-sight miss over 2% is not risky, a kind never captured
// is (and says so), and so is a kind whose blind row missed: late10's and
// late11's Qwen3 LoRA on every linear layer (+16.4%, +21.8%); its band
// is wider than the familiar one of the same classes.
func TestRiskOnEmbeddedTable(t *testing.T) {
	tb := embeddedBands()
	base := []string{"kind=decoder", "precision=bf16-amp", "checkpoint=none", "optimizer=adamw", "parallel=none", "gpu=h200"}
	with := func(extra ...string) []string { return append(append([]string(nil), base...), extra...) }
	if r, why := tb.Risk(with("family=gemma", "lora=no")); r {
		t.Errorf("plain Gemma bf16-amp is risky: %s", why)
	}
	r, why := tb.Risk(with("family=gemma", "lora=qlora", "attn=eager"))
	if !r || !strings.Contains(why, "first of its kind") {
		t.Errorf("uncaptured kind: risky %v, %q", r, why)
	}
	qwen := with("family=qwen3", "lora=yes")
	r, why = tb.Risk(qwen)
	if !r || !strings.Contains(why, "missed by") {
		t.Errorf("Qwen3 LoRA: risky %v, %q", r, why)
	}
	fam, _, _ := tb.RiskBand(qwen, false)
	risky, _, _ := tb.RiskBand(qwen, true)
	if !(risky[0] < fam[0] && risky[1] > fam[1]) {
		t.Errorf("risky band %v not wider than familiar %v", risky, fam)
	}
}
