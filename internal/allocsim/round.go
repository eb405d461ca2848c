package allocsim

import "math/bits"

// RoundSize is round_size: the block size the allocator carves for a
// request of size bytes.
func (c *Config) RoundSize(size int64) int64 {
	if size < MinBlockSize {
		return MinBlockSize
	}
	div := c.divisions(size)
	if div > 1 && size > int64(MinBlockSize*div) {
		return roundupPower2NextDivision(size, div)
	}
	return MinBlockSize * ((size + MinBlockSize - 1) / MinBlockSize)
}

// divisions is roundup_power2_divisions(size): the interval index is
// floor(log2(size)) - 20, clamped to [0, 15].
func (c *Config) divisions(size int64) int {
	idx := 63 - bits.LeadingZeros64(uint64(size)) - 20
	if idx < 0 {
		idx = 0
	}
	if idx > numIntervals-1 {
		idx = numIntervals - 1
	}
	return c.RoundupDivisions[idx]
}

func roundupPower2NextDivision(size int64, div int) int64 {
	if size&(size-1) == 0 {
		return size
	}
	floor2 := int64(1) << (63 - bits.LeadingZeros64(uint64(size)))
	step := floor2 >> bits.TrailingZeros64(uint64(div))
	if step == 0 {
		return 2 * floor2
	}
	return ((size + step - 1) / step) * step
}

// AllocationSize is get_allocation_size: the segment size cudaMalloc'd for
// a rounded request that no cached block can serve.
func (c *Config) AllocationSize(size int64) int64 {
	switch {
	case size <= SmallSize:
		return SmallBuffer
	case size < MinLargeAlloc:
		return c.LargeSegmentSize
	default:
		return RoundLarge * ((size + RoundLarge - 1) / RoundLarge)
	}
}
