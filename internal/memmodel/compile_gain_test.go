package memmodel_test

import (
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestCompiledSmallGainPairs recounts what compile_gain.go's note states:
// of the compiled/eager pairs of convolutional nets timed in one process
// where the plan's compiled step is less than 15% faster than its eager
// twin, 36 of 59 ran slower compiled (13 of 23 before late99 and dev109,
// 16 of 28 before dev112, late101 and late102, 20 of 33 before the H100
// plans took the lent H100 hosts' cheaper casts, which brought late61's
// ResNet-101 b64 pair, 1.13x measured, under the line; 21 of 34 before
// late103 and dev115, 23 of 37 before late104, 25 of 42 before late105,
// 28 of 47 before the ResNets' compiled host factor, which brought three
// earlier ResNet pairs over the line, and late106; 33 of 55 before dev119
// and dev120).
// A model change that moves a pair
// across the 15% line, or a new timed set, changes the count and this
// test until the note is updated.
func TestCompiledSmallGainPairs(t *testing.T) {
	files := []string{"late24/timing", "late25/timing", "late27/timing", "late28/timing", "late32/timing",
		"late59/timing", "late60/timing", "late60/h200", "late61/timing", "late62/timing", "dev64/timing",
		"late63/h100", "late63/h200", "late99/timing", "dev109/timing", "dev112/dev112-timing", "late101/late101-timing", "late102/late102-timing",
		"late103/late103-timing", "dev115/dev115-timing", "late104/late104-timing", "late105/late105-timing",
		"late106/late106-timing", "dev119/dev119-timing", "dev120/dev120-timing"}
	pairs, slower := 0, 0
	byFamily := map[string]memmodel.SmallGainCount{}
	for _, f := range files {
		var failed []string
		if f == "late63/h100" {
			failed = []string{"late63-timing-efficientnet-b2-b8"} // cut by call129's budget, re-run on the H200
		}
		switch f {
		case "dev119/dev119-timing": // call223's budget ran out: dev120 ran two of these on the same host
			failed = []string{"dev119-timing-b0b64", "dev119-timing-b1b16", "dev119-timing-b2b16"}
		case "dev120/dev120-timing": // timed out
			failed = []string{"dev120-timing-b2b16"}
		}
		if f == "late102/late102-timing" { // transformers' ConvNeXt cannot checkpoint: its process stopped
			failed = []string{"late102-t-hfconvnext-t-b16-fp32", "late102-t-hfconvnext-t-b16-bf16", "late102-t-hfconvnext-t-b16-bf16-ckpt"}
		}
		ev := evalTimedFile(t, filepath.Join("../../testdata", f, "results.jsonl"), failed...)
		for _, p := range ev.Pairs {
			fam := ""
			for _, c := range []string{"resnet", "efficientnet", "convnext"} {
				if strings.Contains(p.Num, c) {
					fam = c
				}
			}
			if p.Kind != "compile" || fam == "" || p.Predicted <= 1-0.15 {
				continue
			}
			if p.Den == "dev112-t-resnet18-b16-b16-bf16" {
				continue // the eager twin's second timing in its process (the accumulation pair's baseline)
			}
			pairs++
			c := byFamily[fam]
			c.Pairs++
			if p.Measured > 1 {
				slower++
				c.Slower++
			}
			byFamily[fam] = c
			t.Logf("%-44s planned %.3f measured %.3f", p.Num, p.Predicted, p.Measured)
		}
	}
	if pairs != 59 || slower != 36 {
		t.Errorf("%d of %d small-gain compiled CNN pairs ran slower than eager; compile_gain.go and README.md say 36 of 59", slower, pairs)
	}
	for _, name := range []string{"resnet", "efficientnet", "convnext"} {
		f, err := memmodel.LookupFamily(name)
		if err != nil {
			t.Fatal(err)
		}
		if f.CompiledSmallGain != byFamily[name] {
			t.Errorf("%s: the timed files hold %+v small-gain pairs, the family says %+v", name, byFamily[name], f.CompiledSmallGain)
		}
	}
}

// TestCompiledGainNote: the plan of a host-bound compiled ResNet-50 (b16,
// planned 8% faster than eager) carries the note with the ResNets' own
// count, a compiled EfficientNet-B1 b16 (planned 5% faster) the
// EfficientNets'; a GPU-bound ResNet-50 (b128, planned much faster) and an
// eager one do not.
func TestCompiledGainNote(t *testing.T) {
	note := func(model string, b int, compile bool) string {
		s := memmodel.DefaultSpec()
		s.Model, s.Batch, s.Precision, s.Compile, s.Image = &model, b, "bf16-amp", compile, 224
		for _, n := range estimateStep(t, s).Notes {
			if strings.HasPrefix(n, "torch.compile gains little here") {
				return n
			}
		}
		return ""
	}
	for _, c := range []struct {
		model string
		count string
	}{{"resnet50", "in 28 of 41 timed resnet-family pairs"}, {"efficientnet-b1", "in 8 of 18 timed efficientnet-family pairs"}} {
		if n := note(c.model, 16, true); !strings.Contains(n, c.count) {
			t.Errorf("compiled %s b16: note %q, want one saying %q", c.model, n, c.count)
		}
	}
	if note("resnet50", 128, true) != "" || note("resnet50", 16, false) != "" {
		t.Error("small-gain note on compiled ResNet-50 b128 or on an eager step")
	}
}

// TestCompiledConvStepsInBand recounts what compiledStepBand's note says
// of compiled convolutional steps: every one timed (97: 47 on H200 hosts,
// 50 on H100 hosts, session 63; 71 in session 56, median 1.03) ran
// 0.54-1.59x the plan, median 1.01 (0.59-1.59x, 1.09 before the ResNets'
// compiled host factor, session 60), inside the step band the note widens to 0.51-1.78x. A model change or
// a new timed set moves the figures and this test until the note and
// docs/steptime.md are updated.
func TestCompiledConvStepsInBand(t *testing.T) {
	files := map[string][]string{"late24/timing": nil, "late25/timing": nil, "late27/timing": nil, "late28/timing": nil,
		"late32/timing": nil, "late59/timing": nil, "late60/timing": nil, "late60/h200": nil, "late61/timing": nil,
		"late62/timing": nil, "dev64/timing": nil, "dev65/timing": nil, "dev66/timing": nil,
		"late63/h100": {"late63-timing-efficientnet-b2-b8"}, "late63/h200": nil, "late99/timing": nil, "dev109/timing": nil,
		"dev112/dev112-timing": nil, "late101/late101-timing": nil,
		"late102/late102-timing": {"late102-t-hfconvnext-t-b16-fp32", "late102-t-hfconvnext-t-b16-bf16", "late102-t-hfconvnext-t-b16-bf16-ckpt"},
		"late103/late103-timing": nil, "dev115/dev115-timing": nil, "late104/late104-timing": nil, "late105/late105-timing": nil,
		"late106/late106-timing": nil, "dev119/dev119-timing": {"dev119-timing-b0b64", "dev119-timing-b1b16", "dev119-timing-b2b16"},
		"dev120/dev120-timing": {"dev120-timing-b2b16"}}
	var ratios []float64
	h200 := 0
	for f, failed := range files {
		ev := evalTimedFile(t, filepath.Join("../../testdata", f, "results.jsonl"), failed...)
		for _, r := range ev.Rows {
			conv := strings.Contains(r.Name, "resnet") || strings.Contains(r.Name, "efficientnet") || strings.Contains(r.Name, "convnext")
			if !conv || !strings.Contains(r.Name, "compile") {
				continue
			}
			ratios = append(ratios, r.Measured/r.Predicted)
			if r.GPU == "h200" {
				h200++
			}
			if !r.InBand {
				t.Errorf("%s: measured %.1f ms, planned %.1f: outside the step band", r.Name, 1e3*r.Measured, 1e3*r.Predicted)
			}
		}
	}
	sort.Float64s(ratios)
	n := len(ratios)
	if n == 0 {
		t.Fatal("no compiled convolutional steps read")
	}
	med := ratios[n/2]
	if n%2 == 0 {
		med = (ratios[n/2-1] + ratios[n/2]) / 2
	}
	t.Logf("%d compiled convolutional steps (%d on H200 hosts): measured/planned %.2f-%.2f, median %.2f", n, h200, ratios[0], ratios[n-1], med)
	if n != 97 || h200 != 47 || math.Abs(ratios[0]-0.54) > 0.005 || math.Abs(ratios[n-1]-1.59) > 0.005 || math.Abs(med-1.01) > 0.005 {
		t.Errorf("the note says 97 steps (47 on H200 hosts), 0.54-1.59x, median 1.01")
	}
}
