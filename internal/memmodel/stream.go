package memmodel

// Phase is the part of a training step an event belongs to.
type Phase uint8

// Phases of a training step.
const (
	PhaseLoad Phase = iota
	PhaseForward
	PhaseBackward
	PhaseOptimizer
)

var phaseNames = [...]string{"load", "forward", "backward", "optimizer"}

func (p Phase) String() string { return phaseNames[p] }

// Event is one allocation (Size > 0) or free (Size == 0) of the stream.
type Event struct {
	ID    int32
	Size  int64 // requested bytes; 0 for a free
	Cat   Category
	Phase Phase
	Op    string // the op (or step stage) that allocated it
}

// Stream is the allocation/free sequence of whole training steps.
type Stream struct {
	Events []Event
	// StepStart[i] is the index of the first event of step i.
	StepStart []int
}

// roundAlloc is the caching allocator's request rounding (kMinBlockSize).
func roundAlloc(n int64) int64 {
	if n < 512 {
		return 512
	}
	return (n + 511) / 512 * 512
}

// LivePeak replays the stream without an allocator and returns the peak of
// allocated bytes (rounded as the allocator rounds) and the bytes per
// category at that moment.
func (s *Stream) LivePeak() (peak int64, at int, cats [numCategories]int64) {
	size := map[int32]Event{}
	var cur int64
	var byCat [numCategories]int64
	for i, e := range s.Events {
		if e.Size > 0 {
			size[e.ID] = e
			r := roundAlloc(e.Size)
			cur += r
			byCat[e.Cat] += r
			if cur > peak {
				peak, at, cats = cur, i, byCat
			}
			continue
		}
		a, ok := size[e.ID]
		if !ok {
			continue
		}
		delete(size, e.ID)
		r := roundAlloc(a.Size)
		cur -= r
		byCat[a.Cat] -= r
	}
	return peak, at, cats
}
