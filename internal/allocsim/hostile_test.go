package allocsim

import (
	"strings"
	"testing"
	"time"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// A trace entry whose size does not fit in int64 (2^64−1 in the synthetic
// big-values snapshot) once made the replay spin forever: the allocator
// refused the request without an out-of-memory error, so nothing diverged
// and nothing moved on. The replay must stop there and say why.
func TestReplayStopsOnImpossibleSize(t *testing.T) {
	s, err := snapshot.LoadFile("../snapshot/testdata/synthetic/big-values.pickle")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan DeviceReplay, 1)
	go func() {
		d, _ := ReplayDevice(s, 0, DefaultReplayOptions())
		done <- d
	}()
	select {
	case d := <-done:
		if d.Result == nil || d.Result.DivergedAt != 0 || !strings.Contains(d.Result.FirstDivergence, "past 2^63") {
			t.Fatalf("replay should stop at event 0 on the impossible size, got %+v", d.Result)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("replay did not finish on a 3-event trace")
	}
}
