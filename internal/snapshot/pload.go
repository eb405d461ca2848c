package snapshot

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vramkit/vramkit/internal/pickle"
)

// The parallel loader reads a large uncompressed snapshot file on every
// core (GOMAXPROCS of them):
//
//  1. frameChunks cuts the file at FRAME opcodes into chunks;
//  2. scanChunk counts each chunk's MEMOIZE and EMPTY_DICT opcodes and the
//     memo indexes it fetches; prefix sums give every chunk its first memo
//     index and its place in one shared buffer of events;
//  3. memoStrings reads the strs under the fetched indexes (keys, actions);
//  4. chunkDec decodes the trace entries of each chunk straight into that
//     buffer, in runs of consecutive entries;
//  5. the sequential decoder reads the file once more, skipping every run
//     it meets at a place where list items start (a RunHook), decoding
//     everything else (segments, settings, entries the runs left out) as
//     Load does, and moving each run's events into place, with its local
//     stack, stream and context numbers mapped to the Snapshot's tables
//     in file order.
//
// The result is the sequential decoder's, field for field. Input the
// scheme does not fit (no frames, BINPUT, opcodes it does not know, data
// after STOP) returns errNoParallel before any work is wasted on it;
// LoadFileContext then loads the file sequentially.

// parallelFrom is the file size from which LoadFileContext decodes in
// parallel; smaller files take less time than starting the workers.
const parallelFrom = 32 << 20

// Chunk sizes: enough chunks for each worker to take several (the
// entries are not spread evenly), few enough that per-chunk work stays
// small, and each worker's buffer small beside the events.
const (
	minChunk  = 256 << 10
	maxChunk  = 1 << 20
	chunkTail = 64 << 10 // bytes past its end a chunk may read to finish its last entry
)

// parOptions are the parallel loader's knobs; tests use tiny chunks.
type parOptions struct {
	workers int
	chunk   int64 // target chunk size; 0: from the file size and workers
	stats   *parStats
}

// parStats reports how much the runs covered.
type parStats struct {
	runs            int
	claimed, events int64
	// Phases: the FRAME walk, the first pass, and the pipelined entry
	// decoding and sequential pass (with the sum of the chunks' decoding
	// times, and the time the sequential pass waited for chunks).
	walk, scan, rest, decode, waited time.Duration
	decodeNS                         atomic.Int64
	// cpu has the process's CPU time (user+system) at the phases' ends.
	cpu [4]time.Duration
	// cpuTime, when set, reads the process's CPU time (tests pass one).
	cpuTime func() time.Duration
}

func (s *parStats) mark(i int) {
	if s != nil && s.cpuTime != nil {
		s.cpu[i] = s.cpuTime()
	}
}

func loadParallel(ctx context.Context, f *os.File, size int64, o LoadOptions, po parOptions) (*Snapshot, error) {
	if po.workers <= 0 {
		po.workers = runtime.GOMAXPROCS(0)
	}
	if po.chunk <= 0 {
		po.chunk = min(max(size/int64(4*po.workers), minChunk), maxChunk)
	}
	t0 := time.Now()
	po.stats.mark(0)
	chunks, err := frameChunks(f, size, po.chunk)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	po.stats.mark(1)
	n := len(chunks)
	pool := newBufPool(po.workers)

	// Pass 1: counts and fetched indexes.
	scans := make([]scanned, n)
	err = parallelDo(ctx, n, po.workers, func(w, i int) error {
		buf, err := pool.read(w, f, chunks[i].start, chunks[i].end)
		if err != nil {
			return err
		}
		scans[i], err = scanChunk(buf)
		return err
	})
	if err != nil {
		return nil, err
	}
	bases := make([]uint64, n+1)
	dictBases := make([]int64, n+1)
	nrefs := 0
	for _, s := range scans {
		nrefs += len(s.refs)
	}
	all := make([]uint32, 0, nrefs)
	for i, s := range scans {
		bases[i+1] = bases[i] + s.memo
		dictBases[i+1] = dictBases[i] + s.dicts
		all = append(all, s.refs...)
		scans[i].refs = nil
	}
	if bases[n] > 1<<32 {
		return nil, errNoParallel
	}
	t2 := time.Now()
	po.stats.mark(2)
	slices.Sort(all)
	all = slices.Compact(all)

	foreign := newForeignStrs(f, chunks, bases, scans, all)

	// Pass 3, the trace entries, runs ahead of pass 4, the rest in order,
	// which takes each chunk's runs as soon as they are ready and then
	// releases most of what the chunk held.
	events := o.makeEvents(int(dictBases[n]))[:dictBases[n]]
	ps := newParState(n, events)
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		stop()
		wg.Wait()
	}()
	var next atomic.Int64
	for range min(po.workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newChunkDec()
			c.spare = ps.spare
			var buf []byte
			for {
				select {
				case ps.tokens <- struct{}{}:
				case <-wctx.Done():
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				err := wctx.Err()
				if err == nil {
					end := min(chunks[i].end+chunkTail, size)
					if cap(buf) < int(end-chunks[i].start) {
						buf = make([]byte, end-chunks[i].start)
					}
					buf = buf[:end-chunks[i].start]
					if _, err = f.ReadAt(buf, chunks[i].start); err != nil {
						err = fmt.Errorf("read at %d: %w", chunks[i].start, err)
					}
				}
				if err != nil {
					ps.fail(err)
					close(ps.ready[i])
					continue
				}
				c.reset(int(scans[i].memo) + 1024)
				c.buf, c.off, c.limit = buf, chunks[i].start, int(chunks[i].end-chunks[i].start)
				c.base, c.dictBase, c.events = bases[i], dictBases[i], events
				c.foreign, c.refs = foreign, all
				t := time.Now()
				c.decode()
				if po.stats != nil {
					po.stats.decodeNS.Add(int64(time.Since(t)))
				}
				ps.outs[i] = c.out
				close(ps.ready[i])
			}
		}()
	}
	pool = nil

	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	b := newBuilder()
	b.opts, b.ctx = o, ctx
	b.par = ps
	if po.stats != nil {
		defer func() {
			po.stats.runs, po.stats.claimed, po.stats.events = ps.runsSeen, ps.claimed, ps.cursor
			po.stats.walk, po.stats.scan, po.stats.rest = t1.Sub(t0), t2.Sub(t1), time.Since(t2)
			po.stats.decode, po.stats.waited = time.Duration(po.stats.decodeNS.Load()), ps.waited
			po.stats.mark(3)
		}()
	}
	dec := pickle.NewDecoder(f)
	b.dec = dec
	dec.SetAppendHook(b.hook)
	dec.SetRunHook(b.runHook)
	v, err := dec.Decode()
	if err == nil {
		err = ps.failed()
	}
	if err != nil {
		return nil, err
	}
	if b.err != nil {
		return nil, b.err
	}
	return b.finish(v)
}

// bufPool holds one read buffer per worker.
type bufPool struct{ bufs [][]byte }

func newBufPool(workers int) *bufPool { return &bufPool{bufs: make([][]byte, workers)} }

func (p *bufPool) read(w int, f io.ReaderAt, start, end int64) ([]byte, error) {
	n := int(end - start)
	if cap(p.bufs[w]) < n {
		p.bufs[w] = make([]byte, n)
	}
	b := p.bufs[w][:n]
	if _, err := f.ReadAt(b, start); err != nil {
		return nil, fmt.Errorf("read at %d: %w", start, err)
	}
	return b, nil
}

// parallelDo runs fn(worker, i) for i in [0, n) on up to workers
// goroutines; it returns the first error, or ctx's once ctx is done.
func parallelDo(ctx context.Context, n, workers int, fn func(w, i int) error) error {
	var next atomic.Int64
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for w := range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = fn(w, i)
				}
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					next.Store(int64(n))
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// parState is the sequential pass's view of the runs.
type parState struct {
	outs  []chunkOut
	ready []chan struct{} // closed when outs[i] is
	// tokens bounds the chunks decoded ahead of the sequential pass.
	tokens  chan struct{}
	cc, ri  int // the chunk and run the sequential pass is at
	events  []TraceEvent
	cursor  int64 // where the next event goes
	claimed int64 // events that came from runs
	// runsSeen counts the runs the chunks found.
	runsSeen int
	waited   time.Duration
	spare    *spares
	// Local-to-Snapshot maps per chunk; -1: not mapped yet.
	stacks  [][]StackID
	streams [][]int64
	ctxs    [][]int32

	mu  sync.Mutex
	err error
}

func newParState(n int, events []TraceEvent) *parState {
	ps := &parState{
		outs:    make([]chunkOut, n),
		ready:   make([]chan struct{}, n),
		tokens:  make(chan struct{}, runtime.GOMAXPROCS(0)+2),
		spare:   newSpares(runtime.GOMAXPROCS(0) + 2),
		events:  events,
		stacks:  make([][]StackID, n),
		streams: make([][]int64, n),
		ctxs:    make([][]int32, n),
	}
	for i := range ps.ready {
		ps.ready[i] = make(chan struct{})
	}
	return ps
}

func (ps *parState) fail(err error) {
	ps.mu.Lock()
	if ps.err == nil {
		ps.err = err
	}
	ps.mu.Unlock()
}

func (ps *parState) failed() error {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.err
}

// wait waits for chunk ci and readies its maps.
func (ps *parState) wait(ci int) {
	if ci >= len(ps.outs) || ps.stacks[ci] != nil {
		return
	}
	t := time.Now()
	<-ps.ready[ci]
	ps.waited += time.Since(t)
	out := &ps.outs[ci]
	ps.runsSeen += len(out.runs)
	ps.stacks[ci] = filled(len(out.stacks), StackID(-1))
	ps.streams[ci] = filled(len(out.streams), int64(-1))
	ps.ctxs[ci] = filled(len(out.ctxs), int32(-1))
}

func filled[T any](n int, v T) []T {
	s := make([]T, n+1)[:n] // never nil
	for i := range s {
		s[i] = v
	}
	return s
}

// reach moves past the runs that start before input offset off and
// returns the next one (nil if none), waiting for its chunk.
func (ps *parState) reach(off int64) *prun {
	for ps.cc < len(ps.outs) {
		ps.wait(ps.cc)
		if ps.failed() != nil {
			return nil
		}
		runs := ps.outs[ps.cc].runs
		for ps.ri < len(runs) && runs[ps.ri].start < off {
			ps.ri++
		}
		if ps.ri < len(runs) {
			return &runs[ps.ri]
		}
		// Done with this chunk: keep only what later memo fetches of
		// its runs' entries need.
		out := &ps.outs[ps.cc]
		ps.spare.give(out.keys, out.stacks)
		out.stacks, out.keys, out.streams, out.ctxs = nil, nil, nil, nil
		for i := range runs {
			runs[i].stacks, runs[i].streams, runs[i].ctxs = nil, nil, nil
		}
		ps.streams[ps.cc], ps.ctxs[ps.cc] = nil, nil
		<-ps.tokens
		ps.cc, ps.ri = ps.cc+1, 0
	}
	return nil
}

// runHook skips a run of trace entries when one starts at off, on a
// device's trace list.
func (b *builder) runHook(off int64, l *pickle.List) (pickle.Run, error) {
	ps := b.par
	r := ps.reach(off)
	if r == nil || r.start != off || !b.isTraceList(l) {
		return pickle.Run{}, nil
	}
	if err := b.ctx.Err(); err != nil {
		return pickle.Run{}, err
	}
	ci := ps.cc
	out := &ps.outs[ci]
	c := b.traces[l]
	if c == nil {
		c = &eventChunks{first: ps.cursor, inBuf: true}
		b.traces[l] = c
	}
	if c.first+int64(c.n) != ps.cursor || r.region < ps.cursor {
		return pickle.Run{}, errNoParallel
	}
	stacks, streams, ctxs := ps.stacks[ci], ps.streams[ci], ps.ctxs[ci]
	for _, ls := range r.stacks {
		if stacks[ls] >= 0 {
			continue
		}
		sid, err := b.localStack(out, ls)
		if err != nil {
			return pickle.Run{}, nil // the sequential decoder will say what is wrong
		}
		stacks[ls] = sid
	}
	for _, ls := range r.streams {
		if streams[ls] < 0 {
			var id uint32
			if h := out.streams[ls]; h != 0 {
				id = b.stream(h)
			}
			streams[ls] = int64(id)
		}
	}
	for _, lc := range r.ctxs {
		if ctxs[lc] < 0 {
			var id int32
			if x := out.ctxs[lc]; x != (EventContext{}) {
				id = b.context(x)
			}
			ctxs[lc] = id
		}
	}
	src := ps.events[r.region : r.region+int64(r.n)]
	dst := ps.events[ps.cursor : ps.cursor+int64(r.n)]
	for i := range src {
		ev := src[i]
		ev.Stack = stacks[ev.Stack]
		ev.StreamID = uint32(streams[ev.StreamID])
		ev.Context = ctxs[ev.Context]
		dst[i] = ev
	}
	ps.cursor += int64(r.n)
	ps.claimed += int64(r.n)
	c.n += r.n
	b.entries += r.n
	ps.ri++
	return pickle.Run{Len: r.end - r.start, Memo: r.memoN, Lookup: func(idx uint64) any {
		i, ok := slices.BinarySearchFunc(r.vals, idx, func(v pval, x uint64) int { return cmp.Compare(uint64(v.idx), x) })
		if !ok {
			return nil
		}
		switch pv := r.vals[i]; pv.kind() {
		case slotStr:
			return r.strs[pv.a()]
		case slotFrame:
			f, err := b.laterFrame(out, pv.a())
			if err != nil {
				return nil
			}
			// A dict like the one the input held: nothing tells them
			// apart but identity, which only the memo gives.
			keys := out.frameKeys[pv.a()]
			var items []pickle.Item
			if keys&1 != 0 {
				items = append(items, pickle.Item{Key: "name", Value: f.Name})
			}
			if keys&2 != 0 {
				items = append(items, pickle.Item{Key: "filename", Value: f.Filename})
			}
			if keys&4 != 0 {
				items = append(items, pickle.Item{Key: "line", Value: int64(f.Line)})
			}
			return pickle.NewDict(items)
		case slotStack:
			return stackRef{stacks[pv.a()]}
		}
		return nil
	}}, nil
}

// addEvent stores an event the sequential decoder converted.
func (b *builder) addEvent(c *eventChunks, ev TraceEvent) error {
	ps := b.par
	if ps == nil {
		c.add(ev)
		return nil
	}
	if c.n == 0 {
		c.first, c.inBuf = ps.cursor, true
	}
	limit := int64(len(ps.events))
	if r := ps.reach(b.dec.Offset()); r != nil {
		limit = r.region
	}
	if c.first+int64(c.n) != ps.cursor || ps.cursor >= limit {
		return errNoParallel
	}
	ps.events[ps.cursor] = ev
	ps.cursor++
	c.n++
	return nil
}

// laterFrame returns a chunk's frame li, fetching the strs it left for
// the sequential pass; a value that is not a str is an error (the run is
// then left to the sequential decoder).
func (b *builder) laterFrame(out *chunkOut, li int32) (Frame, error) {
	f := out.frames[li]
	l, ok := out.later[li]
	if !ok {
		return f, nil
	}
	for _, x := range []struct {
		idx int64
		dst *string
	}{{l.name, &f.Name}, {l.file, &f.Filename}} {
		if x.idx < 0 {
			continue
		}
		s, ok := b.dec.Peek(uint64(x.idx)).(string)
		if !ok {
			return f, errors.New("frame name or filename not a str")
		}
		*x.dst = s
	}
	return f, nil
}

// localStack maps a chunk's local stack to a StackID, as stack would
// have converted the frames list.
func (b *builder) localStack(out *chunkOut, ls int32) (StackID, error) {
	if ls == 0 {
		return 0, nil
	}
	d := &out.stacks[ls]
	if d.isForeign {
		v := b.dec.Peek(d.foreign)
		if v == nil {
			return 0, errors.New("frames list consumed")
		}
		return b.stack(v)
	}
	// Lists of the same frame dicts (the same memo indexes) are the same
	// stack: each is converted once.
	idxKey := out.keys[d.off : d.off+4*d.n]
	if sid, ok := b.idxStack[string(idxKey)]; ok {
		return sid, nil
	}
	key := b.keyBuf[:0]
	for i := 0; i < len(idxKey); i += 4 {
		idx := binary.LittleEndian.Uint32(idxKey[i:])
		var id int32
		if li, ok := out.fresh[idx]; ok {
			f, err := b.laterFrame(out, li)
			if err != nil {
				return 0, err
			}
			id = b.frameIndex(f)
		} else {
			var err error
			if id, err = b.frameItem(b.dec.Peek(uint64(idx))); err != nil {
				return 0, err
			}
		}
		key = appendFrameID(key, id)
	}
	b.keyBuf = key
	sid := b.stackOf(key)
	if b.idxStack == nil {
		b.idxStack = map[string]StackID{}
	}
	b.idxStack[string(idxKey)] = sid
	return sid, nil
}
