package allocsim

import (
	"errors"
	"fmt"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// FromSettings returns the allocator configuration a snapshot was recorded
// with: its PYTORCH_CUDA_ALLOC_CONF string re-parsed (the dict omits
// large_segment_size and max_non_split_rounding), checked against the
// values the dict does carry.
//
// A string that does not parse (a key of a newer PyTorch, a hand-edited
// snapshot) returns an error that says so together with a usable
// configuration: PyTorch's defaults overlaid with the dict's values when
// the snapshot carries the dict (expandable segments, max_split_size,
// the GC threshold and roundup divisions in force), the defaults alone
// otherwise. Callers that replay anyway must say which they used.
func FromSettings(s snapshot.Settings) (Config, error) {
	c, err := ParseConfig(s.AllocConf)
	if err != nil {
		c, err = DefaultConfig(), fmt.Errorf("recorded PYTORCH_CUDA_ALLOC_CONF %q: %w", s.AllocConf, err)
	}
	if !s.Present {
		return c, err
	}
	// Runtime changes (_set_allocator_settings) can leave the dict out of
	// step with the string; the dict holds the values in force.
	c.Expandable = s.Expandable
	if s.MaxSplit > 0 {
		c.MaxSplitSize = s.MaxSplit
	} else {
		c.MaxSplitSize = Unlimited
	}
	c.GCThreshold = s.GCThreshold
	c.RoundupDivisions = s.RoundupDivisions
	return c, err
}

// Simulable reports why c cannot be simulated, or nil: the
// cudaMallocAsync backend hands every allocation to CUDA's own pool,
// bypassing the caching allocator vramkit models.
func (c Config) Simulable() error {
	if c.Backend == "cudaMallocAsync" {
		return errors.New("backend:cudaMallocAsync bypasses PyTorch's caching allocator (CUDA's stream-ordered pool " +
			"serves every allocation), which vramkit does not simulate")
	}
	return nil
}
