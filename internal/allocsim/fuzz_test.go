package allocsim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"testing"
)

// checkInvariants verifies the simulator's state against its counters:
// blocks tile their segments, segments never overlap, and the current
// values of memory_stats() equal what the block list adds up to.
func checkInvariants(a *Allocator, dev *SimDevice) error {
	// The sets first: Segments closes their holes.
	for _, p := range a.allPools() {
		for _, set := range []*blockSet{&p.blocks, &p.unmapped} {
			if err := checkSet(set); err != nil {
				return err
			}
		}
	}
	segs := a.Segments()
	var reserved, allocated, requested, nAlloc, active, largestFree int64
	var prevEnd int64 = -1
	for _, s := range segs {
		if s.Addr < prevEnd {
			return fmt.Errorf("segment %#x overlaps the previous one", s.Addr)
		}
		prevEnd = s.Addr + s.Size
		reserved += s.Size
		at := s.Addr
		for i, b := range s.Blocks {
			if b.Addr != at {
				return fmt.Errorf("segment %#x: block %d at %#x, expected %#x", s.Addr, i, b.Addr, at)
			}
			if b.Size <= 0 {
				return fmt.Errorf("block %#x has size %d", b.Addr, b.Size)
			}
			at += b.Size
			if b.Allocated {
				allocated += b.Size
				nAlloc++
			}
			if b.Allocated || b.Pending {
				requested += b.Requested
				active += b.Size
			} else if s.Pool == ([2]int64{}) { // LargestFreeBlock is about the default pool
				largestFree = max(largestFree, b.Size)
			}
			if !s.Expandable && i > 0 && !b.Allocated && !b.Pending && !s.Blocks[i-1].Allocated && !s.Blocks[i-1].Pending {
				return fmt.Errorf("free blocks %#x and %#x were not merged", s.Blocks[i-1].Addr, b.Addr)
			}
		}
		if at != s.Addr+s.Size {
			return fmt.Errorf("segment %#x: blocks cover %d of %d bytes", s.Addr, at-s.Addr, s.Size)
		}
	}
	st := a.Stats()
	switch {
	case st.ReservedBytes.All.Current != reserved:
		return fmt.Errorf("reserved_bytes %d, segments hold %d", st.ReservedBytes.All.Current, reserved)
	case dev != nil && dev.Used() != reserved:
		return fmt.Errorf("device hands out %d bytes, segments hold %d", dev.Used(), reserved)
	case st.AllocatedBytes.All.Current != allocated:
		return fmt.Errorf("allocated_bytes %d, blocks hold %d", st.AllocatedBytes.All.Current, allocated)
	case st.Allocation.All.Current != nAlloc:
		return fmt.Errorf("allocation %d, blocks %d", st.Allocation.All.Current, nAlloc)
	case st.ActiveBytes.All.Current != active:
		return fmt.Errorf("active_bytes %d, blocks %d", st.ActiveBytes.All.Current, active)
	case st.RequestedBytes.All.Current != requested:
		return fmt.Errorf("requested_bytes %d, blocks %d", st.RequestedBytes.All.Current, requested)
	case st.AllocatedBytes.All.Current != st.AllocatedBytes.Large.Current+st.AllocatedBytes.Small.Current:
		return fmt.Errorf("pool split of allocated_bytes does not add up")
	case a.LargestFreeBlock() != largestFree:
		return fmt.Errorf("LargestFreeBlock %d, segments' largest free block %d", a.LargestFreeBlock(), largestFree)
	case st.ReservedBytes.All.Peak < st.ReservedBytes.All.Current || st.AllocatedBytes.All.Peak < st.AllocatedBytes.All.Current:
		return fmt.Errorf("a peak is below its current value")
	}
	return nil
}

// checkSet verifies a free set: each key is its block's, the keys
// (holes' included) never decrease, the holes are counted and none ends
// the set, and the blocks are in PyTorch's comparator order, each strictly
// after the one before.
func checkSet(s *blockSet) error {
	if len(s.keys) != len(s.items) {
		return fmt.Errorf("free set holds %d keys for %d blocks", len(s.keys), len(s.items))
	}
	holes := 0
	for i := range s.keys {
		if i > 0 && s.keys[i].less(s.keys[i-1]) {
			return fmt.Errorf("free set keys %d and %d are out of order", i-1, i)
		}
		if s.items[i] == nil {
			holes++
		}
	}
	if holes != s.dead {
		return fmt.Errorf("free set has %d holes, counts %d", holes, s.dead)
	}
	if n := len(s.items); n > 0 && s.items[n-1] == nil {
		return fmt.Errorf("free set ends with a hole")
	}
	var p *block
	for i, b := range s.items {
		if b == nil {
			continue
		}
		if s.keys[i] != s.keyOf(b) {
			return fmt.Errorf("free set item %d (%#x) has a stale key", i, b.ptr)
		}
		if p == nil {
			p = b
			continue
		}
		before := p.stream < b.stream || p.stream == b.stream && p.ptr < b.ptr
		if !s.addrOrder {
			before = p.stream < b.stream || p.stream == b.stream && (p.size < b.size || p.size == b.size && p.ptr < b.ptr)
		}
		if !before {
			return fmt.Errorf("free set item %d (%#x, %d B) is not after the one before (%#x, %d B)", i, b.ptr, b.size, p.ptr, p.size)
		}
		p = b
	}
	return nil
}

// naiveBestFit is a reference for the allocator's core choice, written
// without its ordered sets: scan every free block of the right pool and
// stream and take the smallest (then lowest-address) one that fits and
// passes the oversize rules. Non-expandable configurations only.
func naiveBestFit(a *Allocator, size, stream int64) (int64, bool) {
	small := a.cfg.RoundSize(size) <= SmallSize
	rounded := a.cfg.RoundSize(size)
	var cands []BlockState
	for _, s := range a.Segments() {
		if s.Small != small || s.Stream != stream || s.Pool != a.nextPool {
			continue
		}
		for _, b := range s.Blocks {
			if !b.Allocated && !b.Pending && b.Size >= rounded {
				cands = append(cands, b)
			}
		}
	}
	if len(cands) == 0 {
		return 0, false
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].Size != cands[j].Size {
			return cands[i].Size < cands[j].Size
		}
		return cands[i].Addr < cands[j].Addr
	})
	b := cands[0]
	if rounded < a.cfg.MaxSplitSize && b.Size >= a.cfg.MaxSplitSize {
		return 0, false
	}
	if rounded >= a.cfg.MaxSplitSize && b.Size >= rounded+a.cfg.MaxNonSplitRounding {
		return 0, false
	}
	return b.Addr, true
}

var fuzzSizes = []int64{1, 511, 512, 513, 4000, 1 << 20, 1<<20 + 1, 3 << 20, 10 << 20, 10<<20 + 1,
	25 << 20, 26<<20 + 7, 100 << 20, 130 << 20, 300 << 20, 1 << 30}

var fuzzConfigs = []string{"", "max_split_size_mb:20", "max_split_size_mb:128", "roundup_power2_divisions:4",
	"expandable_segments:True", "roundup_power2_divisions:[256:1,>:4],max_split_size_mb:64"}

// runOps interprets data as a sequence of allocator operations.
func runOps(t *testing.T, data []byte) {
	if len(data) < 2 {
		return
	}
	cfg, err := ParseConfig(fuzzConfigs[int(data[0])%len(fuzzConfigs)])
	if err != nil {
		t.Fatal(err)
	}
	capacity := int64(data[1]%8) * (256 << 20) // 0 = unlimited
	dev := NewDevice(capacity, h200Total)
	a := New(cfg, dev)
	var live []int64
	data = data[2:]
	for len(data) >= 3 {
		op, arg := data[0]%8, binary.LittleEndian.Uint16(data[1:3])
		data = data[3:]
		stream := int64(arg>>12) % 2
		switch op {
		case 0, 1, 2, 3: // malloc
			size := fuzzSizes[int(arg)%len(fuzzSizes)] + int64(arg>>8)
			want, found := int64(0), false
			if !cfg.Expandable {
				want, found = naiveBestFit(a, size, stream)
			}
			before := a.Stats().ReservedBytes.All.Current
			p, err := a.Malloc(size, stream)
			if err != nil {
				if !errors.Is(err, ErrOOM) {
					t.Fatalf("malloc(%d): %v", size, err)
				}
				break
			}
			if found && p != want {
				t.Fatalf("malloc(%d) took %#x, best fit is %#x", size, p, want)
			}
			if !cfg.Expandable && !found && a.Stats().ReservedBytes.All.Current <= before && a.Stats().NumDeviceFree == 0 {
				t.Fatalf("malloc(%d) found no cached block yet allocated no segment", size)
			}
			live = append(live, p)
		case 4, 5: // free
			if len(live) == 0 {
				continue
			}
			i := int(arg) % len(live)
			if err := a.Free(live[i]); err != nil {
				t.Fatal(err)
			}
			live = append(live[:i], live[i+1:]...)
		case 6: // record_stream then free
			if len(live) == 0 {
				continue
			}
			i := int(arg) % len(live)
			if err := a.RecordStream(live[i], 7); err != nil {
				t.Fatal(err)
			}
			if err := a.Free(live[i]); err != nil {
				t.Fatal(err)
			}
			live = append(live[:i], live[i+1:]...)
		case 7:
			switch {
			case arg%3 == 2: // enter or leave a private pool (graph capture, MemPool)
				if a.nextPool == ([2]int64{}) {
					a.SetPool([2]int64{1, 0})
				} else {
					a.SetPool([2]int64{})
				}
			case arg%2 == 0 && len(a.pending) > 0:
				a.CompleteEvents(a.pending[0].ptr)
			default:
				a.EmptyCache()
			}
		}
		if err := checkInvariants(a, dev); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range live {
		if err := a.Free(p); err != nil {
			t.Fatal(err)
		}
	}
	a.EmptyCache()
	if err := checkInvariants(a, dev); err != nil {
		t.Fatal(err)
	}
	var privateBytes int64 // private pools keep their segments: empty_cache leaves pools in use alone
	for _, s := range a.Segments() {
		if s.Pool != ([2]int64{}) {
			privateBytes += s.Size
		}
	}
	if st := a.Stats(); st.AllocatedBytes.All.Current != 0 || st.ActiveBytes.All.Current != 0 {
		t.Fatalf("after freeing everything: allocated %d, active %d", st.AllocatedBytes.All.Current, st.ActiveBytes.All.Current)
	}
	if !cfg.Expandable && a.Stats().ReservedBytes.All.Current != privateBytes {
		t.Fatalf("empty_cache left %d bytes reserved", a.Stats().ReservedBytes.All.Current)
	}
}

func FuzzAllocator(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 0, 0, 2, 0, 4, 0, 0, 7, 0, 0})
	f.Add([]byte{1, 2, 0, 12, 0, 1, 13, 0, 2, 14, 0, 4, 1, 0, 0, 12, 0, 7, 1, 0})
	f.Add([]byte{4, 0, 0, 5, 0, 1, 6, 0, 2, 9, 16, 4, 0, 0, 0, 3, 0, 7, 0, 0})
	f.Add([]byte{2, 1, 0, 14, 0, 0, 14, 0, 0, 14, 0, 0, 14, 0, 4, 0, 0, 0, 13, 0, 6, 1, 0, 7, 0, 0})
	f.Fuzz(runOps)
}

// TestRandomOps runs a deterministic batch of pseudo-random operation
// sequences through the same checks as the fuzz target.
func TestRandomOps(t *testing.T) {
	x := uint64(88172645463325252)
	for n := 0; n < 300; n++ {
		data := make([]byte, 2+3*200)
		for i := range data {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			data[i] = byte(x)
		}
		runOps(t, data)
	}
}
