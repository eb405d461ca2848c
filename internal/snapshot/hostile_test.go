package snapshot

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/pickle"
)

// testdata/hostile holds valid pickles (written by gen.py) that are not
// valid snapshots; each must fail with a message that names the problem.
var hostileWant = map[string]string{
	"int":                      "not a PyTorch memory snapshot: the pickle holds an int",
	"str":                      "not a PyTorch memory snapshot: the pickle holds a str",
	"no-segments":              `top-level dict has no "segments" key`,
	"segments-int":             "segments is an int, not a list",
	"segment-str":              "segments[0] is a str, not a dict",
	"segment-no-address":       `segments[0]: missing "address"`,
	"segment-negative-address": "address is negative",
	"segment-address-str":      "address is a str",
	"segment-no-blocks":        `missing "blocks" list`,
	"segment-blocks-dict":      `missing "blocks" list`,
	"block-int":                "blocks[0] is an int, not a dict",
	"block-no-size":            `blocks[0]: missing "size"`,
	"block-size-float":         "size is a float, not an int",
	"block-bad-state":          "unknown block state freed",
	"block-frames-str":         "frames is a str, not a list",
	"traces-dict":              "device_traces is a dict, not a list",
	"trace-int":                "device_traces[0] is an int, not a list",
	"trace-entry-int":          "device_traces[0]: entry is an int, not a dict",
	"trace-entry-list":         "device_traces[0]: entry is a list, not a dict",
	"event-no-action":          `entry 0: missing "action"`,
	"event-action-int":         "action is an int, not a str",
	"event-unknown-action":     `unknown action "teleport"`,
	"event-no-addr":            `missing "addr"`,
	"event-no-size":            `missing "size"`,
	"event-size-str":           "size is a str, not an int",
	"event-negative-size":      "size is negative (-10)",
	"event-size-too-big":       "size out of range (18446744073709551616)",
	"event-time-str":           "time_us is a str, not an int",
	"event-stream-float":       "stream is a float",
	"event-frames-int":         "frames is an int, not a list",
	"event-frame-str":          "frame is a str, not a dict",
	"event-frame-line-str":     "frame line is a str, not an int",
	"settings-list":            "allocator_settings is a list, not a dict",
	"ordered-dict":             "STACK_GLOBAL",
}

func TestHostilePickles(t *testing.T) {
	paths, _ := filepath.Glob("testdata/hostile/*.pickle")
	if len(paths) != len(hostileWant) {
		t.Errorf("%d hostile pickles on disk, %d in the table", len(paths), len(hostileWant))
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".pickle")
		t.Run(name, func(t *testing.T) {
			want, ok := hostileWant[name]
			if !ok {
				t.Fatal("no expected error listed")
			}
			s, err := LoadFile(p)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, %v; want an error containing %q", s, err, want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
}

func gz(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func TestHostileBytes(t *testing.T) {
	probe, err := os.ReadFile(fixtures + "/probe-default.pickle")
	if err != nil {
		t.Fatal(err)
	}
	zprobe := gz(t, probe)
	badCRC := append([]byte(nil), zprobe...)
	badCRC[len(badCRC)-5] ^= 0xff // CRC32 sits before the 4-byte length
	badData := append([]byte(nil), zprobe...)
	badData[len(badData)/2] ^= 0x55
	tests := []struct {
		name string
		in   []byte
		want string
		is   error
	}{
		{"empty", nil, "empty input", ErrNotSnapshot},
		{"text", []byte("segments: []\n"), "neither a pickle", ErrNotSnapshot},
		{"json", []byte(`{"segments": []}`), "neither a pickle", ErrNotSnapshot},
		{"one byte 0x80", []byte{0x80}, "truncated", pickle.ErrTruncated},
		{"protocol 1 pickle", []byte("}q\x00X\x08\x00\x00\x00segmentsq\x01]s."), "neither a pickle", ErrNotSnapshot},
		{"protocol 6", []byte("\x80\x06}."), "unsupported protocol 6", nil},
		{"gzip magic only", []byte{0x1f, 0x8b}, "gzip", nil},
		{"gzip of garbage", gz(t, []byte("not a pickle at all")), "gzip-compressed, but what it holds is not a pickle", ErrNotSnapshot},
		{"gzip of nothing", gz(t, nil), "empty gzip stream", ErrNotSnapshot},
		{"garbage deflate", append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, bytes.Repeat([]byte{0xff}, 64)...), "gzip", nil},
		{"truncated gzip", zprobe[:len(zprobe)/2], "gzip", nil},
		{"gzip without trailer", zprobe[:len(zprobe)-8], "gzip", nil},
		{"gzip bad CRC", badCRC, "gzip", nil},
		{"gzip damaged data", badData, "", nil},
		{"truncated pickle", probe[:len(probe)/2], "truncated", pickle.ErrTruncated},
		{"forbidden opcode", []byte("\x80\x04cos\nsystem\n."), "GLOBAL", pickle.ErrForbidden},
		{"dict without segments", []byte("\x80\x04}."), `no "segments"`, ErrNotSnapshot},
		{"list of ints", []byte("\x80\x04]K\x01a."), "segments[0] is an int", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Load(bytes.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, %v; want an error containing %q", s, err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("error %q does not wrap %v", err, tt.is)
			}
		})
	}
}

func TestLoadFileErrors(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"testdata", "is a directory"},
		{"testdata/does-not-exist.pickle", "no such file"},
		{"testdata/hostile/int.pickle", "testdata/hostile/int.pickle: not a PyTorch memory snapshot"},
	} {
		if _, err := LoadFile(tt.path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LoadFile(%q) = %v, want an error containing %q", tt.path, err, tt.want)
		}
	}
}

// Every prefix of a snapshot, plain or gzip, fails cleanly.
func TestEveryPrefixFails(t *testing.T) {
	probe, err := os.ReadFile(fixtures + "/probe-expandable.pickle")
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(probe); n++ {
		if _, err := Load(bytes.NewReader(probe[:n])); err == nil {
			t.Fatalf("prefix of %d/%d bytes loaded", n, len(probe))
		}
	}
	z, err := os.ReadFile(fixtures + "/oom-vitl16-b96-fp32.pickle.gz")
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(z); n += 37 {
		if _, err := Load(bytes.NewReader(z[:n])); err == nil {
			t.Fatalf("gzip prefix of %d/%d bytes loaded", n, len(z))
		}
	}
}

// manyDevices builds {"segments": [], "device_traces": [[e], [e], ...]}
// with n one-event device lists, 13 bytes each.
func manyDevices(n int) []byte {
	var b bytes.Buffer
	b.WriteString("\x80\x04}(\x8c\x08segments]\x8c\x0ddevice_traces](")
	for i := 0; i < n; i++ {
		b.WriteString("]}(")
		if i == 0 {
			b.WriteString("\x8c\x06action\x94\x8c\x08snapshot\x94\x8c\x04size\x94")
		} else {
			b.WriteString("h\x00h\x01h\x02")
		}
		b.WriteString("K\x00ua")
	}
	b.WriteString("eu.")
	return b.Bytes()
}

func TestManyDevicesStaySmall(t *testing.T) {
	in := manyDevices(20000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := Load(bytes.NewReader(in))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Devices) != 20000 || len(s.Trace(19999)) != 1 || s.Trace(19999)[0].Action != ActionSnapshot {
		t.Fatalf("got %d devices, last trace %v", len(s.Devices), s.Trace(19999))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("allocated %d MB for a %d kB pickle", alloc>>20, len(in)>>10)
	}
}
