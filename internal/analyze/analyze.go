package analyze

import (
	"context"
	"fmt"
	"sort"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
	"github.com/vramkit/vramkit/internal/units"
)

// Analyze explains every device of s that has an allocation trace: it
// resolves each device's settings, replays it once and explains the replay.
func Analyze(s *snapshot.Snapshot, o Options) (*Report, error) {
	return AnalyzeContext(context.Background(), s, o)
}

// AnalyzeContext is Analyze that gives up, returning ctx's error, once ctx
// is done; the replays are what take long, so they are what it stops.
func AnalyzeContext(ctx context.Context, s *snapshot.Snapshot, o Options) (*Report, error) {
	rep := &Report{}
	for _, dev := range s.DeviceIDs() {
		st, err := Resolve(s, dev, o.Flags())
		if err != nil {
			return nil, fmt.Errorf("analyze: device %d: %w", dev, err)
		}
		ro := st.ReplayOptions()
		ro.MakeRequests, ro.Ahead = o.MakeRequests, o.Ahead
		rp, err := allocsim.ReplayDeviceContext(ctx, s, dev, ro)
		if err != nil {
			return nil, fmt.Errorf("analyze: device %d: %w", dev, err)
		}
		d, err := Replayed(s, &rp, st, o)
		if err != nil {
			return nil, fmt.Errorf("analyze: device %d: %w", dev, err)
		}
		rep.Devices = append(rep.Devices, d)
	}
	if len(rep.Devices) == 0 {
		return nil, fmt.Errorf("analyze: the snapshot holds no segments and no trace")
	}
	return rep, nil
}

// dev is the working state of one device's analysis.
type dev struct {
	s      *snapshot.Snapshot
	o      Options
	trace  []snapshot.TraceEvent
	rep    *allocsim.DeviceReplay
	st     Settings
	t      *timeline
	facts  []frameFacts
	ph     []phase // resolved phase of each life
	at     []phase // phase at each request index
	starts []int   // iteration starts, plus len(reqs) at the end
	// per iteration: has a backward phase; request of its last forward
	// allocation
	iterBwd     []bool
	iterLastFwd []int
	frames      bool
	// capBytes is the memory the process may use; capSource says whether
	// it was given, measured or assumed.
	capBytes  int64
	capSource string
	oomAt     int // request index of the first OOM, or -1
	steady    int // request index of the steady-state peak (the categories' moment)
}

// Replayed explains one device from its replay rp (which must keep the
// request stream) under the settings st it was replayed with: a caller
// that needs the replay for more (report's timeline) replays once and
// hands it here.
func Replayed(s *snapshot.Snapshot, rp *allocsim.DeviceReplay, set Settings, o Options) (Device, error) {
	s = snapshot.PythonView(s)
	id := rp.Device
	if rp.Events > 0 && rp.Result.Reproduced && rp.Result.Requests == nil {
		return Device{}, fmt.Errorf("the replay of device %d did not keep its request stream", id)
	}
	out := Device{Device: id, TraceComplete: rp.TraceComplete, Notes: append([]string(nil), rp.Notes...),
		ContextBytes: set.ContextBytes, Leaks: []Leak{}, Advice: []Advice{}, TopSites: []Site{}, Settings: &set}
	st := rp.Result.Stats
	out.PeakAllocated = st.AllocatedBytes.All.Peak
	out.PeakReserved = st.ReservedBytes.All.Peak
	out.NVMLEstimate = out.PeakReserved + set.ContextBytes
	if rp.Events == 0 || !rp.Result.Reproduced {
		// No history, or one that does not start with the allocator: only
		// the dump's own state is certain.
		stateOnly(s, id, o.Top, &out)
		return out, nil
	}
	d := &dev{s: s, o: o, trace: s.Trace(id), rep: rp, st: set}
	d.capBytes, d.capSource = set.Usable(), set.UsableDetail()
	d.t = timelineOf(context.Background(), rp, d.trace, o)
	if len(d.t.reqs) == 0 {
		return out, nil
	}
	d.labelFrames()
	d.findIterations(&out)
	d.phaseTimeline()
	d.indexIterations()
	d.oomAt = d.firstOOM()

	peak := d.t.argmax(0, len(d.t.reqs))
	out.PeakAllocatedAt = d.moment(peak)
	resPeak := d.t.resPeak
	out.PeakReservedAt = d.moment(resPeak)
	out.IterationPeaks = d.iterPeaks()
	steady := peak
	if len(d.starts) > 2 && !d.isInference() {
		// Generation has no steady state: its passes differ (prefill,
		// then ever longer decodes), so the categories are the peak's.
		steady = d.t.argmax(d.starts[1], len(d.t.reqs))
	}
	d.steady = steady
	out.CategoriesAt, out.CategoriesBytes = d.moment(steady), d.t.level[steady]
	out.Categories, out.TopSites = d.breakdown(steady)
	out.HasFrames, out.BytesDefinition = d.frames, BytesDefinition
	out.CategoryConfidence = "high: phases from stack frames"
	if !d.frames {
		out.CategoryConfidence = "low: the trace has no stack frames, so categories come from lifetimes " +
			"alone (expect ±20% per category; gradients kept by zero_grad(set_to_none=False) count as optimizer state)"
	}
	out.Traits = d.traits(out.Categories)
	if t := out.Traits; t.IsTraining() && t.GradScaler && out.Categories.OptimizerState < out.Categories.Parameters/100 &&
		out.Categories.Parameters > 0 {
		// GradScaler skips optimizer.step() while gradients overflow at the
		// starting loss scale; a short trace can end before the first real
		// step, and then the optimizer's state is still to come.
		out.Notes = append(out.Notes, fmt.Sprintf("the optimizer holds no state although GradScaler is in use: most likely "+
			"GradScaler skipped every optimizer step in this trace (inf/NaN gradients at the initial loss scale, normal for "+
			"the first steps of fp16 training), unless the optimizer is stateless (SGD without momentum); once steps go "+
			"through, Adam-like optimizers add about twice the parameter memory (%s) to every later iteration",
			units.Bytes(2*out.Categories.Parameters)))
		out.Traits.Optimizer = "unknown: no state yet, most likely because GradScaler skipped every step (see the note)"
	}
	out.Fragmentation = d.fragmentation(resPeak)
	out.Leaks = d.leaks()
	out.OOM = d.oom()
	out.Generation = d.generation(&out)
	out.Advice = d.advise(&out)
	if len(o.CurveAt) > 0 {
		out.CategoryCurve = d.categoryCurve(o.CurveAt)
	}
	return out, nil
}

// labelFrames gives each allocation the phase its stack shows. An empty
// stack in a trace that has frames is the autograd engine's thread (it
// runs no Python), so after a forward it means backward (a stack of C++
// frames alone is empty here: snapshot.PythonView).
func (d *dev) labelFrames() {
	d.facts = make([]frameFacts, len(d.s.Stacks))
	for i := range d.s.Stacks {
		d.facts[i] = classifyStack(d.s.Stacks[i])
	}
	d.ph = make([]phase, len(d.t.lives))
	for k := range d.t.lives {
		if len(d.s.Frames(d.t.lives[k].stack)) > 0 {
			d.frames = true
			break
		}
	}
	if !d.frames {
		return
	}
	prev := phSetup
	for k := range d.t.lives {
		p := d.facts[d.t.lives[k].stack].phase
		if len(d.s.Frames(d.t.lives[k].stack)) == 0 || d.facts[d.t.lives[k].stack].lib.hookThread {
			p = phSetup
			switch prev {
			case phForward, phBackward:
				p = phBackward
			case phOptim:
				p = phOptim
			}
		}
		d.ph[k] = p
		d.t.lives[k].phase = p
		prev = p
	}
}

func (d *dev) findIterations(out *Device) {
	if d.frames {
		d.starts = iterationsFromFrames(d.t, d.ph)
		out.IterationSource = "stack frames: one per optimizer step, or per forward pass when there is none"
	}
	if d.starts == nil {
		d.starts = iterationsFromLevels(d.t, d.o)
		out.IterationSource = "allocation lifetimes: allocated memory returns to the same floor once per iteration"
	}
	if d.starts == nil {
		d.starts = []int{0, len(d.t.reqs)}
		out.IterationSource = "none found: the whole trace is treated as one iteration"
	}
	out.Iterations = len(d.starts) - 1
}

// iterOf returns the 1-based iteration of request i, 0 before the first.
func (d *dev) iterOf(i int) int {
	return sort.Search(len(d.starts), func(k int) bool { return d.starts[k] > i })
}

// phaseTimeline sets the phase at every request: from the latest
// allocation's label with frames; without them, forward until the
// iteration's peak and backward after it (the optimizer step is not
// separable from backward by lifetimes alone).
func (d *dev) phaseTimeline() {
	n := len(d.t.reqs)
	d.at = make([]phase, n)
	if d.frames {
		cur, k := phSetup, 0
		for i := 0; i < n; i++ {
			if k < len(d.t.lives) && int(d.t.lives[k].alloc) == i {
				cur = d.ph[k]
				k++
			}
			d.at[i] = cur
		}
		return
	}
	for i := 0; i < d.starts[0]; i++ {
		d.at[i] = phSetup
	}
	for it := 0; it+1 < len(d.starts); it++ {
		lo, hi := d.starts[it], d.starts[it+1]
		top := d.t.argmax(lo, hi)
		for i := lo; i < hi; i++ {
			d.at[i] = phForward
			if i > top {
				d.at[i] = phBackward
			}
		}
	}
	for k := range d.t.lives {
		d.ph[k] = d.at[d.t.lives[k].alloc]
	}
}

func (d *dev) moment(i int) Moment {
	ev := int(d.t.reqs[i].Event)
	m := Moment{TraceEvent: ev, Iteration: d.iterOf(i), Phase: d.at[i].String()}
	if ev < len(d.trace) {
		m.TimeUS = d.trace[ev].TimeUS
	}
	return m
}

func (d *dev) iterPeaks() []IterPeak {
	var out []IterPeak
	for it := 0; it+1 < len(d.starts); it++ {
		lo, hi := d.starts[it], d.starts[it+1]
		top := d.t.argmax(lo, hi)
		start := d.moment(lo)
		out = append(out, IterPeak{Iteration: it + 1, PeakAllocated: d.t.level[top], Phase: d.at[top].String(),
			StartEvent: start.TraceEvent, StartUS: start.TimeUS,
			EndAllocated: d.floorEnd(it)})
	}
	return out
}

// floorEnd is what survives iteration it (0-based): the lowest allocated
// level after its last allocation of the step itself (forward, backward or
// optimizer), before the next batch arrives — what
// torch.cuda.memory_allocated() reports after the step.
func (d *dev) floorEnd(it int) int64 {
	lo, hi := d.starts[it], d.starts[it+1]
	last := lo
	a, b := d.t.lifeRange(lo, hi)
	for k := b - 1; k >= a; k-- {
		if d.ph[k] != phSetup {
			last = int(d.t.lives[k].alloc)
			break
		}
	}
	f := d.t.level[last]
	for i := last; i < hi; i++ {
		f = min(f, d.t.level[i])
	}
	return f
}
