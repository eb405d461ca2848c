package html

import (
	"sort"

	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// Data is everything a report page shows, embedded in it as JSON. Byte
// quantities are bytes and times are µs since the trace's first event.
type Data struct {
	Title    string     `json:"title"`
	Source   string     `json:"source"`
	Device   int        `json:"device"`
	Notes    []string   `json:"notes,omitempty"`
	Headline []Figure   `json:"headline"`
	Analysis *Analysis  `json:"analysis,omitempty"`
	Frames   []Frame    `json:"frames"`
	Stacks   [][]int    `json:"stacks"` // frame indices, innermost first
	Timeline *Timeline  `json:"timeline,omitempty"`
	State    *State     `json:"state,omitempty"`
	Sites    []Site     `json:"sites,omitempty"`
	Flame    *FlameNode `json:"flame,omitempty"`
	Tune     *Tune      `json:"tune,omitempty"`
	Sweep    *Sweep     `json:"sweep,omitempty"`
}

// Figure is one headline number.
type Figure struct {
	Label string `json:"label"`
	Value string `json:"value"`
	Note  string `json:"note,omitempty"`
}

// Frame is a stack frame, shortened for display.
type Frame struct {
	Name string `json:"n"`
	File string `json:"f"`
	Line int    `json:"l"`
}

// Timeline is the downsampled memory curve, in columns to keep the JSON
// small: bucket i spans T[i] to T[i+1].
type Timeline struct {
	T    []int64 `json:"t"`
	AMin []int64 `json:"amin"`
	AMax []int64 `json:"amax"`
	RMin []int64 `json:"rmin"`
	RMax []int64 `json:"rmax"`
	// Big[i] indexes Allocs: bucket i's largest allocation (-1: none).
	Big    []int   `json:"big"`
	Allocs []Alloc `json:"allocs"`
	// Categories are stacked under the allocated curve when known.
	Categories []Series         `json:"categories,omitempty"`
	Markers    []report.Marker  `json:"markers,omitempty"`
	EndUS      int64            `json:"end"`
	Peaks      map[string]int64 `json:"peaks"`
}

// Alloc is one allocation the page can name.
type Alloc struct {
	Event int   `json:"e"` // trace index
	T     int64 `json:"t"`
	Size  int64 `json:"s"`
	Stack int   `json:"k"` // index into Data.Stacks, -1 when none
}

// Series is a named curve sampled at the timeline's buckets.
type Series struct {
	Name   string  `json:"name"`
	Values []int64 `json:"v"`
}

// State is the allocator's state at peak reserved memory.
type State struct {
	T         int64     `json:"t"`
	Reserved  int64     `json:"reserved"`
	Allocated int64     `json:"allocated"`
	Inactive  int64     `json:"inactive"` // bytes in free blocks of split segments
	Segments  []Segment `json:"segments"`
	Allocs    []Alloc   `json:"allocs"`
}

// Segment is one segment row; Blocks are [offset, size, state, alloc]
// with state 0 free, 1 allocated, 2 freed but waiting on a stream, and
// alloc an index into State.Allocs or -1.
type Segment struct {
	Addr       uint64     `json:"addr"`
	Size       int64      `json:"size"`
	Small      bool       `json:"small,omitempty"`
	Expandable bool       `json:"exp,omitempty"`
	Stream     int64      `json:"stream,omitempty"`
	Blocks     [][4]int64 `json:"blocks"`
}

// Site is one row of the top allocation sites table: analyze's collapsed
// stack (the library call that allocated, then the user's frames).
type Site struct {
	Frames   []int  `json:"fr"` // indices into Data.Frames, innermost first
	Label    string `json:"label,omitempty"`
	Category string `json:"cat"`
	Bytes    int64  `json:"b"`
	Count    int    `json:"c"`
}

// FlameNode is a node of the icicle chart: a frame (index into Frames, or
// -1 for the root and -2 for pruned small children), its bytes and its
// callees.
type FlameNode struct {
	Frame    int          `json:"f"`
	Bytes    int64        `json:"v"`
	Children []*FlameNode `json:"c,omitempty"`
}

// Tune is the what-if table of allocator settings.
type Tune struct {
	RecordedConf     string    `json:"recorded"`
	RecordedReserved int64     `json:"recorded_reserved"`
	Capacity         int64     `json:"capacity"`
	Best             string    `json:"best,omitempty"`
	Rows             []TuneRow `json:"rows"`
}

// TuneRow is one allocator setting's replay.
type TuneRow struct {
	Conf          string `json:"conf"`
	PeakReserved  int64  `json:"reserved"`
	PeakAllocated int64  `json:"allocated"`
	Retries       int64  `json:"retries"`
	OOMAt         int    `json:"oom"` // trace index, -1 when none
	Feasible      bool   `json:"ok"`
}

// Analysis carries what vramkit analyze found: its text report, its
// advice, the categories to stack the timeline by and its markers
// (iterations, leaks) come in Input.Markers. The CLI fills it; the
// renderer only draws it.
type Analysis struct {
	Text       string          `json:"text,omitempty"`
	Advice     []AdviceItem    `json:"advice,omitempty"`
	SitesAt    string          `json:"sites_at,omitempty"` // when the sites were taken, in words
	Categories []Series        `json:"-"`                  // moved into Timeline
	Markers    []report.Marker `json:"-"`                  // moved into Timeline
}

// AdviceItem is one of analyze's changes, with its estimated saving.
type AdviceItem struct {
	Action string `json:"action"`
	Saving int64  `json:"saving"` // bytes
	Detail string `json:"detail"`
}

// interner numbers frames and stacks as the page refers to them.
type interner struct {
	s      *snapshot.Snapshot
	d      *Data
	frames map[snapshot.Frame]int
	stacks map[snapshot.StackID]int
}

func newInterner(s *snapshot.Snapshot, d *Data) *interner {
	return &interner{s: s, d: d, frames: map[snapshot.Frame]int{}, stacks: map[snapshot.StackID]int{}}
}

func (in *interner) frame(f snapshot.Frame) int {
	if i, ok := in.frames[f]; ok {
		return i
	}
	i := len(in.d.Frames)
	in.frames[f] = i
	in.d.Frames = append(in.d.Frames, Frame{Name: f.Name, File: f.Filename, Line: f.Line})
	return i
}

func (in *interner) stack(id snapshot.StackID) int {
	if id == 0 {
		return -1
	}
	if i, ok := in.stacks[id]; ok {
		return i
	}
	fr := in.s.Frames(id)
	st := make([]int, len(fr))
	for j, f := range fr {
		st[j] = in.frame(f)
	}
	i := len(in.d.Stacks)
	in.stacks[id] = i
	in.d.Stacks = append(in.d.Stacks, st)
	return i
}

// flame folds live allocations into a call tree, outermost frame first,
// pruning subtrees under minFrac of the total into one "other" node so
// the page stays small whatever the number of stacks.
func (in *interner) flame(live []report.Live, minFrac float64) *FlameNode {
	root := &FlameNode{Frame: -1}
	type key struct {
		n *FlameNode
		f int
	}
	kids := map[key]*FlameNode{}
	for _, l := range live {
		root.Bytes += l.Size
		n := root
		fr := in.s.Frames(l.Stack)
		if len(fr) == 0 {
			fr = []snapshot.Frame{{Name: "(no stack recorded)"}}
		}
		for j := len(fr) - 1; j >= 0; j-- {
			fi := in.frame(fr[j])
			c := kids[key{n, fi}]
			if c == nil {
				c = &FlameNode{Frame: fi}
				kids[key{n, fi}] = c
				n.Children = append(n.Children, c)
			}
			c.Bytes += l.Size
			n = c
		}
	}
	prune(root, int64(minFrac*float64(root.Bytes)))
	return root
}

func prune(n *FlameNode, limit int64) {
	sort.Slice(n.Children, func(i, j int) bool { return n.Children[i].Bytes > n.Children[j].Bytes })
	var kept []*FlameNode
	other := &FlameNode{Frame: -2}
	for _, c := range n.Children {
		if c.Bytes < limit {
			other.Bytes += c.Bytes
			continue
		}
		prune(c, limit)
		kept = append(kept, c)
	}
	if other.Bytes > 0 {
		kept = append(kept, other)
	}
	n.Children = kept
}

// Sweep is a plan --sweep curve: predicted memory against the swept
// value, with the GPU's usable memory as a limit line.
type Sweep struct {
	Title  string       `json:"title"`
	XLabel string       `json:"xlabel"`
	Limit  int64        `json:"limit"` // bytes; 0 when unknown
	Points []SweepPoint `json:"points"`
	// Largest is the largest value that fits (0: none); AtTop says it is
	// the range's top, past which the sweep tried nothing.
	Largest int  `json:"largest"`
	AtTop   bool `json:"at_top,omitempty"`
	// Bound says what ended the sweep at Largest when memory did not.
	Bound string `json:"bound,omitempty"`
}

// SweepPoint is one prediction of a sweep.
type SweepPoint struct {
	X         int   `json:"x"`
	Reserved  int64 `json:"reserved"`
	Allocated int64 `json:"allocated"`
	// Process is the whole process's memory (CUDA context and workspaces
	// included, upper band), what must fit under Limit.
	Process int64 `json:"process"`
	Fits    bool  `json:"fits"`
}
