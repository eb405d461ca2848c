package snapshot

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"reflect"
	"testing"
	"testing/iotest"
	"unsafe"
)

func mustLoad(t *testing.T, path string) *Snapshot {
	t.Helper()
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Load streams: one byte per Read, or through gzip, gives the same result.
func TestLoadStreams(t *testing.T) {
	raw, err := os.ReadFile(fixtures + "/probe-default.pickle")
	if err != nil {
		t.Fatal(err)
	}
	want := mustLoad(t, fixtures+"/probe-default.pickle")
	oneByte, err := Load(iotest.OneByteReader(bytes.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	zipped, err := Load(iotest.HalfReader(bytes.NewReader(gz(t, raw))))
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]*Snapshot{"one byte at a time": oneByte, "gzip": zipped} {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: snapshot differs from a plain load", name)
		}
	}
}

// Only the first gzip member is read, and bytes after STOP are ignored.
func TestTrailingData(t *testing.T) {
	raw, _ := os.ReadFile(fixtures + "/probe-expandable.pickle")
	want := mustLoad(t, fixtures+"/probe-expandable.pickle")
	withJunk := append(append([]byte{}, raw...), "\x00\x00 padding after STOP"...)
	z := gz(t, withJunk)
	var second bytes.Buffer
	w := gzip.NewWriter(&second)
	io.WriteString(w, "another member")
	w.Close()
	for name, in := range map[string][]byte{"plain": withJunk, "gzip": z,
		"two gzip members": append(append([]byte{}, z...), second.Bytes()...)} {
		got, err := Load(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: snapshot differs", name)
		}
	}
}

func TestSeveralDevices(t *testing.T) {
	s := mustLoad(t, "testdata/synthetic/multi-device.pickle")
	if got, want := s.DeviceIDs(), []int{0, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("DeviceIDs() = %v, want %v", got, want)
	}
	for dev, n := range map[int]int{0: 10, 1: 0, 2: 7, 3: 4, 9: 0} {
		if got := len(s.Trace(dev)); got != n {
			t.Errorf("len(Trace(%d)) = %d, want %d", dev, got, n)
		}
	}
	if ev := s.Trace(2)[1]; ev.Action != ActionAlloc || ev.Addr != 0x7F0200000000 || ev.Size != 100 {
		t.Errorf("Trace(2)[1] = %+v", ev)
	}
	s = mustLoad(t, "testdata/synthetic/eight-devices.pickle")
	for d := 0; d < 8; d++ {
		if got := len(s.Trace(d)); got != 1+3*(d+1) {
			t.Errorf("device %d: %d events, want %d", d, got, 1+3*(d+1))
		}
	}
}

// Equal stacks get one StackID and one []Frame, however the pickle spelled
// them (shared list, shared dicts, or equal copies).
func TestStacksInterned(t *testing.T) {
	s := mustLoad(t, "testdata/synthetic/equal-frames.pickle")
	ev := s.Trace(0)
	if ev[0].Stack == 0 || ev[0].Stack != ev[1].Stack || ev[1].Stack != ev[2].Stack {
		t.Fatalf("stacks %d %d %d, want one non-zero id", ev[0].Stack, ev[1].Stack, ev[2].Stack)
	}
	if ev[3].Stack == ev[0].Stack || ev[3].Stack == 0 {
		t.Fatalf("a shorter stack shares id %d", ev[3].Stack)
	}
	if blk := s.Segments[0].Blocks[0]; blk.Stack != ev[0].Stack {
		t.Fatalf("block stack %d, want %d", blk.Stack, ev[0].Stack)
	}
	if len(s.Stacks) != 3 || s.Frames(ev[0].Stack)[2] != (Frame{"<module>", "/home/user/train.py", 30}) {
		t.Fatalf("Stacks = %v", s.Stacks)
	}
	if s.Frames(0) != nil || s.Frames(-1) != nil || s.Frames(99) != nil {
		t.Fatal("Frames of the empty or an unknown id is not nil")
	}
}

// Legacy blocks without "address" tile their segment from its start.
func TestLegacyBlocks(t *testing.T) {
	s := mustLoad(t, "testdata/synthetic/legacy-list.pickle")
	if !s.LegacyList || len(s.Devices) != 0 || s.Settings.Present {
		t.Fatalf("LegacyList=%v devices=%d settings=%v", s.LegacyList, len(s.Devices), s.Settings.Present)
	}
	const base, mib = 0x7F0000000000, 1 << 20
	want := []Block{
		{Address: base, Size: 2 * mib, RequestedSize: 2*mib - 5, State: BlockActiveAllocated},
		{Address: base + 2*mib, Size: mib, State: BlockInactive},
		{Address: base + 3*mib, Size: 3 * mib, RequestedSize: 3 * mib, State: BlockActivePendingFree},
	}
	got := s.Segments[0].Blocks
	for i := range got {
		got[i].Stack = 0
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("blocks\n got %+v\nwant %+v", got, want)
	}
	if small := s.Segments[1]; small.Large || small.Blocks[1].Address != base+1<<30+512 {
		t.Fatalf("small segment %+v", small)
	}
}

func TestSettings(t *testing.T) {
	s := mustLoad(t, "testdata/synthetic/settings.pickle")
	want := Settings{Present: true, MaxSplit: 128 << 20, GCThreshold: 0.8, ReleaseLock: true,
		AllocConf:        "roundup_power2_divisions:[256:1,>:4],max_split_size_mb:128,garbage_collection_threshold:0.8",
		RoundupDivisions: [16]int{1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 4, 4, 4, 4, 4}}
	if s.Settings != want {
		t.Fatalf("settings\n got %+v\nwant %+v", s.Settings, want)
	}
	if st := mustLoad(t, "testdata/synthetic/settings-sizemax.pickle").Settings; st.MaxSplit != -1 || !st.Expandable {
		t.Fatalf("SIZE_MAX settings: %+v", st)
	}
}

// A 1 GiB snapshot holds over ten million trace events, all in memory at
// once: the event must stay at 32 bytes (issue 17's memory target: peak
// RSS at most half the file).
func TestTraceEventSize(t *testing.T) {
	if n := unsafe.Sizeof(TraceEvent{}); n > 32 {
		t.Errorf("TraceEvent is %d bytes, want at most 32", n)
	}
}

// The tag's 24 bits hold every value below MaxTags, beside the fields
// packed with it.
func TestTraceEventTag(t *testing.T) {
	for _, tag := range []uint32{0, 1, 0xffff, 0x10000, 0x123456, MaxTags - 1} {
		e := TraceEvent{Stack: -1, Action: ActionOOM}
		e.SetTag(tag)
		if e.Tag() != tag || e.Stack != -1 || e.Action != ActionOOM {
			t.Errorf("SetTag(%#x): Tag %#x, Stack %d, Action %v", tag, e.Tag(), e.Stack, e.Action)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("SetTag(MaxTags) did not panic")
		}
	}()
	new(TraceEvent).SetTag(MaxTags)
}

// A frame whose line PyTorch could not tell is written as SIZE_MAX
// (2^64-1): torch 2.11 wrote 588 of them for the <module> frame of a
// process `vramkit run` captured as it died in an OOM. The snapshot loads
// and those frames have line 0 (unknown); the rest keep theirs.
func TestFrameLineSizeMax(t *testing.T) {
	s := mustLoad(t, "../../testdata/captures/oom/vramkit-run-vitl16-b512-fp32/snapshot.pickle.gz")
	unknown, known := 0, 0
	for _, st := range s.Stacks {
		for _, f := range st {
			switch {
			case f.Name == "<module>" && f.Line == 0:
				unknown++
			case f.Line > 0:
				known++
			}
		}
	}
	if unknown == 0 || known == 0 {
		t.Errorf("frames: %d <module> frames with line 0, %d with a line; want both", unknown, known)
	}
}
