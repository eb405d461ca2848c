package snapshot

import (
	"context"
	"fmt"

	"github.com/vramkit/vramkit/internal/pickle"
)

// builder converts generic pickle values into a Snapshot. Trace entries are
// converted by the append hook as the decoder produces them.
type builder struct {
	dec      *pickle.Decoder
	snap     *Snapshot
	traces   map[*pickle.List]*eventChunks
	listKind map[*pickle.List]bool // isTraceList's answers for lists in lists
	walk     []*pickle.List
	frameID  map[*pickle.Dict]int32
	frameIdx map[Frame]int32 // equal frames from distinct dicts share an id
	frames   []Frame
	stackID  map[string]StackID
	streamID map[uint64]uint32
	ctxID    map[EventContext]int32
	tags     tagTable
	keyBuf   []byte
	recent   *[recentStacks]recentStack
	// lastActionStr is the known action string parsed last ("" before
	// one), into lastAction: consecutive entries often share one.
	lastActionStr string
	lastAction    Action
	err           error
	// size is the input's size in bytes (0: unknown); see eventChunks.
	size int64
	opts LoadOptions
	// ctx stops the decoding, checked every checkEvery trace entries
	// (counted in entries) so the check costs nothing measurable.
	ctx     context.Context
	entries int
	// par is the parallel loader's state; nil when decoding sequentially.
	par *parState
	// idxStack maps the memo indexes of a run's frames list to its stack.
	idxStack map[string]StackID
}

// checkEvery is how often, in trace entries, decoding looks at its
// context: a power of two minus one, used as a mask.
const checkEvery = 1<<16 - 1

// stackRef replaces a consumed frames list in the decoder's memo.
type stackRef struct{ id StackID }

func newBuilder() *builder {
	b := &builder{
		snap:     &Snapshot{Stacks: [][]Frame{nil}, Streams: []uint64{0}, Contexts: []EventContext{{}}, Tags: []EventTag{{}}},
		traces:   map[*pickle.List]*eventChunks{},
		listKind: map[*pickle.List]bool{},
		frameID:  map[*pickle.Dict]int32{},
		frameIdx: map[Frame]int32{},
		stackID:  map[string]StackID{"": 0},
		streamID: map[uint64]uint32{0: 0},
		ctxID:    map[EventContext]int32{{}: 0},
		recent:   new([recentStacks]recentStack),
	}
	b.tags.reset()
	return b
}

// isTraceList reports whether l is one device's list in device_traces.
// The device lists are pushed one after another above one MARK, so each
// one's Parent is the previous device's list, and only the first one's is
// the outer list, whose Parent is the key "device_traces". The answer is
// cached for every list on the walk, so a long chain is walked once.
func (b *builder) isTraceList(l *pickle.List) bool {
	if _, ok := b.traces[l]; ok {
		return true
	}
	p, ok := l.Parent.(*pickle.List)
	if !ok {
		return false
	}
	walked := append(b.walk[:0], l)
	res := false
	for {
		if k, ok := p.Parent.(string); ok {
			res = k == "device_traces" // p is the outer list
			break
		}
		if r, ok := b.listKind[p]; ok {
			res = r
			break
		}
		walked = append(walked, p)
		pp, ok := p.Parent.(*pickle.List)
		if !ok {
			break
		}
		p = pp
	}
	for i, w := range walked {
		b.listKind[w] = res
		walked[i] = nil
	}
	b.walk = walked[:0]
	return res
}

func (b *builder) hook(l *pickle.List, item any) (bool, error) {
	if !b.isTraceList(l) {
		return true, nil
	}
	d, ok := item.(*pickle.Dict)
	if !ok {
		return true, nil // not a trace entry; leave it for finish to reject
	}
	if b.entries&checkEvery == 0 {
		if err := b.ctx.Err(); err != nil {
			return false, err
		}
	}
	b.entries++
	c := b.traces[l]
	if c == nil {
		c = &eventChunks{start: b.dec.Offset()}
		b.traces[l] = c
	}
	ev, err := b.event(d)
	if err != nil {
		return false, fmt.Errorf("snapshot: device_traces entry %d: %w", c.n, err)
	}
	if err := b.addEvent(l, c, ev); err != nil {
		return false, err
	}
	if c.n == estimateAfter && b.size > 0 {
		c.reserve(b.dec.Offset(), b.size, &b.opts)
	}
	b.dec.Replace(d, nil)
	return false, nil
}

func (b *builder) stream(h uint64) uint32 {
	id, _ := number(b.streamID, &b.snap.Streams, h)
	return id
}

func (b *builder) context(c EventContext) int32 {
	id, _ := number(b.ctxID, &b.snap.Contexts, c)
	return id
}

// errTags is the error of a snapshot with more distinct (stream, context)
// pairs than a Tag can name.
var errTags = fmt.Errorf("more than %d distinct stream and context pairs", MaxTags)

// tag returns the Tag of stream handle h and context id cx.
func (b *builder) tag(h uint64, cx int32) (uint32, error) {
	id, _, ok := b.tags.number(&b.snap.Tags, EventTag{h, cx})
	if !ok {
		return 0, errTags
	}
	return id, nil
}
