package allocsim

import (
	"math/rand"
	"testing"
)

// TestFeedMatchesSimulate runs a recorded training step's requests
// through Feed in random pieces and checks it ends where Simulate ends on
// the whole stream: the same peaks, request count and, on a device too
// small for the step, the same failing request.
func TestFeedMatchesSimulate(t *testing.T) {
	s := load(t, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	reqs := mustReplay(t, s, DefaultReplayOptions()).Result.Requests
	cfg, _ := FromSettings(s.Settings)
	whole := Simulate(reqs, cfg, NewDevice(0, h200Total))
	for _, capacity := range []int64{0, whole.Stats.ReservedBytes.All.Peak / 2} {
		want := Simulate(reqs, cfg, NewDevice(capacity, h200Total))
		if capacity > 0 && want.OOMAt < 0 {
			t.Fatalf("capacity %d: the whole stream did not run out of memory", capacity)
		}
		rng := rand.New(rand.NewSource(capacity + 1))
		f := NewFeed(cfg, NewDevice(capacity, h200Total))
		going := true
		for i := 0; i < len(reqs); {
			n := min(1+rng.Intn(5000), len(reqs)-i)
			going = f.Run(reqs[i : i+n])
			i += n
		}
		got := f.Result()
		if going != (want.OOMAt < 0) {
			t.Errorf("capacity %d: Run's last answer %v, want %v", capacity, going, want.OOMAt < 0)
		}
		if got.OOMAt != want.OOMAt || got.OOMBytes != want.OOMBytes || got.Requests != want.Requests {
			t.Errorf("capacity %d: OOM at %d (%d B) after %d requests, want %d (%d B) after %d",
				capacity, got.OOMAt, got.OOMBytes, got.Requests, want.OOMAt, want.OOMBytes, want.Requests)
		}
		if got.Stats.ReservedBytes.All.Peak != want.Stats.ReservedBytes.All.Peak ||
			got.Stats.AllocatedBytes.All.Peak != want.Stats.AllocatedBytes.All.Peak {
			t.Errorf("capacity %d: peaks %d/%d, want %d/%d", capacity,
				got.Stats.AllocatedBytes.All.Peak, got.Stats.ReservedBytes.All.Peak,
				want.Stats.AllocatedBytes.All.Peak, want.Stats.ReservedBytes.All.Peak)
		}
	}
}
