package pickle

import (
	"bytes"
	"strings"
	"testing"
)

// A list of two dicts; the first, {"a": 1}, is claimed by a run hook.
var runPickle = []byte{
	0x80, 4,
	']', 0x94, // list, memo 0
	'(',
	'}', 0x94, '(', 0x8c, 1, 'a', 0x94, 'K', 1, 'u', // {"a": 1}: memo 1 and 2, offset 5
	'}', 0x94, 'h', 2, 'K', 2, 's', // {"a": 2} with "a" fetched from the run: memo 3
	'e', '.',
}

// TestRunHookSkips claims the first item of a list: the decoder skips
// its bytes, asks the run for the memo entries later input fetches, and
// reads what follows as usual.
func TestRunHookSkips(t *testing.T) {
	var asked []uint64
	var hooked []int64
	d := NewDecoder(bytes.NewReader(runPickle))
	d.SetRunHook(func(off int64, l *List) (Run, error) {
		hooked = append(hooked, off)
		if off != 5 {
			return Run{}, nil
		}
		return Run{Len: 10, Memo: 2, Lookup: func(idx uint64) any {
			asked = append(asked, idx)
			if idx == 2 {
				return "a"
			}
			return nil
		}}, nil
	})
	v, err := d.Decode()
	if err != nil {
		t.Fatal(err)
	}
	l := v.(*List)
	if len(l.Items) != 1 {
		t.Fatalf("list has %d items, want the unclaimed one", len(l.Items))
	}
	if got, ok := l.Items[0].(*Dict).Get("a"); !ok || got != int64(2) {
		t.Errorf(`item["a"] = %v, want 2`, got)
	}
	// After the run the mark is again on top, with nothing above it: the
	// next dict starts a batch too.
	if len(hooked) != 2 || hooked[1] != 15 || len(asked) != 1 || asked[0] != 2 {
		t.Errorf("hook called at %v, lookup asked %v; want [5 15] and [2]", hooked, asked)
	}
	if d.MemoLen() != 4 {
		t.Errorf("memo has %d entries, want 4", d.MemoLen())
	}
}

// TestRunHookConsumed fetches the claimed dict itself: the run says it
// was consumed, and decoding fails as it does for a consumed object.
func TestRunHookConsumed(t *testing.T) {
	p := bytes.Replace(runPickle, []byte{'h', 2}, []byte{'h', 1}, 1)
	d := NewDecoder(bytes.NewReader(p))
	d.SetRunHook(func(off int64, l *List) (Run, error) {
		if off != 5 {
			return Run{}, nil
		}
		return Run{Len: 10, Memo: 2, Lookup: func(uint64) any { return nil }}, nil
	})
	_, err := d.Decode()
	if err == nil || !strings.Contains(err.Error(), "memo index 1 refers to an object already consumed") {
		t.Fatalf("err = %v, want memo index 1 consumed", err)
	}
}

// TestMemoHoleChunks defines more than a chunk of memo entries in one
// hole, around ordinary ones: whole chunks store nothing, and every index
// still reads back its own value.
func TestMemoHoleChunks(t *testing.T) {
	m := newMemo()
	m.put(0, "first")
	n := uint64(3<<memoShift + 77)
	m.skip(n, func(idx uint64) any {
		if idx%1000 == 0 {
			return "k"
		}
		return nil
	})
	m.put(m.count, "after")
	for _, idx := range []uint64{1, 1000, 2 << memoShift, n - 1} {
		want := any(consumed{})
		if idx%1000 == 0 {
			want = "k"
		}
		if got := m.get(idx); got != want {
			t.Errorf("get(%d) = %v, want %v", idx, got, want)
		}
	}
	if got := m.get(0); got != "first" {
		t.Errorf("get(0) = %v", got)
	}
	if got := m.get(n + 1); got != "after" {
		t.Errorf("get(%d) = %v, want after", n+1, got)
	}
	for i := 0; i < len(m.chunks)-3; i++ {
		if c := m.chunks[i]; i > 0 && (c.full != nil || c.codes != nil) {
			t.Errorf("chunk %d of holes stores slots (%d full, %d codes)", i, len(c.full), len(c.codes))
		}
	}
}
