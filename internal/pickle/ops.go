package pickle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Opcodes used by protocols 2–5 for plain data.
const (
	opMark           = '('
	opStop           = '.'
	opPop            = '0'
	opPopMark        = '1'
	opDup            = '2'
	opNone           = 'N'
	opBinInt         = 'J'
	opBinInt1        = 'K'
	opBinInt2        = 'M'
	opBinFloat       = 'G'
	opBinUnicode     = 'X'
	opShortBinBytes  = 'C'
	opBinBytes       = 'B'
	opEmptyList      = ']'
	opAppend         = 'a'
	opAppends        = 'e'
	opList           = 'l'
	opEmptyTuple     = ')'
	opTuple          = 't'
	opEmptyDict      = '}'
	opDict           = 'd'
	opSetItem        = 's'
	opSetItems       = 'u'
	opBinGet         = 'h'
	opLongBinGet     = 'j'
	opBinPut         = 'q'
	opLongBinPut     = 'r'
	opProto          = 0x80
	opTuple1         = 0x85
	opTuple2         = 0x86
	opTuple3         = 0x87
	opNewTrue        = 0x88
	opNewFalse       = 0x89
	opLong1          = 0x8a
	opLong4          = 0x8b
	opShortBinUni    = 0x8c
	opBinUnicode8    = 0x8d
	opBinBytes8      = 0x8e
	opMemoize        = 0x94
	opFrame          = 0x95
	opByteArray8     = 0x96
	opNextBuffer     = 0x97
	opReadOnlyBuffer = 0x98
)

// forbidden names the opcodes that import, construct or call objects, or
// that use the text protocols or persistent ids; vramkit never runs them.
var forbidden = map[byte]string{
	'c': "GLOBAL", 0x93: "STACK_GLOBAL", 'R': "REDUCE", 'b': "BUILD", 'i': "INST",
	'o': "OBJ", 0x81: "NEWOBJ", 0x92: "NEWOBJ_EX", 'P': "PERSID", 'Q': "BINPERSID",
	0x82: "EXT1", 0x83: "EXT2", 0x84: "EXT4",
}

// unsupported names opcodes of older text protocols or of sets and out-of-band
// buffers, which no snapshot uses.
var unsupported = map[byte]string{
	'I': "INT", 'L': "LONG", 'F': "FLOAT", 'S': "STRING", 'T': "BINSTRING",
	'U': "SHORT_BINSTRING", 'V': "UNICODE", 'p': "PUT", 'g': "GET",
	0x8f: "EMPTY_SET", 0x90: "ADDITEMS", 0x91: "FROZENSET",
	opByteArray8: "BYTEARRAY8", opNextBuffer: "NEXT_BUFFER", opReadOnlyBuffer: "READONLY_BUFFER",
}

func (d *Decoder) run() (any, error) {
	r := d.r
	for {
		d.opOff = r.offset()
		op, err := r.byte()
		if err != nil {
			return nil, err
		}
		if !d.started {
			// Protocols 0 and 1 have no PROTO opcode; they are refused
			// here rather than half-decoded.
			d.started = true
			if op != opProto {
				return nil, &OpError{d.opOff, op, opName(op), errNoProto}
			}
		}
		if err := d.step(op); err != nil {
			if errors.Is(err, errStop) {
				v, perr := d.pop()
				if perr != nil || len(d.stack) != 0 || len(d.marks) != 0 {
					return nil, &OpError{d.opOff, op, "STOP", errors.New("malformed stack at STOP")}
				}
				return v, nil
			}
			if errors.Is(err, ErrTruncated) {
				return nil, err
			}
			return nil, &OpError{d.opOff, op, opName(op), err}
		}
	}
}

var errStop = errors.New("stop")

var errNoProto = errors.New("no PROTO opcode first: not a pickle of protocol 2 to 5")

func opName(op byte) string {
	if n, ok := forbidden[op]; ok {
		return n
	}
	if n, ok := unsupported[op]; ok {
		return n
	}
	if n, ok := names[op]; ok {
		return n
	}
	return ""
}

var names = map[byte]string{
	opMark: "MARK", opPop: "POP", opPopMark: "POP_MARK", opDup: "DUP", opAppend: "APPEND",
	opAppends: "APPENDS", opList: "LIST", opTuple: "TUPLE", opDict: "DICT", opSetItem: "SETITEM",
	opSetItems: "SETITEMS", opBinGet: "BINGET", opLongBinGet: "LONG_BINGET", opBinPut: "BINPUT",
	opLongBinPut: "LONG_BINPUT", opMemoize: "MEMOIZE", opProto: "PROTO", opTuple1: "TUPLE1",
	opTuple2: "TUPLE2", opTuple3: "TUPLE3", opLong1: "LONG1", opLong4: "LONG4",
	opBinUnicode8: "BINUNICODE8", opBinBytes8: "BINBYTES8", opFrame: "FRAME",
	opStop: "STOP", opNone: "NONE", opBinInt: "BININT", opBinInt1: "BININT1",
	opBinInt2: "BININT2", opBinFloat: "BINFLOAT", opBinUnicode: "BINUNICODE",
	opShortBinUni: "SHORT_BINUNICODE", opShortBinBytes: "SHORT_BINBYTES", opBinBytes: "BINBYTES",
	opEmptyList: "EMPTY_LIST", opEmptyTuple: "EMPTY_TUPLE", opEmptyDict: "EMPTY_DICT",
	opNewTrue: "NEWTRUE", opNewFalse: "NEWFALSE",
}

func (d *Decoder) step(op byte) error {
	r := d.r
	switch op {
	case opMemoize:
		v, err := d.top()
		if err != nil {
			return err
		}
		d.m.put(d.m.count, v)
	case opBinGet, opLongBinGet:
		if op == opBinGet && r.pos < r.end {
			// The commonest opcode of a snapshot (a key, a repeated
			// value or a frame, thirty times a trace entry), read here
			// without the general path's calls.
			v, err := d.memoGet(uint64(r.buf[r.pos]))
			if err != nil {
				return err
			}
			r.pos++
			d.stack = append(d.stack, v)
			return nil
		}
		idx, err := d.memoIndex(op == opLongBinGet)
		if err != nil {
			return err
		}
		v, err := d.memoGet(idx)
		if err != nil {
			return err
		}
		d.push(v)
	case opShortBinUni:
		b, err := r.short()
		if err != nil {
			return err
		}
		d.push(d.m.str(b))
	case opBinUnicode, opBinUnicode8:
		n, err := d.length(op == opBinUnicode8)
		if err != nil {
			return err
		}
		if n <= bufSize {
			b, err := r.next(int(n))
			if err != nil {
				return err
			}
			if n < 256 {
				d.push(d.m.str(b))
			} else {
				d.push(string(b))
			}
			return nil
		}
		b, err := r.long(n)
		if err != nil {
			return err
		}
		d.push(string(b))
	case opBinInt1:
		c, err := r.byte()
		if err != nil {
			return err
		}
		d.push(int64(c))
	case opBinInt2:
		b, err := r.next(2)
		if err != nil {
			return err
		}
		d.push(d.boxInt(int64(binary.LittleEndian.Uint16(b))))
	case opBinInt:
		b, err := r.next(4)
		if err != nil {
			return err
		}
		d.push(d.boxInt(int64(int32(binary.LittleEndian.Uint32(b)))))
	case opLong1:
		b, err := r.short()
		if err != nil {
			return err
		}
		if len(b) <= 8 {
			d.push(d.boxInt(decodeInt(b)))
		} else {
			d.push(decodeLong(b))
		}
	case opLong4:
		b, err := r.next(4)
		if err != nil {
			return err
		}
		n := int32(binary.LittleEndian.Uint32(b))
		if n < 0 {
			return errors.New("negative length")
		}
		raw, err := r.long(uint64(n))
		if err != nil {
			return err
		}
		d.push(decodeLong(raw))
	case opBinFloat:
		b, err := r.next(8)
		if err != nil {
			return err
		}
		d.push(math.Float64frombits(binary.BigEndian.Uint64(b)))
	case opNewTrue:
		d.push(true)
	case opNewFalse:
		d.push(false)
	case opNone:
		d.push(None{})
	case opEmptyDict:
		if d.runHook != nil {
			if skipped, err := d.tryRun(); skipped || err != nil {
				return err
			}
		}
		d.push(d.newDict())
	case opEmptyList:
		d.push(d.newList(d.below()))
	case opEmptyTuple:
		d.push(Tuple{})
	case opMark:
		d.marks = append(d.marks, len(d.stack))
	case opAppend:
		v, err := d.pop()
		if err != nil {
			return err
		}
		l, err := d.topList()
		if err != nil {
			return err
		}
		return d.appendItems(l, v)
	case opAppends:
		items, err := d.popMark()
		if err != nil {
			return err
		}
		l, err := d.topList()
		if err != nil {
			return err
		}
		return d.appendItems(l, items...)
	case opSetItem:
		v, err := d.pop()
		if err != nil {
			return err
		}
		k, err := d.pop()
		if err != nil {
			return err
		}
		dict, err := d.topDict()
		if err != nil {
			return err
		}
		return setItem(dict, k, v)
	case opSetItems:
		items, err := d.popMark()
		if err != nil {
			return err
		}
		if len(items)%2 != 0 {
			return errors.New("odd number of items")
		}
		dict, err := d.topDict()
		if err != nil {
			return err
		}
		if len(dict.Items) == 0 && cap(dict.Items) < len(items)/2 {
			dict.Items = make([]Item, 0, len(items)/2)
		}
		for i := 0; i < len(items); i += 2 {
			if err := setItem(dict, items[i], items[i+1]); err != nil {
				return err
			}
		}
	case opTuple1, opTuple2, opTuple3:
		n := int(op-opTuple1) + 1
		if len(d.stack) < n || (len(d.marks) > 0 && d.marks[len(d.marks)-1] > len(d.stack)-n) {
			return errors.New("stack underflow")
		}
		t := make(Tuple, n)
		copy(t, d.stack[len(d.stack)-n:])
		d.stack = d.stack[:len(d.stack)-n]
		d.push(t)
	default:
		return d.stepRare(op)
	}
	return nil
}

func setItem(d *Dict, k, v any) error {
	switch k.(type) {
	case *List, *Dict:
		return fmt.Errorf("unhashable dict key of type %s", TypeName(k))
	}
	d.set(k, v)
	return nil
}

func (d *Decoder) topList() (*List, error) {
	v, err := d.top()
	if err != nil {
		return nil, err
	}
	l, ok := v.(*List)
	if !ok {
		return nil, fmt.Errorf("append to a %s, not a list", TypeName(v))
	}
	return l, nil
}

func (d *Decoder) topDict() (*Dict, error) {
	v, err := d.top()
	if err != nil {
		return nil, err
	}
	dict, ok := v.(*Dict)
	if !ok {
		return nil, fmt.Errorf("setitem on a %s, not a dict", TypeName(v))
	}
	return dict, nil
}

// length reads a 4- or 8-byte unsigned length field.
func (d *Decoder) length(eight bool) (uint64, error) {
	if eight {
		b, err := d.r.next(8)
		if err != nil {
			return 0, err
		}
		return le64(b), nil
	}
	b, err := d.r.next(4)
	if err != nil {
		return 0, err
	}
	return uint64(binary.LittleEndian.Uint32(b)), nil
}

// memoIndex reads the memo index of BINGET/BINPUT (one byte) or
// LONG_BINGET/LONG_BINPUT (four bytes, little-endian).
func (d *Decoder) memoIndex(long bool) (uint64, error) {
	if !long {
		c, err := d.r.byte()
		return uint64(c), err
	}
	b, err := d.r.next(4)
	if err != nil {
		return 0, err
	}
	return uint64(binary.LittleEndian.Uint32(b)), nil
}
