package monitor

import (
	"math"
	"testing"
	"time"
)

func series(n int, step time.Duration, f func(i int) float64) []Point {
	t0 := time.Unix(0, 0)
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = Point{t0.Add(time.Duration(i) * step), f(i)}
	}
	return pts
}

func TestAnalyze(t *testing.T) {
	opt := DefaultTrendOptions()
	const mib = 1 << 20
	tests := []struct {
		name     string
		pts      []Point
		headroom uint64
		leak     bool
		rate     float64 // bytes/s, checked to 1%
		ttf      time.Duration
	}{
		{"steady leak", series(120, time.Second, func(i int) float64 { return 10*gib + float64(i)*4*mib }), 40 * gib, true, 4 * mib, 40 * gib / (4 * mib) * time.Second},
		{"leak in steps", series(120, time.Second, func(i int) float64 { return float64(i/10) * 40 * mib }), 0, true, 4 * mib, 0},
		{"flat", series(120, time.Second, func(int) float64 { return 30 * gib }), 10 * gib, false, 0, 0},
		{"warm-up then plateau", series(240, time.Second, func(i int) float64 { return float64(min(i, 60)) * 100 * mib }), 0, false, -1, 0},
		{"too short", series(30, time.Second, func(i int) float64 { return float64(i) * 4 * mib }), 0, false, 4 * mib, 0},
		{"too slow", series(120, time.Second, func(i int) float64 { return float64(i) * 1024 }), 0, false, 1024, 0},
		{"oscillating", series(300, time.Second, func(i int) float64 { return 30*gib + 2*gib*math.Sin(float64(i)/5) }), 0, false, -1, 0},
		{"shrinking", series(120, time.Second, func(i int) float64 { return 30*gib - float64(i)*4*mib }), 10 * gib, false, -4 * mib, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := Analyze(tt.pts, tt.headroom, opt)
			if tr.Leak != tt.leak {
				t.Errorf("Leak = %v, want %v (%+v)", tr.Leak, tt.leak, tr)
			}
			if tt.rate != -1 && math.Abs(tr.Rate-tt.rate) > math.Abs(tt.rate)*0.01+1 {
				t.Errorf("Rate = %.0f B/s, want %.0f", tr.Rate, tt.rate)
			}
			if d := tr.TimeToFull - tt.ttf; d < -time.Second || d > time.Second {
				t.Errorf("TimeToFull = %v, want %v", tr.TimeToFull, tt.ttf)
			}
		})
	}
}

func TestAnalyzeWindow(t *testing.T) {
	// Growth long ago, flat for the last window: no leak now.
	opt := DefaultTrendOptions()
	pts := series(900, time.Second, func(i int) float64 { return float64(min(i, 300)) * 4 * (1 << 20) })
	if tr := Analyze(pts, 0, opt); tr.Leak || tr.Span > opt.Window {
		t.Errorf("old growth judged as %+v", tr)
	}
	if tr := Analyze(nil, 0, opt); tr.Leak {
		t.Error("empty series is a leak")
	}
}
