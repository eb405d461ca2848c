// Package snapshot is the typed model of a PyTorch CUDA memory snapshot, the
// pickle written by torch.cuda.memory._dump_snapshot(): segments and their
// blocks, per-device trace events, stack frames, allocator settings and
// external annotations. Load reads plain or gzip-compressed pickles from a
// stream, converting trace entries as they arrive so a multi-gigabyte
// snapshot never exists as a tree of generic values; identical stacks are
// stored once.
package snapshot

import (
	"fmt"
	"slices"
)

// Action is a trace event's kind, as parseTraceEntryAction names it.
type Action uint8

// Trace actions of PyTorch 2.11.
const (
	ActionAlloc Action = iota
	ActionFreeRequested
	ActionFreeCompleted
	ActionSegmentAlloc
	ActionSegmentFree
	ActionSegmentMap
	ActionSegmentUnmap
	ActionSnapshot
	ActionOOM
	numActions
)

var actionNames = [...]string{"alloc", "free_requested", "free_completed", "segment_alloc",
	"segment_free", "segment_map", "segment_unmap", "snapshot", "oom"}

// String is the action as the snapshot names it.
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", a)
}

// ParseAction maps a trace entry's action string to an Action.
func ParseAction(s string) (Action, bool) {
	for i, n := range actionNames {
		if n == s {
			return Action(i), true
		}
	}
	return 0, false
}

// StackID names an interned stack in a Snapshot's Stacks table; 0 is the
// empty stack (no frames recorded).
type StackID int32

// TraceEvent is one entry of a device's allocator trace.
//
// A large snapshot holds tens of millions of these, so the struct packs
// into 32 bytes: the stream handle and the two annotation strings, which
// take few distinct values in a run, are one 24-bit index (Tag) into the
// Snapshot's Tags.
type TraceEvent struct {
	// Addr is the block or segment address; for ActionOOM it holds the
	// device's free bytes (the entry's device_free) instead.
	Addr uint64
	// Size is the requested (unrounded) size for alloc/free_*, the segment
	// or mapped bytes for segment_*, and the rounded size for oom.
	Size   uint64
	TimeUS int64
	Stack  StackID
	Action Action
	// The tag, tagHi<<16 | tagLo (see Tag).
	tagHi uint8
	tagLo uint16
}

// MaxTags is how many distinct (stream, context) pairs a snapshot may
// hold: an event's Tag has 24 bits.
const MaxTags = 1 << 24

// Tag indexes Snapshot.Tags: the event's stream and context. Tag 0 is
// the default stream with no context.
func (e *TraceEvent) Tag() uint32 { return uint32(e.tagHi)<<16 | uint32(e.tagLo) }

// SetTag sets the event's Tag; t must be below MaxTags.
func (e *TraceEvent) SetTag(t uint32) {
	if t >= MaxTags {
		panic(fmt.Sprintf("snapshot: tag %d past MaxTags", t))
	}
	e.tagHi, e.tagLo = uint8(t>>16), uint16(t)
}

// EventTag is the stream and context a Tag stands for.
type EventTag struct {
	// Stream is the CUDA stream handle (0: the default stream).
	Stream uint64
	// Context indexes Snapshot.Contexts; 0 is no compile context and no
	// user metadata.
	Context int32
}

// EventContext is what a trace entry records besides memory: its
// compile_context ("" for PyTorch's "N/A") and user_metadata.
type EventContext struct {
	CompileContext string
	UserMetadata   string
}

// DeviceFree returns the free device memory recorded with an oom event.
func (e *TraceEvent) DeviceFree() uint64 { return e.Addr }

// Frame is one stack frame.
type Frame struct {
	Name     string `json:"name"`
	Filename string `json:"file"`
	Line     int    `json:"line"`
}

// BlockState is a block's state in the segment list.
type BlockState uint8

// Block states as the C++ code emits them.
const (
	BlockInactive BlockState = iota
	BlockActiveAllocated
	BlockActivePendingFree
)

// String is the state as the snapshot names it.
func (s BlockState) String() string {
	switch s {
	case BlockActiveAllocated:
		return "active_allocated"
	case BlockActivePendingFree:
		return "active_pending_free"
	}
	return "inactive"
}

// Block is one block of a segment at snapshot time.
type Block struct {
	Address       uint64
	Size          uint64
	RequestedSize uint64
	State         BlockState
	Stack         StackID
}

// Segment is one cudaMalloc'd segment, or one contiguous mapped range of an
// expandable segment, at snapshot time.
type Segment struct {
	Device        int
	Address       uint64
	TotalSize     uint64
	AllocatedSize uint64
	ActiveSize    uint64
	RequestedSize uint64
	Stream        uint64
	Large         bool // segment_type == "large"
	PoolID        [2]int64
	Expandable    bool
	Stack         StackID
	Blocks        []Block
}

// DeviceTrace holds one device's trace, oldest first.
type DeviceTrace struct {
	Device int
	Events []TraceEvent
}

// Annotation is one entry of external_annotations.
type Annotation struct {
	Device int
	TimeUS int64
	Name   string
	Stage  string
	// Extra holds other string-valued metadata pairs.
	Extra map[string]string
}

// Settings is the allocator_settings dict of a snapshot.
type Settings struct {
	Present     bool   // the snapshot carried allocator_settings
	AllocConf   string // PYTORCH_CUDA_ALLOC_CONF as last set
	MaxSplit    int64  // max_split_size in bytes; -1 = unlimited
	GCThreshold float64
	Expandable  bool
	// RoundupDivisions has the 16 interval divisions (1 MiB … 32 GiB).
	RoundupDivisions [16]int
	ReleaseLock      bool
	// GraphCaptureRecordStreamReuse mirrors graph_capture_record_stream_reuse.
	GraphCaptureRecordStreamReuse bool
}

// Snapshot is a whole memory snapshot.
type Snapshot struct {
	Segments    []Segment
	Devices     []DeviceTrace
	Settings    Settings
	Annotations []Annotation
	// Stacks[id] are the frames of StackID id, innermost first; Stacks[0]
	// is empty.
	Stacks [][]Frame
	// Streams holds the distinct CUDA stream handles of trace events, in
	// order of first use; Streams[0] is 0, the default stream.
	Streams []uint64
	// Tags holds the distinct (stream, context) pairs of trace events,
	// which TraceEvent.Tag indexes; Tags[0] is the default stream with no
	// context.
	Tags []EventTag
	// Contexts holds the distinct contexts of trace events; Contexts[0]
	// is the empty one.
	Contexts []EventContext
	// LegacyList is set when the pickle was a bare list of segments.
	LegacyList bool
}

// Frames returns the frames of stack id.
func (s *Snapshot) Frames(id StackID) []Frame {
	if id <= 0 || int(id) >= len(s.Stacks) {
		return nil
	}
	return s.Stacks[id]
}

// Stream returns the CUDA stream handle of event e.
func (s *Snapshot) Stream(e *TraceEvent) uint64 {
	if t := e.Tag(); int(t) < len(s.Tags) {
		return s.Tags[t].Stream
	}
	return 0
}

// ContextOf returns the compile context and user metadata of event e.
func (s *Snapshot) ContextOf(e *TraceEvent) EventContext {
	if t := e.Tag(); int(t) < len(s.Tags) {
		if c := s.Tags[t].Context; c >= 0 && int(c) < len(s.Contexts) {
			return s.Contexts[c]
		}
	}
	return EventContext{}
}

// Trace returns device dev's events, or nil.
func (s *Snapshot) Trace(dev int) []TraceEvent {
	for i := range s.Devices {
		if s.Devices[i].Device == dev {
			return s.Devices[i].Events
		}
	}
	return nil
}

// DeviceIDs lists the devices that appear in traces or segments, ascending.
func (s *Snapshot) DeviceIDs() []int {
	seen := map[int]bool{}
	var ids []int
	add := func(d int) {
		if !seen[d] {
			seen[d] = true
			ids = append(ids, d)
		}
	}
	for _, d := range s.Devices {
		// A device whose trace holds only the markers of earlier
		// _snapshot() calls saw no memory traffic.
		for i := range d.Events {
			if d.Events[i].Action != ActionSnapshot {
				add(d.Device)
				break
			}
		}
	}
	for _, g := range s.Segments {
		add(g.Device)
	}
	if len(ids) == 0 && len(s.Devices) > 0 {
		add(s.Devices[0].Device)
	}
	slices.Sort(ids)
	return ids
}
