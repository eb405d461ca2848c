package infer

import (
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestLate89Blind holds session 6's blind generate points (testdata/late8
// and late9 RESULTS.md). At their one evaluation with session 6's models
// late8's two Qwen2.5-0.5B DynamicCache points were -4.04% and -6.84%
// reserved (a seen pattern); session 7's dev7 snapshots of those two
// shapes showed why (the top-down device, TestDynamicCacheTopDown): now
// every point is within 0.1% reserved (the allowance re-derived by its
// rule is now 2 MiB) and 0.06% allocated, all inside the bands.
func TestLate89Blind(t *testing.T) {
	var rows []captureRow
	for _, set := range []string{"late8", "late9"} {
		rows = append(rows, loadCaptures(t, filepath.Join("..", "..", "testdata", set, "generate", "results.jsonl"))...)
	}
	if len(rows) != 6 {
		t.Fatalf("%d generate rows, want the 6 captured", len(rows))
	}
	ev := evaluate(t, rows)
	resv, alloc, _ := summarize(t, ev)
	if medianAbs(resv) > 0.01 || maxAbs(resv) > 0.01 {
		t.Errorf("reserved: median |error| %.2f%%, max %.2f%%; held at 1%% and 1%%", 100*medianAbs(resv), 100*maxAbs(resv))
	}
	if m := maxAbs(alloc); m > 0.001 {
		t.Errorf("allocated: max |error| %.2f%%, want ≤ 0.1%%", 100*m)
	}
	checkCoverage(t, ev, 1)
}

// TestDynamicCacheTopDown pins why the Qwen2.5-0.5B DynamicCache points
// were low in every set (late, late4, late8: -2.4 to -6.8% reserved): the
// dev7 snapshots of two of those shapes (testdata/dev7/README.md) replay
// their own request streams exactly on a top-down device and 7.6% / 4.9%
// low on an upward one (on the GPU a 157 MB MLP block whose segment ties
// with an older one is split for 28 MB rotary/attention tensors, so a
// fifth prefill segment is needed; upward the older segment is split
// instead). The generated stream, replayed top-down as Estimate does,
// matches the measured peak reserved within 0.5% before the allowance;
// upward it would be 4-8% low.
func TestDynamicCacheTopDown(t *testing.T) {
	rows := loadCaptures(t, filepath.Join("..", "..", "testdata", "dev7", "generate", "results.jsonl"))
	if len(rows) != 2 {
		t.Fatalf("%d rows, want the 2 captured", len(rows))
	}
	for _, r := range rows {
		res, err := Estimate(r.spec())
		if err != nil {
			t.Fatal(err)
		}
		if e := rel(res.ModelReserved, r.Reserved); e < -0.005 || e > 0.005 {
			t.Errorf("%s: model reserved %d, measured %d (%+.2f%%), want within 0.5%%", r.Name, res.ModelReserved, r.Reserved, 100*e)
		}
		c, err := resolve(r.spec())
		if err != nil {
			t.Fatal(err)
		}
		m := &model{c: c, s: newStream(), w: buildWeights(c)}
		m.generate()
		cfg, _ := allocsim.ParseConfig("")
		upward := allocsim.NewDevice(0, c.gpu.MemoryBytes)
		upward.TopDown = false
		up := allocsim.Simulate(m.s.reqs, cfg, upward)
		if e := rel(up.Stats.ReservedBytes.All.Peak, r.Reserved); e > -0.04 {
			t.Errorf("%s: the upward replay is %+.2f%%; the mechanism this test pins makes it 4-8%% low", r.Name, 100*e)
		}
	}
}

// TestLate10Blind holds session 7's blind generate points (testdata/late10:
// Qwen2.5-1.5B StaticCache under no_grad, GPT-2 medium fp16 DynamicCache
// under inference_mode): at the session start reserved +0.79..+1.63%; with
// the final models (top-down replay, the 2 MiB allowance) every point
// within 0.01% reserved and 0.06% allocated, 4 of 4 inside the bands.
func TestLate10Blind(t *testing.T) { checkGenerateSet(t, "late10", 4, 0.002, 0.001, 1) }

// TestLate11Blind holds session 8's blind generate points (testdata/late11:
// LLaMA-3.2-1B StaticCache under no_grad, TinyLlama fp16 DynamicCache under
// inference_mode): with the session-start and the final models every point
// within 0.06% reserved and 0.01% allocated, 4 of 4 inside the bands.
func TestLate11Blind(t *testing.T) { checkGenerateSet(t, "late11", 4, 0.001, 0.0002, 1) }

// TestLate12Blind holds session 9's blind generate points (testdata/late12:
// Qwen2.5-0.5B fp16 StaticCache under inference_mode, Mistral-7B bf16
// DynamicCache under no_grad). Allocated within 0.04% at every point;
// reserved within 0.34% except Qwen2.5 b96 p400 n100 at -7.04% (under: the
// allocator's segments for 96 short sequences' static caches; no mechanism
// found, the set is blind), which left its band (4.73-5.15 GiB, measured
// 5.27) once late11's near-exact generate points narrowed the bands
// (session start: 4.24-5.64, inside). 3 of 4 inside. Held there.
func TestLate12Blind(t *testing.T) { checkGenerateSet(t, "late12", 4, 0.0705, 0.0005, 0.75) }

// checkGenerateSet evaluates testdata/SET/generate's rows (want of them)
// and holds their reserved and allocated max |error| and the share inside
// the bands (inside). resvMax is the model's error, held before the
// committed allowance on generate's peak reserved was 0.25% of the figure
// (session 15: 2 MiB left 13 of 81 held-out points low, above the 15%
// target, once Phi-3's DynamicCache point was fixed), so the allowance's
// ratio is added to it.
func checkGenerateSet(t *testing.T, set string, want int, resvMax, allocMax, inside float64) {
	t.Helper()
	if a := memmodel.EmbeddedBands().Generate.Allowance; a != nil {
		resvMax += a.Ratio + 0.0001
	}
	rows := loadCaptures(t, filepath.Join("..", "..", "testdata", set, "generate", "results.jsonl"))
	if len(rows) != want {
		t.Fatalf("%d generate rows, want the %d captured", len(rows), want)
	}
	ev := evaluate(t, rows)
	resv, alloc, _ := summarize(t, ev)
	if maxAbs(resv) > resvMax || maxAbs(alloc) > allocMax {
		t.Errorf("reserved max |error| %.2f%%, allocated %.2f%%; held at %.2f%% and %.2f%%",
			100*maxAbs(resv), 100*maxAbs(alloc), 100*resvMax, 100*allocMax)
	}
	checkCoverage(t, ev, inside)
}

// TestLate13Blind holds session 10's blind generate points (testdata/late13:
// LLaMA-3.2-1B bf16 DynamicCache under no_grad at two points, TinyLlama fp16
// StaticCache under inference_mode): with the session-start and the final
// models reserved +0.05% and allocated within 0.03% at every point, 3 of 3
// inside the bands.
func TestLate13Blind(t *testing.T) { checkGenerateSet(t, "late13", 3, 0.001, 0.0004, 1) }

// TestLate14Blind holds session 11's blind generate points (testdata/late14:
// Qwen2.5-1.5B bf16 StaticCache under inference_mode at two points, GPT-2
// medium fp32 DynamicCache under no_grad): with the session-start and the
// final models reserved within 0.07% and allocated within 0.04% at every
// point, 3 of 3 inside the bands.
func TestLate14Blind(t *testing.T) { checkGenerateSet(t, "late14", 3, 0.0008, 0.0005, 1) }

// TestLate15Blind holds session 12's blind generate points (testdata/late15:
// TinyLlama bf16 DynamicCache under inference_mode at two points, LLaMA-3.2-1B
// fp16 StaticCache under no_grad): reserved within 0.06%, allocated within
// 0.001%, all inside the band.
func TestLate15Blind(t *testing.T) { checkGenerateSet(t, "late15", 3, 0.0007, 0.0002, 1) }

// TestLate16Blind holds session 13's blind generate points (testdata/late16:
// Qwen2.5-1.5B bf16 StaticCache under no_grad, Mistral 7B bf16 DynamicCache
// under inference_mode at two points): reserved within 0.10% (Mistral b24
// p700 n200, under) and allocated within 0.03% at every point, 3 of 3
// inside the bands.
func TestLate16Blind(t *testing.T) { checkGenerateSet(t, "late16", 3, 0.0011, 0.0004, 1) }

// TestLate17Blind holds session 14's blind generate points (testdata/late17:
// Llama 3.1 8B bf16 StaticCache under no_grad, Qwen3-8B bf16 DynamicCache
// under inference_mode at two points, Phi-3 mini fp16 DynamicCache under
// no_grad). At first sight the three Llama-style points came within 3.12%
// reserved (Qwen3-8B b32 p1024 n128, under, inside its band) and 0.01%
// allocated, and plan refused Phi-3 (no Phi-3 decoder). With Qwen3's q/k
// norms replayed since (qwen3Block), Qwen3-8B's two points are within
// 0.06% reserved. With the Phi-3 decoder written since (family_phi3.go)
// Phi-3's peak allocated was within 0.01% and its reserved 11.8% over;
// with the prefill's copy of flash attention's heads-first output (dev24's
// snapshot of this point), -0.09%.
func TestLate17Blind(t *testing.T) { checkGenerateSet(t, "late17", 4, 0.0012, 0.0002, 1) }

// TestLate19Blind holds session 15's blind generate points (testdata/late19:
// Phi-3 mini bf16 StaticCache under inference_mode at two points, Llama 3.2
// 3B bf16 DynamicCache under no_grad at two points, one an 8000-token
// prompt, Qwen3-4B fp16 StaticCache under inference_mode). With the
// session-start models reserved within 0.21% (Llama 3.2 3B b2 p8000 n64,
// under) and allocated within 0.001% at every point, 5 of 5 inside the
// bands: Phi-3's static-cache points +0.02% and +0.01%, where its one
// dynamic-cache capture (late17) stays 11.8% over.
func TestLate19Blind(t *testing.T) { checkGenerateSet(t, "late19", 5, 0.0022, 0.0001, 1) }

// TestLate21Blind holds session 15's second blind generate set (testdata/late21:
// Phi-3 mini bf16 DynamicCache under inference_mode at two points, Phi-3
// medium bf16 DynamicCache under no_grad), captured after the prefill's copy
// of flash attention's heads-first output was modelled (dev24): allocated
// exact, reserved within 0.25% (the allowance's 0.25% included: the model's
// own error within 0.1%), 3 of 3 inside the bands. The session-start models
// planned Phi-3 mini b8 p3000 n100 11.8% over.
func TestLate21Blind(t *testing.T) { checkGenerateSet(t, "late21", 3, 0.0001, 0.0001, 1) }

// TestLate22Blind holds session 16's blind generate points (testdata/late22:
// TinyLlama fp16 StaticCache under no_grad at b64 p512 n256 and b8 p3000
// n128, GPT-2 medium fp32 DynamicCache under inference_mode, Qwen2.5-1.5B
// bf16 StaticCache under inference_mode at two points). With the
// session-start models allocated within 0.03% at every point, reserved
// within 0.25% at four; TinyLlama b8 p3000 n128 +5.31% (over, above its
// band): 4 of 5 inside the bands.
func TestLate22Blind(t *testing.T) { checkGenerateSet(t, "late22", 5, 0.054, 0.0004, 0.8) }

// TestLate26Blind holds session 17's blind generate points (testdata/late26:
// Llama 3.2 1B bf16 DynamicCache under inference_mode at b16 p2048 n256,
// Qwen2.5-0.5B fp16 DynamicCache under no_grad at b64 p1024 n200, Mistral 7B
// bf16 StaticCache at b8 p3500 n128). With the session-start models
// allocated within 0.02% and reserved within 0.25% at every point, 3 of 3
// inside the bands.
func TestLate26Blind(t *testing.T) { checkGenerateSet(t, "late26", 3, 0.0026, 0.0003, 1) }

// TestLate30Blind holds session 18's blind generate points (testdata/late30:
// Qwen2.5-1.5B fp16 DynamicCache under no_grad at b16 p1024 n256, TinyLlama
// bf16 StaticCache under no_grad at b128 p256 n128, GPT-2 medium bf16
// DynamicCache under no_grad at b48 p256 n512, Mistral 7B fp16 DynamicCache
// under inference_mode at b4 p6000 n64). At first sight (de48888)
// allocated within 0.03% and reserved within 0.25% at every point, 4 of 4
// inside the bands.
func TestLate30Blind(t *testing.T) { checkGenerateSet(t, "late30", 4, 0.0026, 0.0004, 1) }

// TestLate42Blind holds session 23's blind generate points (testdata/late42:
// Qwen2.5-0.5B bf16 StaticCache under inference_mode at b32 p1024 n128,
// Llama 3.2 1B bf16 DynamicCache under no_grad at b16 p2048 n256, GPT-2
// medium fp32 DynamicCache under inference_mode at b24 p512 n256). At first
// sight (105d802) allocated within 0.04% and reserved within 0.25%, 3 of 3
// inside the bands.
func TestLate42Blind(t *testing.T) { checkGenerateSet(t, "late42", 3, 0.0026, 0.0005, 1) }

// TestLate46Blind holds session 24's blind generate points (testdata/late46:
// Qwen2.5-1.5B fp16 StaticCache under inference_mode at b16 p1024 n128,
// TinyLlama bf16 DynamicCache under no_grad at b32 p1024 n256, Mistral 7B
// bf16 StaticCache under inference_mode at b4 p4096 n128). At first sight
// (6486b50) allocated within 0.02% and reserved within 0.25%, 3 of 3
// inside the bands.
func TestLate46Blind(t *testing.T) { checkGenerateSet(t, "late46", 3, 0.0026, 0.0003, 1) }
