package snapshot

import (
	"encoding/binary"
	"math"
)

// The values a trace entry holds, as chunkDec reads them: strs, ints,
// and the frames list with its frame dicts.

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

// tag returns the local tag of pair t (a stream handle and a local
// context); false when there are too many to name.
func (c *chunkDec) tag(t EventTag) (uint32, bool) {
	id, added, ok := c.tags.number(&c.out.tags, t)
	if added {
		c.seenTag = append(c.seenTag, 0)
	}
	return id, ok
}

func (c *chunkDec) context(x EventContext) int32 {
	id, _ := number(c.ctxID, &c.out.ctxs, x)
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
