package allocsim

import (
	"context"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

func zzLoad(b *testing.B) *snapshot.Snapshot {
	s, err := snapshot.LoadFile("/work/shared/fixtures/h200/bert-base-s512-b8x4-fp32-accum.pickle.gz")
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkZZBertStats(b *testing.B) {
	s := zzLoad(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ReplayDeviceContext(context.Background(), s, 0, ReplayOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZZBertSimulate(b *testing.B) {
	s := zzLoad(b)
	d, _ := ReplayDevice(s, 0, DefaultReplayOptions())
	reqs := d.Result.Requests
	cfgs := []string{"", "expandable_segments:True", "max_split_size_mb:128", "roundup_power2_divisions:4"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range cfgs {
			cfg, _ := ParseConfig(c)
			Simulate(reqs, cfg, NewDevice(0, h200Total))
		}
	}
}
