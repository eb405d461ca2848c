package snapshot

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vramkit/vramkit/internal/pickle"
)

// The parallel loader reads a large uncompressed snapshot file on every
// core (GOMAXPROCS of them):
//
//  1. walkFrames cuts the file at FRAME opcodes into chunks;
//  2. scanChunk, on each chunk as soon as the walk has found it, counts
//     its MEMOIZE and EMPTY_DICT opcodes, the memo indexes it fetches and
//     where it memoizes the words entries are read by (keys, actions);
//     prefix sums give every chunk its first memo index and its place in
//     one shared buffer of events, and fetchTables merges the fetches
//     (see pfirst.go);
//  3. chunkDec decodes the trace entries of each chunk straight into that
//     buffer, in runs of consecutive entries (other strs it needs from
//     other chunks come from foreignStrs, which reads them on demand);
//  4. meanwhile the sequential decoder reads the file once more, skipping
//     every run it meets at a place where list items start (a RunHook),
//     decoding everything else (segments, settings, entries the runs left
//     out) as Load does, and moving each run's events into place, with
//     its local stack, stream and context numbers mapped to the
//     Snapshot's tables in file order. Chunks are decoded at most
//     GOMAXPROCS+2 ahead of it, and release their tables once it is past.
//
// The result is the sequential decoder's, field for field. Input the
// scheme does not fit (no frames, BINPUT, opcodes it does not know, data
// after STOP) returns errNoParallel by the end of the first pass;
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
	// The first pass has every core: nothing follows the trace yet.
	scanners := po.workers
	if po.workers <= 0 {
		po.workers = runtime.GOMAXPROCS(0)
		scanners = po.workers
		if o.Follow != nil && po.workers > 2 {
			// A consumer follows the trace (a replay, on one core, that
			// takes about as long as the whole decode on many): leave it
			// a core, or the decode's workers and the sequential pass
			// take turns with it on every one.
			po.workers--
		}
	}
	if po.chunk <= 0 {
		po.chunk = min(max(size/int64(4*po.workers), minChunk), maxChunk)
	}
	t0 := time.Now()
	po.stats.mark(0)
	pool := newBufPool(scanners)

	// Pass 1: counts and fetched indexes, chunk by chunk as the FRAME
	// walk finds them.
	scanRegion := trace.StartRegion(ctx, "load: first pass")
	chunks, scans, walked, err := firstPass(ctx, f, size, po.chunk, scanners, pool)
	if err != nil {
		return nil, err
	}
	n := len(chunks)
	bases := make([]uint64, n+1)
	dictBases := make([]int64, n+1)
	for i, s := range scans {
		bases[i+1] = bases[i] + s.memo
		dictBases[i+1] = dictBases[i] + s.dicts
	}
	if bases[n] > 1<<32 {
		return nil, errNoParallel
	}
	scanRegion.End()
	t1 := t0.Add(walked)
	t2 := time.Now()
	po.stats.mark(1)
	po.stats.mark(2)
	tables := trace.StartRegion(ctx, "load: fetch tables")
	all, last, err := fetchTables(ctx, scans, maxFetch(scans), scanners)
	if err != nil {
		return nil, err
	}

	// What only the entry decoders read: the last worker to finish drops
	// it, so that it is not held while the sequential pass catches up
	// (the end of the load, when the events are all in memory, is the
	// peak).
	shared := &decodeTables{refs: all, last: last, foreign: newForeignStrs(f, chunks, bases, scans, all), workers: int32(min(po.workers, n))}
	all, last = nil, nil
	tables.End()

	// Pass 3, the trace entries, runs ahead of pass 4, the rest in order,
	// which takes each chunk's runs as soon as they are ready and then
	// releases most of what the chunk held.
	events := o.makeEvents(int(dictBases[n]))[:dictBases[n]]
	ps := newParState(chunks, events)
	var loaded *Snapshot
	defer func() { ps.feed.end(loaded) }() // abandoned unless the load succeeds
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		stop()
		wg.Wait()
	}()
	var next atomic.Int64
	for w := range min(po.workers, n) {
		wg.Add(1)
		buf := pool.bufs[w] // the first pass's buffer, reused: fresh memory would add to the peak
		go func() {
			defer wg.Done()
			defer shared.done()
			c := newChunkDec()
			c.spare = ps.spare
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
				c.foreign, c.refs, c.last = shared.foreign, shared.refs, shared.last
				c.out.last = uint16(min(i, neverFreed))
				t := time.Now()
				r := trace.StartRegion(wctx, "load: decode chunk")
				c.decode()
				r.End()
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
	ps.resolve = b.resolveLater
	if po.stats != nil {
		defer func() {
			po.stats.runs, po.stats.claimed, po.stats.events = ps.runsSeen, ps.claimed, ps.cursor
			po.stats.walk, po.stats.scan, po.stats.rest = t1.Sub(t0), t2.Sub(t1), time.Since(t2)
			po.stats.decode, po.stats.waited = time.Duration(po.stats.decodeNS.Load()), ps.waited
			po.stats.mark(3)
		}()
	}
	seq := trace.StartRegion(ctx, "load: sequential pass")
	dec := pickle.NewDecoder(f)
	b.dec = dec
	dec.SetAppendHook(b.hook)
	dec.SetRunHook(b.runHook)
	v, err := dec.Decode()
	seq.End()
	if err == nil {
		err = ps.failed()
	}
	if err != nil {
		return nil, err
	}
	if b.err != nil {
		return nil, b.err
	}
	defer trace.StartRegion(ctx, "load: finish").End()
	loaded, err = b.finish(v)
	return loaded, err
}

// decodeTables are the tables the entry decoders share, dropped by the
// last of them to finish.
type decodeTables struct {
	refs    []uint32
	last    []uint16 // per index of refs, the last chunk that fetches it (see fetchTables)
	foreign *foreignStrs
	workers int32 // still running
	mu      sync.Mutex
}

func (t *decodeTables) done() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.workers--; t.workers == 0 {
		t.refs, t.last, t.foreign = nil, nil, nil
	}
}

// neverFreed, as the last chunk that fetches a memo index, keeps it to the
// end: the chunk's number does not fit.
const neverFreed = 1<<16 - 1

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
