package pickle

import (
	"fmt"
	"testing"
)

// The memo packs old chunks to one byte a slot; whatever the packing,
// every index must keep yielding what was stored under it, through
// overwrites, Replace and chunks whose values outgrow a byte.
func TestMemoPackedChunksKeepValues(t *testing.T) {
	m := newMemo()
	want := map[uint64]any{}
	const n = 6 << memoShift
	lists := map[uint64]*List{}
	for i := uint64(0); i < n; i++ {
		var v any
		switch {
		case i%3 == 0:
			l := &List{memo: -1}
			lists[i] = l
			v = l
		case i >= 4<<memoShift: // distinct strings: this chunk cannot pack
			v = fmt.Sprint("s", i)
		default:
			v = "N/A"
		}
		m.put(m.count, v)
		want[i] = v
		// Consume each list a little later, as a trace entry is: half
		// released, half replaced by a stand-in.
		if l, ok := lists[i-min(i, 300)]; ok && i >= 300 {
			j := i - 300
			if j%2 == 0 {
				m.replace(uint64(l.memo), l, nil)
				want[j] = consumed{}
			} else {
				m.replace(uint64(l.memo), l, fmt.Sprint("stand-in ", j%7))
				want[j] = fmt.Sprint("stand-in ", j%7)
			}
			delete(lists, j)
		}
	}
	if m.count != n {
		t.Fatalf("count %d, want %d", m.count, n)
	}
	packed := 0
	for _, c := range m.chunks {
		if c.full == nil {
			packed++
		}
	}
	if packed == 0 {
		t.Fatal("no chunk was packed")
	}
	// Consume the last lists too.
	for i, l := range lists {
		if i%2 == 0 {
			m.replace(uint64(l.memo), l, nil)
			want[i] = consumed{}
		} else {
			m.replace(uint64(l.memo), l, fmt.Sprint("stand-in ", i%7))
			want[i] = fmt.Sprint("stand-in ", i%7)
		}
	}
	// Overwrite some slots of packed chunks with values new to them.
	for i := uint64(1); i < n; i += 997 {
		v := fmt.Sprint("over", i)
		m.put(i, v)
		want[i] = v
	}
	// 300 new values in one packed chunk: it no longer fits a byte.
	if m.chunks[0].full != nil {
		t.Fatal("chunk 0 was not packed")
	}
	for i := uint64(5); i < 5+300*7; i += 7 {
		v := fmt.Sprint("many", i)
		m.put(i, v)
		want[i] = v
	}
	if m.chunks[0].full == nil {
		t.Fatal("chunk 0 still packed with 300 more values")
	}
	if m.count != n {
		t.Fatalf("count %d after overwrites, want %d", m.count, n)
	}
	for i := uint64(0); i < n; i++ {
		if got := m.get(i); got != want[i] {
			t.Fatalf("memo[%d] = %v, want %v", i, got, want[i])
		}
	}
}
