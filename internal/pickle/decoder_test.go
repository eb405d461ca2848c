package pickle

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
)

const probeFixture = "../../testdata/snapshots/probe-default.pickle"

func decode(b []byte) (any, error) { return NewDecoder(bytes.NewReader(b)).Decode() }

func le32(n uint32) []byte { return binary.LittleEndian.AppendUint32(nil, n) }
func le64b(n uint64) []byte {
	return binary.LittleEndian.AppendUint64(nil, n)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var p4 = []byte{0x80, 4}

// Each forbidden opcode is refused where it stands, with its name and
// offset in the message; nothing before it is resolved or called.
func TestForbiddenOpcodes(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		off  int64
	}{
		{"GLOBAL", cat(p4, []byte("cos\nsystem\n.")), 2},
		{"STACK_GLOBAL", cat(p4, []byte("\x8c\x02os\x8c\x06system\x93.")), 14},
		{"REDUCE", cat(p4, []byte("N)R.")), 4},
		{"BUILD", cat(p4, []byte("}}b.")), 4},
		{"INST", cat(p4, []byte("(ios\nsystem\n.")), 3},
		{"OBJ", cat(p4, []byte("(N)o.")), 5},
		{"NEWOBJ", cat(p4, []byte("N)\x81.")), 4},
		{"NEWOBJ_EX", cat(p4, []byte("N)}\x92.")), 5},
		{"PERSID", cat(p4, []byte("Pid\n.")), 2},
		{"BINPERSID", cat(p4, []byte("K\x01Q.")), 4},
		{"EXT1", cat(p4, []byte("\x82\x01.")), 2},
		{"EXT2", cat(p4, []byte("\x83\x01\x00.")), 2},
		{"EXT4", cat(p4, []byte("\x84\x01\x00\x00\x00.")), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decode(tt.in)
			var oe *OpError
			if !errors.As(err, &oe) || !errors.Is(err, ErrForbidden) {
				t.Fatalf("got %v, want an *OpError wrapping ErrForbidden", err)
			}
			if oe.Name != tt.name || oe.Offset != tt.off {
				t.Fatalf("got %s at %d, want %s at %d", oe.Name, oe.Offset, tt.name, tt.off)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.name) || !strings.Contains(msg, fmt.Sprintf("offset %d", tt.off)) {
				t.Fatalf("message %q lacks the opcode name or offset", msg)
			}
		})
	}
}

func TestRefusedInput(t *testing.T) {
	tests := []struct {
		name, want string
		in         []byte
	}{
		{"protocol 0", "no PROTO", []byte("(lp0\nI1\na.")},
		{"protocol 1", "no PROTO", []byte("}q\x00X\x01\x00\x00\x00aq\x01K\x01s.")},
		{"protocol 6", "unsupported protocol 6", []byte("\x80\x06K\x01.")},
		{"protocol 1 header", "unsupported protocol 1", []byte("\x80\x01K\x01.")},
		{"unknown opcode", "offset 2: unknown opcode (0xff)", []byte("\x80\x04\xff.")},
		{"set", "EMPTY_SET", []byte("\x80\x04\x8f.")},
		{"text INT", "offset 2: INT", []byte("\x80\x02I1\n.")},
		{"stack left at STOP", "malformed stack", []byte("\x80\x04K\x01K\x02.")},
		{"open mark at STOP", "malformed stack", []byte("\x80\x04K\x01(.")},
		{"STOP on empty stack", "malformed stack", []byte("\x80\x04.")},
		{"APPEND to int", "not a list", []byte("\x80\x04K\x01K\x02a.")},
		{"SETITEM on list", "not a dict", []byte("\x80\x04]K\x01K\x02s.")},
		{"SETITEMS odd", "odd number", []byte("\x80\x04}(K\x01u.")},
		{"unhashable key", "unhashable", []byte("\x80\x04}]K\x01s.")},
		{"APPENDS without MARK", "no MARK", []byte("\x80\x04]e.")},
		{"TUPLE2 across mark", "underflow", []byte("\x80\x04K\x01(K\x02\x86.")},
		{"BINGET undefined", "memo index 7 not defined", []byte("\x80\x04h\x07.")},
		{"LONG4 negative", "negative length", cat(p4, []byte{0x8b}, le32(0xffffffff), []byte("."))},
		{"empty", "truncated", nil},
		{"no STOP", "truncated", []byte("\x80\x04K\x01")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := decode(tt.in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, %v; want an error containing %q", v, err, tt.want)
			}
		})
	}
}

// A length field far larger than the input fails as truncated after
// allocating about what was read, never the announced length.
func TestForgedLengthsDoNotAllocate(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"BINUNICODE8 2^62", cat(p4, []byte{0x8d}, le64b(1<<62), []byte("abc"))},
		{"BINUNICODE8 2^64-1", cat(p4, []byte{0x8d}, le64b(1<<64-1), []byte("abc"))},
		{"BINBYTES8 2^63", cat(p4, []byte{0x8e}, le64b(1<<63), []byte("abc"))},
		{"BINUNICODE 2^32-1", cat(p4, []byte{'X'}, le32(1<<32-1), []byte("abc"))},
		{"BINBYTES 2^32-1", cat(p4, []byte{'B'}, le32(1<<32-1), []byte("abc"))},
		{"LONG4 2^31-1", cat(p4, []byte{0x8b}, le32(1<<31-1), []byte("abc"))},
		{"FRAME 2^63", cat(p4, []byte{0x95}, le64b(1<<63), []byte("K"))},
		{"BINUNICODE8 2^40 with 3 MB", cat(p4, []byte{0x8d}, le64b(1<<40), bytes.Repeat([]byte("z"), 3<<20))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			alloc := allocated(func() { _, err = decode(tt.in) })
			if !errors.Is(err, ErrTruncated) {
				t.Fatalf("got %v, want ErrTruncated", err)
			}
			if limit := uint64(4<<20 + 4*len(tt.in)); alloc > limit {
				t.Fatalf("allocated %d bytes for %d bytes of input (limit %d)", alloc, len(tt.in), limit)
			}
		})
	}
}

// Memo indices come from the input too: sparse ones must not reserve the
// slots in between.
func TestForgedMemoIndicesStaySmall(t *testing.T) {
	var b bytes.Buffer
	b.Write(p4)
	b.WriteString("N")
	for i := uint32(0); i < 50000; i++ {
		b.WriteByte('r') // LONG_BINPUT, each 1000 past the last
		b.Write(le32(i * 1000))
	}
	b.WriteString(".")
	var err error
	alloc := allocated(func() { _, err = decode(b.Bytes()) })
	if err != nil {
		t.Fatal(err)
	}
	if alloc > 32<<20 {
		t.Fatalf("allocated %d MB for a %d kB pickle", alloc>>20, b.Len()>>10)
	}
}

// allocated returns the bytes f allocated (garbage included).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Strings and bytes longer than the read buffer arrive in pieces.
func TestLongStringsAcrossBuffer(t *testing.T) {
	payload := strings.Repeat("0123456789abcdef", 40000) // 640 kB > bufSize
	for _, tt := range []struct {
		name string
		in   []byte
		want any
	}{
		{"BINUNICODE", cat(p4, []byte{'X'}, le32(uint32(len(payload))), []byte(payload), []byte(".")), payload},
		{"BINUNICODE8", cat(p4, []byte{0x8d}, le64b(uint64(len(payload))), []byte(payload), []byte(".")), payload},
		{"BINBYTES8", cat(p4, []byte{0x8e}, le64b(uint64(len(payload))), []byte(payload), []byte(".")), []byte(payload)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Odd-sized reads split the payload and its header across
			// buffer refills.
			v, err := NewDecoder(&chunkReader{tt.in, 4093}).Decode()
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(v) != fmt.Sprint(tt.want) {
				t.Fatalf("got %d-byte %T, want the %d-byte payload", len(fmt.Sprint(v)), v, len(payload))
			}
		})
	}
}

type chunkReader struct {
	b []byte
	n int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n, len(r.b))
	copy(p, r.b[:n])
	r.b = r.b[n:]
	return n, nil
}

// Every proper prefix of a real snapshot is an error, never a panic, and
// the decoder does not read past STOP.
func TestEveryPrefixOfFixture(t *testing.T) {
	full, err := os.ReadFile(probeFixture)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decode(full); err != nil {
		t.Fatalf("whole fixture: %v", err)
	}
	for n := 0; n < len(full); n++ {
		if _, err := decode(full[:n]); !errors.Is(err, ErrTruncated) {
			t.Fatalf("prefix of %d/%d bytes: got %v, want ErrTruncated", n, len(full), err)
		}
	}
	r := bytes.NewReader(append(append([]byte{}, full...), "trailing junk"...))
	d := NewDecoder(r)
	if _, err := d.Decode(); err != nil {
		t.Fatal(err)
	}
	if d.Offset() != int64(len(full)) {
		t.Fatalf("Offset after STOP = %d, want %d", d.Offset(), len(full))
	}
}

func TestReplaceDropsConsumedObjects(t *testing.T) {
	// [d, d] where d = {} is memoized: once replaced by nil, a later
	// reference is an error that says so.
	in := []byte("\x80\x04](}\x94h\x00e.")
	d := NewDecoder(bytes.NewReader(in))
	d.SetAppendHook(func(l *List, item any) (bool, error) {
		if dict, ok := item.(*Dict); ok {
			d.Replace(dict, nil)
		}
		return true, nil
	})
	// The hook runs at APPENDS, after both references were resolved.
	if _, err := d.Decode(); err != nil {
		t.Fatal(err)
	}
	in = []byte("\x80\x04]}\x94ah\x00a.")
	d = NewDecoder(bytes.NewReader(in))
	d.SetAppendHook(func(l *List, item any) (bool, error) {
		d.Replace(item, nil)
		return false, nil
	})
	if _, err := d.Decode(); err == nil || !strings.Contains(err.Error(), "consumed") {
		t.Fatalf("got %v, want a consumed-object error", err)
	}
}

// A str key set twice keeps its first place and takes the last value, as
// in Python, also among keys whose one-bit signatures collide ("axb" and
// "ayb" share length, first and last byte) and in a dict reused after a
// hook dropped it.
func TestDictRepeatedStrKeys(t *testing.T) {
	key := func(s string) []byte { return append([]byte{0x8c, byte(len(s))}, s...) }
	in := cat(p4, []byte("}("), key("axb"), []byte("K\x01"), key("ayb"), []byte("K\x02"),
		key("axb"), []byte("K\x03"), key("a"), []byte("K\x04"), key("ayb"), []byte("K\x05"), []byte("u."))
	v, err := decode(in)
	if err != nil {
		t.Fatal(err)
	}
	d := v.(*Dict)
	want := []Item{{"axb", int64(3)}, {"ayb", int64(5)}, {"a", int64(4)}}
	if len(d.Items) != len(want) {
		t.Fatalf("items %v, want %v", d.Items, want)
	}
	for i := range want {
		if d.Items[i] != want[i] {
			t.Fatalf("items %v, want %v", d.Items, want)
		}
	}
	if keySig("axb") != keySig("ayb") {
		t.Fatal("the test needs two keys with one signature")
	}
}
