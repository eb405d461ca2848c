package memmodel

import (
	"fmt"
	"testing"
)

// TestStepTimeNeverFallsWithMoreWork plans every catalog model and checks
// the orderings no GPU or host can reverse, because each adds work to a
// step and takes none away: a larger micro-batch, a longer sequence, a
// second accumulation micro-step, checkpointing's recomputation. --fit
// and --sweep rank configurations by these times; a plan that priced a
// batch of 64 below one of 32 would send a user to the slower run. The
// tolerance is rounding (0.1%).
func TestStepTimeNeverFallsWithMoreWork(t *testing.T) {
	step := func(s Spec) (float64, error) {
		s.GPU = "h200:4TiB" // time only: no configuration is refused for memory
		s.fillDefaults()
		r, err := Estimate(s, Options{Steps: 2, SkipReserved: true, Warm: true})
		if err != nil {
			return 0, err
		}
		return r.StepTime, nil
	}
	// more is each ordering: the spec with less work, then with more
	type more struct {
		what        string
		less, extra func(s *Spec)
	}
	checked := 0
	perFamily := map[string]int{}
	for _, name := range Names() {
		a, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		// two models of each family below 7B: the families' mechanisms at
		// two sizes, and the suite stays quick
		if a.Hidden > 3000 || perFamily[a.Family] == 2 {
			continue
		}
		perFamily[a.Family]++
		base := func() Spec {
			n := name
			s := Spec{Model: &n, Batch: 4, Precision: "bf16-amp"}
			if !a.Vision() && !a.family().Audio {
				s.Seq = 256
				if a.MaxPos > 0 && a.MaxPos < 256 {
					s.Seq = a.MaxPos
				}
			}
			return s
		}
		var cases []more
		for _, b := range []int{1, 2, 4, 8, 16, 32} {
			cases = append(cases, more{fmt.Sprintf("micro-batch %d -> %d", b, 2*b),
				func(s *Spec) { s.Batch = b }, func(s *Spec) { s.Batch = 2 * b }})
		}
		cases = append(cases,
			more{"accumulation 1 -> 2", func(s *Spec) {}, func(s *Spec) { s.Accum = 2 }},
			more{"checkpoint none -> block", func(s *Spec) {}, func(s *Spec) { s.Checkpoint = "block" }},
			more{"fp32: micro-batch 8 -> 16", func(s *Spec) { s.Precision, s.Batch = "fp32", 8 },
				func(s *Spec) { s.Precision, s.Batch = "fp32", 16 }})
		if s := base(); s.Seq >= 256 {
			cases = append(cases, more{"sequence 128 -> 256", func(s *Spec) { s.Seq = 128 }, func(s *Spec) {}})
		}
		for _, c := range cases {
			lo, hi := base(), base()
			c.less(&lo)
			c.less(&hi)
			c.extra(&hi)
			tl, err := step(lo)
			if err != nil {
				t.Fatalf("%s, %s: %v", name, c.what, err)
			}
			th, err := step(hi)
			if err != nil {
				if c.what == "checkpoint none -> block" {
					continue // a family without block checkpointing says so
				}
				t.Fatalf("%s, %s: %v", name, c.what, err)
			}
			checked++
			if th < tl*0.999 {
				t.Errorf("%s, %s: step %.2f ms -> %.2f ms (%+.1f%%), more work planned faster", name, c.what, 1e3*tl, 1e3*th, 100*(th/tl-1))
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d orderings checked; the catalog should give over 500", checked)
	}
	t.Logf("%d orderings checked", checked)
}
