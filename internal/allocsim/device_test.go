package allocsim

import (
	"math"
	"testing"
)

// Replaying a snapshot's own request stream (addresses dropped) on a
// top-down device (NewDevice's) gives its recorded peak reserved. Handing addresses out
// upwards, best fit breaks ties between equal free blocks the other way:
// in the dev6 Gemma 2 LoRA run the backward thread's cuBLAS workspace then
// misses the freed logits block it split on the GPU, and the replay comes
// out 17% under.
func TestTopDownDeviceReplaysSnapshots(t *testing.T) {
	if testing.Short() {
		t.Skip("replays snapshots")
	}
	for _, c := range []struct {
		path   string
		upward float64 // the upward replay's error, for the record
	}{
		{"dev6/snapshots/dev6-gemma2-g-s1024-b4-bf16-lora16-snap.pickle.gz", -0.1704},
		{"dev6/snapshots/dev6-qwen3-g-s1024-b4-bf16-sgd-snap.pickle.gz", 0},
		{"analyze/gpt2-s1024-b8-bf16.pickle.gz", 0},
	} {
		d := mustReplay(t, load(t, c.path), DefaultReplayOptions())
		real := d.Result.Stats.ReservedBytes.All.Peak
		td := Simulate(d.Result.Requests, d.Config, NewDevice(0, 150<<30))
		upward := NewDevice(0, 150<<30)
		upward.TopDown = false
		up := Simulate(d.Result.Requests, d.Config, upward)
		if got := td.Stats.ReservedBytes.All.Peak; got != real {
			t.Errorf("%s: top-down replay %d, recorded %d", c.path, got, real)
		}
		e := float64(up.Stats.ReservedBytes.All.Peak-real) / float64(real)
		if math.Abs(e-c.upward) > 0.001 {
			t.Errorf("%s: upward replay %+.2f%%, want %+.2f%%", c.path, 100*e, 100*c.upward)
		}
	}
}
