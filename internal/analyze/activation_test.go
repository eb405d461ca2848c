package analyze

import (
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestPythonActivationAdvice: phi-2 (dev77, LoRA r16, bf16 autocast) and
// GPT-2 (dev76) run transformers' NewGELUActivation, one kernel per
// Python operator; Pythia (dev77) runs the fused GELU. The advice must
// name the fused activation where the Python one runs and nowhere else,
// and its saving can be no more than the bytes the raw trace holds, at
// the peak, in tensors that transformers' activations.py allocated
// itself (every one of which, bar one output per call, a fused kernel
// would not make).
func TestPythonActivationAdvice(t *testing.T) {
	for _, c := range []struct {
		file string
		want bool
	}{
		{"../../testdata/dev77/families/dev77-phi-2-s512-b4-bf16-lora16.pickle.gz", true},
		{"../../testdata/dev76/dev76-gpt2-s256-b4-bf16-py.pickle.gz", true},
		{"../../testdata/dev77/families/dev77-pythia-160m-s1024-b8-bf16.pickle.gz", false},
	} {
		s, saving := fusedActivationSaving(t, c.file)
		if (saving > 0) != c.want {
			t.Errorf("%s: fused-activation advice saving %d, want advice %v", c.file, saving, c.want)
			continue
		}
		if !c.want {
			continue
		}
		// the raw trace: live bytes at the peak allocated by
		// activations.py's own frame
		var live, act, peak, actAtPeak int64
		own := map[uint64]int64{}
		for _, e := range s.Trace(0) {
			switch e.Action {
			case snapshot.ActionAlloc:
				live += int64(e.Size)
				if fr := s.Stacks[e.Stack]; len(fr) > 0 && strings.Contains(fr[0].Filename, "transformers/activations.py") {
					own[e.Addr] = int64(e.Size)
					act += int64(e.Size)
				}
			case snapshot.ActionFreeCompleted:
				live -= int64(e.Size)
				if n, ok := own[e.Addr]; ok {
					act -= n
					delete(own, e.Addr)
				}
			default:
				continue
			}
			if live > peak {
				peak, actAtPeak = live, act
			}
		}
		if saving > actAtPeak {
			t.Errorf("%s: saving %d, but activations.py's tensors hold %d at the raw peak %d", c.file, saving, actAtPeak, peak)
		}
		t.Logf("%s: saving %d of the activation module's %d at the peak (peak %d)", c.file, saving, actAtPeak, peak)
	}
}

// TestPythonActivationSavingMeasured: dev80 ran GPT-2 s1024 b8 and
// phi-1.5 s1024 b4 (bf16 autocast) twice each, with NewGELU and with
// hidden_act "gelu_pytorch_tanh", one process each, on the lent H100.
// The advice read off the NewGELU trace must predict the measured drop of
// peak allocated (PyTorch's max_memory_allocated of the two runs) within
// 3%: 3.35 GiB and 9.00 GiB measured.
func TestPythonActivationSavingMeasured(t *testing.T) {
	dir := "../../testdata/dev80/families"
	peak := map[string]int64{}
	for _, m := range loadMeasuredFile(t, dir+"/results.jsonl") {
		peak[m.Name] = m.MaxAllocated
	}
	for _, base := range []string{"dev80-gpt2-s1024-b8-bf16", "dev80-phi-15-s1024-b4-bf16"} {
		measured := peak[base+"-gelu-new"] - peak[base+"-gelu-fused"]
		if peak[base+"-gelu-new"] == 0 || peak[base+"-gelu-fused"] == 0 || measured <= 0 {
			t.Fatalf("%s: measured peaks %d and %d", base, peak[base+"-gelu-new"], peak[base+"-gelu-fused"])
		}
		_, saving := fusedActivationSaving(t, dir+"/"+base+"-gelu-new.pickle.gz")
		if rel := float64(saving-measured) / float64(measured); rel > 0.03 || rel < -0.03 {
			t.Errorf("%s: predicted saving %d, measured %d (%+.1f%%)", base, saving, measured, 100*rel)
		}
	}
}

// fusedActivationSaving analyzes the snapshot in file and returns it with
// the saving its fused-activation advice names (0: no such advice).
func fusedActivationSaving(t *testing.T, file string) (*snapshot.Snapshot, int64) {
	t.Helper()
	s, err := snapshot.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Analyze(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range rep.Devices[0].Advice {
		if strings.Contains(a.Action, "gelu_pytorch_tanh") {
			return s, a.Saving
		}
	}
	return s, 0
}
