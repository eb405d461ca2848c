package snapshot

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/vramkit/vramkit/internal/pickle"
)

// event converts one trace entry dict.
func (b *builder) event(d *pickle.Dict) (TraceEvent, error) {
	var ev TraceEvent
	var ctx EventContext
	var stream uint64
	haveAction, haveAddr, haveSize := false, false, false
	for i := range d.Items {
		k, ok := d.Items[i].Key.(string)
		if !ok {
			continue
		}
		v := d.Items[i].Value
		var err error
		switch k {
		case "action":
			s, ok := v.(string)
			if !ok {
				return ev, fmt.Errorf("action is %s, not a str", pickle.A(v))
			}
			a, ok := b.lastAction, b.lastActionStr != "" && s == b.lastActionStr
			if !ok {
				if a, ok = ParseAction(s); ok {
					b.lastAction, b.lastActionStr = a, s
				}
			}
			if !ok {
				if s == "user_defined" { // legacy annotation entries carry no memory
					a = ActionSnapshot
				} else {
					return ev, fmt.Errorf("unknown action %q", s)
				}
			}
			ev.Action, haveAction = a, true
		case "addr", "device_free":
			ev.Addr, err = toUint(v, k)
			haveAddr = true
		case "size":
			ev.Size, err = toUint(v, k)
			haveSize = true
		case "stream":
			var h uint64
			h, err = toStream(v)
			if h != 0 {
				b.stream(h)
				stream = h
			}
		case "time_us":
			var t int64
			t, err = toInt(v, k)
			ev.TimeUS = t
		case "frames":
			ev.Stack, err = b.stack(v)
		case "compile_context":
			if s, ok := v.(string); ok && s != "N/A" {
				ctx.CompileContext = s
			}
		case "user_metadata":
			if s, ok := v.(string); ok {
				ctx.UserMetadata = s
			}
		}
		if err != nil {
			return ev, err
		}
	}
	var cx int32
	if ctx != (EventContext{}) {
		cx = b.context(ctx)
	}
	t, err := b.tag(stream, cx)
	if err != nil {
		return ev, err
	}
	ev.SetTag(t)
	switch {
	case !haveAction:
		return ev, fmt.Errorf("missing %q", "action")
	case !haveAddr && ev.Action != ActionSnapshot:
		return ev, fmt.Errorf("missing %q", "addr")
	case !haveSize:
		return ev, fmt.Errorf("missing %q", "size")
	}
	return ev, nil
}

func toInt(v any, key string) (int64, error) {
	if n, ok := pickle.Int(v); ok {
		return n, nil
	}
	return 0, fmt.Errorf("%s is %s, not an int", key, pickle.A(v))
}

// toUint accepts sizes and addresses up to 2^64-1 (a 9-byte LONG1, such as
// SIZE_MAX, is a valid value).
func toUint(v any, key string) (uint64, error) {
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return 0, fmt.Errorf("%s is negative (%d)", key, x)
		}
		return uint64(x), nil
	case *big.Int:
		if x.Sign() >= 0 && x.IsUint64() {
			return x.Uint64(), nil
		}
		return 0, fmt.Errorf("%s out of range (%s)", key, x)
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("%s is %s, not an int", key, pickle.A(v))
}

// toStream keeps a stream handle's bits whatever its sign.
func toStream(v any) (uint64, error) {
	switch x := v.(type) {
	case int64:
		return uint64(x), nil
	case *big.Int:
		if x.IsUint64() {
			return x.Uint64(), nil
		}
	}
	return 0, fmt.Errorf("stream is %s, not a 64-bit int", pickle.A(v))
}

// stack interns a frames list. Frame dicts shared through the pickle memo
// are converted once; identical frame sequences share one StackID.
func (b *builder) stack(v any) (StackID, error) {
	switch x := v.(type) {
	case stackRef:
		return x.id, nil
	case *pickle.List:
		if len(x.Items) == 0 {
			b.dec.Replace(x, stackRef{0})
			return 0, nil
		}
		if sid, ok := b.recentStack(x.Items); ok {
			b.dec.Replace(x, stackRef{sid})
			return sid, nil
		}
		key := b.keyBuf[:0]
		for _, it := range x.Items {
			id, err := b.frameItem(it)
			if err != nil {
				return 0, err
			}
			key = appendFrameID(key, id)
		}
		b.keyBuf = key
		sid := b.stackOf(key)
		b.rememberStack(x.Items, sid)
		b.dec.Replace(x, stackRef{sid})
		return sid, nil
	case pickle.None:
		return 0, nil
	}
	return 0, fmt.Errorf("frames is %s, not a list", pickle.A(v))
}

// frameItem returns the frame id of one item of a frames list.
func (b *builder) frameItem(it any) (int32, error) {
	switch fd := it.(type) {
	case *pickle.Dict:
		id, ok := b.frameID[fd]
		if !ok {
			f, err := frame(fd)
			if err != nil {
				return 0, err
			}
			id = b.frameIndex(f)
			b.frameID[fd] = id
		}
		return id, nil
	}
	return 0, fmt.Errorf("frame is %s, not a dict", pickle.A(it))
}

// frameIndex interns a frame.
func (b *builder) frameIndex(f Frame) int32 {
	id, ok := b.frameIdx[f]
	if !ok {
		id = int32(len(b.frames))
		b.frames = append(b.frames, f)
		b.frameIdx[f] = id
	}
	return id
}

func appendFrameID(key []byte, id int32) []byte {
	return binary.LittleEndian.AppendUint32(key, uint32(id))
}

// stackOf interns the stack whose frame ids key lists.
func (b *builder) stackOf(key []byte) StackID {
	sid, ok := b.stackID[string(key)]
	if !ok {
		sid = StackID(len(b.snap.Stacks))
		fs := make([]Frame, len(key)/4)
		for i := range fs {
			fs[i] = b.frames[binary.LittleEndian.Uint32(key[4*i:])]
		}
		b.snap.Stacks = append(b.snap.Stacks, fs)
		b.stackID[string(key)] = sid
	}
	return sid
}

// recentStacks caches frames lists by their items: a snapshot's entries
// list the same few hundred stacks again and again, each time as a fresh
// list of the same memoized frame dicts, and comparing those references
// costs far less than looking each frame up and hashing the sequence.
// A slot is chosen by the list's length and first frame's id; the cached
// items keep their dicts alive, so equal references mean equal frames
// (and, all being dicts, never make the comparison meet a value that
// cannot be compared).
const recentStacks = 256

type recentStack struct {
	items []any
	sid   StackID
}

func (b *builder) recentSlot(items []any) (int, bool) {
	fd, ok := items[0].(*pickle.Dict)
	if !ok {
		return 0, false
	}
	id, ok := b.frameID[fd]
	if !ok {
		return 0, false
	}
	return int(uint32(id)*31+uint32(len(items))) % recentStacks, true
}

func (b *builder) recentStack(items []any) (StackID, bool) {
	i, ok := b.recentSlot(items)
	if !ok {
		return 0, false
	}
	c := &b.recent[i]
	if len(c.items) != len(items) {
		return 0, false
	}
	for k := range items {
		if c.items[k] != items[k] {
			return 0, false
		}
	}
	return c.sid, true
}

func (b *builder) rememberStack(items []any, sid StackID) {
	if i, ok := b.recentSlot(items); ok {
		c := &b.recent[i]
		c.items = append(c.items[:0], items...)
		c.sid = sid
	}
}

func frame(d *pickle.Dict) (Frame, error) {
	var f Frame
	for _, it := range d.Items {
		k, _ := it.Key.(string)
		switch k {
		case "name":
			f.Name, _ = it.Value.(string)
		case "filename":
			f.Filename, _ = it.Value.(string)
		case "line":
			// a line PyTorch could not tell is written as SIZE_MAX
			// (2^64-1: torch 2.11's <module> frames of a process that
			// died in an OOM, testdata/captures/oom/vramkit-run-*), a
			// LONG past int64: any integer out of int32's range is 0,
			// unknown, as Frame.Line says
			n, ok := pickle.Int(it.Value)
			if _, big := it.Value.(*big.Int); !ok && !big {
				return f, fmt.Errorf("frame line is %s, not an int", pickle.A(it.Value))
			}
			if !ok || n > math.MaxInt32 || n < math.MinInt32 {
				n = 0
			}
			f.Line = int(n)
		}
	}
	return f, nil
}
