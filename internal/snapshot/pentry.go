package snapshot

// chunkDec decodes the trace entries of one chunk straight into
// TraceEvents, in runs of consecutive entries, without building pickle
// values. It knows the chunk's first memo index (from the first pass) but
// not the pickle stack at the chunk's start, so it only claims entries it
// can read in full; everything else is left to the sequential decoder,
// which checks each run's context before it skips it (see pload.go).
//
// Stacks, contexts and tags (stream and context pairs) are numbered locally, in order of first
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
	last []uint16 // per index of refs, the last chunk that fetches it
	// spare has the tables of chunks the sequential pass is done with.
	spare *spares
	out   chunkOut

	names     map[string]string
	foreignSt map[uint64]int32
	ctxID     map[EventContext]int32
	// tags numbers the local tags: pairs of a stream handle and a local
	// context.
	tags tagTable
	// seen*: the run (runSeq) that last listed a local id as used.
	runSeq    int32
	seenStack []int32
	seenTag   []int32
}

const strCacheSize = 256

func newChunkDec() *chunkDec {
	return &chunkDec{
		names:     map[string]string{},
		foreignSt: map[uint64]int32{},
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
	clear(c.ctxID)
	if len(c.names) > 1<<16 {
		c.names = map[string]string{}
	}
	c.ctxID[EventContext{}] = 0
	c.tags.reset()
	c.seenStack = append(c.seenStack[:0], 0)
	c.seenTag = append(c.seenTag[:0], 0)
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
		keys:   keys[:0],
		stacks: append(stacks[:0], stackDesc{}),
		tags:   []EventTag{{}},
		ctxs:   []EventContext{{}},
		fresh:  map[uint32]int32{},
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
	// Each attempt gets its own number: a run left out (see below) must
	// not hide, from the next one, the ids it saw first.
	c.runSeq++
	runIdx := c.runSeq
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
		if t := ev.Tag(); c.seenTag[t] != runIdx {
			c.seenTag[t] = runIdx
			r.tags = append(r.tags, t)
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
		c.out.last = max(c.out.last, c.last[i])
	}
	c.out.runs = append(c.out.runs, r)
	return p, true
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
	var stream uint64
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
					stream = v
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
	var cx int32
	if ctx != (EventContext{}) {
		cx = c.context(ctx)
	}
	if stream != 0 || cx != 0 {
		t, ok := c.tag(EventTag{stream, cx})
		if !ok {
			return ev, 0, false
		}
		ev.SetTag(t)
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
