package snapshot

import (
	"encoding/binary"
	"math"
)

// chunkDec decodes the trace entries of one chunk straight into
// TraceEvents, in runs of consecutive entries, without building pickle
// values. It knows the chunk's first memo index (from the first pass) but
// not the pickle stack at the chunk's start, so it only claims entries it
// can read in full; everything else is left to the sequential decoder,
// which checks each run's context before it skips it (see pload.go).
//
// Stacks, streams and contexts are numbered locally, in order of first
// use; the sequential pass maps them to the Snapshot's tables in file
// order, so the numbering is the sequential decoder's.
type chunkDec struct {
	buf   []byte // the chunk's bytes, and some of the next chunk's
	off   int64  // input offset of buf[0]
	limit int    // the chunk's own end within buf
	base  uint64 // memo index of the chunk's first MEMOIZE
	memo  []memoSlot
	// dicts counts EMPTY_DICT opcodes so far; with dictBase (those
	// before the chunk) it places a run's events in the shared buffer.
	dicts    int64
	dictBase int64
	events   []TraceEvent // the shared buffer, one slot per EMPTY_DICT of the input
	foreign  *foreignStrs
	// strCache holds strs of other chunks fetched lately (index+1 and
	// value): the same few keys and actions, entry after entry.
	strCache [strCacheSize]struct {
		idx uint64
		s   []byte
	}
	refs []uint32 // every memo index the input fetches, ascending
	// spare has the tables of chunks the sequential pass is done with.
	spare *spares
	out   chunkOut

	names     map[string]string
	foreignSt map[uint64]int32
	streamID  map[uint64]uint32
	ctxID     map[EventContext]int32
	// seen*: the run (index+1) that last listed a local id as used.
	seenStack  []int32
	seenStream []int32
	seenCtx    []int32
}

const strCacheSize = 256

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
	later   map[int32]frameLater
	streams []uint64 // [0] is stream 0
	ctxs    []EventContext
}

// prun is a run of consecutive trace entries decoded in parallel.
type prun struct {
	start, end int64  // input offsets: the first entry's EMPTY_DICT, the end of the last entry
	memo0      uint64 // memo index of its first MEMOIZE
	memoN      uint64
	region     int64 // index of its first event in the shared buffer
	n          int
	// Local ids used in the run, in order of first use in it.
	stacks  []int32
	streams []uint32
	ctxs    []int32
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

func newChunkDec() *chunkDec {
	return &chunkDec{
		names:     map[string]string{},
		foreignSt: map[uint64]int32{},
		streamID:  map[uint64]uint32{},
		ctxID:     map[EventContext]int32{},
	}
}

// reset readies a worker's decoder for another chunk, keeping its
// buffers: fresh memory costs more than reuse on a busy machine.
func (c *chunkDec) reset(memo int) {
	if cap(c.memo) < memo {
		c.memo = make([]memoSlot, 0, memo+memo/8)
	}
	c.memo, c.dicts = c.memo[:0], 0
	clear(c.foreignSt)
	clear(c.streamID)
	clear(c.ctxID)
	if len(c.names) > 1<<16 {
		c.names = map[string]string{}
	}
	c.streamID[0], c.ctxID[EventContext{}] = 0, 0
	c.seenStack = append(c.seenStack[:0], 0)
	c.seenStream = append(c.seenStream[:0], 0)
	c.seenCtx = append(c.seenCtx[:0], 0)
	// The last chunk's sizes are a good guess at this one's.
	nk, ns := len(c.out.keys), len(c.out.stacks)
	keys, stacks := c.spare.take()
	if cap(keys) < nk+nk/8 {
		keys = make([]byte, 0, nk+nk/8)
	}
	if cap(stacks) < ns+ns/8+1 {
		stacks = make([]stackDesc, 0, ns+ns/8+1)
	}
	c.out = chunkOut{
		keys:    keys[:0],
		stacks:  append(stacks[:0], stackDesc{}),
		streams: []uint64{0},
		ctxs:    []EventContext{{}},
		fresh:   map[uint32]int32{},
	}
}

// skipFrames steps over FRAME opcodes at p.
func (c *chunkDec) skipFrames(p int) int {
	for p < len(c.buf) && c.buf[p] == pFrame {
		p += 9
	}
	return p
}

// decode walks the chunk, claiming runs of trace entries.
func (c *chunkDec) decode() {
	p := 0
	var prev byte
	var lastStr = -1
	synced := false
	for p < c.limit {
		op := c.buf[p]
		if op == pEmptyDict && (!synced || prev == pMark) {
			if end, ok := c.tryRun(p); ok {
				synced = true
				p, prev, lastStr = end, pSetItems, -1
				continue
			}
		}
		n := size(c.buf, p)
		if n == 0 {
			return
		}
		switch {
		case op == pMemoize:
			s := memoSlot{}
			if lastStr >= 0 {
				n := opLen(c.buf[lastStr:])
				b := strArg(c.buf[lastStr:], n)
				s = memoSlot{slotStr, int32(lastStr + n - len(b)), int32(len(b))}
			}
			c.memo = append(c.memo, s)
			lastStr = -1
		case op == pEmptyDict:
			c.dicts++
			lastStr = -1
		case isStrOp(op):
			lastStr = p
		case op == pFrame:
			p += n
			continue
		default:
			lastStr = -1
		}
		prev = op
		p += n
	}
}

// tryRun decodes entries from p on; ok is false when not even the first
// one could be read.
func (c *chunkDec) tryRun(p int) (int, bool) {
	r := prun{start: c.off + int64(p), memo0: c.base + uint64(len(c.memo)), region: c.dictBase + c.dicts}
	runIdx := int32(len(c.out.runs) + 1)
	for {
		memoLen, dicts := len(c.memo), c.dicts
		if r.region+int64(r.n) >= int64(len(c.events)) {
			break
		}
		ev, q, ok := c.entry(p)
		if !ok {
			c.memo, c.dicts = c.memo[:memoLen], dicts
			break
		}
		c.events[r.region+int64(r.n)] = ev
		r.n++
		if int(ev.Stack) < len(c.seenStack) && c.seenStack[ev.Stack] != runIdx {
			c.seenStack[ev.Stack] = runIdx
			r.stacks = append(r.stacks, int32(ev.Stack))
		}
		if c.seenStream[ev.StreamID] != runIdx {
			c.seenStream[ev.StreamID] = runIdx
			r.streams = append(r.streams, ev.StreamID)
		}
		if c.seenCtx[ev.Context] != runIdx {
			c.seenCtx[ev.Context] = runIdx
			r.ctxs = append(r.ctxs, ev.Context)
		}
		p = q
		if p >= c.limit {
			break
		}
		q = c.skipFrames(p)
		if q >= len(c.buf) || c.buf[q] != pEmptyDict {
			break
		}
		p = q
	}
	if r.n == 0 {
		return 0, false
	}
	r.end = c.off + int64(p)
	r.memoN = c.base + uint64(len(c.memo)) - r.memo0
	lo, hi := r.memo0, r.memo0+r.memoN
	i, j := lowerBound(c.refs, lo), lowerBound(c.refs, hi)
	r.vals = make([]pval, 0, j-i)
	for ; i < j; i++ {
		idx := uint64(c.refs[i])
		m := c.memo[idx-c.base]
		a := m.a
		switch m.kind {
		case slotStr:
			a = int32(len(r.strs))
			r.strs = append(r.strs, string(c.buf[m.a:m.a+m.b]))
		case slotEntry:
			// The input fetches an entry dict: whether it is still alive
			// then depends on where its batch ends. Leave the entries to
			// the sequential decoder (the memo counts stay right).
			return p, true
		case slotUnknown:
			continue
		}
		if a < 0 || a >= 1<<29 {
			// Not expressible: leave the entries to the sequential
			// decoder (the memo counts stay right).
			return p, true
		}
		r.vals = append(r.vals, pval{uint32(idx), uint32(m.kind)<<29 | uint32(a)})
	}
	c.out.runs = append(c.out.runs, r)
	return p, true
}

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

// Entry fields, as bits of a mask of those seen.
const (
	fAction = 1 << iota
	fAddr
	fSize
	fStream
	fTime
	fFrames
	fCompile
	fUser
)

func fieldOf(k []byte) int {
	switch string(k) {
	case "action":
		return fAction
	case "addr", "device_free":
		return fAddr
	case "size":
		return fSize
	case "stream":
		return fStream
	case "time_us":
		return fTime
	case "frames":
		return fFrames
	case "compile_context":
		return fCompile
	case "user_metadata":
		return fUser
	}
	return 0
}

// entry decodes the trace entry dict at p, as snapshot.builder.event
// would convert it; ok is false for anything that one does not take
// without question (it is then left to the sequential decoder).
func (c *chunkDec) entry(p int) (TraceEvent, int, bool) {
	var ev TraceEvent
	var ctx EventContext
	b := c.buf
	if p >= len(b) || b[p] != pEmptyDict {
		return ev, 0, false
	}
	c.dicts++
	p = c.skipFrames(p + 1)
	if p < len(b) && b[p] == pMemoize {
		c.memo = append(c.memo, memoSlot{kind: slotEntry})
		p = c.skipFrames(p + 1)
	}
	if p >= len(b) || b[p] != pMark {
		return ev, 0, false
	}
	p++
	seen := 0
	for {
		p = c.skipFrames(p)
		if p >= len(b) {
			return ev, 0, false
		}
		if b[p] == pSetItems {
			p++
			break
		}
		k, q, ok := c.str(p)
		if !ok {
			return ev, 0, false
		}
		f := fieldOf(k)
		if f == 0 || seen&f != 0 {
			return ev, 0, false
		}
		seen |= f
		p = c.skipFrames(q)
		switch f {
		case fAction:
			s, q, ok := c.str(p)
			if !ok {
				return ev, 0, false
			}
			a, ok := actionOf(s)
			if !ok {
				return ev, 0, false
			}
			ev.Action, p = a, q
		case fAddr, fSize, fStream, fTime:
			v, kind, q, ok := c.num(p)
			if !ok {
				return ev, 0, false
			}
			p = q
			switch f {
			case fAddr, fSize:
				if kind == numNeg {
					return ev, 0, false
				}
				if f == fAddr {
					ev.Addr = v
				} else {
					ev.Size = v
				}
			case fStream:
				if kind == numBool {
					return ev, 0, false
				}
				if v != 0 {
					ev.StreamID = c.stream(v)
				}
			case fTime:
				if kind == numBig {
					return ev, 0, false
				}
				ev.TimeUS = int64(v)
			}
		case fFrames:
			sid, q, ok := c.frames(p)
			if !ok {
				return ev, 0, false
			}
			ev.Stack, p = StackID(sid), q
		case fCompile, fUser:
			s, q, ok := c.str(p)
			if ok {
				if f == fUser {
					ctx.UserMetadata = c.intern(s)
				} else if string(s) != "N/A" {
					ctx.CompileContext = c.intern(s)
				}
				p = q
				break
			}
			if q, ok = c.scalar(p); !ok {
				return ev, 0, false
			}
			p = q
		}
	}
	switch {
	case seen&fAction == 0, seen&fAddr == 0 && ev.Action != ActionSnapshot, seen&fSize == 0:
		return ev, 0, false
	}
	if ctx != (EventContext{}) {
		ev.Context = c.context(ctx)
	}
	return ev, p, true
}

func actionOf(s []byte) (Action, bool) {
	for i, n := range actionNames {
		if string(s) == n {
			return Action(i), true
		}
	}
	if string(s) == "user_defined" { // legacy annotation entries carry no memory
		return ActionSnapshot, true
	}
	return 0, false
}

// str reads a str at p: a fresh one (and its MEMOIZE) or one fetched
// from the memo.
func (c *chunkDec) str(p int) ([]byte, int, bool) {
	b := c.buf
	if p >= len(b) {
		return nil, 0, false
	}
	op := b[p]
	if isStrOp(op) {
		n := opLen(b[p:])
		if n == 0 {
			return nil, 0, false
		}
		s := strArg(b[p:], n)
		q := c.skipFrames(p + n)
		if q < len(b) && b[q] == pMemoize {
			c.memo = append(c.memo, memoSlot{slotStr, int32(p + n - len(s)), int32(len(s))})
			q = c.skipFrames(q + 1)
		}
		return s, q, true
	}
	idx, q, ok := c.ref(p)
	if !ok {
		return nil, 0, false
	}
	if idx >= c.base {
		if m := c.memo[idx-c.base]; m.kind == slotStr {
			return b[m.a : m.a+m.b], q, true
		}
		return nil, 0, false
	}
	h := &c.strCache[idx&(strCacheSize-1)]
	if h.idx != idx+1 {
		s, ok := c.foreign.get(idx)
		if !ok {
			return nil, 0, false
		}
		h.idx, h.s = idx+1, s
	}
	return h.s, q, true
}

// ref reads a BINGET or LONG_BINGET at p; the index must be defined.
func (c *chunkDec) ref(p int) (uint64, int, bool) {
	b := c.buf
	var idx uint64
	switch {
	case p+2 <= len(b) && b[p] == pBinGet:
		idx, p = uint64(b[p+1]), p+2
	case p+5 <= len(b) && b[p] == pLongGet:
		idx, p = uint64(binary.LittleEndian.Uint32(b[p+1:])), p+5
	default:
		return 0, 0, false
	}
	if idx >= c.base+uint64(len(c.memo)) {
		return 0, 0, false
	}
	return idx, c.skipFrames(p), true
}

// Kinds of int num reads.
const (
	numInt  = iota // an int64 >= 0
	numNeg         // a negative int64
	numBig         // an int in [2^63, 2^64)
	numBool        // True or False
)

// num reads an int or bool at p.
func (c *chunkDec) num(p int) (uint64, int, int, bool) {
	b := c.buf
	if p >= len(b) {
		return 0, 0, 0, false
	}
	var v uint64
	kind := numInt
	switch b[p] {
	case pBinInt1:
		if p+2 > len(b) {
			return 0, 0, 0, false
		}
		v, p = uint64(b[p+1]), p+2
	case pBinInt2:
		if p+3 > len(b) {
			return 0, 0, 0, false
		}
		v, p = uint64(binary.LittleEndian.Uint16(b[p+1:])), p+3
	case pBinInt:
		if p+5 > len(b) {
			return 0, 0, 0, false
		}
		x := int32(binary.LittleEndian.Uint32(b[p+1:]))
		if x < 0 {
			kind = numNeg
		}
		v, p = uint64(int64(x)), p+5
	case pLong1:
		if p+2 > len(b) {
			return 0, 0, 0, false
		}
		n := int(b[p+1])
		if p+2+n > len(b) || n > 9 {
			return 0, 0, 0, false
		}
		d := b[p+2 : p+2+n]
		switch {
		case n == 9:
			if d[8] != 0 {
				return 0, 0, 0, false
			}
			v = binary.LittleEndian.Uint64(d)
			if v > math.MaxInt64 {
				kind = numBig
			}
		case n > 0:
			for i := n - 1; i >= 0; i-- {
				v = v<<8 | uint64(d[i])
			}
			if d[n-1]&0x80 != 0 {
				if n < 8 {
					v |= ^uint64(0) << (8 * uint(n))
				}
				kind = numNeg
			}
		}
		p += 2 + n
	case pTrue, pFalse:
		if b[p] == pTrue {
			v = 1
		}
		kind, p = numBool, p+1
	default:
		return 0, 0, 0, false
	}
	return v, kind, c.skipFrames(p), true
}

// scalar steps over a None, bool, int or str at p (a value an entry's
// compile_context or user_metadata may hold that the conversion ignores).
func (c *chunkDec) scalar(p int) (int, bool) {
	if p < len(c.buf) && c.buf[p] == pNone {
		return c.skipFrames(p + 1), true
	}
	if _, _, q, ok := c.num(p); ok {
		return q, true
	}
	return 0, false
}

func (c *chunkDec) intern(s []byte) string {
	if v, ok := c.names[string(s)]; ok {
		return v
	}
	v := string(s)
	c.names[v] = v
	return v
}

func (c *chunkDec) stream(h uint64) uint32 {
	if id, ok := c.streamID[h]; ok {
		return id
	}
	id := uint32(len(c.out.streams))
	c.out.streams = append(c.out.streams, h)
	c.streamID[h] = id
	c.seenStream = append(c.seenStream, 0)
	return id
}

func (c *chunkDec) context(x EventContext) int32 {
	if id, ok := c.ctxID[x]; ok {
		return id
	}
	id := int32(len(c.out.ctxs))
	c.out.ctxs = append(c.out.ctxs, x)
	c.ctxID[x] = id
	c.seenCtx = append(c.seenCtx, 0)
	return id
}

func (c *chunkDec) newStack(d stackDesc) int32 {
	c.out.stacks = append(c.out.stacks, d)
	c.seenStack = append(c.seenStack, 0)
	return int32(len(c.out.stacks) - 1)
}

// frames reads an entry's frames value: None, a list fetched from the
// memo, or a fresh list of frame dicts. It returns a local stack id.
func (c *chunkDec) frames(p int) (int32, int, bool) {
	b := c.buf
	if p >= len(b) {
		return 0, 0, false
	}
	switch b[p] {
	case pNone:
		return 0, c.skipFrames(p + 1), true
	case pBinGet, pLongGet:
		idx, q, ok := c.ref(p)
		if !ok {
			return 0, 0, false
		}
		if idx >= c.base {
			switch m := c.memo[idx-c.base]; m.kind {
			case slotStack:
				return m.a, q, true
			case slotUnknown:
			default:
				return 0, 0, false
			}
		}
		id, ok := c.foreignSt[idx]
		if !ok {
			id = c.newStack(stackDesc{isForeign: true, foreign: idx})
			c.foreignSt[idx] = id
		}
		return id, q, true
	case pEmptyList:
	default:
		return 0, 0, false
	}
	p = c.skipFrames(p + 1)
	slot := -1
	if p < len(b) && b[p] == pMemoize {
		slot = len(c.memo)
		c.memo = append(c.memo, memoSlot{kind: slotStack})
		p = c.skipFrames(p + 1)
	}
	keyStart := len(c.out.keys)
	for p < len(b) {
		if b[p] == pMark {
			p = c.skipFrames(p + 1)
			for p < len(b) && b[p] != pAppends {
				idx, q, ok := c.frame(p)
				if !ok {
					c.out.keys = c.out.keys[:keyStart]
					return 0, 0, false
				}
				c.out.keys, p = binary.LittleEndian.AppendUint32(c.out.keys, uint32(idx)), q
			}
			if p >= len(b) {
				c.out.keys = c.out.keys[:keyStart]
				return 0, 0, false
			}
			p = c.skipFrames(p + 1)
			continue
		}
		if b[p] == pBinGet || b[p] == pLongGet || b[p] == pEmptyDict {
			idx, q, ok := c.frame(p)
			if ok {
				q = c.skipFrames(q)
				ok = q < len(b) && b[q] == pAppend
			}
			if !ok {
				c.out.keys = c.out.keys[:keyStart]
				return 0, 0, false
			}
			c.out.keys, p = binary.LittleEndian.AppendUint32(c.out.keys, uint32(idx)), c.skipFrames(q+1)
			continue
		}
		break
	}
	var id int32
	if n := (len(c.out.keys) - keyStart) / 4; n > 0 {
		id = c.newStack(stackDesc{off: int32(keyStart), n: int32(n)})
	}
	if slot >= 0 {
		c.memo[slot].a = id
	}
	return id, p, true
}

// frame reads one item of a frames list, a frame dict fetched from the
// memo or a fresh one (which must be memoized), and returns its memo
// index.
func (c *chunkDec) frame(p int) (uint64, int, bool) {
	b := c.buf
	if b[p] != pEmptyDict {
		idx, q, ok := c.ref(p)
		if !ok {
			return 0, 0, false
		}
		if idx >= c.base {
			switch m := c.memo[idx-c.base]; m.kind {
			case slotFrame, slotUnknown:
			default:
				return 0, 0, false
			}
		}
		return idx, q, true
	}
	c.dicts++
	p = c.skipFrames(p + 1)
	id := int32(len(c.out.frames))
	idx := c.base + uint64(len(c.memo))
	if p >= len(b) || b[p] != pMemoize {
		return 0, 0, false
	}
	c.memo = append(c.memo, memoSlot{kind: slotFrame, a: id})
	p = c.skipFrames(p + 1)
	if p >= len(b) || b[p] != pMark {
		return 0, 0, false
	}
	p = c.skipFrames(p + 1)
	var f Frame
	later := frameLater{-1, -1}
	seen := 0
	for p < len(b) && b[p] != pSetItems {
		k, q, ok := c.str(p)
		if !ok {
			return 0, 0, false
		}
		bit := 0
		switch string(k) {
		case "name":
			bit = 1
		case "filename":
			bit = 2
		case "line":
			bit = 4
		}
		if bit == 0 || seen&bit != 0 {
			return 0, 0, false
		}
		seen |= bit
		if bit == 4 {
			v, kind, q2, ok := c.num(q)
			if !ok || kind == numBig {
				return 0, 0, false
			}
			n := int64(v)
			if n > math.MaxInt32 || n < math.MinInt32 {
				return 0, 0, false // a stand-in dict could not give it back
			}
			f.Line, p = int(n), q2
			continue
		}
		// A str another chunk memoized is left for the sequential pass
		// to fetch, should it need this frame.
		if idx, q2, ok := c.ref(q); ok && idx < c.base {
			if bit == 1 {
				later.name = int64(idx)
			} else {
				later.file = int64(idx)
			}
			p = q2
			continue
		}
		s, q2, ok := c.str(q)
		if !ok {
			return 0, 0, false
		}
		if bit == 1 {
			f.Name = c.intern(s)
		} else {
			f.Filename = c.intern(s)
		}
		p = q2
	}
	if p >= len(b) {
		return 0, 0, false
	}
	if later != (frameLater{-1, -1}) {
		if c.out.later == nil {
			c.out.later = map[int32]frameLater{}
		}
		c.out.later[id] = later
	}
	c.out.frames = append(c.out.frames, f)
	c.out.frameKeys = append(c.out.frameKeys, uint8(seen))
	c.out.fresh[uint32(idx)] = id
	return idx, c.skipFrames(p + 1), true
}
