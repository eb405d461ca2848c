package infer

import (
	"fmt"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestGenerateTimeNeverFallsWithMoreWork plans generate for one model of
// every family the inference planner takes (below 7B) and checks that
// prefill, the mean decode step and the whole call never get faster with
// more work: more sequences, a longer prompt, more new tokens (each later
// step reads a longer cache). --task generate --fit ranks batches by
// these times. Tolerance: rounding (0.1%).
func TestGenerateTimeNeverFallsWithMoreWork(t *testing.T) {
	task := "generate"
	plan := func(name string, batch, prompt, newTokens int) (*Result, error) {
		s := memmodel.DefaultSpec()
		s.Model, s.Task, s.Precision, s.GPU = &name, &task, "bf16", "h200:4TiB"
		s.Batch, s.Seq, s.NewTokens = batch, prompt, newTokens
		return Estimate(s)
	}
	type point struct{ batch, prompt, newTokens int }
	var orders [][2]point
	for b := 1; b < 64; b *= 2 {
		orders = append(orders, [2]point{{b, 128, 32}, {2 * b, 128, 32}})
	}
	for p := 64; p < 1024; p *= 2 {
		orders = append(orders, [2]point{{4, p, 32}, {4, 2 * p, 32}})
	}
	for n := 16; n < 128; n *= 2 {
		orders = append(orders, [2]point{{4, 128, n}, {4, 128, 2 * n}})
	}
	families := map[string]bool{}
	checked := 0
	for _, name := range memmodel.Names() {
		a, err := memmodel.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if a.Hidden > 3000 || families[a.Family] {
			continue
		}
		if _, err := plan(name, 1, 128, 32); err != nil {
			continue // not a generating model (encoders, vision, diffusion)
		}
		families[a.Family] = true
		for _, o := range orders {
			lo, errL := plan(name, o[0].batch, o[0].prompt, o[0].newTokens)
			hi, errH := plan(name, o[1].batch, o[1].prompt, o[1].newTokens)
			if errL != nil || errH != nil {
				if o[1].prompt+o[1].newTokens > 448 { // Whisper's 448 positions
					continue
				}
				t.Fatalf("%s %v -> %v: %v %v", name, o[0], o[1], errL, errH)
			}
			what := fmt.Sprintf("%s, batch/prompt/new %v -> %v", name, o[0], o[1])
			for _, f := range []struct {
				name   string
				lo, hi float64
			}{{"prefill", lo.PrefillTime, hi.PrefillTime}, {"decode step", lo.DecodeStep, hi.DecodeStep}, {"generate", lo.TotalTime, hi.TotalTime}} {
				checked++
				if f.hi < f.lo*0.999 {
					t.Errorf("%s: %s %.3f ms -> %.3f ms (%+.1f%%), more work planned faster", what, f.name, 1e3*f.lo, 1e3*f.hi, 100*(f.hi/f.lo-1))
				}
			}
		}
	}
	if len(families) < 10 || checked < 300 {
		t.Errorf("%d families, %d orderings checked; want at least 10 and 300", len(families), checked)
	}
	t.Logf("%d families, %d orderings checked", len(families), checked)
}
