package pickle

import (
	"fmt"
	"math/big"
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
}

// Get returns the value stored under the string key k.
func (d *Dict) Get(k string) (any, bool) {
	for i := range d.Items {
		if s, ok := d.Items[i].Key.(string); ok && s == k {
			return d.Items[i].Value, true
		}
	}
	return nil, false
}

// set stores v under k, replacing an existing equal key as Python would.
func (d *Dict) set(k, v any) {
	if ks, ok := k.(string); ok {
		for i := range d.Items {
			if s, ok := d.Items[i].Key.(string); ok && s == ks {
				d.Items[i].Value = v
				return
			}
		}
	}
	d.Items = append(d.Items, Item{k, v})
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
