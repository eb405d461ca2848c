package cli

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/hugepage"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// reportSites is how many of analyze's allocation sites the report lists.
const reportSites = 30

// analyzeFor runs vramkit analyze on device dev of s for the pictures: its
// category breakdown sampled where each timeline bucket peaks, and top
// sites. Tune's grid is left to the caller, which shows the whole table.
// ahead's timeline of the requests is used when it followed rep's replay.
func analyzeFor(s *snapshot.Snapshot, st analyze.Settings, rep *allocsim.DeviceReplay, tl *report.Timeline, ahead reportAhead) (*analyze.Device, error) {
	o := analyze.DefaultOptions()
	o.Tune, o.Top, o.AdviseHugePages = false, reportSites, hugepage.AdviseAny
	o.Ahead, o.Timeline = ahead.replay, ahead.requests
	o.CurveAt = make([]int, len(tl.Buckets))
	for i, b := range tl.Buckets {
		o.CurveAt[i] = b.AllocMaxAt
	}
	d, err := analyze.Replayed(s, rep, st, o)
	if err != nil {
		return nil, fmt.Errorf("analyze: device %d: %w", rep.Device, err)
	}
	return &d, nil
}
