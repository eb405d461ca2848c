package memmodel_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestCompiledSplitLaunches: the launches the walk adds to a compiled
// step's large batch norms (compiledSplitLaunches) against what the
// generated wrapper issued more at a real batch than at two samples in the
// kernel profiles of the same net (Triton kernels and the memsets of split
// reductions, counted from the kernel names): ResNet-50 b2 -> b128
// (dev34, dev33) 494 -> 618, EfficientNet-B0 b2 -> b256 674 -> 795. Each
// net's walk, same spec but the batch, must grow by as many within 10%.
// Fails if the split launches go, or if their threshold moves so far that
// a batch of two splits too or a real batch does not.
func TestCompiledSplitLaunches(t *testing.T) {
	const dir2, dirBig = "../../testdata/dev34/dev34-profile", "../../testdata/dev33/dev33-profile"
	small, large := profiles(t, dir2), profiles(t, dirBig)
	for _, c := range []struct{ b2, big string }{
		{"dev34-prof-resnet50-b2-bf16-compile", "dev33-prof-resnet50-b128-bf16-compile"},
		{"dev34-prof-efficientnet-b0-b2-bf16-compile", "dev33-prof-efficientnet-b0-b256-bf16-compile"},
	} {
		p2, ok2 := small[c.b2]
		pb, okb := large[c.big]
		if !ok2 || !okb {
			t.Fatalf("%s or %s: no profile", c.b2, c.big)
		}
		measuredGrowth := wrapperLaunches(t, filepath.Join(dirBig, c.big+"-kernels.json")) -
			wrapperLaunches(t, filepath.Join(dir2, c.b2+"-kernels.json"))
		walkGrowth := walkKernels(t, pb.Spec) - walkKernels(t, p2.Spec)
		t.Logf("%s -> %s: wrapper launches +%.0f, walk kernels +%.0f", c.b2, c.big, measuredGrowth, walkGrowth)
		if math.Abs(walkGrowth/measuredGrowth-1) > 0.10 {
			t.Errorf("%s: walk grows by %.0f kernels, the profiles by %.0f launches", c.big, walkGrowth, measuredGrowth)
		}
	}
}

func profiles(t *testing.T, dir string) map[string]measured.Profiled {
	t.Helper()
	ps, err := measured.ReadProfiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]measured.Profiled{}
	for _, p := range ps {
		m[p.Name] = p
	}
	return m
}

// wrapperLaunches counts the Triton kernels and memsets a step of a
// kernel profile (NAME-kernels.json) launched.
func wrapperLaunches(t *testing.T, path string) float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Kernels []struct {
			Name  string  `json:"name"`
			Count float64 `json:"count"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var n float64
	for _, k := range f.Kernels {
		if strings.HasPrefix(k.Name, "triton_") || strings.Contains(k.Name, "Memset") {
			n += k.Count
		}
	}
	return n
}

func walkKernels(t *testing.T, s memmodel.Spec) float64 {
	t.Helper()
	return estimateStep(t, s).StepDetail.Kernels
}
