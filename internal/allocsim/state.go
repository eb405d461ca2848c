package allocsim

import (
	"fmt"
	"sort"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// BlockState is one block of the simulated allocator's state.
type BlockState struct {
	Addr, Size, Requested int64
	Allocated             bool
	Pending               bool // freed, waiting on stream events
}

// SegmentState is one segment (or mapped range of an expandable segment)
// of the simulated state, as _snapshot() would list it.
type SegmentState struct {
	Addr, Size int64
	Stream     int64
	Small      bool
	Expandable bool
	Pool       [2]int64 // MempoolId; (0, 0) is the default pool
	Blocks     []BlockState
}

// Segments lists the simulated segments in address order, splitting
// expandable segments into their mapped ranges as PyTorch does.
func (a *Allocator) Segments() []SegmentState {
	heads := a.segmentHeads()
	// One array backs every segment's block list (each segment's list is
	// capped at its own blocks, so none can append into the next).
	n := 0
	for _, h := range heads {
		for b := h; b != nil; b = b.next {
			n++
		}
	}
	all := make([]BlockState, 0, n)
	out := make([]SegmentState, 0, len(heads))
	for _, h := range heads {
		var cur *SegmentState
		first := 0
		for b := h; b != nil; b = b.next {
			if !b.mapped {
				if cur != nil {
					out = append(out, *cur)
					cur = nil
				}
				continue
			}
			if cur == nil {
				cur = &SegmentState{Addr: b.ptr, Stream: b.stream, Small: b.pool.isSmall, Expandable: b.seg != nil, Pool: b.pool.id}
				first = len(all)
			}
			cur.Size += b.size
			all = append(all, BlockState{Addr: b.ptr, Size: b.size, Requested: b.requested,
				Allocated: b.allocated, Pending: !b.allocated && b.eventCount > 0})
			cur.Blocks = all[first:len(all):len(all)]
		}
		if cur != nil {
			out = append(out, *cur)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
	return out
}

// segmentHeads returns the first block of every segment, in no particular
// order. A tracked allocator holds each of its blocks in the active table
// (allocated and pending ones) or a free set, so the heads are the blocks
// there with nothing before them: report asks at every new peak of
// reserved memory, and walking back from every block made that quadratic
// in a segment's blocks. An untracked one knows only its free blocks, and
// walks back from them.
func (a *Allocator) segmentHeads() []*block {
	var heads []*block
	if !a.untracked {
		add := func(b *block) {
			if b.prev == nil {
				heads = append(heads, b)
			}
		}
		a.active.each(func(_ int64, b *block) { add(b) })
		for _, p := range a.allPools() {
			for _, b := range p.blocks.live() {
				add(b)
			}
			for _, b := range p.unmapped.live() {
				add(b)
			}
		}
		return heads
	}
	seen := map[*block]bool{}
	visit := func(b *block) {
		for b.prev != nil {
			b = b.prev
		}
		if !seen[b] {
			seen[b] = true
			heads = append(heads, b)
		}
	}
	for _, b := range a.pending {
		visit(b)
	}
	for _, p := range a.allPools() {
		for _, b := range p.blocks.live() {
			visit(b)
		}
		for _, b := range p.unmapped.live() {
			visit(b)
		}
	}
	return heads
}

// CompareSegments checks the simulated state against the segments a
// snapshot recorded for one device; it returns "" when they agree, else the
// first difference.
func CompareSegments(sim []SegmentState, recorded []snapshot.Segment, device int) string {
	var rec []snapshot.Segment
	for _, g := range recorded {
		if g.Device == device {
			rec = append(rec, g)
		}
	}
	sort.Slice(rec, func(i, j int) bool { return rec[i].Address < rec[j].Address })
	if len(sim) != len(rec) {
		return fmt.Sprintf("the snapshot lists %d segments, the replay ends with %d", len(rec), len(sim))
	}
	for i := range rec {
		g, s := &rec[i], &sim[i]
		if g.Address != uint64(s.Addr) || g.TotalSize != uint64(s.Size) {
			return fmt.Sprintf("segment %d: snapshot has %#x (%d B), replay has %#x (%d B)", i, g.Address, g.TotalSize, s.Addr, s.Size)
		}
		if len(g.Blocks) != len(s.Blocks) {
			return fmt.Sprintf("segment %#x: snapshot has %d blocks, replay has %d", g.Address, len(g.Blocks), len(s.Blocks))
		}
		for j := range g.Blocks {
			gb, sb := &g.Blocks[j], &s.Blocks[j]
			alloc := gb.State == snapshot.BlockActiveAllocated
			if gb.Address != uint64(sb.Addr) || gb.Size != uint64(sb.Size) || alloc != sb.Allocated {
				return fmt.Sprintf("block %#x: snapshot has %d B %s, replay has %#x %d B allocated=%v",
					gb.Address, gb.Size, gb.State, sb.Addr, sb.Size, sb.Allocated)
			}
		}
	}
	return ""
}

// LargestFreeBlock is the size of the largest cached block of the default
// pool that a request could reuse now: free, mapped, and not waiting on
// stream events. The free sets are ordered by (stream, size), so each
// stream's largest is the last of its run, and the segments need not be
// walked.
func (a *Allocator) LargestFreeBlock() int64 {
	var best int64
	for _, p := range []*blockPool{a.large, a.small} {
		it := p.blocks.live()
		for i, b := range it {
			if (i+1 == len(it) || it[i+1].stream != b.stream) && b.size > best {
				best = b.size
			}
		}
	}
	return best
}
