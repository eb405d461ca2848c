package infer

import (
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// TestReplayInPieces checks that Estimate's replay, which runs a generate
// call's requests through the allocator a piece at a time and reuses the
// IDs of freed allocations, ends where the whole recorded stream ends, and
// that the IDs stay as few as the allocations live at once however long
// the call.
func TestReplayInPieces(t *testing.T) {
	cfg, _ := allocsim.ParseConfig("")
	for _, tc := range []struct {
		model, prec, cache string
		b, s, n            int
	}{
		{"llama3.2-1b", "bf16", "", 16, 512, 300},
		{"qwen2-0.5b", "fp32", "static", 8, 256, 200},
		{"gpt2-medium", "fp16", "", 4, 100, 500},
	} {
		c, err := resolve(genSpec(tc.model, tc.b, tc.s, tc.n, tc.prec, tc.cache))
		if err != nil {
			t.Fatal(err)
		}
		whole := &model{c: c, s: newStream(), w: buildWeights(c)}
		whole.generate()
		if len(whole.s.reqs) <= 2*flushEvery {
			t.Fatalf("%s: %d requests, too few to come in pieces", tc.model, len(whole.s.reqs))
		}
		dev := allocsim.NewDevice(0, c.gpu.MemoryBytes)
		dev.TopDown = true
		want := allocsim.Simulate(whole.s.reqs, cfg, dev)
		m, got := replay(c, cfg, 0)
		if got.Stats.ReservedBytes.All.Peak != want.Stats.ReservedBytes.All.Peak ||
			got.Stats.AllocatedBytes.All.Peak != want.Stats.AllocatedBytes.All.Peak {
			t.Errorf("%s: peaks %d/%d in pieces, %d/%d whole", tc.model,
				got.Stats.AllocatedBytes.All.Peak, got.Stats.ReservedBytes.All.Peak,
				want.Stats.AllocatedBytes.All.Peak, want.Stats.ReservedBytes.All.Peak)
		}
		if got.Requests != len(whole.s.reqs) {
			t.Errorf("%s: %d requests ran, the whole stream has %d", tc.model, got.Requests, len(whole.s.reqs))
		}
		if len(m.s.reqs) != 0 {
			t.Errorf("%s: %d requests left unflushed", tc.model, len(m.s.reqs))
		}
		// weights, cache and a forward's temporaries: hundreds, not the
		// hundreds of thousands of allocations the call makes
		if live := len(m.s.live); int(m.s.next) > 4*live+1000 {
			t.Errorf("%s: %d IDs handed out for %d allocations live at the end", tc.model, m.s.next, live)
		}
	}
}

// BenchmarkGenerateLong plans a 8192-token generate call: its replay is
// a few million requests (report the ns/op against the call's tokens).
func BenchmarkGenerateLong(b *testing.B) {
	s := genSpec("llama3-8b", 8, 2048, 8192, "bf16", "")
	for b.Loop() {
		if _, err := Estimate(s); err != nil {
			b.Fatal(err)
		}
	}
}
