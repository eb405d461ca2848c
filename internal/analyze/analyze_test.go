package analyze

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// measured is a row of the fixtures' measured.jsonl: what PyTorch itself
// reported on the GPU, independent of vramkit.
type measured struct {
	Name         string  `json:"name"`
	Params       int64   `json:"params"`
	Iters        int     `json:"iters"`
	Opt          string  `json:"opt"`
	Prec         string  `json:"prec"`
	Ckpt         string  `json:"ckpt"`
	Mode         *string `json:"mode"`
	Ctx          *string `json:"ctx"`
	MaxAllocated int64   `json:"max_allocated"`
	AfterIter    []int64 `json:"alloc_after_iter"`
}

const dataDir = "../../testdata/analyze"

func loadMeasured(t *testing.T) []measured { return loadMeasuredIn(t, dataDir) }

// loadMeasuredIn reads dir's measured.jsonl.
func loadMeasuredIn(t *testing.T, dir string) []measured {
	t.Helper()
	return loadMeasuredFile(t, filepath.Join(dir, "measured.jsonl"))
}

// loadMeasuredFile reads a JSON-lines file of measured runs (the
// fixtures' measured.jsonl, a capture harness's results.jsonl).
func loadMeasuredFile(t *testing.T, path string) []measured {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []measured
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m measured
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, m)
	}
	return rows
}

func mode(m measured) string {
	if m.Mode == nil {
		return ""
	}
	return *m.Mode
}

// TestAgainstMeasured checks the analysis against facts measured on the
// GPU: the peak, the iteration count of the spec, 4 bytes per fp32
// parameter, Adam's two fp32 moments, what survives each iteration, and
// that only the leaking run is flagged.
func TestAgainstMeasured(t *testing.T) {
	for _, m := range loadMeasured(t) {
		t.Run(m.Name, func(t *testing.T) {
			s, err := snapshot.LoadFile(filepath.Join(dataDir, m.Name+".pickle.gz"))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Analyze(s, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			d := rep.Devices[0]
			if d.PeakAllocated != m.MaxAllocated {
				t.Errorf("peak allocated %d, measured %d", d.PeakAllocated, m.MaxAllocated)
			}
			md := mode(m)
			if md != "oom" && d.Iterations != m.Iters {
				t.Errorf("iterations %d, spec %d", d.Iterations, m.Iters)
			}
			if (md == "leak") != (len(d.Leaks) > 0) {
				t.Errorf("leaks %+v on mode %q", d.Leaks, md)
			}
			if md == "oom" && (d.OOM == nil || d.OOM.Cause != CauseFractionCap) {
				t.Errorf("oom %+v, want cause %s", d.OOM, CauseFractionCap)
			}
			if md != "oom" && len(m.AfterIter) == len(d.IterationPeaks) {
				for i, p := range d.IterationPeaks {
					if e := relErr(p.EndAllocated, m.AfterIter[i]); e > 0.02 {
						t.Errorf("iteration %d keeps %d, memory_allocated() after it was %d (%.1f%%)", i+1, p.EndAllocated, m.AfterIter[i], 100*e)
					}
				}
			}
			if m.Ctx == nil || (md != "" && md != "zero-keep") {
				return
			}
			pb := 4 * m.Params
			c := d.Categories
			if e := relErr(c.Parameters, pb); e > 0.03 {
				t.Errorf("parameters %d, 4×params %d (%.1f%%)", c.Parameters, pb, 100*e)
			}
			if m.Opt == "adamw" {
				if e := relErr(c.OptimizerState, 2*pb); e > 0.05 {
					t.Errorf("optimizer state %d, 8×params %d (%.1f%%)", c.OptimizerState, 2*pb, 100*e)
				}
			}
			for _, a := range d.Advice {
				if m.Prec != "fp32" && contains(a.Action, "mixed precision") {
					t.Errorf("advises AMP on a %s run", m.Prec)
				}
				if m.Ckpt != "none" && contains(a.Action, "checkpoint") {
					t.Errorf("advises checkpointing on a checkpointed run")
				}
			}
			t.Logf("parameters %+.2f%%, optimizer state %+.2f%%", 100*(float64(c.Parameters)/float64(pb)-1),
				100*(float64(c.OptimizerState)/float64(2*pb)-1))
		})
	}
}

func relErr(got, want int64) float64 {
	return math.Abs(float64(got-want)) / math.Max(1, float64(want))
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func analyzeFixture(t *testing.T, name string, o Options) Device {
	t.Helper()
	s, err := snapshot.LoadFile(filepath.Join(dataDir, name+".pickle.gz"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Analyze(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Devices[0]
}

// TestEarlyOOMTrainingUnknown: a run that died in its first forward pass
// cannot be told from an evaluation, so it must not claim either, and
// the fix for the OOM's cause comes first.
func TestEarlyOOMTrainingUnknown(t *testing.T) {
	d := analyzeFixture(t, "oom-vitl16-b96-fp32", DefaultOptions())
	if d.Traits.Training != nil || d.Traits.TrainingNote == "" {
		t.Errorf("training %v (%q), want unknown", d.Traits.Training, d.Traits.TrainingNote)
	}
	if len(d.Advice) == 0 || !d.Advice[0].FixesFailure {
		t.Errorf("first advice %+v, want the fix of the OOM's cause", d.Advice)
	}
	if d.OOM == nil || d.OOM.At.Iteration != 1 || d.OOM.At.Phase != "forward" {
		t.Errorf("oom at %+v, want iteration 1, forward", d.OOM)
	}
}

// TestEvalWithoutNoGrad: forward tensors alive when the forward pass ends
// are the graph an eval without no_grad keeps; the no_grad advice must
// fire and its saving match the measured difference with no_grad
// (max_allocated 10301200384 vs 1027459072 bytes: 8.64 GiB) within 10%.
func TestEvalWithoutNoGrad(t *testing.T) {
	d := analyzeFixture(t, "bert-base-s512-b32-eval-grad", DefaultOptions())
	if d.Traits.IsTraining() || d.Traits.Training == nil {
		t.Errorf("training %v, want false", d.Traits.Training)
	}
	var saving int64
	for _, a := range d.Advice {
		if contains(a.Action, "no_grad") {
			saving = a.Saving
		}
	}
	if e := relErr(saving, 10301200384-1027459072); e > 0.10 {
		t.Errorf("no_grad advice saves %d, measured difference %d (%.0f%%)", saving, 10301200384-1027459072, 100*e)
	}
}

// TestCapacityAssumptions: time-to-full says where its capacity comes
// from, and --capacity / --memory-fraction change it.
func TestCapacityAssumptions(t *testing.T) {
	o := DefaultOptions()
	d := analyzeFixture(t, "leak-gpt2-keep-logits", o)
	if len(d.Leaks) != 1 || !contains(d.Leaks[0].CapacitySource, "assumed") {
		t.Fatalf("leaks %+v: capacity source must say it is assumed", d.Leaks)
	}
	o.CapacityBytes, o.MemoryFraction = 80<<30, 0.5
	d2 := analyzeFixture(t, "leak-gpt2-keep-logits", o)
	if l := d2.Leaks[0]; l.CapacityBytes != 40<<30 || contains(l.CapacitySource, "assumed") {
		t.Errorf("with --capacity 80GiB --memory-fraction 0.5: capacity %d (%s)", l.CapacityBytes, l.CapacitySource)
	}
	if d2.Leaks[0].IterationsToFull >= d.Leaks[0].IterationsToFull {
		t.Errorf("a smaller capacity should fill sooner: %d vs %d", d2.Leaks[0].IterationsToFull, d.Leaks[0].IterationsToFull)
	}
}

// TestLargestFreeAtPeakReserved: the largest free block is taken when the
// cache is biggest, so it fits in what was cached but unused then.
func TestLargestFreeAtPeakReserved(t *testing.T) {
	for _, name := range []string{"resnet50-b64-fp32", "gpt2-s1024-b8-bf16", "vitl16-b32-fp32"} {
		f := analyzeFixture(t, name, DefaultOptions()).Fragmentation
		if f.LargestFreeBlock <= 0 || f.LargestFreeBlock > f.ReservedMinusAllocated {
			t.Errorf("%s: largest free block %d, cached but unused at peak reserved %d", name, f.LargestFreeBlock, f.ReservedMinusAllocated)
		}
	}
}
