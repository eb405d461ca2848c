package allocsim

import (
	"math/rand"
	"testing"
	"unsafe"
)

// TestAddrTable checks the active-block table against Go's map over a long
// random run of puts, lookups and deletes, with addresses drawn from a
// small range so that probe runs collide, wrap around and are shortened by
// deletions.
func TestAddrTable(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var tab addrTable
	ref := map[int64]*block{}
	for step := 0; step < 200_000; step++ {
		ptr := int64(rng.Intn(3000)) << 9
		if rng.Intn(4) == 0 {
			ptr = int64(rng.Int63()) // any address, even unaligned or 0
		}
		switch rng.Intn(3) {
		case 0:
			b := &block{ptr: ptr}
			tab.put(ptr, b)
			ref[ptr] = b
		case 1:
			tab.del(ptr)
			delete(ref, ptr)
		}
		if got, want := tab.get(ptr), ref[ptr]; got != want {
			t.Fatalf("step %d: get(%#x) = %p, want %p", step, ptr, got, want)
		}
		if tab.len() != len(ref) {
			t.Fatalf("step %d: %d entries, want %d", step, tab.len(), len(ref))
		}
	}
	n := 0
	tab.each(func(ptr int64, b *block) {
		if ref[ptr] != b {
			t.Errorf("each: %#x -> %p, want %p", ptr, b, ref[ptr])
		}
		n++
	})
	if n != len(ref) {
		t.Errorf("each visited %d entries, want %d", n, len(ref))
	}
}

// TestRequestSize guards Request's packing: the replay writes one per
// alloc and free of the trace (7 M on the 1 GiB benchmark snapshot), and
// every byte more is 7 MB more to write and read back.
func TestRequestSize(t *testing.T) {
	if n := unsafe.Sizeof(Request{}); n != 40 {
		t.Errorf("Request is %d bytes, want 40", n)
	}
}

// TestSearchNear: galloping from any start finds the same place as the
// plain binary search, for keys present, absent, below and above all.
func TestSearchNear(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for trial := 0; trial < 200; trial++ {
		var s blockSet
		for n := rng.Intn(40); n > 0; n-- {
			s.insert(&block{stream: int64(rng.Intn(3) - 1), size: int64(rng.Intn(8)) << 9, ptr: int64(rng.Intn(1 << 20))})
		}
		for q := 0; q < 50; q++ {
			k := sizeKey(int64(rng.Intn(5)-2), int64(rng.Intn(10))<<9, int64(rng.Intn(1<<20)))
			want := s.search(k)
			for i := 0; i <= len(s.keys); i++ {
				if got := s.searchNear(k, i); got != want {
					t.Fatalf("%d keys: searchNear from %d = %d, search = %d", len(s.keys), i, got, want)
				}
			}
		}
	}
}

// TestLowerBound: the branch-free search finds the first key not less than
// the probe, as a linear scan does, for every length up to 70 and for keys present, absent, below and
// above all, with equal stream and size runs that only ptr orders.
func TestLowerBound(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for n := 0; n <= 70; n++ {
		for trial := 0; trial < 20; trial++ {
			var s blockSet
			for len(s.keys) < n {
				b := &block{stream: int64(rng.Intn(3) - 1), size: int64(rng.Intn(6)) << 9, ptr: int64(rng.Intn(1<<12)) << 9}
				if s.indexOf(b) < 0 {
					s.insert(b)
				}
			}
			for q := 0; q < 40; q++ {
				k := sizeKey(int64(rng.Intn(5)-2), int64(rng.Intn(8))<<9, int64(rng.Intn(1<<12))<<9)
				if q%4 == 0 && n > 0 {
					k = s.keys[rng.Intn(n)]
				}
				want := 0
				for want < n && s.keys[want].less(k) {
					want++
				}
				if got := lowerBound(s.keys, k); got != want {
					t.Fatalf("%d keys: lowerBound = %d, want %d", n, got, want)
				}
			}
		}
	}
}

// TestBlockSetHoles: random inserts and erases (by index, by block, and
// replacements in place) leave a set whose live items are exactly a
// reference's, in order, with the holes counted and the keys sorted, and
// indices of untouched items unchanged by an erase; a search for a
// present block's key lands on it or on holes just before it.
func TestBlockSetHoles(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for trial := 0; trial < 300; trial++ {
		s := blockSet{addrOrder: trial%5 == 0}
		ref := map[*block]bool{}
		fresh := func() *block {
			for {
				b := &block{stream: int64(rng.Intn(2)), size: int64(1+rng.Intn(6)) << 9, ptr: int64(rng.Intn(1<<10)) << 9}
				dup := false
				for c := range ref {
					dup = dup || s.keyOf(c) == s.keyOf(b)
				}
				if !dup {
					return b
				}
			}
		}
		for op := 0; op < 200; op++ {
			switch r := rng.Intn(10); {
			case r < 5 || len(ref) == 0:
				b := fresh()
				s.insert(b)
				ref[b] = true
			case r < 8:
				i := s.next(rng.Intn(s.len()))
				if i == s.len() {
					continue
				}
				b := s.items[i]
				before := append([]*block(nil), s.items...)
				if r < 7 {
					s.eraseAt(i)
				} else if !s.erase(b) {
					t.Fatalf("trial %d: erase of a present block failed", trial)
				}
				delete(ref, b)
				for j := range s.items {
					if j != i && s.items[j] != before[j] {
						t.Fatalf("trial %d: erasing item %d moved item %d", trial, i, j)
					}
				}
			default:
				i := s.next(rng.Intn(s.len()))
				if i == s.len() {
					continue
				}
				delete(ref, s.items[i])
				b := fresh()
				s.replaceAt(i, b)
				ref[b] = true
			}
			if err := checkSet(&s); err != nil {
				t.Fatalf("trial %d, op %d: %v (%d slots, %d holes)", trial, op, err, s.len(), s.dead)
			}
			for b := range ref {
				i := s.search(s.keyOf(b))
				for i < s.len() && s.items[i] == nil {
					i++
				}
				if i == s.len() || s.items[i] != b {
					t.Fatalf("trial %d, op %d: search for block %#x does not find it", trial, op, b.ptr)
				}
				if s.indexOf(b) != i {
					t.Fatalf("trial %d, op %d: indexOf(%#x) = %d, want %d", trial, op, b.ptr, s.indexOf(b), i)
				}
			}
			if rng.Intn(20) == 0 {
				if got := len(s.live()); got != len(ref) || s.dead != 0 {
					t.Fatalf("trial %d: live() holds %d items (%d holes), want %d", trial, got, s.dead, len(ref))
				}
			}
		}
	}
}
