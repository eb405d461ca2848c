package memmodel

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestStepTimeNeverFallsWithMoreWork plans two models of every catalog
// family below 7B and checks the orderings no GPU or host can reverse,
// because each adds work to a step and takes none away: a larger
// micro-batch, a longer sequence, more accumulation micro-steps,
// checkpointing's recomputation (selective recomputes a part of what
// block does), a wider LoRA adapter, 4-bit base weights (QLoRA
// dequantises each weight before every product, in Python). --fit
// and --sweep rank configurations by these times; a plan that priced a
// batch of 64 below one of 32 would send a user to the slower run. The
// tolerance is rounding (0.1%). A larger image is not among them: a
// Swin whose feature maps are padded to its window issues the padding's
// ops at 224 pixels and not at 288, and a host-bound step may then run
// faster at the larger size.
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
	// optional: a family without the technique refuses the spec, and the
	// ordering is skipped
	type more struct {
		what        string
		less, extra func(s *Spec)
		optional    bool
	}
	var checked atomic.Int64
	perFamily := map[string]int{}
	t.Run("models", func(t *testing.T) {
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
			t.Run(name, func(t *testing.T) {
				t.Parallel()
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
						func(s *Spec) { s.Batch = b }, func(s *Spec) { s.Batch = 2 * b }, false})
				}
				cases = append(cases,
					more{"accumulation 1 -> 2", func(s *Spec) {}, func(s *Spec) { s.Accum = 2 }, false},
					more{"accumulation 2 -> 4", func(s *Spec) { s.Accum = 2 }, func(s *Spec) { s.Accum = 4 }, false},
					more{"fp32: micro-batch 8 -> 16", func(s *Spec) { s.Precision, s.Batch = "fp32", 8 },
						func(s *Spec) { s.Batch = 16 }, false},
					more{"checkpoint none -> block", func(s *Spec) {}, func(s *Spec) { s.Checkpoint = "block" }, true},
					more{"checkpoint none -> selective", func(s *Spec) {}, func(s *Spec) { s.Checkpoint = "selective" }, true},
					more{"checkpoint selective -> block", func(s *Spec) { s.Checkpoint = "selective" },
						func(s *Spec) { s.Checkpoint = "block" }, true},
					more{"LoRA rank 8 -> 64", func(s *Spec) { s.LoRA = &LoRA{Rank: 8} },
						func(s *Spec) { s.LoRA = &LoRA{Rank: 64} }, true},
					more{"LoRA -> QLoRA (pure bf16)", func(s *Spec) { s.LoRA, s.Precision = &LoRA{Rank: 16}, "bf16" },
						func(s *Spec) { s.Quant = "nf4" }, true},
					more{"LoRA -> QLoRA (bf16 autocast)", func(s *Spec) { s.LoRA = &LoRA{Rank: 16} },
						func(s *Spec) { s.Quant = "nf4" }, true})
				if s := base(); s.Seq >= 256 {
					cases = append(cases, more{"sequence 128 -> 256", func(s *Spec) { s.Seq = 128 }, func(s *Spec) {}, false})
					for _, sq := range []int{256, 512, 1024} {
						if a.MaxPos > 0 && 2*sq > a.MaxPos {
							break
						}
						cases = append(cases, more{fmt.Sprintf("sequence %d -> %d", sq, 2*sq),
							func(s *Spec) { s.Batch, s.Seq = 2, sq }, func(s *Spec) { s.Seq = 2 * sq }, false})
					}
				}
				for _, c := range cases {
					lo, hi := base(), base()
					c.less(&lo)
					c.less(&hi)
					c.extra(&hi)
					tl, errL := step(lo)
					th, errH := step(hi)
					if errL != nil || errH != nil {
						if c.optional {
							continue
						}
						t.Fatalf("%s: %v %v", c.what, errL, errH)
					}
					checked.Add(1)
					if th < tl*0.999 {
						t.Errorf("%s: step %.2f ms -> %.2f ms (%+.1f%%), more work planned faster", c.what, 1e3*tl, 1e3*th, 100*(th/tl-1))
					}
				}
			})
		}
	})
	if n := checked.Load(); n < 900 {
		t.Errorf("only %d orderings checked; the catalog gives over 900", n)
	}
	t.Logf("%d orderings checked", checked.Load())
}
