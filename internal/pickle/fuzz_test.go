package pickle

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"testing"
)

// FuzzDecode feeds the decoder mutated pickles. It must return a value or
// an error, never panic, and allocate in proportion to its input: at most
// allocPerByte bytes per input byte plus allocSlack.
//
// Seeds are every golden case, the probe snapshots and mutated copies of
// them; crashers found by `go test -fuzz FuzzDecode` land in
// testdata/fuzz/FuzzDecode and then run with every `go test`.
func FuzzDecode(f *testing.F) {
	for _, c := range loadGolden(f) {
		f.Add(c.bytes(f))
	}
	for _, path := range []string{probeFixture, "../../testdata/snapshots/probe-expandable.pickle"} {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		for _, m := range mutations(b) {
			f.Add(m)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var v any
		var err error
		alloc := allocated(func() {
			v, err = decode(in)
			if err == nil {
				render(v, map[any]int{}) // walk it all: cycles must not hang
			}
		})
		if err != nil {
			var oe *OpError
			if !errors.As(err, &oe) && !errors.Is(err, ErrTruncated) {
				t.Fatalf("error %v (%T) is neither an *OpError nor ErrTruncated", err, err)
			}
		}
		if limit := uint64(allocSlack + allocPerByte*len(in)); alloc > limit {
			t.Fatalf("allocated %d bytes for %d input bytes (limit %d)", alloc, len(in), limit)
		}
	})
}

const (
	allocPerByte = 128
	allocSlack   = 2 << 20
)

// mutations returns deterministic damaged copies of b: cut short, bytes
// flipped, and length or memo fields made huge, at spread-out offsets.
func mutations(b []byte) [][]byte {
	var out [][]byte
	mut := func(f func(c []byte) []byte) { out = append(out, f(append([]byte(nil), b...))) }
	for _, at := range []int{1, 2, 3, 11, len(b) / 3, len(b) / 2, len(b) - 2} {
		if at <= 0 || at >= len(b) {
			continue
		}
		mut(func(c []byte) []byte { return c[:at] })
		mut(func(c []byte) []byte { c[at] ^= 0xff; return c })
		mut(func(c []byte) []byte { c[at] = 0x8d; return c }) // becomes BINUNICODE8
		mut(func(c []byte) []byte { c[at] = 'j'; return c })  // becomes LONG_BINGET
		mut(func(c []byte) []byte {
			if at+5 <= len(c) {
				binary.LittleEndian.PutUint32(c[at+1:], 0xfffffff0)
			}
			return c
		})
	}
	mut(func(c []byte) []byte { return bytes.ReplaceAll(c, []byte{0x94}, []byte{'0'}) }) // MEMOIZE→POP
	mut(func(c []byte) []byte { return bytes.ReplaceAll(c, []byte{'e'}, []byte{'l'}) })  // APPENDS→LIST
	mut(func(c []byte) []byte { return append(c[:len(c)-1], c...) })                     // two pickles
	return out
}
