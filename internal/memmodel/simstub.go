package memmodel

// STAND-IN for internal/allocsim until the lead's simulator lands on main.
// It exposes the same names (allocsim.ParseConfig, allocsim.New,
// allocsim.NewDevice, Malloc, Free, Stats) through a package-like variable
// so that switching means deleting this file and importing the real
// package. It is a compact best-fit caching allocator: 512-byte rounding,
// 2 MiB small segments, 20 MiB segments for 1–10 MiB requests, splitting
// and merging; no stream events, no release on OOM, no allocator options.
// DELETE THIS FILE when allocsim is merged.

import (
	"errors"
	"sort"
)

var errSimOOM = errors.New("CUDA out of memory")

type simStat struct{ Current, Peak, Allocated, Freed int64 }

func (s *simStat) add(n int64) {
	s.Current += n
	if n > 0 {
		s.Allocated += n
	} else {
		s.Freed -= n
	}
	if s.Current > s.Peak {
		s.Peak = s.Current
	}
}

type simPools struct{ All, Large, Small simStat }

type simStats struct{ AllocatedBytes, ReservedBytes, ActiveBytes simPools }

type simConfig struct{ conf string }

type simDevice struct{ capacity, used int64 }

type simBlock struct {
	ptr, size  int64
	free       bool
	small      bool
	prev, next *simBlock
}

type simAllocator struct {
	dev    *simDevice
	pools  [2][]*simBlock // free blocks: [large, small], sorted by (size, ptr)
	active map[int64]*simBlock
	next   int64
	stats  simStats
}

var allocsim = struct {
	ParseConfig func(string) (simConfig, error)
	New         func(simConfig, *simDevice) *simAllocator
	NewDevice   func(int64) *simDevice
	ErrOOM      error
}{
	ParseConfig: func(s string) (simConfig, error) { return simConfig{s}, nil },
	New: func(c simConfig, d *simDevice) *simAllocator {
		return &simAllocator{dev: d, active: map[int64]*simBlock{}, next: 1 << 40}
	},
	NewDevice: func(c int64) *simDevice { return &simDevice{capacity: c} },
	ErrOOM:    errSimOOM,
}

func (a *simAllocator) Stats() simStats { return a.stats }

func (a *simAllocator) pool(small bool) *[]*simBlock {
	if small {
		return &a.pools[1]
	}
	return &a.pools[0]
}

func (a *simAllocator) insert(b *simBlock) {
	p := a.pool(b.small)
	i := sort.Search(len(*p), func(i int) bool {
		q := (*p)[i]
		return q.size > b.size || (q.size == b.size && q.ptr >= b.ptr)
	})
	*p = append(*p, nil)
	copy((*p)[i+1:], (*p)[i:])
	(*p)[i] = b
}

func (a *simAllocator) remove(b *simBlock) {
	p := a.pool(b.small)
	for i, q := range *p {
		if q == b {
			*p = append((*p)[:i], (*p)[i+1:]...)
			return
		}
	}
}

func (a *simAllocator) Malloc(size, stream int64) (int64, error) {
	r := roundAlloc(size)
	small := r <= 1<<20
	p := a.pool(small)
	i := sort.Search(len(*p), func(i int) bool { return (*p)[i].size >= r })
	var b *simBlock
	if i < len(*p) {
		b = (*p)[i]
		a.remove(b)
	} else {
		seg := int64(2 << 20)
		if !small {
			seg = 20 << 20
			if r >= 10<<20 {
				seg = (r + (2<<20 - 1)) / (2 << 20) * (2 << 20)
			}
		}
		if a.dev.capacity > 0 && a.dev.used+seg > a.dev.capacity {
			return 0, errSimOOM
		}
		a.dev.used += seg
		b = &simBlock{ptr: a.next, size: seg, small: small}
		a.next += seg + 1<<30
		a.stats.ReservedBytes.All.add(seg)
	}
	rem := b.size - r
	if (small && rem >= 512) || (!small && rem > 1<<20) {
		nb := &simBlock{ptr: b.ptr + r, size: rem, free: true, small: small, prev: b, next: b.next}
		if b.next != nil {
			b.next.prev = nb
		}
		b.next = nb
		b.size = r
		a.insert(nb)
	}
	b.free = false
	a.active[b.ptr] = b
	a.stats.AllocatedBytes.All.add(b.size)
	a.stats.ActiveBytes.All.add(b.size)
	return b.ptr, nil
}

func (a *simAllocator) Free(ptr int64) error {
	b := a.active[ptr]
	if b == nil {
		return errors.New("allocsim stub: free of unknown pointer")
	}
	delete(a.active, ptr)
	a.stats.AllocatedBytes.All.add(-b.size)
	a.stats.ActiveBytes.All.add(-b.size)
	b.free = true
	if n := b.next; n != nil && n.free {
		a.remove(n)
		b.size += n.size
		b.next = n.next
		if n.next != nil {
			n.next.prev = b
		}
	}
	if p := b.prev; p != nil && p.free {
		a.remove(p)
		p.size += b.size
		p.next = b.next
		if b.next != nil {
			b.next.prev = p
		}
		b = p
	}
	a.insert(b)
	return nil
}
