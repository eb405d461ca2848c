package infer

import (
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// TestAdviseLongDynamicCache: a 3000-token DynamicCache call on Llama 3.2
// 1B replays to several times its allocated peak (the cache's freed
// shorter blocks fit no later request); Advise offers expandable segments
// and a StaticCache, each figure the one Estimate gives for the changed
// spec, best first. A short call, whose allocator holds little beyond its
// tensors, gets none.
func TestAdviseLongDynamicCache(t *testing.T) {
	s := genSpec("llama3.2-1b", 16, 512, 3000, "bf16", "")
	r, err := Estimate(s)
	if err != nil {
		t.Fatal(err)
	}
	if over := r.PeakReserved - r.PeakAllocated; float64(over) < 1.5*float64(r.PeakAllocated) {
		t.Fatalf("allocated %d, reserved %d: the replay's overhead is no longer large; revisit this test", r.PeakAllocated, r.PeakReserved)
	}
	if err := Advise(s, r); err != nil {
		t.Fatal(err)
	}
	if len(r.Alternatives) != 2 {
		t.Fatalf("%d alternatives, want expandable segments and a StaticCache: %+v", len(r.Alternatives), r.Alternatives)
	}
	for i, a := range r.Alternatives {
		c := s
		if a.Spec["cache"] == "static" {
			c.Cache = "static"
		}
		c.AllocConf = a.Spec["alloc_conf"]
		want, err := Estimate(c)
		if err != nil {
			t.Fatal(err)
		}
		if a.Process != want.Process || a.PeakReserved != want.PeakReserved || a.Saving != r.Process-want.Process {
			t.Errorf("%s: process %d, reserved %d, saving %d; Estimate of the changed spec gives %d, %d",
				a.Change, a.Process, a.PeakReserved, a.Saving, want.Process, want.PeakReserved)
		}
		if i > 0 && a.Saving > r.Alternatives[i-1].Saving {
			t.Errorf("%s saves more than %s before it", a.Change, r.Alternatives[i-1].Change)
		}
		// either change leaves the allocator little beyond the tensors
		if a.PeakReserved > 2*a.PeakAllocated {
			t.Errorf("%s: reserved %d for %d allocated", a.Change, a.PeakReserved, a.PeakAllocated)
		}
	}
	if !strings.HasPrefix(r.Alternatives[0].Change, "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True") {
		t.Errorf("best first: %q", r.Alternatives[0].Change)
	}

	short := genSpec("llama3.2-1b", 16, 512, 64, "bf16", "")
	rs, err := Estimate(short)
	if err != nil {
		t.Fatal(err)
	}
	if err := Advise(short, rs); err != nil || len(rs.Alternatives) != 0 {
		t.Errorf("64 new tokens: %d alternatives (err %v), want none", len(rs.Alternatives), err)
	}
}

// TestAdviseOnlyWhatIsModelled: calls whose allocator holds far more
// than their tensors but which the planner cannot replay over a
// StaticCache (beam search; an encoder-decoder's EncoderDecoderCache) are
// planned, with expandable segments offered, where Advise used to fail the
// whole plan on the StaticCache replay's refusal (session 53: GPT-2 medium
// 16 x p256 at 4 beams, BART-large b64 p512 256 new tokens).
func TestAdviseOnlyWhatIsModelled(t *testing.T) {
	beams := genSpec("gpt2-medium", 16, 256, 64, "bf16", "")
	beams.NumBeams = 4
	for _, s := range []struct {
		name string
		spec func() memmodel.Spec
	}{
		{"gpt2-medium 16 x p256, 4 beams", func() memmodel.Spec { return beams }},
		{"bart-large b64 p512 n256", func() memmodel.Spec { return genSpec("bart-large", 64, 512, 256, "bf16", "") }},
	} {
		spec := s.spec()
		r, err := Estimate(spec)
		if err != nil {
			t.Fatal(err)
		}
		if over := r.PeakReserved - r.PeakAllocated; over < overheadBytes || float64(over) < overheadShare*float64(r.PeakReserved) {
			t.Fatalf("%s: reserved %d for %d allocated: no longer worth advice; revisit this test", s.name, r.PeakReserved, r.PeakAllocated)
		}
		if err := Advise(spec, r); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for _, a := range r.Alternatives {
			if a.Spec["cache"] == "static" {
				t.Errorf("%s: offered %s", s.name, a.Change)
			}
		}
	}
}
