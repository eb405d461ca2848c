package allocsim

import "context"

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
// addresses, so it can be replayed under any allocator settings. A large
// trace has tens of millions of them, written once by the replay and read
// by every what-if and analysis: the fields are ordered to pack into 40
// bytes.
type Request struct {
	Kind     ReqKind
	Deferred bool
	ID       int32
	// Event is the index of the trace event this request came from.
	Event int32
	// Pool numbers the private memory pool an allocation went to: 0 is
	// the default pool, k > 0 the k-th distinct MempoolId of the trace.
	// A what-if needs to know only which allocations share a pool; the
	// MempoolIds themselves are in the exact replay's segments.
	Pool   int32
	Stream int64
	Size   int64
	// Block is the size of the block the recorded replay handed out for an
	// allocation (Size after rounding, or a whole unsplit block); 0 when
	// the request failed or came from a what-if. Analyses use it to track
	// allocated bytes without replaying the allocator a second time.
	Block int64
}

// PoolID is the MempoolId a what-if gives Request.Pool n, for a caller
// that replays requests through Allocator.SetPool itself: any one-to-one
// mapping serves, since pools differ only by identity there.
func PoolID(n int32) [2]int64 {
	if n == 0 {
		return [2]int64{}
	}
	return [2]int64{0, int64(n)}
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
	live := newBlockTable(denseIDs(reqs))
	return simulate(context.Background(), reqs, &live, cfg, dev)
}

// simulate is Simulate with its table of live allocations made by the
// caller, so that Tune sizes it once and each of its workers reuses one
// (the table is emptied here before the run). The allocator runs
// untracked: live blocks are found by request ID in the table, never by
// address. Once ctx is done (looked at every checkEvery requests) it
// stops where it is; Tune then discards the run.
func simulate(ctx context.Context, reqs []Request, live *blockTable, cfg Config, dev Device) SimResult {
	res, _ := run(ctx, reqs, live, cfg, dev)
	return res
}

// StateAfter replays reqs exactly as Simulate does and returns the
// allocator in the state they leave it in, for a caller that inspects its
// segments at one point of a stream (memmodel asks, at the backward cuBLAS
// workspace's request, which free blocks could hold it). An out-of-memory
// error stops the replay there, as in Simulate.
func StateAfter(reqs []Request, cfg Config, dev Device) *Allocator {
	live := newBlockTable(denseIDs(reqs))
	_, a := run(context.Background(), reqs, &live, cfg, dev)
	return a
}

// run is the one loop that replays a request stream: simulate and
// StateAfter share it.
func run(ctx context.Context, reqs []Request, live *blockTable, cfg Config, dev Device) (SimResult, *Allocator) {
	q := startRun(live, cfg, dev)
	q.next(ctx, reqs, 0)
	return q.result(), q.a
}

// reqRun is one run of a request stream that may come in pieces: each
// piece goes to next, which goes on where the last one ended.
type reqRun struct {
	a    *Allocator
	live *blockTable
	res  SimResult
}

func startRun(live *blockTable, cfg Config, dev Device) *reqRun {
	live.reset()
	a := New(cfg, dev)
	a.untracked = true
	return &reqRun{a: a, live: live, res: SimResult{OOMAt: -1}}
}

// next runs reqs[from:], where reqs is the stream so far; false when the
// run has ended (at an out-of-memory error, or with ctx done).
func (q *reqRun) next(ctx context.Context, reqs []Request, from int) bool {
	a, live := q.a, q.live
	if from < len(reqs) {
		q.res.Requests = len(reqs) // unless it stops before
	}
	for i := from; i < len(reqs); i++ {
		if i&checkEvery == 0 && ctx.Err() != nil {
			q.res.Requests = i
			return false
		}
		r := &reqs[i]
		switch r.Kind {
		case ReqAlloc:
			if r.Size == 0 {
				continue
			}
			a.SetPool(PoolID(r.Pool))
			a.nextTag = r.ID
			if _, err := a.Malloc(r.Size, r.Stream); err != nil {
				q.res.OOMAt = int(r.Event)
				q.res.OOMBytes = r.Size
				q.res.Requests = i + 1
				return false
			}
			live.set(r.ID, a.last)
		case ReqFree:
			b := live.get(r.ID)
			if b == nil || !b.allocated {
				continue // a free of nothing live, as Free would refuse
			}
			if r.Deferred {
				b.recordStream(-1)
			}
			a.free(b)
			if !r.Deferred {
				live.del(r.ID)
			}
		case ReqComplete:
			if b := live.get(r.ID); b != nil {
				a.completeBlock(b)
				live.del(r.ID)
			}
		case ReqEmptyCache:
			a.EmptyCache()
		}
	}
	return true
}

// result is the run's outcome so far.
func (q *reqRun) result() SimResult {
	q.res.Stats = q.a.Stats()
	return q.res
}

// denseIDs returns the size of a slice that indexes every allocation ID of
// reqs, or -1 when the IDs are not the small non-negative numbers the
// replay and memmodel hand out (then a map serves).
func denseIDs(reqs []Request) int {
	maxID := int32(-1)
	for i := range reqs {
		if reqs[i].Kind == ReqAlloc {
			if reqs[i].ID < 0 {
				return -1
			}
			maxID = max(maxID, reqs[i].ID)
		}
	}
	if int(maxID) > 2*len(reqs)+1024 {
		return -1
	}
	return int(maxID) + 1
}

// blockTable maps allocation IDs to the blocks Simulate handed out. A
// block is stamped with its ID, so a stale entry (a deferred free whose
// block a synchronize returned to the cache, and which a later request
// reused) reads as nothing.
type blockTable struct {
	dense []*block // nil: no live allocation
	m     map[int32]*block
	paged *pagedTable
}

func newBlockTable(ids int) blockTable {
	if ids < 0 {
		return blockTable{m: make(map[int32]*block, 1024)}
	}
	return blockTable{dense: make([]*block, ids)}
}

// newGrowingTable is a table for a stream whose IDs are not all known yet
// (one still being produced): the IDs the replay hands out count up, and
// most allocations die young, so it holds them in pages made as the IDs
// reach them and dropped once every allocation in them is freed.
func newGrowingTable() blockTable { return blockTable{paged: &pagedTable{}} }

func (t *blockTable) reset() {
	clear(t.dense)
	clear(t.m)
	if t.paged != nil {
		t.paged.pages = t.paged.pages[:0]
	}
}

func (t *blockTable) set(id int32, b *block) {
	switch {
	case t.m != nil:
		t.m[id] = b
	case t.paged != nil:
		t.paged.set(id, b)
	default:
		t.dense[id] = b
	}
}

func (t *blockTable) get(id int32) *block {
	var b *block
	switch {
	case t.m != nil:
		b = t.m[id]
	case t.paged != nil:
		b = t.paged.get(id)
	case id >= 0 && int(id) < len(t.dense):
		b = t.dense[id]
	}
	if b == nil || b.tag != id {
		return nil
	}
	return b
}

func (t *blockTable) del(id int32) {
	if t.m != nil {
		delete(t.m, id)
		return
	}
	if t.paged != nil {
		t.paged.del(id)
		return
	}
	if id >= 0 && int(id) < len(t.dense) {
		t.dense[id] = nil
	}
}

// pagedTable is a growing table's pages of 1<<pageBits IDs each.
type pagedTable struct{ pages []*tablePage }

const pageBits = 14

type tablePage struct {
	b [1 << pageBits]*block
	n int32 // entries set and not deleted
}

func (p *pagedTable) set(id int32, b *block) {
	if id < 0 {
		panic("allocsim: negative allocation ID in a growing table") // the replay counts IDs up from 0
	}
	i := int(id >> pageBits)
	for i >= len(p.pages) {
		p.pages = append(p.pages, nil)
	}
	pg := p.pages[i]
	if pg == nil {
		pg = new(tablePage)
		p.pages[i] = pg
	}
	slot := &pg.b[id&(1<<pageBits-1)]
	if *slot == nil {
		pg.n++
	}
	*slot = b
}

func (p *pagedTable) get(id int32) *block {
	i := int(id >> pageBits)
	if id < 0 || i >= len(p.pages) || p.pages[i] == nil {
		return nil
	}
	return p.pages[i].b[id&(1<<pageBits-1)]
}

func (p *pagedTable) del(id int32) {
	i := int(id >> pageBits)
	if id < 0 || i >= len(p.pages) || p.pages[i] == nil {
		return
	}
	pg := p.pages[i]
	slot := &pg.b[id&(1<<pageBits-1)]
	if *slot == nil {
		return
	}
	*slot = nil
	pg.n--
	if pg.n == 0 && i < len(p.pages)-1 { // the last page still takes new IDs
		p.pages[i] = nil
	}
}
