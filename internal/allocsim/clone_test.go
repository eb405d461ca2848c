package allocsim

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"
)

// cloneRun is one allocator with its device, the blocks it holds and the
// events it recorded, driven by the same operations as runOps.
type cloneRun struct {
	a      *Allocator
	dev    *SimDevice
	live   []int64
	events []Event
	log    []string
}

func (r *cloneRun) op(op byte, arg uint16) {
	stream := int64(arg>>12) % 2
	switch op % 8 {
	case 0, 1, 2, 3:
		size := fuzzSizes[int(arg)%len(fuzzSizes)] + int64(arg>>8)
		p, err := r.a.Malloc(size, stream)
		r.log = append(r.log, fmt.Sprintf("malloc(%d) = %#x, %v", size, p, err))
		if err == nil {
			r.live = append(r.live, p)
		}
	case 4, 5, 6:
		if len(r.live) == 0 {
			return
		}
		i := int(arg) % len(r.live)
		if op%8 == 6 {
			r.log = append(r.log, fmt.Sprint("record_stream", r.a.RecordStream(r.live[i], 7)))
		}
		r.log = append(r.log, fmt.Sprint("free", r.a.Free(r.live[i])))
		r.live = append(r.live[:i], r.live[i+1:]...)
	case 7:
		switch {
		case arg%3 == 2:
			if r.a.nextPool == ([2]int64{}) {
				r.a.SetPool([2]int64{1, 0})
			} else {
				r.a.SetPool([2]int64{})
			}
		case arg%2 == 0 && len(r.a.pending) > 0:
			r.log = append(r.log, fmt.Sprint("complete", r.a.CompleteEvents(r.a.pending[0].ptr)))
		default:
			r.a.EmptyCache()
		}
	}
}

// TestCloneBehavesAsOriginal clones allocators in pseudo-random states
// (every configuration runOps uses, private pools, pending blocks; half of
// them into the memory of an earlier, dropped copy) and
// runs the same operations on the original and the clone: the clone must
// start in the same state (segments, blocks, free sets, counters), make
// the same decisions and record the same events, and neither may see the
// other's changes.
func TestCloneBehavesAsOriginal(t *testing.T) {
	x := uint64(0x9E3779B97F4A7C15)
	next := func() byte {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return byte(x)
	}
	for n := 0; n < 400; n++ {
		cfg, err := ParseConfig(fuzzConfigs[n%len(fuzzConfigs)])
		if err != nil {
			t.Fatal(err)
		}
		capacity := int64(n%4) * (512 << 20)
		orig := &cloneRun{dev: NewDevice(capacity, h200Total)}
		orig.a = New(cfg, orig.dev)
		orig.a.OnEvent = func(e Event) { orig.events = append(orig.events, e) }
		ops := make([]byte, 3*240)
		for i := range ops {
			ops[i] = next()
		}
		cut := 3 * (20 + int(ops[0])%200)
		var dropped *Allocator // an earlier copy, dropped: every other run reuses it
		for i := 0; i < cut; i += 3 {
			if n%2 == 1 && i == cut/6*3 {
				dropped = orig.a.clone()
			}
			orig.op(ops[i], binary.LittleEndian.Uint16(ops[i+1:]))
		}
		segs0, stats0 := orig.a.Segments(), orig.a.Stats()

		dev := *orig.dev
		cl := &cloneRun{dev: &dev, live: append([]int64(nil), orig.live...)}
		cl.a = orig.a.cloneInto(dropped)
		cl.a.dev = cl.dev
		cl.a.OnEvent = func(e Event) { cl.events = append(cl.events, e) }
		orig.events, orig.log = nil, nil

		if err := checkInvariants(cl.a, cl.dev); err != nil {
			t.Fatalf("sequence %d: clone: %v", n, err)
		}
		if !reflect.DeepEqual(cl.a.Segments(), segs0) || cl.a.Stats() != stats0 {
			t.Fatalf("sequence %d: the clone's state differs from the original's", n)
		}
		for _, p := range orig.a.allPools() {
			for _, b := range append(append([]*block(nil), p.blocks.items...), p.unmapped.items...) {
				if b != nil && b.twin != nil {
					t.Fatalf("sequence %d: block %#x still points at its copy", n, b.ptr)
				}
			}
		}
		if !reflect.DeepEqual(keysOf(cl.a), keysOf(orig.a)) {
			t.Fatalf("sequence %d: the clone's free sets differ", n)
		}

		// Original first, then the clone: the clone must not have moved.
		for i := cut; i < len(ops); i += 3 {
			orig.op(ops[i], binary.LittleEndian.Uint16(ops[i+1:]))
		}
		if !reflect.DeepEqual(cl.a.Segments(), segs0) || cl.a.Stats() != stats0 {
			t.Fatalf("sequence %d: operations on the original changed the clone", n)
		}
		for i := cut; i < len(ops); i += 3 {
			cl.op(ops[i], binary.LittleEndian.Uint16(ops[i+1:]))
		}
		if !reflect.DeepEqual(cl.log, orig.log) || !reflect.DeepEqual(cl.events, orig.events) {
			t.Fatalf("sequence %d: the clone did otherwise:\nclone    %v\noriginal %v", n, cl.log, orig.log)
		}
		if !reflect.DeepEqual(cl.a.Segments(), orig.a.Segments()) || cl.a.Stats() != orig.a.Stats() {
			t.Fatalf("sequence %d: clone and original end in different states", n)
		}
		if err := checkInvariants(cl.a, cl.dev); err != nil {
			t.Fatalf("sequence %d: clone at the end: %v", n, err)
		}
	}
}

// keysOf lists every free set's keys, pool by pool (the private pool
// the operations use last).
func keysOf(a *Allocator) [][]setKey {
	pools := []*blockPool{a.large, a.small}
	if p := a.private[[2]int64{1, 0}]; p != nil {
		pools = append(pools, p.small, p.large)
	}
	var out [][]setKey
	for _, p := range pools {
		// nil and empty sets are the same set
		out = append(out, append([]setKey{}, p.blocks.keys...), append([]setKey{}, p.unmapped.keys...))
	}
	return out
}
