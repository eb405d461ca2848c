package memmodel

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/units"
)

// Verdict is a fit decision made on the top of the band, so that the
// words, the headroom and the limit never disagree: Fits holds exactly
// when Headroom ≥ 0, and Headroom is Limit − High.
type Verdict struct {
	Fits bool `json:"fits"`
	// Predicted is the point prediction; High the band's top at
	// Confidence.
	Predicted  int64   `json:"predicted_bytes"`
	High       int64   `json:"high_bytes"`
	Limit      int64   `json:"limit_bytes"`
	Headroom   int64   `json:"headroom_bytes"`
	Confidence float64 `json:"confidence"`
	Text       string  `json:"text"`
}

// Decide judges whether a process whose memory is predicted at predicted,
// with band top high at confidence conf, fits under limit (GPU capacity,
// or a budget after a margin, which limitNote then names).
func Decide(predicted, high, limit int64, conf float64, limitNote string) Verdict {
	v := Verdict{Predicted: predicted, High: high, Limit: limit, Headroom: limit - high, Confidence: conf}
	v.Fits = v.Headroom >= 0
	// the band's top and the limit printed apart whenever they differ:
	// "at most 23.6 GiB, of 23.6 GiB" read as a contradiction of "fits"
	hi, of := units.BytesPair(high, limit)
	if limitNote != "" {
		of += " " + limitNote
	}
	pct := fmt.Sprintf("%.0f%%", 100*conf)
	switch {
	case v.Fits:
		v.Text = fmt.Sprintf("fits with %s confidence: %s, at most %s, of %s", pct, units.Bytes(predicted), hi, of)
	case predicted <= limit:
		v.Text = fmt.Sprintf("does NOT fit with %s confidence: %s predicted, but up to %s, of %s", pct, units.Bytes(predicted), hi, of)
	default:
		v.Text = fmt.Sprintf("does NOT fit: %s predicted, up to %s at %s confidence, of %s", units.Bytes(predicted), hi, pct, of)
	}
	return v
}

// Budget is what a decision with a margin is made against: capacity less
// the fraction margin kept free, and the words that name the cut ("" for
// no margin). --fit, --sweep and a single plan share it.
func Budget(capacity int64, margin float64) (int64, string) {
	if margin <= 0 {
		return capacity, ""
	}
	return int64(float64(capacity) * (1 - margin)), fmt.Sprintf("(GPU less a %.0f%% margin)", 100*margin)
}

// DecideWithin is Decide against Budget(capacity, margin).
func DecideWithin(predicted, high, capacity int64, margin, conf float64) Verdict {
	limit, note := Budget(capacity, margin)
	return Decide(predicted, high, limit, conf, note)
}
