package pickle

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"reflect"
	"sort"
	"strconv"
	"testing"
)

// golden.json is written by testdata/gen.py: each case is a pickle and
// CPython's decoding of it (or, for "reject_op" cases, the first opcode
// vramkit refuses, located by pickletools).
type goldenCase struct {
	Name         string          `json:"name"`
	Pickle       string          `json:"pickle"`
	Ops          []string        `json:"ops"`
	Want         json.RawMessage `json:"want"`
	RejectOp     string          `json:"reject_op"`
	RejectOffset int64           `json:"reject_offset"`
}

func loadGolden(t testing.TB) []goldenCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct{ Cases []goldenCase }
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) < 100 {
		t.Fatalf("golden.json has only %d cases", len(g.Cases))
	}
	return g.Cases
}

func (c *goldenCase) bytes(t testing.TB) []byte {
	b, err := hex.DecodeString(c.Pickle)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	return b
}

// render turns a decoded value into the JSON shape gen.py gives CPython's
// value; lists and dicts carry ids so sharing and cycles are compared too.
func render(v any, ids map[any]int) any {
	switch x := v.(type) {
	case None:
		return map[string]any{"t": "none"}
	case bool:
		return map[string]any{"t": "bool", "v": x}
	case int64:
		return map[string]any{"t": "int", "v": strconv.FormatInt(x, 10)}
	case *big.Int:
		return map[string]any{"t": "int", "v": x.String()}
	case float64:
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], math.Float64bits(x))
		return map[string]any{"t": "float", "v": hex.EncodeToString(b[:])}
	case string:
		return map[string]any{"t": "str", "v": x}
	case []byte:
		return map[string]any{"t": "bytes", "v": hex.EncodeToString(x)}
	case Tuple:
		items := []any{}
		for _, it := range x {
			items = append(items, render(it, ids))
		}
		return map[string]any{"t": "tuple", "v": items}
	case *List:
		if id, ok := ids[x]; ok {
			return map[string]any{"t": "ref", "id": id}
		}
		id := len(ids)
		ids[x] = id
		items := []any{}
		for _, it := range x.Items {
			items = append(items, render(it, ids))
		}
		return map[string]any{"t": "list", "id": id, "v": items}
	case *Dict:
		if id, ok := ids[x]; ok {
			return map[string]any{"t": "ref", "id": id}
		}
		id := len(ids)
		ids[x] = id
		items := []any{}
		for _, it := range x.Items {
			items = append(items, []any{render(it.Key, ids), render(it.Value, ids)})
		}
		return map[string]any{"t": "dict", "id": id, "v": items}
	}
	return map[string]any{"t": "unexpected Go type", "v": reflect.TypeOf(v).String()}
}

// normalize round-trips through JSON so both sides have the same Go types.
func normalize(t testing.TB, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGoldenAgainstCPython(t *testing.T) {
	for _, c := range loadGolden(t) {
		t.Run(c.Name, func(t *testing.T) {
			v, err := NewDecoder(bytes.NewReader(c.bytes(t))).Decode()
			if c.RejectOp != "" {
				var oe *OpError
				if !errors.As(err, &oe) {
					t.Fatalf("got %v (%T), want an *OpError for %s", err, err, c.RejectOp)
				}
				if oe.Name != c.RejectOp || oe.Offset != c.RejectOffset {
					t.Fatalf("refused %s at %d, want %s at %d (%v)", oe.Name, oe.Offset, c.RejectOp, c.RejectOffset, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			var want any
			if err := json.Unmarshal(c.Want, &want); err != nil {
				t.Fatal(err)
			}
			got := normalize(t, render(v, map[any]int{}))
			if !reflect.DeepEqual(got, want) {
				gb, _ := json.Marshal(got)
				t.Fatalf("decoded differently from CPython\n got: %.600s\nwant: %.600s", gb, c.Want)
			}
		})
	}
}

// TestGoldenCoversEveryOpcode makes sure gen.py keeps exercising every opcode
// the decoder accepts, each one checked against CPython.
func TestGoldenCoversEveryOpcode(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range loadGolden(t) {
		if c.RejectOp == "" {
			for _, op := range c.Ops {
				seen[op] = true
			}
		}
	}
	var missing []string
	for _, name := range names {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("no golden case uses %v", missing)
	}
}

// TestSharedObjectsStayShared checks identity directly, not only through
// the rendering: two memo references yield the same *List / *Dict.
func TestSharedObjectsStayShared(t *testing.T) {
	for _, c := range loadGolden(t) {
		if c.Name != "shared/p4" {
			continue
		}
		v, err := NewDecoder(bytes.NewReader(c.bytes(t))).Decode()
		if err != nil {
			t.Fatal(err)
		}
		top := v.(*Dict)
		a, _ := top.Get("a")
		b, _ := top.Get("b")
		if a.(*List) != b.(*List) {
			t.Error(`"a" and "b" are copies, want one shared list`)
		}
		fr, _ := top.Get("frames")
		outer := fr.(*List)
		f0, f1 := outer.Items[0].(*List), outer.Items[1].(*List)
		if f0 != f1 || f0.Items[0].(*Dict) != f0.Items[1].(*Dict) {
			t.Error("shared frames list or frame dict was copied")
		}
		return
	}
	t.Fatal("golden.json lacks shared/p4")
}
