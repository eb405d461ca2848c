package snapshot

import (
	"context"
	"encoding/binary"
	"io"
	"math/bits"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"
)

// The parallel loader's first pass (see pload.go), with no sequential
// step in the way of the cores: the FRAME walk hands each chunk to the
// scanning workers as soon as it has found the chunk's end (a walk alone
// is tens of thousands of small reads, as long as the scan of many
// chunks), and the table of fetched memo indexes is merged by ranges of
// indexes, one range per task, instead of in one sort of every fetch.

// walkFrames walks the FRAME headers of a protocol 4+ pickle of size
// bytes and groups whole frames into chunks of about target bytes, handing
// each to emit as soon as it is complete; emit returns false to stop the
// walk. The first chunk starts at 0 (the PROTO opcode); a short unframed
// tail (the STOP a pickler writes after its last frame) joins the last
// chunk. Input that is not framed so returns errNoParallel.
func walkFrames(r io.ReaderAt, size, target int64, emit func(span) bool) error {
	var hdr [9]byte
	if _, err := r.ReadAt(hdr[:2], 0); err != nil {
		return errNoParallel
	}
	if hdr[0] != 0x80 || hdr[1] < 4 || hdr[1] > 5 {
		return errNoParallel
	}
	cur := span{0, 2}
	for pos := int64(2); pos < size; {
		if size-pos < 9 {
			cur.end = size
			break
		}
		if _, err := r.ReadAt(hdr[:], pos); err != nil {
			return errNoParallel
		}
		if hdr[0] != pFrame {
			if size-pos > 64 {
				return errNoParallel
			}
			cur.end = size
			break
		}
		l := binary.LittleEndian.Uint64(hdr[1:])
		if l == 0 || l > uint64(size-pos-9) {
			return errNoParallel
		}
		pos += 9 + int64(l)
		cur.end = pos
		if cur.end-cur.start >= target {
			if !emit(cur) {
				return nil
			}
			cur = span{pos, pos}
		}
	}
	if cur.end > cur.start {
		emit(cur)
	}
	return nil
}

// firstPass finds the chunks of f (size bytes, chunks of about target
// bytes) and scans each (scanChunk) on workers goroutines, with pool's
// buffers, while the walk goes on. It returns the chunks, their scans in
// the same order, and how long the walk took.
func firstPass(ctx context.Context, f io.ReaderAt, size, target int64, workers int, pool *bufPool) ([]span, []scanned, time.Duration, error) {
	type job struct {
		i  int
		sp span
	}
	type result struct {
		i int
		s scanned
	}
	workers = max(workers, 1) // the walk waits for someone to take its chunks
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job, 64)
	var chunks []span
	var walkErr error
	var walkTime time.Duration
	var failed atomic.Bool
	var mu sync.Mutex
	var first error
	fail := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		failed.Store(true)
		cancel()
	}
	go func() {
		defer close(jobs)
		defer trace.StartRegion(ctx, "load: frame walk").End()
		t := time.Now()
		walkErr = walkFrames(f, size, target, func(sp span) bool {
			if failed.Load() {
				return false
			}
			select {
			case jobs <- job{len(chunks), sp}:
				chunks = append(chunks, sp)
				return true
			case <-wctx.Done():
				return false
			}
		})
		walkTime = time.Since(t)
	}()
	outs := make([][]result, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen := map[uint32]struct{}{} // grown once per worker, not once per chunk
			for j := range jobs {
				if failed.Load() {
					continue // drain: the walk stops at its next chunk
				}
				if err := ctx.Err(); err != nil {
					fail(err)
					continue
				}
				r := trace.StartRegion(ctx, "load: scan chunk")
				buf, err := pool.read(w, f, j.sp.start, j.sp.end)
				var s scanned
				if err == nil {
					s, err = scanChunk(buf, seen)
				}
				r.End()
				if err != nil {
					fail(err)
					continue
				}
				outs[w] = append(outs[w], result{j.i, s})
			}
		}()
	}
	wg.Wait() // after the walk: jobs is closed once it ends
	if first != nil {
		return nil, nil, walkTime, first
	}
	if walkErr != nil {
		return nil, nil, walkTime, walkErr
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, walkTime, err
	}
	scans := make([]scanned, len(chunks))
	for _, o := range outs {
		for _, r := range o {
			scans[r.i] = r.s
		}
	}
	return chunks, scans, walkTime, nil
}

// fetchTables merges the chunks' fetched memo indexes (each chunk's
// ascending, below total) into the distinct indexes, ascending, and the
// last chunk that fetches each (neverFreed from chunk 65535 on), and drops
// the chunks' lists. Each task takes one range of indexes: it marks, in
// a bitmap and a table of the range, the chunks in order (the last mark
// of an index wins), then reads the marks out in order.
func fetchTables(ctx context.Context, scans []scanned, total uint64, workers int) ([]uint32, []uint16, error) {
	const width = fetchRange
	parts := int((total + width - 1) / width)
	type part struct {
		refs []uint32
		last []uint16
	}
	out := make([]part, parts)
	type scratch struct {
		bits []uint64
		at   []uint16
	}
	tmp := make([]scratch, workers)
	err := parallelDo(ctx, parts, workers, func(w, p int) error {
		defer trace.StartRegion(ctx, "load: fetch range").End()
		lo, hi := uint64(p)*width, min(uint64(p+1)*width, total)
		if lo >= hi {
			return nil
		}
		s := &tmp[w]
		n := int(hi - lo)
		if s.at == nil {
			s.at, s.bits = make([]uint16, width), make([]uint64, width/64)
		}
		marked := 0
		for ci := range scans {
			refs := scans[ci].refs
			for _, idx := range refs[lowerBound(refs, lo):lowerBound(refs, hi)] {
				k := idx - uint32(lo)
				if s.bits[k>>6]&(1<<(k&63)) == 0 {
					s.bits[k>>6] |= 1 << (k & 63)
					marked++
				}
				s.at[k] = uint16(min(ci, neverFreed))
			}
		}
		refs, last := make([]uint32, 0, marked), make([]uint16, 0, marked)
		for wi := range (n + 63) / 64 {
			for word := s.bits[wi]; word != 0; word &= word - 1 {
				k := uint32(wi*64 + bits.TrailingZeros64(word))
				refs = append(refs, uint32(lo)+k)
				last = append(last, s.at[k])
			}
			s.bits[wi] = 0
		}
		out[p] = part{refs, last}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	n := 0
	for _, p := range out {
		n += len(p.refs)
	}
	refs, last := make([]uint32, 0, n), make([]uint16, 0, n)
	for _, p := range out {
		refs, last = append(refs, p.refs...), append(last, p.last...)
	}
	for i := range scans {
		scans[i].refs = nil
	}
	return refs, last, nil
}

// fetchRange is how many memo indexes one task of fetchTables covers: its
// tables (17 bits an index) stay in a core's cache, and fresh memory,
// slow to fault in on some machines, stays small.
const fetchRange = 1 << 18

// maxFetch is one past the largest memo index the scans fetch (0: none).
func maxFetch(scans []scanned) uint64 {
	var m uint64
	for _, s := range scans {
		if len(s.refs) > 0 {
			m = max(m, uint64(s.refs[len(s.refs)-1])+1) // ascending
		}
	}
	return m
}
