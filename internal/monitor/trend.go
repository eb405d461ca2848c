package monitor

import (
	"math"
	"time"
)

// TrendOptions say when growth counts as a suspected leak.
type TrendOptions struct {
	// Window is how far back the fit looks.
	Window time.Duration `json:"window"`
	// MinSpan is the least history needed before any verdict.
	MinSpan time.Duration `json:"min_span"`
	// MinRate is the slowest growth, in bytes per second, worth flagging.
	MinRate float64 `json:"min_rate_bytes_per_second"`
	// MinR2 is how straight the growth must be (coefficient of
	// determination of the least-squares line, 0–1). A caching allocator
	// that grows and then plateaus fits a line badly; a leak fits it well.
	MinR2 float64 `json:"min_r2"`
}

// DefaultTrendOptions flags growth of at least 1 MiB/s that has been close
// to linear for at least a minute, looking back five minutes.
func DefaultTrendOptions() TrendOptions {
	return TrendOptions{Window: 5 * time.Minute, MinSpan: time.Minute, MinRate: 1 << 20, MinR2: 0.9}
}

// Trend is the verdict on one series.
type Trend struct {
	// Rate is the least-squares slope in bytes per second.
	Rate float64 `json:"rate_bytes_per_second"`
	// R2 is the fit's coefficient of determination (1 for a constant).
	R2 float64 `json:"r2"`
	// Span is the time covered by the points used.
	Span time.Duration `json:"span"`
	// Leak is true for steady growth: rate, straightness, span and
	// still-growing checks all passed.
	Leak bool `json:"leak"`
	// TimeToFull is when the headroom runs out at Rate; set only when
	// Rate > 0 and a headroom was given.
	TimeToFull time.Duration `json:"time_to_full,omitempty"`
}

// Analyze fits a line to the points inside opt.Window (ending at the last
// point) and judges it. headroom is the free memory left on the device in
// bytes (0 if unknown).
func Analyze(pts []Point, headroom uint64, opt TrendOptions) Trend {
	if len(pts) == 0 {
		return Trend{}
	}
	end := pts[len(pts)-1].T
	first := 0
	for first < len(pts)-1 && end.Sub(pts[first].T) > opt.Window {
		first++
	}
	pts = pts[first:]
	tr := Trend{Span: end.Sub(pts[0].T), R2: 1}
	if len(pts) < 3 {
		return tr
	}
	// Least squares on (seconds since first, bytes), centred for accuracy
	// with byte values near 1e11.
	t0 := pts[0].T
	var mx, my float64
	for _, p := range pts {
		mx += p.T.Sub(t0).Seconds()
		my += p.V
	}
	n := float64(len(pts))
	mx, my = mx/n, my/n
	var sxx, sxy, syy float64
	for _, p := range pts {
		dx, dy := p.T.Sub(t0).Seconds()-mx, p.V-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return tr
	}
	tr.Rate = sxy / sxx
	if syy > 0 {
		tr.R2 = sxy * sxy / (sxx * syy)
	}
	if tr.Rate > 0 && headroom > 0 {
		secs := float64(headroom) / tr.Rate
		if secs < math.MaxInt64/float64(time.Second) {
			tr.TimeToFull = time.Duration(secs * float64(time.Second))
		}
	}
	tr.Leak = tr.Rate >= opt.MinRate && tr.R2 >= opt.MinR2 && tr.Span >= opt.MinSpan && stillGrowing(pts)
	return tr
}

// stillGrowing checks that the newest quarter of the window ends higher
// than it starts, so a warm-up ramp followed by a plateau is not a leak.
func stillGrowing(pts []Point) bool {
	q := pts[len(pts)*3/4:]
	return len(q) >= 2 && q[len(q)-1].V > q[0].V
}
