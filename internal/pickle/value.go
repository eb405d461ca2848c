package pickle

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Decoded values are plain Go values:
//
//	None        -> None{}
//	bool        -> bool
//	int         -> int64, or *big.Int when it does not fit
//	float       -> float64
//	str         -> string
//	bytes       -> []byte
//	list        -> *List
//	tuple       -> Tuple
//	dict        -> *Dict
//
// Containers are pointers so that objects shared through the memo stay
// shared, as they were in Python.

// None is Python's None.
type None struct{}

// Tuple is a Python tuple.
type Tuple []any

// List is a Python list.
type List struct {
	Items []any
	// Parent is the nearest object below this list on the pickle stack when
	// the list was created (marks skipped): for a dict value it is the key,
	// for a list element the enclosing list. Hooks use it to tell which
	// list an item is appended to; it is a hint, not part of the data.
	Parent any
	memo   int32
	// refs counts the references to the list beyond the first that the
	// input made (memo fetches, DUP), less those that dropped dicts held.
	refs int32
}

// Item is one key/value pair of a Dict, in insertion order.
type Item struct {
	Key   any
	Value any
}

// Dict is a Python dict; Items keep insertion order.
type Dict struct {
	Items []Item
	memo  int32
	// shared: the dict was fetched from the memo or duplicated, so more
	// than one reference to it may exist and it is never reused.
	shared bool
	// index maps keys to Items positions once the dict is large, so
	// building a dict stays linear in its size.
	strIndex   map[string]int
	otherIndex map[string]int
	// strKeys has the keySig bit of every str key, so that adding a key
	// the dict cannot hold yet (the usual case) skips the scan for it.
	strKeys uint64
}

// NewDict returns a dict of items, for a caller that stands in for one the
// input held (see Run.Lookup); the keys must differ.
func NewDict(items []Item) *Dict { return &Dict{Items: items, memo: -1} }

// keySig is a one-bit signature of a str key (from its length and its
// first and last bytes): keys with different signatures differ.
func keySig(s string) uint64 {
	if s == "" {
		return 1
	}
	return 1 << ((uint(len(s))*7 + uint(s[0]) + 3*uint(s[len(s)-1])) & 63)
}

// indexFrom is the size past which a Dict indexes its keys.
const indexFrom = 16

// Get returns the value stored under the string key k.
func (d *Dict) Get(k string) (any, bool) {
	if d.strIndex != nil {
		if i, ok := d.strIndex[k]; ok {
			return d.Items[i].Value, true
		}
		return nil, false
	}
	for i := range d.Items {
		if s, ok := d.Items[i].Key.(string); ok && s == k {
			return d.Items[i].Value, true
		}
	}
	return nil, false
}

// set stores v under k. As in Python, a key equal to an existing one (1,
// True and 1.0 are equal) replaces that entry's value and keeps its key.
func (d *Dict) set(k, v any) {
	if ks, ok := k.(string); ok {
		if d.strIndex != nil {
			if i, ok := d.strIndex[ks]; ok {
				d.Items[i].Value = v
				return
			}
			d.strIndex[ks] = len(d.Items)
		} else if sig := keySig(ks); d.strKeys&sig == 0 {
			d.strKeys |= sig
		} else {
			for i := range d.Items {
				if s, ok := d.Items[i].Key.(string); ok && s == ks {
					d.Items[i].Value = v
					return
				}
			}
		}
	} else if hk, ok := hashKey(k); ok {
		if d.otherIndex != nil {
			if i, ok := d.otherIndex[hk]; ok {
				d.Items[i].Value = v
				return
			}
			d.otherIndex[hk] = len(d.Items)
		} else {
			for i := range d.Items {
				if _, isStr := d.Items[i].Key.(string); isStr {
					continue
				}
				if h, ok := hashKey(d.Items[i].Key); ok && h == hk {
					d.Items[i].Value = v
					return
				}
			}
		}
	}
	d.Items = append(d.Items, Item{k, v})
	if len(d.Items) == indexFrom {
		d.buildIndex()
	}
}

func (d *Dict) buildIndex() {
	d.strIndex = make(map[string]int, 2*indexFrom)
	d.otherIndex = map[string]int{}
	for i, it := range d.Items {
		if s, ok := it.Key.(string); ok {
			d.strIndex[s] = i
		} else if h, ok := hashKey(it.Key); ok {
			d.otherIndex[h] = i
		}
	}
}

// hashKey encodes a non-str key so that keys Python treats as equal encode
// the same: ints, bools and integral floats by their integer value. ok is
// false for keys never equal to another (NaN, unhashable or unknown).
func hashKey(k any) (string, bool) {
	switch x := k.(type) {
	case int64:
		return "i" + strconv.FormatInt(x, 10), true
	case *big.Int:
		return "i" + x.String(), true
	case bool:
		if x {
			return "i1", true
		}
		return "i0", true
	case float64:
		if math.IsNaN(x) {
			return "", false
		}
		if !math.IsInf(x, 0) && x == math.Trunc(x) {
			if math.Abs(x) < 1<<63 {
				return "i" + strconv.FormatInt(int64(x), 10), true
			}
			n, _ := big.NewFloat(x).Int(nil)
			return "i" + n.String(), true
		}
		return "f" + strconv.FormatUint(math.Float64bits(x), 16), true
	case string:
		return "s" + x, true
	case []byte:
		return "b" + string(x), true
	case None:
		return "n", true
	case Tuple:
		var sb strings.Builder
		sb.WriteString("t")
		for _, e := range x {
			h, ok := hashKey(e)
			if !ok {
				return "", false
			}
			sb.WriteString(strconv.Itoa(len(h)))
			sb.WriteByte(':')
			sb.WriteString(h)
		}
		return sb.String(), true
	}
	return "", false
}

// Int returns v as an int64 when it is an integer (or bool) that fits.
func Int(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), true
		}
	}
	return 0, false
}

// A names v's Python type with an article ("an int", "a dict"), for error
// messages.
func A(v any) string {
	n := TypeName(v)
	switch n[0] {
	case 'a', 'e', 'i', 'o', 'u':
		return "an " + n
	}
	return "a " + n
}

// TypeName names v's Python type, for error messages.
func TypeName(v any) string {
	switch v.(type) {
	case None:
		return "None"
	case bool:
		return "bool"
	case int64, *big.Int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []byte:
		return "bytes"
	case *List:
		return "list"
	case Tuple:
		return "tuple"
	case *Dict:
		return "dict"
	case nil:
		return "consumed object"
	}
	return fmt.Sprintf("%T", v)
}
