package pickle

import (
	"errors"
	"fmt"
)

// stepRare handles the opcodes that are legal but seldom seen, and refuses
// the rest.
func (d *Decoder) stepRare(op byte) error {
	r := d.r
	switch op {
	case opStop:
		return errStop
	case opProto:
		v, err := r.byte()
		if err != nil {
			return err
		}
		if v < 2 || v > 5 {
			return fmt.Errorf("unsupported protocol %d (want 2 to 5)", v)
		}
	case opFrame:
		// FRAME only announces how many bytes the next frame holds; the
		// opcodes inside are read as usual.
		if _, err := r.next(8); err != nil {
			return err
		}
	case opBinPut, opLongBinPut:
		idx, err := d.memoIndex(op == opLongBinPut)
		if err != nil {
			return err
		}
		v, err := d.top()
		if err != nil {
			return err
		}
		d.m.put(idx, v)
	case opShortBinBytes:
		n, err := r.byte()
		if err != nil {
			return err
		}
		b, err := r.long(uint64(n))
		if err != nil {
			return err
		}
		d.push(b)
	case opBinBytes, opBinBytes8:
		n, err := d.length(op == opBinBytes8)
		if err != nil {
			return err
		}
		b, err := r.long(n)
		if err != nil {
			return err
		}
		d.push(b)
	case opList:
		items, err := d.popMark()
		if err != nil {
			return err
		}
		l := &List{Parent: d.below(), memo: -1}
		if err := d.appendItems(l, items...); err != nil {
			return err
		}
		d.push(l)
	case opTuple:
		items, err := d.popMark()
		if err != nil {
			return err
		}
		d.push(append(Tuple{}, items...))
	case opDict:
		items, err := d.popMark()
		if err != nil {
			return err
		}
		if len(items)%2 != 0 {
			return errors.New("odd number of items")
		}
		dict := &Dict{memo: -1}
		for i := 0; i < len(items); i += 2 {
			if err := setItem(dict, items[i], items[i+1]); err != nil {
				return err
			}
		}
		d.push(dict)
	case opPop:
		// As in CPython, POP right after MARK discards the mark.
		if n := len(d.marks); n > 0 && d.marks[n-1] == len(d.stack) {
			d.marks = d.marks[:n-1]
			return nil
		}
		if _, err := d.pop(); err != nil {
			return err
		}
	case opPopMark:
		if _, err := d.popMark(); err != nil {
			return err
		}
	case opDup:
		v, err := d.top()
		if err != nil {
			return err
		}
		switch x := v.(type) {
		case *Dict:
			x.shared = true
		case *List:
			x.refs++
		}
		d.push(v)
	default:
		if _, ok := forbidden[op]; ok {
			return ErrForbidden
		}
		if _, ok := unsupported[op]; ok {
			return errors.New("not used by snapshots and not supported")
		}
		return errors.New("not a pickle opcode")
	}
	return nil
}
