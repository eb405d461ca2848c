package analyze

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// OOM causes.
const (
	CauseFragmentation = "fragmentation"
	CauseCapacity      = "capacity"
	CauseFractionCap   = "fraction_cap"
)

// oom explains the first out-of-memory error of the trace. The cause
// follows from three numbers at that moment: if the device still had
// room for the request, the process was held back by its own cap (a
// per-process memory fraction); if it had not, but the cache's unused
// blocks plus the device's free memory would have held it, the memory
// was there in pieces (fragmentation); otherwise the GPU was full.
func (d *dev) oom() *OOM {
	at := d.oomAt
	if at < 0 {
		return nil
	}
	e := &d.trace[d.t.reqs[at].Event]
	o := &OOM{TraceEvent: int(d.t.reqs[at].Event), At: d.moment(at), Requested: int64(e.Size), Allocated: d.t.level[at],
		Reserved: d.t.reservedAt(at), DeviceFree: int64(e.DeviceFree())}
	o.CachedFree = o.Reserved - o.Allocated
	// The allocator asks the device for a whole segment, at least the
	// request rounded up to 2 MiB (20 MiB for mid-sized requests).
	cfg := d.rep.Config
	need := cfg.AllocationSize(cfg.RoundSize(o.Requested))
	switch {
	case o.DeviceFree >= need:
		o.Cause = CauseFractionCap
		o.Explain = fmt.Sprintf("the device had %s free, enough for the %s segment the request needed, yet the "+
			"allocator refused: the process is capped below the device (torch.cuda.set_per_process_memory_fraction "+
			"or a similar limit) at about %s reserved", bytesStr(o.DeviceFree), bytesStr(need), bytesStr(o.Reserved))
	case o.CachedFree+o.DeviceFree >= o.Requested:
		o.Cause = CauseFragmentation
		o.Explain = fmt.Sprintf("%s sat unused in the cache and %s was free on the device, more than the %s "+
			"requested, but no single block was large enough", bytesStr(o.CachedFree), bytesStr(o.DeviceFree), bytesStr(o.Requested))
	default:
		o.Cause = CauseCapacity
		o.Explain = capacityExplain(o, d.st.TotalBytes)
	}
	_, o.Holders = d.breakdown(at)
	o.FirstStep = d.firstStep(o)
	return o
}

// capacityExplain says why a request the device could not hold failed.
// Usually the GPU was full; but a request larger than everything the
// process could reach (its tensors, its cache and the device's free memory
// together) would fail on an empty GPU too — a wrong shape or dtype, or a
// tensor that must be split — and then "the GPU was full" misleads.
// total is the device's memory, 0 when unknown.
func capacityExplain(o *OOM, total int64) string {
	reach := o.Allocated + o.CachedFree + o.DeviceFree
	if o.Requested <= reach {
		return fmt.Sprintf("the GPU was full: %s allocated by live tensors, %s cached, %s free on the device",
			bytesStr(o.Allocated), bytesStr(o.CachedFree), bytesStr(o.DeviceFree))
	}
	whole := ""
	if total > 0 && o.Requested > total {
		whole = fmt.Sprintf(", and more than the whole GPU (%s)", bytesStr(total))
	}
	return fmt.Sprintf("the request alone (%s) is more than all the memory the process could reach (%s: %s allocated "+
		"by live tensors, %s cached, %s free on the device)%s: freeing memory cannot make it fit, so look for a wrong "+
		"shape or dtype in the call that made it, or split that tensor", bytesStr(o.Requested), bytesStr(reach),
		bytesStr(o.Allocated), bytesStr(o.CachedFree), bytesStr(o.DeviceFree), whole)
}

// firstOOM is the request index of the trace's first out-of-memory
// error, or -1.
func (d *dev) firstOOM() int {
	for i := range d.t.reqs {
		r := &d.t.reqs[i]
		if r.Kind == allocsim.ReqAlloc && int(r.Event) < len(d.trace) && d.trace[r.Event].Action == snapshot.ActionOOM {
			return i
		}
	}
	return -1
}
