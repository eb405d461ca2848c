package allocsim

// ReqKind is the kind of a Request.
type ReqKind uint8

// Request kinds.
const (
	ReqAlloc      ReqKind = iota // allocate Size bytes on Stream as allocation ID
	ReqFree                      // free allocation ID; Deferred if it waits on other streams
	ReqComplete                  // the stream events of deferred free ID completed
	ReqEmptyCache                // torch.cuda.empty_cache()
)

// Request is one step of a program's allocation stream, independent of
// addresses, so it can be replayed under any allocator settings.
type Request struct {
	Kind     ReqKind
	Deferred bool
	ID       int32
	Stream   int64
	Size     int64
	// Pool is the MempoolId an allocation went to; (0, 0) is the default.
	Pool [2]int64
	// Block is the size of the block the recorded replay handed out for an
	// allocation (Size after rounding, or a whole unsplit block); 0 when
	// the request failed or came from a what-if. Analyses use it to track
	// allocated bytes without replaying the allocator a second time.
	Block int64
	// Event is the index of the trace event this request came from.
	Event int32
}

// SimResult is the outcome of running a request stream.
type SimResult struct {
	Stats Stats
	// OOMAt is the trace event index of the first request that ran out of
	// memory, or -1.
	OOMAt int
	// OOMBytes is the size of that request.
	OOMBytes int64
	// Requests is how many requests ran (the run stops at the first OOM).
	Requests int
}

// Simulate runs reqs through a fresh allocator with configuration cfg on
// dev. It stops at the first request that runs out of memory, as the
// program would.
func Simulate(reqs []Request, cfg Config, dev Device) SimResult {
	a := New(cfg, dev)
	ptrs := newPtrTable(reqs)
	res := SimResult{OOMAt: -1}
	for i, r := range reqs {
		res.Requests = i + 1
		switch r.Kind {
		case ReqAlloc:
			if r.Size == 0 {
				continue
			}
			a.SetPool(r.Pool)
			p, err := a.Malloc(r.Size, r.Stream)
			if err != nil {
				res.OOMAt = int(r.Event)
				res.OOMBytes = r.Size
				res.Stats = a.Stats()
				return res
			}
			ptrs.set(r.ID, p)
		case ReqFree:
			p, ok := ptrs.get(r.ID)
			if !ok {
				continue
			}
			if r.Deferred {
				_ = a.RecordStream(p, -1)
			}
			_ = a.Free(p)
			if !r.Deferred {
				ptrs.del(r.ID)
			}
		case ReqComplete:
			if p, ok := ptrs.get(r.ID); ok {
				a.CompleteEvents(p)
				ptrs.del(r.ID)
			}
		case ReqEmptyCache:
			a.EmptyCache()
		}
	}
	res.Stats = a.Stats()
	return res
}

// ptrTable maps allocation IDs to the pointers Simulate handed out. IDs
// are numbered densely from 0 by the replay and by memmodel, so a slice
// serves them; a stream with IDs far outside that range falls back to a
// map.
type ptrTable struct {
	dense []int64 // -1: no live allocation
	m     map[int32]int64
}

func newPtrTable(reqs []Request) ptrTable {
	maxID := int32(-1)
	for i := range reqs {
		if reqs[i].Kind == ReqAlloc {
			if reqs[i].ID < 0 {
				return ptrTable{m: make(map[int32]int64, 1024)}
			}
			maxID = max(maxID, reqs[i].ID)
		}
	}
	if int(maxID) > 2*len(reqs)+1024 {
		return ptrTable{m: make(map[int32]int64, 1024)}
	}
	t := ptrTable{dense: make([]int64, int(maxID)+1)}
	for i := range t.dense {
		t.dense[i] = -1
	}
	return t
}

func (t *ptrTable) set(id int32, p int64) {
	if t.m != nil {
		t.m[id] = p
		return
	}
	t.dense[id] = p
}

func (t *ptrTable) get(id int32) (int64, bool) {
	if t.m != nil {
		p, ok := t.m[id]
		return p, ok
	}
	if id < 0 || int(id) >= len(t.dense) || t.dense[id] < 0 {
		return 0, false
	}
	return t.dense[id], true
}

func (t *ptrTable) del(id int32) {
	if t.m != nil {
		delete(t.m, id)
		return
	}
	if id >= 0 && int(id) < len(t.dense) {
		t.dense[id] = -1
	}
}
