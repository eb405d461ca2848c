package allocsim

// clone deep-copies the allocator's state (not its device or observer), so
// a replay can try one explanation of the trace and fall back to another.
func (a *Allocator) clone() *Allocator {
	m := make(map[*block]*block)
	segs := make(map[*expSegment]*expSegment)
	var cp func(b *block) *block
	cp = func(b *block) *block {
		if b == nil {
			return nil
		}
		if c, ok := m[b]; ok {
			return c
		}
		c := *b
		m[b] = &c
		c.streamUses = append([]int64(nil), b.streamUses...)
		if b.seg != nil {
			s, ok := segs[b.seg]
			if !ok {
				sc := *b.seg
				sc.mapped = append([]bool(nil), b.seg.mapped...)
				s = &sc
				segs[b.seg] = s
			}
			c.seg = s
		}
		c.prev = cp(b.prev)
		c.next = cp(b.next)
		return &c
	}
	n := &Allocator{
		cfg:            a.cfg,
		dev:            a.dev,
		stats:          a.stats,
		totalAllocated: a.totalAllocated,
		allowed:        a.allowed,
		OnEvent:        a.OnEvent,
	}
	clonePool := func(p *blockPool) *blockPool {
		q := newPool(p.isSmall)
		q.getFreeBlocksCalls = p.getFreeBlocksCalls
		q.blocks.keys = append([]setKey(nil), p.blocks.keys...)
		q.unmapped.keys = append([]setKey(nil), p.unmapped.keys...)
		q.blocks.items = make([]*block, len(p.blocks.items))
		for i, b := range p.blocks.items {
			q.blocks.items[i] = cp(b)
		}
		q.unmapped.items = make([]*block, len(p.unmapped.items))
		for i, b := range p.unmapped.items {
			q.unmapped.items[i] = cp(b)
		}
		return q
	}
	n.large = clonePool(a.large)
	n.small = clonePool(a.small)
	newPool := map[*blockPool]*blockPool{a.large: n.large, a.small: n.small}
	for id, p := range a.private {
		if n.private == nil {
			n.private = map[[2]int64]*privatePool{}
		}
		q := &privatePool{small: clonePool(p.small), large: clonePool(p.large)}
		q.small.private, q.large.private = true, true
		q.small.id, q.large.id = id, id
		n.private[id] = q
		newPool[p.small], newPool[p.large] = q.small, q.large
	}
	n.nextPool, n.nextTag = a.nextPool, a.nextTag
	n.active.slots = make([]addrSlot, len(a.active.slots))
	n.active.n, n.active.shift = a.active.n, a.active.shift
	for i, s := range a.active.slots {
		if s.b != nil {
			n.active.slots[i] = addrSlot{s.ptr, cp(s.b)}
		}
	}
	for _, b := range a.pending {
		n.pending = append(n.pending, cp(b))
	}
	for _, s := range a.segs {
		if c, ok := segs[s]; ok {
			n.segs = append(n.segs, c)
		} else {
			sc := *s
			sc.mapped = append([]bool(nil), s.mapped...)
			n.segs = append(n.segs, &sc)
		}
	}
	// blocks point to their pool; repoint them to the copies
	for old, c := range m {
		c.pool = newPool[old.pool]
	}
	return n
}
