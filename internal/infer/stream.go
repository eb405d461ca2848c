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

func (p Phase) String() string { return phaseNames[p] }

// stream records allocations and frees in program order as allocsim
// requests, and keeps the live bytes per category (rounded as the caching
// allocator rounds requests) to report what is live at the peak.
type stream struct {
	reqs  []allocsim.Request
	next  int32
	live  map[int32]live
	phase Phase

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
	id := s.next
	s.next++
	s.reqs = append(s.reqs, allocsim.Request{Kind: allocsim.ReqAlloc, ID: id, Size: n, Event: int32(len(s.reqs))})
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
		s.reqs = append(s.reqs, allocsim.Request{Kind: allocsim.ReqFree, ID: id, Event: int32(len(s.reqs))})
		r := round(l.size)
		s.cur[l.cat] -= r
		s.total -= r
	}
}

// replay runs the stream through the caching allocator on a device of
// capacity bytes (0 = unlimited) and returns the peaks and where the first
// out-of-memory happened (-1 if none).
func (s *stream) replay(allocConf string, capacity, total int64) (allocated, reserved int64, oomAt int, err error) {
	cfg, err := allocsim.ParseConfig(allocConf)
	if err != nil {
		return 0, 0, -1, err
	}
	dev := allocsim.NewDevice(capacity, total)
	dev.TopDown = true
	res := allocsim.Simulate(s.reqs, cfg, dev)
	return res.Stats.AllocatedBytes.All.Peak, res.Stats.ReservedBytes.All.Peak, res.OOMAt, nil
}
