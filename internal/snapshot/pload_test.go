package snapshot

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// plainPickle returns the snapshot pickle at path, gunzipped.
func plainPickle(t testing.TB, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > 1 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if raw, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return raw
}

// reframe rewrites a protocol 4 pickle with a FRAME before every every-th
// opcode (every cycles through the given counts), so that chunk
// boundaries fall between opcodes of every kind.
func reframe(t testing.TB, p []byte, every []int) []byte {
	t.Helper()
	out, ok := reframed(p, every)
	if !ok {
		t.Fatal("pickle not scannable")
	}
	return out
}

// reframed is reframe; ok is false for a pickle with an opcode the
// parallel loader does not scan.
func reframed(p []byte, every []int) ([]byte, bool) {
	if len(p) < 2 {
		return nil, false
	}
	out := append([]byte(nil), p[:2]...)
	var frame []byte
	flush := func() {
		if len(frame) == 0 {
			return
		}
		var h [9]byte
		h[0] = pFrame
		binary.LittleEndian.PutUint64(h[1:], uint64(len(frame)))
		out = append(out, h[:]...)
		out = append(out, frame...)
		frame = frame[:0]
	}
	ops, k := 0, 0
	for i := 2; i < len(p); {
		n := opLen(p[i:])
		if n == 0 {
			return nil, false
		}
		if p[i] != pFrame {
			frame = append(frame, p[i:i+n]...)
			ops++
			if ops == every[k%len(every)] {
				flush()
				ops, k = 0, k+1
			}
		}
		i += n
	}
	flush()
	return out, true
}

func writeTemp(t testing.TB, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "snap.pickle")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadBoth loads path sequentially and in parallel with po, and fails the
// test at the first field where the snapshots differ, or when their errors
// differ. With strict, the runs must also have taken every entry.
func loadBoth(t testing.TB, path string, po parOptions, strict bool) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	want, werr := load(context.Background(), f, 0, DefaultLoadOptions())
	ps := po.stats
	if ps == nil {
		ps = &parStats{}
		po.stats = ps
	}
	lo, fed := followed(t)
	got, gerr := loadParallel(context.Background(), f, st.Size(), lo, po)
	fed.check(t, got, gerr)
	t.Logf("%+v: %d runs, %d of %d events claimed", po, ps.runs, ps.claimed, ps.events)
	if errors.Is(gerr, errNoParallel) && !strict {
		return // LoadFileContext would load it sequentially
	}
	if werr != nil || gerr != nil {
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("%+v: sequential error %v, parallel %v", po, werr, gerr)
		}
		return
	}
	if d := firstDiff(want, got); d != "" {
		t.Fatalf("%+v: %s", po, d)
	}
	// Every entry of these snapshots is plain: the runs must take them
	// all, or the speed is lost while the results stay right.
	if strict && ps.claimed != ps.events {
		t.Errorf("%+v: runs took %d of %d events", po, ps.claimed, ps.events)
	}
}

// firstDiff names the first field in which two snapshots differ.
func firstDiff(a, b *Snapshot) string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		name := va.Type().Field(i).Name
		if name == "Devices" {
			if len(a.Devices) != len(b.Devices) {
				return fmt.Sprintf("%d devices, want %d", len(b.Devices), len(a.Devices))
			}
			for d := range a.Devices {
				ea, eb := a.Devices[d].Events, b.Devices[d].Events
				if len(ea) != len(eb) {
					return fmt.Sprintf("device %d: %d events, want %d", d, len(eb), len(ea))
				}
				for k := range ea {
					if ea[k] != eb[k] {
						return fmt.Sprintf("device %d event %d: %+v, want %+v", d, k, eb[k], ea[k])
					}
				}
			}
			continue
		}
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			if name == "Stacks" {
				for k := range min(len(a.Stacks), len(b.Stacks)) {
					if !reflect.DeepEqual(a.Stacks[k], b.Stacks[k]) {
						return fmt.Sprintf("Stacks[%d] of %d/%d differs", k, len(b.Stacks), len(a.Stacks))
					}
				}
			}
			return fmt.Sprintf("%s differs: %v\nwant %v", name, short(vb.Field(i).Interface()), short(va.Field(i).Interface()))
		}
	}
	return ""
}

func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

var parCorpus = []string{
	"../../testdata/h200/bert-base-s128-b16-fp32.pickle.gz",
	"../../testdata/h200/gpt2-dyn-pad-batch-default.pickle.gz",
	"../../testdata/h200/oom-vitl16-b96-fp32.pickle.gz",
	"../../testdata/h200/resnet50-b16x4-fp32-accum.pickle.gz",
	"../../testdata/snapshots/probe-expandable.pickle",
}

// TestParallelMatchesSequential decodes real H200 snapshots in parallel
// with chunks from one frame of the pickler's (64 KiB) up, and with frames
// re-cut every few opcodes so that chunks start between opcodes of every
// kind, and compares every field with the sequential decoder's.
func TestParallelMatchesSequential(t *testing.T) {
	for _, src := range parCorpus {
		t.Run(filepath.Base(src), func(t *testing.T) {
			raw := plainPickle(t, src)
			path := writeTemp(t, raw)
			for _, po := range []parOptions{{workers: 1, chunk: 1}, {workers: 3, chunk: 1}, {workers: 2, chunk: 200 << 10}} {
				loadBoth(t, path, po, true)
			}
			re := writeTemp(t, reframe(t, raw, []int{1, 2, 3, 5, 7, 11, 13, 17, 29, 31, 64, 97, 128, 250}))
			loadBoth(t, re, parOptions{workers: 4, chunk: 1}, true)
			loadBoth(t, re, parOptions{workers: 2, chunk: 4 << 10}, true)
		})
	}
}

// parSeeds are small snapshots, valid and not, framed every few opcodes.
func parSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, pat := range []string{fixtures + "/probe-*.pickle", "testdata/synthetic/*.pickle", "testdata/hostile/*.pickle"} {
		paths, _ := filepath.Glob(pat)
		for _, p := range paths {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if re, ok := reframed(raw, []int{1, 2, 3, 5, 8}); ok {
				seeds = append(seeds, re)
			}
		}
	}
	return seeds
}

// TestParallelSmallAndHostile decodes the synthetic snapshots (odd values,
// several devices, shared frames) and the hostile ones in chunks of a
// few opcodes: each gives the sequential decoder's snapshot, or its error
// word for word.
func TestParallelSmallAndHostile(t *testing.T) {
	seeds := parSeeds(t)
	if len(seeds) < 40 {
		t.Fatalf("only %d seeds", len(seeds))
	}
	for _, b := range seeds {
		path := writeTemp(t, b)
		loadBoth(t, path, parOptions{workers: 3, chunk: 1}, false)
		loadBoth(t, path, parOptions{workers: 1, chunk: 64}, false)
	}
}

// FuzzParallelLoad compares the parallel loader with the sequential
// decoder on mutated framed snapshots: the same snapshot or the same
// error, never a panic or a hang.
func FuzzParallelLoad(f *testing.F) {
	for _, b := range parSeeds(f) {
		f.Add(b, uint8(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		path := filepath.Join(t.TempDir(), "f.pickle")
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
		loadBoth(t, path, parOptions{workers: 2, chunk: int64(chunk)}, false)
	})
}

// TestParallelStopsWhenCancelled: cancelled before the start, or part way
// through a real trace, the parallel loader returns context.Canceled.
func TestParallelStopsWhenCancelled(t *testing.T) {
	raw := plainPickle(t, "../../testdata/h200/gpt2-dyn-pad-batch-default.pickle.gz")
	path := writeTemp(t, raw)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := loadParallel(ctx, f, st.Size(), DefaultLoadOptions(), parOptions{workers: 2, chunk: 64 << 10}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the start: err = %v", err)
	}
	for _, left := range []int64{3, 40, 200} {
		mid := &stopAfter{Context: context.Background()}
		mid.left.Store(left)
		if _, err := loadParallel(mid, f, st.Size(), DefaultLoadOptions(), parOptions{workers: 2, chunk: 64 << 10}); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d looks: err = %v", left, err)
		}
	}
}

// TestParallelEveryTestdataSnapshot decodes every snapshot under
// testdata/ in parallel, in chunks of one pickler frame (64 KiB) and,
// framed again every 1 to 250 opcodes, in chunks of about 4 KiB (so that
// chunks start before opcodes of every kind, inside entries, frames
// lists and frame dicts), and compares each with the sequential decoder's
// snapshot field by field (or its error, word for word).
func TestParallelEveryTestdataSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes every snapshot under testdata/ three times")
	}
	var paths []string
	for _, pat := range []string{"../../testdata/*/*.pickle.gz", "../../testdata/*/*.pickle"} {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	if len(paths) < 50 {
		t.Fatalf("found %d snapshots", len(paths))
	}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) > 1 && raw[0] == 0x1f {
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err == nil {
				raw, err = io.ReadAll(zr)
			}
			if err != nil {
				continue // testdata/bad: not a pickle at all
			}
		}
		loadBoth(t, writeTemp(t, raw), parOptions{workers: 3, chunk: 1}, false)
		if re, ok := reframed(raw, []int{1, 2, 3, 5, 7, 11, 13, 17, 29, 31, 64, 97, 128, 250}); ok {
			loadBoth(t, writeTemp(t, re), parOptions{workers: 2, chunk: 4 << 10}, false)
		}
	}
}

// TestParallelRunLeftOut: a trace entry whose dict a later entry of its
// batch fetches (as an ignored user_metadata) makes the chunk decoder
// leave its run to the sequential decoder; the next batch's run uses the
// frames list that run decoded, and must still map it.
func TestParallelRunLeftOut(t *testing.T) {
	var p []byte
	op := func(b ...byte) { p = append(p, b...) }
	str := func(s string) { op(0x8c, byte(len(s))); op([]byte(s)...); op(0x94) }
	op('}', 0x94, '(') // top dict, memo 0
	str("segments")    // 1
	op(']', 0x94)      // 2
	str("device_traces")
	op(']', 0x94, ']', 0x94, '(') // outer 4, inner 5
	// e0: {action: alloc, addr: 16, size: 8, frames: [{name, filename, line}]}
	op('}', 0x94, '(') // 6
	str("action")      // 7
	str("alloc")       // 8
	str("addr")        // 9
	op('K', 16)
	str("size") // 10
	op('K', 8)
	str("frames")      // 11
	op(']', 0x94, '(') // 12
	op('}', 0x94, '(') // 13
	str("name")
	str("f")
	str("filename")
	str("x.py")
	str("line")
	op('K', 3, 'u', 'e', 'u')
	// e1: the same, with user_metadata the dict of e0 (memo 6)
	op('}', 0x94, '(') // 19
	op('h', 7, 'h', 8, 'h', 9, 'K', 32, 'h', 10, 'K', 8)
	str("user_metadata") // 20
	op('h', 6, 'u')
	op('e', '(')
	// e2, next batch: frames is e0's list (memo 12)
	op('}', 0x94, '(')
	op('h', 7, 'h', 8, 'h', 9, 'K', 48, 'h', 10, 'K', 8, 'h', 11, 'h', 12, 'u')
	op('e', 'a', 'u', '.')
	var h [9]byte
	h[0] = pFrame
	binary.LittleEndian.PutUint64(h[1:], uint64(len(p)))
	file := append(append([]byte{0x80, 4}, h[:]...), p...)
	path := writeTemp(t, file)
	ps := &parStats{}
	loadBoth(t, path, parOptions{workers: 1, chunk: 1 << 20, stats: ps}, false)
	if ps.claimed != 1 {
		t.Errorf("runs took %d events, want e2's", ps.claimed)
	}
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ev := s.Trace(0)
	if len(ev) != 3 || ev[2].Stack != ev[0].Stack || ev[0].Stack == 0 {
		t.Fatalf("events %+v: want 3, the first and last on one stack", ev)
	}
}

// TestParallelLateFrameStr: chunks drop their runs' memo entries once the
// decoder is past the last chunk that fetches them, but a frame decoded in
// one chunk may name a str memoized in an earlier chunk's run, fetched
// nowhere else, and the frame itself be fetched chunks later: the str must
// still be found then (gen.py's late-frame-str, cut in chunks of one pickler frame; without
// builder.resolveLater the frame's filename is gone).
func TestParallelLateFrameStr(t *testing.T) {
	path := "testdata/synthetic/late-frame-str.pickle"
	for _, po := range []parOptions{{workers: 1, chunk: 1}, {workers: 2, chunk: 1}, {workers: 3, chunk: 100 << 10}} {
		ps := &parStats{}
		po.stats = ps
		loadBoth(t, path, po, true)
		if ps.runs < 3 {
			t.Errorf("%+v: %d runs, want the trace cut in several chunks", po, ps.runs)
		}
	}
}
