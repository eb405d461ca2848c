package snapshot

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// FuzzLoad feeds Load mutated snapshots, plain and gzip'd. It must return
// a snapshot or an error, never panic, and allocate in proportion to the
// (decompressed) input. Crashers found with `go test -fuzz FuzzLoad` land
// in testdata/fuzz/FuzzLoad and then run with every `go test`.
func FuzzLoad(f *testing.F) {
	var seeds [][]byte
	for _, pat := range []string{fixtures + "/probe-*.pickle", "testdata/synthetic/*.pickle", "testdata/hostile/*.pickle"} {
		paths, _ := filepath.Glob(pat)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			seeds = append(seeds, b)
		}
	}
	for _, b := range seeds {
		f.Add(b)
	}
	for _, name := range []string{"probe-default.pickle", "probe-expandable.pickle"} {
		b, _ := os.ReadFile(fixtures + "/" + name)
		f.Add(gz(f, b))
		for _, m := range damaged(b) {
			f.Add(m)
		}
	}
	f.Add(manyDevices(50))
	f.Fuzz(func(t *testing.T, in []byte) {
		size := len(in)
		if len(in) > 2 && in[0] == 0x1f && in[1] == 0x8b {
			size = max(size, inflatedSize(in))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := Load(bytes.NewReader(in))
		runtime.ReadMemStats(&after)
		if err == nil {
			s.DeviceIDs()
			for i := range s.Devices {
				for _, e := range s.Devices[i].Events {
					_ = s.Frames(e.Stack)
					_ = s.Contexts[s.Tags[e.Tag()].Context] // in range, or a panic
					_ = s.Stream(&e)
				}
			}
		} else if err.Error() == "" {
			t.Fatal("empty error message")
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		if limit := uint64(loadSlack + loadPerByte*size); alloc > limit {
			t.Fatalf("allocated %d bytes for %d (decompressed) input bytes (limit %d)", alloc, size, limit)
		}
	})
}

const (
	loadPerByte = 256
	loadSlack   = 4 << 20
)

// inflatedSize is how many bytes the gzip stream in b yields before it ends
// or fails, capped at 256 MiB.
func inflatedSize(b []byte) int {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return 0
	}
	zr.Multistream(false)
	n, _ := io.Copy(io.Discard, io.LimitReader(zr, 256<<20))
	return int(n)
}

// damaged returns deterministic broken copies of a snapshot pickle.
func damaged(b []byte) [][]byte {
	var out [][]byte
	mut := func(f func(c []byte) []byte) { out = append(out, f(append([]byte(nil), b...))) }
	for _, at := range []int{3, 17, len(b) / 4, len(b) / 2, 3 * len(b) / 4} {
		mut(func(c []byte) []byte { return c[:at] })
		mut(func(c []byte) []byte { c[at] ^= 0x20; return c })
		mut(func(c []byte) []byte { c[at] = 'N'; return c }) // a None where a value was
		mut(func(c []byte) []byte {
			binary.LittleEndian.PutUint32(c[at:], 0x7ffffff0)
			return c
		})
	}
	// Rename keys so required ones go missing or unknown ones appear.
	for _, r := range [][2]string{{"\x06action", "\x06actioN"}, {"\x04size", "\x04sizE"},
		{"\x07address", "\x07addresS"}, {"\x06blocks", "\x06blockS"}, {"\x0dalloc", "\x0doom\x00\x00"}} {
		mut(func(c []byte) []byte { return bytes.ReplaceAll(c, []byte(r[0]), []byte(r[1])) })
	}
	return out
}
