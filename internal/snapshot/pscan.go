package snapshot

import (
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"sync"
)

// The parallel loader (see pload.go) splits a file at FRAME opcodes:
// CPython's pickler (protocol 4 and later) only ever starts a frame on an
// opcode boundary, so each chunk of whole frames can be scanned opcode by
// opcode on its own. This file holds the opcode-level scans; they
// understand lengths, not values.

// errNoParallel makes the loader fall back to the sequential decoder.
var errNoParallel = errors.New("snapshot: input not fit for the parallel loader")

// Opcodes the scans look at (pickle's names).
const (
	pMark      = '('
	pStop      = '.'
	pBinInt    = 'J'
	pBinInt1   = 'K'
	pBinInt2   = 'M'
	pNone      = 'N'
	pBinUni    = 'X'
	pEmptyList = ']'
	pAppend    = 'a'
	pAppends   = 'e'
	pEmptyDict = '}'
	pSetItems  = 'u'
	pBinGet    = 'h'
	pLongGet   = 'j'
	pTrue      = 0x88
	pFalse     = 0x89
	pLong1     = 0x8a
	pShortUni  = 0x8c
	pBinUni8   = 0x8d
	pMemoize   = 0x94
	pFrame     = 0x95
)

// opLen returns the length of the opcode at b[0] with its argument, or 0
// when it is not one the parallel loader accepts (BINPUT and PUT, whose
// explicit memo indexes would break counting, text-protocol and
// code-running opcodes) or runs past b's end.
func opLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := 1
	switch b[0] {
	case '(', '.', '0', '1', '2', 'N', ']', 'a', 'e', 'l', ')', 't', '}', 'd', 's', 'u',
		0x85, 0x86, 0x87, 0x88, 0x89, 0x94:
	case 'K', 'h', 0x80:
		n = 2
	case 'M':
		n = 3
	case 'J', 'j':
		n = 5
	case 'G', 0x95:
		n = 9
	case 0x8a, 0x8c, 'C':
		if len(b) < 2 {
			return 0
		}
		n = 2 + int(b[1])
	case 'X', 'B', 0x8b:
		if len(b) < 5 {
			return 0
		}
		l := binary.LittleEndian.Uint32(b[1:])
		if uint64(l) > uint64(len(b)) {
			return 0
		}
		n = 5 + int(l)
	case 0x8d, 0x8e:
		if len(b) < 9 {
			return 0
		}
		l := binary.LittleEndian.Uint64(b[1:])
		if l > uint64(len(b)) {
			return 0
		}
		n = 9 + int(l)
	default:
		return 0
	}
	if n > len(b) {
		return 0
	}
	return n
}

// fixedLen holds the length of each opcode whose length is fixed (with
// its argument), and 0 for the others.
var fixedLen = func() (t [256]uint8) {
	for op := range 256 {
		switch b := byte(op); b {
		case 0x8a, 0x8c, 'C', 'X', 'B', 0x8b, 0x8d, 0x8e:
		default:
			var buf [9]byte
			buf[0] = b
			t[op] = uint8(opLen(buf[:]))
		}
	}
	return t
}()

// size is opLen of the opcode at b[i], with a table for the common case.
func size(b []byte, i int) int {
	if n := int(fixedLen[b[i]]); n != 0 && i+n <= len(b) {
		return n
	}
	return opLen(b[i:])
}

// span is a byte range of the input: one chunk.
type span struct{ start, end int64 }

// scanned is what the first pass learns about a chunk.
type scanned struct {
	memo  uint64   // MEMOIZE opcodes in it
	dicts int64    // EMPTY_DICT opcodes in it
	refs  []uint32 // distinct memo indexes its BINGET/LONG_BINGET fetch, ascending
	// tail is the str its last opcode pushes, if it is one: the next
	// chunk's first MEMOIZE may store it.
	tail []byte
	// words maps the memo indexes of the words the entry decoder reads
	// (keys, actions) that the chunk memoizes to those words.
	words map[uint32]string
}

// isWord reports whether s is one of the strs the entry decoder reads by
// value: a trace entry's or frame's key, an action, the empty str. A
// pickler memoizes each where it first writes it, and a snapshot written
// in pieces may write them again and again: the first pass records them,
// so that the decoders of later chunks need not look for them.
func isWord(s []byte) bool {
	if len(s) > 15 {
		return false
	}
	switch string(s) {
	case "", "action", "addr", "device_free", "size", "stream", "time_us", "frames",
		"compile_context", "user_metadata", "name", "filename", "line", "user_defined":
		return true
	}
	_, ok := actionOf(s)
	return ok
}

// scanChunk is the first pass: it checks that b is a run of whole
// opcodes the parallel loader accepts and counts what later passes need.
// seen is the caller's scratch set (emptied here): one per worker, it
// is grown once instead of once per chunk (83 MB of map growth on the
// 1 GiB benchmark file).
func scanChunk(b []byte, seen map[uint32]struct{}) (scanned, error) {
	var s scanned
	clear(seen)
	// Most fetches are of the same few keys: a small cache of indexes
	// already in seen saves most map writes.
	var recent [1024]uint32 // index+1
	prevStr := -1           // where the str opcode just before starts
	for i := 0; i < len(b); {
		// The commonest opcodes first, each in a few instructions: this
		// loop sees every opcode of the file.
		switch op := b[i]; op {
		case pBinGet, pLongGet:
			var idx uint32
			if op == pBinGet {
				if i+2 > len(b) {
					return s, errNoParallel
				}
				idx, i = uint32(b[i+1]), i+2
			} else {
				if i+5 > len(b) {
					return s, errNoParallel
				}
				idx, i = binary.LittleEndian.Uint32(b[i+1:]), i+5
			}
			if h := &recent[idx&1023]; *h != idx+1 {
				*h = idx + 1
				seen[idx] = struct{}{}
			}
			prevStr = -1
			continue
		case pMemoize:
			if prevStr >= 0 {
				if w := strArg(b[prevStr:], size(b, prevStr)); isWord(w) {
					if s.words == nil {
						s.words = map[uint32]string{}
					}
					s.words[uint32(s.memo)] = string(w) // local index for now
				}
			}
			s.memo++
			prevStr = -1
			i++
			continue
		case pEmptyDict:
			s.dicts++
			prevStr = -1
			i++
			continue
		case pFrame:
			if i+9 > len(b) {
				return s, errNoParallel
			}
			i += 9 // a str before a FRAME may still be memoized after it
			continue
		case pMark, pSetItems, pEmptyList, pAppend, pAppends:
			prevStr = -1
			i++
			continue
		case pBinInt1, pBinInt2, pBinInt:
			n := int(fixedLen[op])
			if i+n > len(b) {
				return s, errNoParallel
			}
			prevStr = -1
			i += n
			continue
		case pLong1, pShortUni:
			// A length byte, then as many bytes (the pickler writes
			// most ints and strs of a trace so).
			if i+2 > len(b) || i+2+int(b[i+1]) > len(b) {
				return s, errNoParallel
			}
			prevStr = -1
			if op == pShortUni {
				prevStr = i
			}
			i += 2 + int(b[i+1])
			continue
		}
		n := size(b, i)
		if n == 0 {
			return s, errNoParallel
		}
		prevStr = -1
		if isStrOp(b[i]) {
			prevStr = i
		} else if b[i] == pStop && i+n != len(b) {
			// Whatever follows STOP is not part of the pickle: the
			// sequential decoder leaves it unread.
			return s, errNoParallel
		}
		i += n
	}
	s.refs = make([]uint32, 0, len(seen))
	for k := range seen {
		s.refs = append(s.refs, k)
	}
	slices.Sort(s.refs)
	if prevStr >= 0 {
		s.tail = append([]byte{}, strArg(b[prevStr:], size(b, prevStr))...)
	}
	return s, nil
}

// isStrOp reports whether op pushes a str.
func isStrOp(op byte) bool { return op == pShortUni || op == pBinUni || op == pBinUni8 }

// strArg returns the bytes of the str the opcode at b[0] (of length n)
// pushes.
func strArg(b []byte, n int) []byte {
	switch b[0] {
	case pShortUni:
		return b[2:n]
	case pBinUni:
		return b[5:n]
	}
	return b[9:n]
}

// foreignStrs gives the chunk decoders the strs memoized in other chunks:
// on the first question about a chunk it reads that chunk's memoized strs
// (the keys and actions, which the first chunks define, are nearly all
// that is ever asked for).
type foreignStrs struct {
	f      io.ReaderAt
	chunks []span
	bases  []uint64 // first memo index of each chunk, and the total
	tails  [][]byte // each chunk's scanned.tail
	want   []uint32 // the memo indexes the input fetches, ascending
	words  map[uint32][]byte
	once   []sync.Once
	strs   []map[uint32][]byte
}

func newForeignStrs(f io.ReaderAt, chunks []span, bases []uint64, scans []scanned, want []uint32) *foreignStrs {
	fs := &foreignStrs{f: f, chunks: chunks, bases: bases, want: want, words: map[uint32][]byte{},
		once: make([]sync.Once, len(chunks)), strs: make([]map[uint32][]byte, len(chunks))}
	for i, s := range scans {
		fs.tails = append(fs.tails, s.tail)
		for k, w := range s.words {
			if idx := bases[i] + uint64(k); idx < 1<<32 {
				fs.words[uint32(idx)] = []byte(w)
			}
		}
	}
	return fs
}

// get returns the str under memo index idx; ok is false when that is not
// a str (or the chunk could not be read: the entry is then left to the
// sequential decoder, which will say what is wrong).
func (fs *foreignStrs) get(idx uint64) ([]byte, bool) {
	if w, ok := fs.words[uint32(idx)]; ok {
		return w, true
	}
	ci, found := slices.BinarySearch(fs.bases, idx)
	if !found {
		ci--
	}
	for ci+1 < len(fs.bases) && fs.bases[ci+1] == idx && fs.bases[ci] == idx {
		ci++ // chunks that memoize nothing
	}
	if ci < 0 || ci >= len(fs.chunks) {
		return nil, false
	}
	fs.once[ci].Do(func() {
		c := fs.chunks[ci]
		b := make([]byte, c.end-c.start)
		if _, err := fs.f.ReadAt(b, c.start); err != nil {
			return
		}
		var carry []byte
		if ci > 0 {
			carry = fs.tails[ci-1]
		}
		lo, hi := lowerBound(fs.want, fs.bases[ci]), lowerBound(fs.want, fs.bases[ci+1])
		fs.strs[ci] = memoStrings(b, fs.bases[ci], fs.want[lo:hi], carry)
	})
	s, ok := fs.strs[ci][uint32(idx)]
	return s, ok
}

// memoStrings returns the strs that a chunk, whose first memo index is
// base, memoizes under the indexes in want (ascending); carry is the
// previous chunk's tail.
func memoStrings(b []byte, base uint64, want []uint32, carry []byte) map[uint32][]byte {
	out := map[uint32][]byte{}
	idx := base
	lastStr := carry
	for i := 0; i < len(b) && len(want) > 0; {
		n := size(b, i)
		if n == 0 {
			break
		}
		op := b[i]
		switch {
		case op == pMemoize:
			for len(want) > 0 && uint64(want[0]) < idx {
				want = want[1:]
			}
			if len(want) > 0 && uint64(want[0]) == idx && lastStr != nil {
				out[uint32(idx)] = append([]byte(nil), lastStr...)
			}
			idx++
			lastStr = nil
		case isStrOp(op):
			lastStr = strArg(b[i:], n)
		case op != pFrame:
			lastStr = nil
		}
		i += n
	}
	return out
}
