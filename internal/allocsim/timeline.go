package allocsim

import (
	"encoding/binary"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// Bucket is one point of a downsampled memory timeline: the trace events
// [First, Last], with the extremes of allocated and reserved bytes over
// them, so a peak survives any amount of downsampling.
type Bucket struct {
	First, Last    int   // trace indices
	TimeUS         int64 // trace time of the bucket's first request, µs
	AllocMin       int64 // bytes
	AllocMax       int64 // bytes
	ResMin, ResMax int64 // bytes
	// Trace times (µs) at which each extreme was first reached, so an
	// export can replay the envelope in the order it happened.
	AllocMinUS, AllocMaxUS, ResMinUS, ResMaxUS int64
	// AllocMaxAt is the trace index where AllocMax was reached, where a
	// breakdown by category tops out at the curve.
	AllocMaxAt int
	// Big is the trace index of the bucket's largest allocation (-1: none),
	// so hovering a bucket can name an allocation and its stack.
	Big int
}

// OOMRecord is an out-of-memory error of the trace as the replay met it.
type OOMRecord struct {
	Event int   `json:"trace_event"`
	Size  int64 `json:"size_bytes"`
	// DeviceFree is cudaMemGetInfo's free memory the trace recorded.
	DeviceFree int64 `json:"device_free_bytes"`
	Reserved   int64 `json:"reserved_bytes"`
	Allocated  int64 `json:"allocated_bytes"`
}

// sampler follows allocated and reserved memory after every request of
// the replay, into buckets of equal event counts. It runs inside the
// replay's loop, so it allocates only when a bucket opens or reserved
// memory reaches a new high (a few hundred times a run).
//
// A replay ahead of the load (see Ahead) does not know the trace's length,
// which sets the buckets' width: its sampler keeps the memory after each
// request in a log, a few bytes each, and buckets them once the trace is
// whole (settle), as the replay would have.
type sampler struct {
	tr       []snapshot.TraceEvent
	per      int
	segments bool
	cur      int // index of the open bucket, -1 before the first
	// buckets is o.TimelineBuckets for a sampler that logs (log != nil).
	buckets int
	log     *stateLog
}

func newSampler(tr []snapshot.TraceEvent, o ReplayOptions) *sampler {
	if o.TimelineBuckets <= 0 && !o.KeepPeakSegments {
		return nil
	}
	per := 0 // no buckets: only the peaks
	if n := o.TimelineBuckets; n > 0 {
		per = max((len(tr)+n-1)/n, 1)
	}
	return &sampler{tr: tr, per: per, segments: o.KeepPeakSegments, cur: -1}
}

// newLoggingSampler is newSampler for a trace whose length is not known
// yet: its buckets wait for settle.
func newLoggingSampler(o ReplayOptions) *sampler {
	s := newSampler(nil, o)
	if s != nil && o.TimelineBuckets > 0 {
		s.per, s.buckets, s.log = 0, o.TimelineBuckets, &stateLog{}
	}
	return s
}

// settle buckets what a logging sampler logged, now that tr is the whole
// trace, into d.Timeline.
func (s *sampler) settle(tr []snapshot.TraceEvent, d *DeviceReplay) {
	if s == nil || s.log == nil {
		return
	}
	log := s.log
	s.tr, s.per, s.log = tr, max((len(tr)+s.buckets-1)/s.buckets, 1), nil
	log.each(func(k int, al, rs int64) { s.bucket(k, al, rs, d) })
}

func (s *sampler) after(k int, a *Allocator, d *DeviceReplay) {
	al, rs := a.stats.AllocatedBytes.All.Current, a.stats.ReservedBytes.All.Current
	if s.per > 0 {
		s.bucket(k, al, rs, d)
	} else if s.log != nil {
		s.log.add(k, al, rs)
	}
	if al > d.PeakAllocated {
		d.PeakAllocated, d.PeakAllocatedAt = al, k
	}
	if rs > d.PeakReserved {
		d.PeakReserved, d.PeakReservedAt = rs, k
		if s.segments {
			d.PeakSegments = a.Segments()
		}
	}
}

func (s *sampler) bucket(k int, al, rs int64, d *DeviceReplay) {
	t := s.tr[k].TimeUS
	if s.cur < 0 || k/s.per != d.Timeline[s.cur].First/s.per {
		d.Timeline = append(d.Timeline, Bucket{First: k, TimeUS: t, AllocMin: al, AllocMax: al, ResMin: rs, ResMax: rs,
			AllocMinUS: t, AllocMaxUS: t, ResMinUS: t, ResMaxUS: t, AllocMaxAt: k, Big: -1})
		s.cur = len(d.Timeline) - 1
	}
	b := &d.Timeline[s.cur]
	b.Last = k
	if al < b.AllocMin {
		b.AllocMin, b.AllocMinUS = al, t
	}
	if al > b.AllocMax {
		b.AllocMax, b.AllocMaxUS, b.AllocMaxAt = al, t, k
	}
	if rs < b.ResMin {
		b.ResMin, b.ResMinUS = rs, t
	}
	if rs > b.ResMax {
		b.ResMax, b.ResMaxUS = rs, t
	}
	if s.tr[k].Action == snapshot.ActionAlloc && (b.Big < 0 || s.tr[b.Big].Size < s.tr[k].Size) {
		b.Big = k
	}
}

// stateLog is the memory after each request of a replay: the trace index,
// allocated and reserved bytes, as their changes since the previous entry,
// in blocks that are never copied as the log grows. An entry is 5 bytes
// when the index moves by less than 255, reserved memory stays and
// allocated memory moves by less than 2 GiB (nearly every request): the
// step, then the change of allocated bytes; otherwise 255 and three
// varints.
type stateLog struct {
	blocks [][]byte
	k      int
	al, rs int64
	cur    []byte
}

// logBlock is the size of a stateLog's blocks.
const logBlock = 1 << 20

// logSlow marks an entry of varints.
const logSlow = 255

func (l *stateLog) add(k int, al, rs int64) {
	if len(l.cur)+1+3*binary.MaxVarintLen64 > cap(l.cur) {
		if l.cur != nil {
			l.blocks = append(l.blocks, l.cur)
		}
		l.cur = make([]byte, 0, logBlock)
	}
	dk, da, dr := k-l.k, al-l.al, rs-l.rs
	l.k, l.al, l.rs = k, al, rs
	if uint(dk) < logSlow && dr == 0 && da == int64(int32(da)) {
		n := len(l.cur)
		b := l.cur[n : n+5]
		b[0] = byte(dk)
		binary.LittleEndian.PutUint32(b[1:], uint32(int32(da)))
		l.cur = l.cur[:n+5]
		return
	}
	l.cur = append(l.cur, logSlow)
	l.cur = binary.AppendUvarint(l.cur, uint64(dk))
	l.cur = binary.AppendVarint(l.cur, da)
	l.cur = binary.AppendVarint(l.cur, dr)
}

// each calls fn with the entries in the order they were added.
func (l *stateLog) each(fn func(k int, al, rs int64)) {
	var k int
	var al, rs int64
	for _, b := range append(l.blocks, l.cur) {
		for len(b) > 0 {
			if b[0] != logSlow {
				k += int(b[0])
				al += int64(int32(binary.LittleEndian.Uint32(b[1:])))
				b = b[5:]
			} else {
				dk, n1 := binary.Uvarint(b[1:])
				da, n2 := binary.Varint(b[1+n1:])
				dr, n3 := binary.Varint(b[1+n1+n2:])
				b = b[1+n1+n2+n3:]
				k, al, rs = k+int(dk), al+da, rs+dr
			}
			fn(k, al, rs)
		}
	}
}
