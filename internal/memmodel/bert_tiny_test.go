package memmodel_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestBERTTinyByName checks that "bert-tiny", the capture script's own
// builder (../shared/fixtures/capture/capture.py: BertConfig hidden 128,
// 2 layers, 2 heads, FFN 512, 2 labels), plans exactly as the blind
// capture's spec that gives the same configuration as a config.json
// (testdata/blind/specs/bert-tiny-s128-b64-fp32.json), that its parameter
// count is the one PyTorch counted in that capture, and that the measured
// peak allocated and reserved lie inside the printed bands.
func TestBERTTinyByName(t *testing.T) {
	f, err := os.Open("../../testdata/blind/specs/bert-tiny-s128-b64-fp32.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hf, err := memmodel.ParseSpec(f)
	if err != nil {
		t.Fatal(err)
	}
	byName := hf
	name := "bert-tiny"
	byName.Model, byName.HFConfig = &name, nil
	want, err := memmodel.Estimate(hf, memmodel.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	got, err := memmodel.Estimate(byName, memmodel.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got.PeakAllocated != want.PeakAllocated || got.PeakReserved != want.PeakReserved || got.StepTime != want.StepTime {
		t.Errorf("by name: allocated %d reserved %d step %.4g s; by config.json %d %d %.4g s",
			got.PeakAllocated, got.PeakReserved, got.StepTime, want.PeakAllocated, want.PeakReserved, want.StepTime)
	}
	// testdata/blind/results.jsonl, the capture's own figures
	var m struct {
		Name     string `json:"name"`
		Params   int64  `json:"params"`
		MaxAlloc int64  `json:"max_allocated"`
		MaxResv  int64  `json:"max_reserved"`
	}
	rf, err := os.Open("../../testdata/blind/results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	sc := bufio.NewScanner(rf)
	sc.Buffer(make([]byte, 1<<22), 1<<22)
	for sc.Scan() {
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if m.Name == "bert-tiny-s128-b64-fp32" {
			break
		}
	}
	if m.Name != "bert-tiny-s128-b64-fp32" {
		t.Fatal("bert-tiny row missing from testdata/blind/results.jsonl")
	}
	if got.Params != m.Params {
		t.Errorf("%d params, PyTorch counted %d", got.Params, m.Params)
	}
	if m.MaxAlloc < got.AllocatedBand.Low || m.MaxAlloc > got.AllocatedBand.High {
		t.Errorf("measured allocated %d outside the band %+v (predicted %d)", m.MaxAlloc, got.AllocatedBand, got.PeakAllocated)
	}
	if m.MaxResv < got.ReservedBand.Low || m.MaxResv > got.ReservedBand.High {
		t.Errorf("measured reserved %d outside the band %+v (predicted %d)", m.MaxResv, got.ReservedBand, got.PeakReserved)
	}
}
