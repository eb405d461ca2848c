package infer

import "github.com/vramkit/vramkit/internal/allocsim"

// Category is what an allocation holds, for the breakdown at the peak.
type Category uint8

// Categories of inference memory.
const (
	CatWeights Category = iota
	CatKVCache
	CatActivations // hidden states and per-layer intermediates of a forward
	CatLogits      // LM-head output and generate's float32 copy
	CatTemporaries // masks, repeated K/V, token ids, dequantised weights
	numCategories
)

var categoryNames = [...]string{"weights", "kv_cache", "activations", "logits", "temporaries"}

// String is the category's name in reports.
func (c Category) String() string { return categoryNames[c] }

// Phase is the part of generate an allocation belongs to.
type Phase uint8

// Phases of generate.
const (
	PhaseLoad Phase = iota
	PhasePrefill
	PhaseDecode
)

var phaseNames = [...]string{"load", "prefill", "decode"}

// String is the phase's name in reports.
func (p Phase) String() string { return phaseNames[p] }

// stream records allocations and frees in program order as allocsim
// requests, and keeps the live bytes per category (rounded as the caching
// allocator rounds requests) to report what is live at the peak.
//
// Without a sink it keeps every request in reqs. With one, reqs is a
// buffer handed to the sink whenever it holds flushEvery requests (and at
// flush): a generate call of thousands of tokens writes millions of
// requests, which kept whole cost gigabytes and most of the run's time in
// growing the slice. IDs of freed allocations are reused, so that they
// stay as few as the allocations live at once.
type stream struct {
	reqs []allocsim.Request
	sink func([]allocsim.Request)
	// n counts the requests written (buffered or handed on)
	n       int64
	next    int32
	freeIDs []int32
	live    map[int32]live
	phase   Phase

	cur       [numCategories]int64
	total     int64
	peak      int64
	peakCats  [numCategories]int64
	peakPhase Phase
	peakStep  int // decode step of the peak (0 = prefill)
	step      int
	// trafficBytes sums the requests outside weights and cache, the
	// memory traffic of elementwise kernels.
	trafficBytes int64
}

type live struct {
	size int64
	cat  Category
}

func newStream() *stream { return &stream{live: map[int32]live{}} }

// flushEvery is how many requests a sink's buffer holds before it is
// handed on.
const flushEvery = 1 << 16

// put writes one request, handing the buffer to the sink when it is full.
func (s *stream) put(r allocsim.Request) {
	r.Event = int32(len(s.reqs)) // the piece's index: OOMAt is looked at only for ≥ 0
	s.reqs = append(s.reqs, r)
	s.n++
	if s.sink != nil && len(s.reqs) >= flushEvery {
		s.flush()
	}
}

// flush hands the buffered requests to the sink.
func (s *stream) flush() {
	if s.sink != nil && len(s.reqs) > 0 {
		s.sink(s.reqs)
		s.reqs = s.reqs[:0]
	}
}

// round is kMinBlockSize rounding: every request is a multiple of 512 bytes.
func round(n int64) int64 {
	if n < 512 {
		return 512
	}
	return (n + 511) / 512 * 512
}

// alloc records a request of n bytes and returns its id; empty tensors
// allocate nothing, as in PyTorch, and return -1.
func (s *stream) alloc(n int64, c Category) int32 {
	if n <= 0 {
		return -1
	}
	var id int32
	if k := len(s.freeIDs); k > 0 {
		id, s.freeIDs = s.freeIDs[k-1], s.freeIDs[:k-1]
	} else {
		id = s.next
		s.next++
	}
	s.put(allocsim.Request{Kind: allocsim.ReqAlloc, ID: id, Size: n})
	s.live[id] = live{n, c}
	if c != CatWeights && c != CatKVCache {
		s.trafficBytes += n
	}
	r := round(n)
	s.cur[c] += r
	s.total += r
	if s.total > s.peak {
		s.peak, s.peakCats, s.peakPhase, s.peakStep = s.total, s.cur, s.phase, s.step
	}
	return id
}

// free records the release of ids (ignoring -1).
func (s *stream) free(ids ...int32) {
	for _, id := range ids {
		l, ok := s.live[id]
		if !ok {
			continue
		}
		delete(s.live, id)
		s.put(allocsim.Request{Kind: allocsim.ReqFree, ID: id})
		s.freeIDs = append(s.freeIDs, id)
		r := round(l.size)
		s.cur[l.cat] -= r
		s.total -= r
	}
}
