package infer

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// timedSets are the generate points timed alone on a lent GPU: the H200
// fixtures' (captures/timing) and the H100 sets since (late98t and dev108
// joined in session 54, after late98t's one blind evaluation; dev110 in
// session 55).
var timedSets = []string{"captures/timing", "dev98", "late90", "late91", "dev101", "late93", "dev102/timed", "late96", "dev104/timed", "late98t", "dev108", "dev110"}

// TestTimeBandsCover: over every timed generate point (83, from six lent
// hosts), at least 95% of the measured decode speeds and prefill times
// fall inside the printed bands. It logs issue 18's ratio, the median
// half-width over the median |error| (session 53: decode 77/77 inside,
// half-width 44.6% for a median error of 11.3%, ratio 3.9; prefill 76/77,
// 89.3% for 10.0%, 8.9: both spreads are the hosts', heavy-tailed;
// session 54 with late98t and dev108: decode 83/83, ratio 4.0; prefill
// 82/83, 9.0; session 55 with dev110: decode 89/89, ratio 4.0; prefill
// 88/89, 9.1).
func TestTimeBandsCover(t *testing.T) {
	var dErr, dHalf, pErr, pHalf []float64
	dIn, pIn := 0, 0
	for _, set := range timedSets {
		p := filepath.Join("..", "..", "testdata", set, "generate", "results.jsonl")
		if set == "captures/timing" {
			p = filepath.Join(capturesDir, "timing", "generate_timing.jsonl")
		}
		for _, r := range loadCapturesAll(t, p) {
			if r.Decode <= 0 || r.Prefill <= 0 {
				continue
			}
			spec := r.spec()
			if set != "captures/timing" {
				spec.GPU = "h100"
			}
			res, err := Estimate(spec)
			if err != nil {
				t.Fatalf("%s: %v", r.Name, err)
			}
			dErr = append(dErr, r.Decode/res.DecodeTokensPerSec-1)
			dHalf = append(dHalf, (res.DecodeBand[1]-res.DecodeBand[0])/2/res.DecodeTokensPerSec)
			if r.Decode >= res.DecodeBand[0] && r.Decode <= res.DecodeBand[1] {
				dIn++
			}
			pErr = append(pErr, r.Prefill/res.PrefillTime-1)
			pHalf = append(pHalf, (res.PrefillBand[1]-res.PrefillBand[0])/2/res.PrefillTime)
			if r.Prefill >= res.PrefillBand[0] && r.Prefill <= res.PrefillBand[1] {
				pIn++
			}
		}
	}
	n := len(dErr)
	if n != 89 {
		t.Fatalf("%d timed points, want the 89 captured", n)
	}
	for _, c := range []struct {
		what       string
		in         int
		half, errs []float64
	}{{"decode tokens/s", dIn, dHalf, dErr}, {"prefill", pIn, pHalf, pErr}} {
		t.Logf("%s: %d of %d inside; median half-width %.1f%%, median |error| %.1f%%, ratio %.1f",
			c.what, c.in, n, 100*medianAbs(c.half), 100*medianAbs(c.errs), medianAbs(c.half)/medianAbs(c.errs))
		if float64(c.in) < 0.95*float64(n) {
			t.Errorf("%s: %d of %d inside the band, want at least 95%%", c.what, c.in, n)
		}
	}
}

// TestScaledGPUWidensTimeBands: a GPU-bound decode step's band is wider
// on a GPU generate was never timed on (an A100: rates scaled from the
// table) than on the H100 or the H200, and the host-bound side is the same.
func TestScaledGPUWidensTimeBands(t *testing.T) {
	rel := func(gpu string, batch int) (lo, hi float64, bound string) {
		s := genSpec("gpt2-large", batch, 512, 64, "bf16", "")
		s.GPU = gpu
		r, err := Estimate(s)
		if err != nil {
			t.Fatal(err)
		}
		return r.DecodeBand[0] / r.DecodeTokensPerSec, r.DecodeBand[1] / r.DecodeTokensPerSec, r.DecodeBound
	}
	for _, timed := range []string{"h100", "h200"} {
		lo, hi, b1 := rel(timed, 64)
		slo, shi, b2 := rel("a100-80", 64)
		if b1 != "memory" || b2 != "memory" {
			t.Fatalf("want GPU-bound steps, got %s on %s, %s on the A100", b1, timed, b2)
		}
		if slo >= lo || shi <= hi {
			t.Errorf("A100 band %.2f-%.2f of the price, %s %.2f-%.2f: want it wider", slo, shi, timed, lo, hi)
		}
	}
}

// TestLate98tGPUBoundDecode holds late98t's blind timings (call 197, a
// lent H100): four decode steps the GPU bounds, three of them through
// DynamicCache's strided cat (GPT-2 medium 160 x p768 both key and value,
// Pythia-410m 128 x p1024 and Phi-3 mini 64 x p1024 the value), one
// contiguous (a multi-head Llama 1B 128 x p2048). At first sight (28074f60,
// the figures committed before the run) they decoded 2.7-7.4% faster than
// planned and their prefills took -5.5..+10.6%, all eight inside their
// bands (testdata/late98t/RESULTS.md). The priced step must stay GPU-bound
// and within 10% of the measured tokens/s, at or under it (a step priced
// faster than it runs is a serving capacity promised and not delivered).
func TestLate98tGPUBoundDecode(t *testing.T) {
	rows := loadCapturesAll(t, filepath.Join("..", "..", "testdata", "late98t", "generate", "results.jsonl"))
	if len(rows) != 4 {
		t.Fatalf("%d rows, want the 4 timed", len(rows))
	}
	for _, r := range rows {
		spec := r.spec()
		spec.GPU = "h100"
		res, err := Estimate(spec)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		e := r.Decode/res.DecodeTokensPerSec - 1
		t.Logf("%s: %.0f tok/s measured, %.0f planned (%+.1f%%), GPU %.1f ms host %.1f ms", r.Name, r.Decode,
			res.DecodeTokensPerSec, 100*e, 1e3*res.DecodeGPU, 1e3*res.DecodeHost)
		if res.DecodeGPU <= res.DecodeHost {
			t.Errorf("%s: step priced host-bound (GPU %.1f ms, host %.1f ms)", r.Name, 1e3*res.DecodeGPU, 1e3*res.DecodeHost)
		}
		if e < 0 || e > 0.10 {
			t.Errorf("%s: measured tokens/s %+.1f%% off the plan's, want 0..+10%%", r.Name, 100*e)
		}
		if r.Decode < res.DecodeBand[0] || r.Decode > res.DecodeBand[1] || r.Prefill < res.PrefillBand[0] || r.Prefill > res.PrefillBand[1] {
			t.Errorf("%s: outside the decode or prefill band", r.Name)
		}
	}
}

// TestHostScaleGenerate: a spec's host_scale multiplies generate's host
// prices only: dev108's host-bound decode steps' host price moves by the
// factor, late98t's GPU-bound steps do not move, and the plan says it
// scaled the host. The log shows why the factor is the user's to measure
// per model: on dev108's one host TinyLlama's step ran 1.71x its host
// price and GPT-2 medium's 1.17x (1.7 fits the first, not the second).
func TestHostScaleGenerate(t *testing.T) {
	for _, set := range []string{"dev108", "late98t"} {
		for _, r := range loadCapturesAll(t, filepath.Join("..", "..", "testdata", set, "generate", "results.jsonl")) {
			spec := r.spec()
			spec.GPU = "h100"
			base, err := Estimate(spec)
			if err != nil {
				t.Fatal(err)
			}
			spec.HostScale = 1.7
			scaled, err := Estimate(spec)
			if err != nil {
				t.Fatal(err)
			}
			moved := scaled.DecodeTokensPerSec / base.DecodeTokensPerSec
			t.Logf("%s: %.0f tok/s measured, %.0f planned, %.0f at host_scale 1.7", r.Name, r.Decode, base.DecodeTokensPerSec, scaled.DecodeTokensPerSec)
			switch {
			case base.DecodeBound != "host" && moved != 1:
				t.Errorf("%s: GPU-bound decode moved x%.3f with the host's prices", r.Name, moved)
			case base.DecodeBound == "host" && math.Abs(scaled.DecodeHost/base.DecodeHost-1.7) > 0.01:
				t.Errorf("%s: host price x%.3f, want x1.7", r.Name, scaled.DecodeHost/base.DecodeHost)
			}
			if !slices.ContainsFunc(scaled.Notes, func(n string) bool { return strings.Contains(n, "host_scale") }) {
				t.Errorf("%s: no note says the host was scaled", r.Name)
			}
		}
	}
}
