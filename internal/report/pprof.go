package report

import (
	"io"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// WritePprof writes, gzip-compressed, a pprof profile of a device's
// memory: for each stack, the bytes and allocations alive at trace index
// at (inuse_space, inuse_objects) and the bytes allocated over the whole
// trace (alloc_space). Sizes are the requested bytes. Stacks keep
// PyTorch's innermost-first order, which is also pprof's.
func WritePprof(w io.Writer, s *snapshot.Snapshot, trace []snapshot.TraceEvent, at int) error {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "inuse_space", Unit: "bytes"},
			{Type: "inuse_objects", Unit: "count"},
			{Type: "alloc_space", Unit: "bytes"},
		},
		DefaultSampleType: "inuse_space",
		PeriodType:        &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:            1,
	}
	if len(trace) > 0 {
		p.TimeNanos = trace[0].TimeUS * 1000
		p.DurationNanos = (trace[len(trace)-1].TimeUS - trace[0].TimeUS) * 1000
	}
	samples := map[snapshot.StackID]*profile.Sample{}
	b := &pprofBuilder{s: s, p: p, funcs: map[[2]string]*profile.Function{}, locs: map[snapshot.Frame]*profile.Location{}}
	sample := func(id snapshot.StackID) *profile.Sample {
		if sm := samples[id]; sm != nil {
			return sm
		}
		sm := &profile.Sample{Value: make([]int64, 3), Location: b.stack(id)}
		samples[id] = sm
		p.Sample = append(p.Sample, sm)
		return sm
	}
	for i := range trace {
		if e := &trace[i]; e.Action == snapshot.ActionAlloc {
			sample(e.Stack).Value[2] += int64(e.Size)
		}
	}
	if len(trace) > 0 {
		for _, l := range LiveAt(trace, at) {
			sm := sample(l.Stack)
			sm.Value[0] += l.Size
			sm.Value[1]++
		}
	}
	if err := p.CheckValid(); err != nil {
		return err
	}
	return p.Write(w)
}

type pprofBuilder struct {
	s     *snapshot.Snapshot
	p     *profile.Profile
	funcs map[[2]string]*profile.Function
	locs  map[snapshot.Frame]*profile.Location
}

func (b *pprofBuilder) stack(id snapshot.StackID) []*profile.Location {
	fr := b.s.Frames(id)
	if len(fr) == 0 {
		return []*profile.Location{b.loc(noFrame)}
	}
	out := make([]*profile.Location, len(fr))
	for i, f := range fr {
		out[i] = b.loc(f)
	}
	return out
}

func (b *pprofBuilder) loc(f snapshot.Frame) *profile.Location {
	if l := b.locs[f]; l != nil {
		return l
	}
	key := [2]string{f.Name, f.Filename}
	fn := b.funcs[key]
	if fn == nil {
		fn = &profile.Function{ID: uint64(len(b.p.Function) + 1), Name: QualifiedName(f), SystemName: f.Name, Filename: f.Filename}
		b.funcs[key] = fn
		b.p.Function = append(b.p.Function, fn)
	}
	l := &profile.Location{ID: uint64(len(b.p.Location) + 1), Line: []profile.Line{{Function: fn, Line: int64(f.Line)}}}
	b.locs[f] = l
	b.p.Location = append(b.p.Location, l)
	return l
}

// QualifiedName names a Python frame's function with its module, as
// "torch.nn.modules.linear.forward": pprof merges functions by name alone,
// and Python code is full of functions called forward.
func QualifiedName(f snapshot.Frame) string {
	mod := f.Filename
	if mod == "" || strings.HasPrefix(mod, "<") {
		return f.Name
	}
	if i := strings.LastIndex(mod, "site-packages/"); i >= 0 {
		mod = mod[i+len("site-packages/"):]
	} else if i := strings.LastIndex(mod, "/"); i >= 0 {
		mod = mod[i+1:]
	}
	mod = strings.TrimSuffix(strings.TrimSuffix(mod, ".py"), "/__init__")
	return strings.ReplaceAll(mod, "/", ".") + "." + f.Name
}
