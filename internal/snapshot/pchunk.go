package snapshot

// The parallel loader's per-chunk tables: what a chunk decoder keeps for
// its memo entries and stacks, what it hands back to the sequential pass,
// and the spare buffers the workers reuse.

// spares passes the biggest per-chunk tables back to the workers once the
// sequential pass is done with them: reused, they cost no fresh memory
// and no garbage.
type spares struct{ ch chan spare }

type spare struct {
	keys   []byte
	stacks []stackDesc
}

func newSpares(n int) *spares { return &spares{ch: make(chan spare, n)} }

func (s *spares) take() ([]byte, []stackDesc) {
	if s != nil {
		select {
		case x := <-s.ch:
			return x.keys, x.stacks
		default:
		}
	}
	return nil, nil
}

func (s *spares) give(keys []byte, stacks []stackDesc) {
	select {
	case s.ch <- spare{keys, stacks}:
	default:
	}
}

// memoSlot is what a local memo entry holds.
type memoSlot struct {
	kind slotKind
	a, b int32 // str: offset and length in buf; frame: local frame; stack: local stack
}

type slotKind uint8

const (
	slotUnknown slotKind = iota // made outside a run: ask the sequential decoder's memo
	slotStr
	slotFrame
	slotStack
	slotEntry
)

// stackDesc is a local stack: a frames list decoded here, whose frame
// dicts are those under the memo indexes keys[off:off+4n] lists, or the
// object under memo index foreign (isForeign).
type stackDesc struct {
	isForeign bool
	foreign   uint64
	off, n    int32
}

type frameLater struct{ name, file int64 }

// chunkOut is a chunk's result.
type chunkOut struct {
	runs   []prun
	stacks []stackDesc // [0] is the empty stack
	keys   []byte      // the stacks' frame memo indexes, 4 bytes little-endian each
	// frames are the frame dicts decoded here; fresh maps their memo
	// indexes to them.
	frames []Frame
	// frameKeys has, for each of frames, bits 1, 2, 4 for the keys
	// name, filename and line its dict had.
	frameKeys []uint8
	fresh     map[uint32]int32
	// later holds, for frames whose name or filename is a str memoized in
	// another chunk, those memo indexes (-1: the str is in frames).
	later map[int32]frameLater
	// tags are the local tags: stream handles and indexes in ctxs; [0]
	// is the default stream with no context.
	tags []EventTag
	ctxs []EventContext
	// last is the last chunk that fetches a memo entry its runs define
	// (the chunk's own number if none; neverFreed: keep them to the end).
	last uint16
}

// prun is a run of consecutive trace entries decoded in parallel.
type prun struct {
	start, end int64  // input offsets: the first entry's EMPTY_DICT, the end of the last entry
	memo0      uint64 // memo index of its first MEMOIZE
	memoN      uint64
	region     int64 // index of its first event in the shared buffer
	n          int
	// Local ids used in the run, in order of first use in it.
	stacks []int32
	tags   []uint32
	// vals are the memo entries the run defines that the input fetches,
	// ascending; strs holds the strs among them.
	vals []pval
	strs []string
}

// pval is one memo entry a run defines, packed in 8 bytes (millions of
// them are kept to the end): its index, and its slotKind in the top 3 bits
// over a (str: index in strs; frame: local frame; stack: local stack).
type pval struct {
	idx      uint32
	kindAndA uint32
}

func (v pval) kind() slotKind { return slotKind(v.kindAndA >> 29) }
func (v pval) a() int32       { return int32(v.kindAndA & (1<<29 - 1)) }

// lowerBound is the first index of ascending a whose value is x or more.
func lowerBound(a []uint32, x uint64) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if uint64(a[m]) < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
