package monitor

import "time"

// Point is one value of a series at one time.
type Point struct {
	T time.Time
	V float64
}

// History keeps the last N samples in a ring buffer. Only the newest
// sample is kept whole; older ones are reduced to pointer-free records
// (time, per-GPU used/free, per-process used) so that ten minutes at 10 Hz
// on an 8-GPU machine costs the garbage collector almost nothing.
//
// It is not safe for concurrent use; its owner (the TUI model, the run
// recorder) serialises access.
type History struct {
	ring []record
	next int
	full bool
	last Sample
}

type record struct {
	t     int64 // Unix nanoseconds
	gpus  []gpuRec
	procs []procRec
}

type gpuRec struct {
	used, free uint64
	up         bool
	procsOK    bool // the process list was read (absence means exited)
}

type procRec struct {
	gpu  int32
	pid  uint32
	used uint64
}

// NewHistory returns a history holding up to n samples (n ≥ 1).
func NewHistory(n int) *History {
	if n < 1 {
		n = 1
	}
	return &History{ring: make([]record, n)}
}

// Add appends s, dropping the oldest sample when full. It reuses the
// dropped record's storage.
func (h *History) Add(s Sample) {
	r := &h.ring[h.next]
	r.t = s.Time.UnixNano()
	r.gpus, r.procs = r.gpus[:0], r.procs[:0]
	for i, g := range s.GPUs {
		r.gpus = append(r.gpus, gpuRec{used: g.Memory.Used, free: g.Memory.Free, up: g.Up, procsOK: g.Up && g.ProcError == ""})
		for _, p := range g.Procs {
			r.procs = append(r.procs, procRec{gpu: int32(i), pid: p.PID, used: p.Used})
		}
	}
	h.last = s
	h.next++
	if h.next == len(h.ring) {
		h.next, h.full = 0, true
	}
}

// Len is the number of samples held.
func (h *History) Len() int {
	if h.full {
		return len(h.ring)
	}
	return h.next
}

func (h *History) at(i int) *record {
	if h.full {
		return &h.ring[(h.next+i)%len(h.ring)]
	}
	return &h.ring[i]
}

// Last returns the newest sample, whole.
func (h *History) Last() (Sample, bool) {
	return h.last, h.Len() > 0
}

// first returns the index of the oldest record at or after since.
func (h *History) first(since time.Time) int {
	lo, hi, s := 0, h.Len(), since.UnixNano()
	for lo < hi { // records are in time order: binary search
		m := (lo + hi) / 2
		if h.at(m).t < s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// GPUSeries is GPU index's used bytes from since on; samples where the GPU
// was down are skipped.
func (h *History) GPUSeries(index int, since time.Time) []Point {
	i0 := h.first(since)
	out := make([]Point, 0, h.Len()-i0)
	for i := i0; i < h.Len(); i++ {
		r := h.at(i)
		if index < len(r.gpus) && r.gpus[index].up {
			out = append(out, Point{time.Unix(0, r.t), float64(r.gpus[index].used)})
		}
	}
	return out
}

// ProcSeries is one process's used bytes on one GPU from since on. Once
// the process has appeared, samples in which the GPU's process list was
// read but the process was absent count as 0, so an exit shows as a drop.
func (h *History) ProcSeries(index int, pid uint32, since time.Time) []Point {
	i0 := h.first(since)
	out := make([]Point, 0, h.Len()-i0)
	seen := false
	for i := i0; i < h.Len(); i++ {
		r := h.at(i)
		if index >= len(r.gpus) || !r.gpus[index].procsOK {
			continue
		}
		v, found := 0.0, false
		for _, p := range r.procs {
			if p.gpu == int32(index) && p.pid == pid {
				v, found = float64(p.used), true
				break
			}
		}
		if found || seen {
			out = append(out, Point{time.Unix(0, r.t), v})
			seen = true
		}
	}
	return out
}
