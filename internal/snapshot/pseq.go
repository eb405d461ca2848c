package snapshot

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"runtime"
	"runtime/trace"
	"slices"
	"sync"
	"time"

	"github.com/vramkit/vramkit/internal/pickle"
)

// The sequential pass of the parallel loader: it takes the runs the chunk
// decoders found, in file order, as the pickle decoder meets them.

// parState is the sequential pass's view of the runs.
type parState struct {
	outs  []chunkOut
	ready []chan struct{} // closed when outs[i] is
	// tokens bounds the chunks decoded ahead of the sequential pass.
	tokens  chan struct{}
	cc, ri  int // the chunk and run the sequential pass is at
	events  []TraceEvent
	cursor  int64 // where the next event goes
	claimed int64 // events that came from runs
	// runsSeen counts the runs the chunks found.
	runsSeen int
	waited   time.Duration
	spare    *spares
	// feed is the device trace handed to a consumer as it is decoded
	// (nil: none).
	feed *feeder
	// Local-to-Snapshot maps per chunk; -1: not mapped yet.
	stacks [][]StackID
	tags   [][]int64
	// ends are the chunks' end offsets; at is the chunk the decoder was
	// in at the last reach. Once it is past chunk k, the chunks in due[k]
	// (those whose runs' memo entries chunk k fetches last) drop them:
	// freed is the first k not yet done.
	ends      []int64
	at, freed int
	due       [][]int32
	// resolve fills in a chunk's frames the strs they name in other
	// chunks' memo entries (builder.resolveLater).
	resolve func(*chunkOut)

	mu  sync.Mutex
	err error
}

func newParState(chunks []span, events []TraceEvent) *parState {
	n := len(chunks)
	ps := &parState{
		ends:   make([]int64, n),
		due:    make([][]int32, n),
		outs:   make([]chunkOut, n),
		ready:  make([]chan struct{}, n),
		tokens: make(chan struct{}, runtime.GOMAXPROCS(0)+2),
		spare:  newSpares(runtime.GOMAXPROCS(0) + 2),
		events: events,
		stacks: make([][]StackID, n),
		tags:   make([][]int64, n),
	}
	for i := range ps.ready {
		ps.ready[i] = make(chan struct{})
		ps.ends[i] = chunks[i].end
	}
	return ps
}

func (ps *parState) fail(err error) {
	ps.mu.Lock()
	if ps.err == nil {
		ps.err = err
	}
	ps.mu.Unlock()
}

func (ps *parState) failed() error {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.err
}

// wait waits for chunk ci and readies its maps.
func (ps *parState) wait(ci int) {
	if ci >= len(ps.outs) || ps.stacks[ci] != nil {
		return
	}
	t := time.Now()
	select {
	case <-ps.ready[ci]:
	default:
		r := trace.StartRegion(context.Background(), "load: wait for chunk")
		<-ps.ready[ci]
		r.End()
	}
	ps.waited += time.Since(t)
	out := &ps.outs[ci]
	ps.runsSeen += len(out.runs)
	ps.stacks[ci] = filled(len(out.stacks), StackID(-1))
	ps.tags[ci] = filled(len(out.tags), int64(-1))
}

func filled[T any](n int, v T) []T {
	s := make([]T, n+1)[:n] // never nil
	for i := range s {
		s[i] = v
	}
	return s
}

// reach moves past the runs that start before input offset off and
// returns the next one (nil if none), waiting for its chunk.
func (ps *parState) reach(off int64) *prun {
	r := ps.nextRun(off)
	// After nextRun: a chunk it is done with has taken the strs its
	// frames fetch from other chunks before any of those goes.
	for ps.at < len(ps.ends) && ps.ends[ps.at] <= off {
		ps.at++
	}
	for ; ps.freed < ps.at; ps.freed++ {
		for _, ci := range ps.due[ps.freed] {
			ps.release(int(ci))
		}
		ps.due[ps.freed] = nil
	}
	return r
}

func (ps *parState) nextRun(off int64) *prun {
	for ps.cc < len(ps.outs) {
		ps.wait(ps.cc)
		if ps.failed() != nil {
			return nil
		}
		runs := ps.outs[ps.cc].runs
		for ps.ri < len(runs) && runs[ps.ri].start < off {
			ps.ri++
		}
		if ps.ri < len(runs) {
			return &runs[ps.ri]
		}
		// Done with this chunk: keep only what later memo fetches of
		// its runs' entries need.
		out := &ps.outs[ps.cc]
		ps.spare.give(out.keys, out.stacks)
		out.stacks, out.keys, out.tags, out.ctxs = nil, nil, nil, nil
		for i := range runs {
			runs[i].stacks, runs[i].tags = nil, nil
		}
		ps.tags[ps.cc] = nil
		if ps.resolve != nil {
			ps.resolve(out)
		}
		switch k := int(out.last); {
		case k == neverFreed:
		case k < ps.freed:
			ps.release(ps.cc)
		default:
			ps.due[k] = append(ps.due[k], int32(ps.cc))
		}
		<-ps.tokens
		ps.cc, ps.ri = ps.cc+1, 0
	}
	return nil
}

// release drops what chunk ci kept for the memo fetches of its runs'
// entries: the decoder is past the last chunk that fetches them.
func (ps *parState) release(ci int) {
	out := &ps.outs[ci]
	for i := range out.runs {
		out.runs[i].vals, out.runs[i].strs = nil, nil
	}
	out.frames, out.frameKeys, out.fresh, out.later = nil, nil, nil, nil
}

// runHook skips a run of trace entries when one starts at off, on a
// device's trace list.
func (b *builder) runHook(off int64, l *pickle.List) (pickle.Run, error) {
	ps := b.par
	r := ps.reach(off)
	if r == nil || r.start != off || !b.isTraceList(l) {
		return pickle.Run{}, nil
	}
	if err := b.ctx.Err(); err != nil {
		return pickle.Run{}, err
	}
	ci := ps.cc
	out := &ps.outs[ci]
	c := b.traces[l]
	if c == nil {
		c = &eventChunks{first: ps.cursor, inBuf: true}
		b.traces[l] = c
		b.follow(l, c.first)
	}
	if c.first+int64(c.n) != ps.cursor || r.region < ps.cursor {
		return pickle.Run{}, errNoParallel
	}
	stacks, tags := ps.stacks[ci], ps.tags[ci]
	for _, ls := range r.stacks {
		if stacks[ls] >= 0 {
			continue
		}
		sid, err := b.localStack(out, ls)
		if err != nil {
			return pickle.Run{}, nil // the sequential decoder will say what is wrong
		}
		stacks[ls] = sid
	}
	for _, lt := range r.tags {
		if tags[lt] >= 0 {
			continue
		}
		// As event maps them, one entry at a time: the stream, then the
		// context, then the pair.
		t := out.tags[lt]
		if t.Stream != 0 {
			b.stream(t.Stream)
		}
		var cx int32
		if x := out.ctxs[t.Context]; x != (EventContext{}) {
			cx = b.context(x)
		}
		id, err := b.tag(t.Stream, cx)
		if err != nil {
			return pickle.Run{}, nil // the sequential decoder will say what is wrong
		}
		tags[lt] = int64(id)
	}
	src := ps.events[r.region : r.region+int64(r.n)]
	dst := ps.events[ps.cursor : ps.cursor+int64(r.n)]
	for i := range src {
		ev := src[i]
		ev.Stack = stacks[ev.Stack]
		t := tags[ev.Tag()]
		if ev.Stack < 0 || t < 0 {
			return pickle.Run{}, errNoParallel // a broken invariant: decode it all again, sequentially
		}
		ev.SetTag(uint32(t))
		dst[i] = ev
	}
	ps.cursor += int64(r.n)
	ps.claimed += int64(r.n)
	c.n += r.n
	b.entries += r.n
	ps.ri++
	b.publish(l)
	return pickle.Run{Len: r.end - r.start, Memo: r.memoN, Lookup: func(idx uint64) any {
		i, ok := slices.BinarySearchFunc(r.vals, idx, func(v pval, x uint64) int { return cmp.Compare(uint64(v.idx), x) })
		if !ok {
			return nil
		}
		switch pv := r.vals[i]; pv.kind() {
		case slotStr:
			return r.strs[pv.a()]
		case slotFrame:
			f, err := b.laterFrame(out, pv.a())
			if err != nil {
				return nil
			}
			// A dict like the one the input held: nothing tells them
			// apart but identity, which only the memo gives.
			keys := out.frameKeys[pv.a()]
			var items []pickle.Item
			if keys&1 != 0 {
				items = append(items, pickle.Item{Key: "name", Value: f.Name})
			}
			if keys&2 != 0 {
				items = append(items, pickle.Item{Key: "filename", Value: f.Filename})
			}
			if keys&4 != 0 {
				items = append(items, pickle.Item{Key: "line", Value: int64(f.Line)})
			}
			return pickle.NewDict(items)
		case slotStack:
			return stackRef{stacks[pv.a()]}
		}
		return nil
	}}, nil
}

// addEvent stores an event the sequential decoder converted from an
// entry of list l.
func (b *builder) addEvent(l *pickle.List, c *eventChunks, ev TraceEvent) error {
	ps := b.par
	if ps == nil {
		c.add(ev)
		return nil
	}
	if c.n == 0 {
		c.first, c.inBuf = ps.cursor, true
		b.follow(l, c.first)
	}
	limit := int64(len(ps.events))
	if r := ps.reach(b.dec.Offset()); r != nil {
		limit = r.region
	}
	if c.first+int64(c.n) != ps.cursor || ps.cursor >= limit {
		return errNoParallel
	}
	ps.events[ps.cursor] = ev
	ps.cursor++
	c.n++
	if c.n%publishEvery == 0 {
		b.publish(l)
	}
	return nil
}

// resolveLater puts into a chunk's frames the strs they take from other
// chunks, while those chunks still hold them (see parState.reach); a
// frame whose strs are not there stays as it is, to fail as it would have.
func (b *builder) resolveLater(out *chunkOut) {
	for li := range out.later {
		if f, err := b.laterFrame(out, li); err == nil {
			out.frames[li] = f
			delete(out.later, li)
		}
	}
}

// laterFrame returns a chunk's frame li, fetching the strs it left for
// the sequential pass; a value that is not a str is an error (the run is
// then left to the sequential decoder).
func (b *builder) laterFrame(out *chunkOut, li int32) (Frame, error) {
	f := out.frames[li]
	l, ok := out.later[li]
	if !ok {
		return f, nil
	}
	for _, x := range []struct {
		idx int64
		dst *string
	}{{l.name, &f.Name}, {l.file, &f.Filename}} {
		if x.idx < 0 {
			continue
		}
		s, ok := b.dec.Peek(uint64(x.idx)).(string)
		if !ok {
			return f, errors.New("frame name or filename not a str")
		}
		*x.dst = s
	}
	return f, nil
}

// localStack maps a chunk's local stack to a StackID, as stack would
// have converted the frames list.
func (b *builder) localStack(out *chunkOut, ls int32) (StackID, error) {
	if ls == 0 {
		return 0, nil
	}
	d := &out.stacks[ls]
	if d.isForeign {
		v := b.dec.Peek(d.foreign)
		if v == nil {
			return 0, errors.New("frames list consumed")
		}
		return b.stack(v)
	}
	// Lists of the same frame dicts (the same memo indexes) are the same
	// stack: each is converted once.
	idxKey := out.keys[d.off : d.off+4*d.n]
	if sid, ok := b.idxStack[string(idxKey)]; ok {
		return sid, nil
	}
	key := b.keyBuf[:0]
	for i := 0; i < len(idxKey); i += 4 {
		idx := binary.LittleEndian.Uint32(idxKey[i:])
		var id int32
		if li, ok := out.fresh[idx]; ok {
			f, err := b.laterFrame(out, li)
			if err != nil {
				return 0, err
			}
			id = b.frameIndex(f)
		} else {
			var err error
			if id, err = b.frameItem(b.dec.Peek(uint64(idx))); err != nil {
				return 0, err
			}
		}
		key = appendFrameID(key, id)
	}
	b.keyBuf = key
	sid := b.stackOf(key)
	if b.idxStack == nil {
		b.idxStack = map[string]StackID{}
	}
	b.idxStack[string(idxKey)] = sid
	return sid, nil
}
