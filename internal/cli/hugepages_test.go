package cli

import (
	"runtime/debug"
	"testing"
)

// TestGCFor: a command's collector target holds for its run and is
// restored after it; a GOGC the user set is left alone.
func TestGCFor(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(10)) // main's setting
	t.Setenv("GOGC", "")
	restore := gcFor(planGCPercent)
	if got := debug.SetGCPercent(planGCPercent); got != planGCPercent {
		t.Errorf("during the run the target is %d, want %d", got, planGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(10); got != 10 {
		t.Errorf("after the run the target is %d, want main's 10 back", got)
	}
	t.Setenv("GOGC", "50")
	gcFor(planGCPercent)()
	if got := debug.SetGCPercent(10); got != 10 {
		t.Errorf("with GOGC set the target moved to %d", got)
	}
	restore = gcFor(planGCPercent)
	if got := debug.SetGCPercent(10); got != 10 {
		t.Errorf("with GOGC set, during the run the target is %d, want it left at 10", got)
	}
	restore()
}
