package allocsim

import (
	"sort"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// poolRouting tells which trace allocations went to a private pool (CUDA
// graph capture, torch.cuda.MemPool). Trace entries carry no pool id, but
// a segment still alive at the dump lists its segment_pool_id, and an
// allocation lies inside the segment that holds it. So: find the segments
// the trace created that survive to the dump in a private pool, then route
// every allocation inside one of them to that pool. Private segments the
// run released before the dump cannot be attributed; those allocations stay
// in the default pool, and the replay says where it then diverges.
func poolRouting(trace []snapshot.TraceEvent, segs []snapshot.Segment, dev int) map[int][2]int64 {
	final := map[uint64]snapshot.Segment{}
	for _, g := range segs {
		if g.Device == dev && g.PoolID != [2]int64{} && !g.Expandable {
			final[g.Address] = g
		}
	}
	if len(final) == 0 {
		return nil
	}
	last := map[uint64]int{} // address -> its segment_alloc that survives to the end
	for i := range trace {
		switch e := &trace[i]; e.Action {
		case snapshot.ActionSegmentAlloc:
			last[e.Addr] = i
		case snapshot.ActionSegmentFree:
			delete(last, e.Addr)
		}
	}
	segPool := map[int][2]int64{}
	for addr, i := range last {
		if g, ok := final[addr]; ok && g.TotalSize == trace[i].Size {
			segPool[i] = g.PoolID
		}
	}
	if len(segPool) == 0 {
		return nil
	}
	type span struct {
		addr, end uint64
		pool      [2]int64
	}
	var live []span // by address
	find := func(addr uint64) int {
		return sort.Search(len(live), func(j int) bool { return live[j].addr > addr }) - 1
	}
	out := map[int][2]int64{}
	for i := range trace {
		e := &trace[i]
		switch e.Action {
		case snapshot.ActionSegmentAlloc:
			j := find(e.Addr) + 1
			live = append(live, span{})
			copy(live[j+1:], live[j:])
			live[j] = span{e.Addr, e.Addr + e.Size, segPool[i]}
		case snapshot.ActionSegmentFree:
			if j := find(e.Addr); j >= 0 && live[j].addr == e.Addr {
				live = append(live[:j], live[j+1:]...)
			}
		case snapshot.ActionAlloc:
			if j := find(e.Addr); j >= 0 && e.Addr < live[j].end && live[j].pool != [2]int64{} {
				out[i] = live[j].pool
			}
		}
	}
	return out
}
