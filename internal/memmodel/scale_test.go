package memmodel

import (
	"strings"
	"testing"
)

// TestScaleRefusesOnlyTheImpossible: every catalog model at a large but
// real configuration (a batch of 64 at its full context, capped at 128k
// tokens, or of 64 images of 1024 pixels a side; far past any GPU for
// most) is planned, not refused, while a batch of 10⁸ sequences of 10⁸
// tokens or images 10⁸ pixels a side is refused in one line naming the
// bound.
func TestScaleRefusesOnlyTheImpossible(t *testing.T) {
	for _, name := range Names() {
		a, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		var rows, seq float64
		if a.Vision() {
			rows = 64 * 1024 * 1024
			if a.Patch > 0 {
				seq = 1024 * 1024 / float64(a.Patch*a.Patch)
			}
		} else {
			seq = float64(min(max(a.MaxPos, 2*a.SourcePos, 2048), 131072))
			rows = 64 * seq
		}
		if msg := CheckScale(&a, rows, 64, seq); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
		huge := CheckScale(&a, 1e16, 1e8, 1e8)
		if a.Vision() {
			huge = CheckScale(&a, 1e16, 1e8, 0)
		}
		if !strings.HasPrefix(huge, "too large to plan: one step could hold up to ") || strings.Contains(huge, "\n") {
			t.Errorf("%s: at 10^16 rows: %q", name, huge)
		}
	}
}
