package memmodel

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

func TestDevPlanSpecs(t *testing.T) {
	dir := "/work/shared/checks/plan-specs"
	var truth map[string]struct{ Alloc, Resv int64 }
	b, _ := os.ReadFile(filepath.Join(dir, "truth.json"))
	json.Unmarshal(b, &truth)
	var names []string
	for n := range truth {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f, _ := os.Open(filepath.Join(dir, n+".json"))
		s, err := ParseSpec(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		r, err := Estimate(s, DefaultOptions())
		if err != nil {
			t.Fatal(n, err)
		}
		tr := truth[n]
		fmt.Printf("%-34s alloc %+6.1f%%  resv %+6.1f%%  (%6.0f MiB / %6.0f) phase %s\n", n,
			100*float64(r.PeakAllocated-tr.Alloc)/float64(tr.Alloc), 100*float64(r.PeakReserved-tr.Resv)/float64(tr.Resv),
			float64(r.PeakAllocated)/(1<<20), float64(tr.Alloc)/(1<<20), r.PeakPhase)
	}
}
