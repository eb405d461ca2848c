package main

import (
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestReadMemsets reads dev6's memory set: the rows timed without history
// over three steps, the bitsandbytes ones in groups of their own (its
// three QLoRA and two 8-bit AdamW runs; its -snap runs recorded history
// and are left out), each beside a plan.
func TestReadMemsets(t *testing.T) {
	rows, err := readMemsets([]string{"../../testdata/dev6/families/results.jsonl"}, memmodel.HostCosts{})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, r := range rows {
		n[r.group]++
		if r.ratio <= 0 {
			t.Errorf("%s: ratio %v", r.name, r.ratio)
		}
		if r.name == "dev6-qlora-llama32-1b-s512-b2-r16-snap" {
			t.Errorf("a history-recording run was read")
		}
	}
	if n["quant=nf4"] != 3 || n["opt=adamw8bit"] != 2 || len(rows) < 10 {
		t.Errorf("groups %v of %d rows; want 3 QLoRA and 2 8-bit AdamW runs among at least 10", n, len(rows))
	}
}
