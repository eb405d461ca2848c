package allocsim

// clone deep-copies the allocator's state (not its device or observer), so
// a replay can try one explanation of the trace and fall back to another.
func (a *Allocator) clone() *Allocator { return a.cloneInto(nil) }

// cloneInto is clone reusing the memory of old, an earlier clone of this
// allocator that nothing else refers to (nil: none).
//
// A replay clones once per malloc that follows segment releases (every
// empty_cache() of a long run) and almost always drops the clone, so the
// copy avoids per-block maps and allocations: each original block points
// at its copy while the clone is made (block.twin, cleared before it
// returns), the copies share one slab, and the slab, the free sets and
// the active table of a dropped clone serve the next one.
func (a *Allocator) cloneInto(old *Allocator) *Allocator {
	var c cloner
	// Every block of a tracked allocator is in a free set or the active
	// table: one slab holds them all.
	nb := a.active.n
	for _, p := range a.allPools() {
		nb += len(p.blocks.items) + len(p.unmapped.items)
	}
	n := &Allocator{}
	if old != nil {
		n = old
		c.slab, c.orig = old.cloneSlab[:0], old.cloneOrig[:0]
	} else {
		n.large, n.small = newPool(false), newPool(true)
	}
	if cap(c.slab) < nb {
		c.slab, c.orig = make([]block, 0, nb), make([]*block, 0, nb)
	}
	large, small, slots := n.large, n.small, n.active.slots
	*n = Allocator{
		cfg:            a.cfg,
		dev:            a.dev,
		stats:          a.stats,
		totalAllocated: a.totalAllocated,
		allowed:        a.allowed,
		OnEvent:        a.OnEvent,
		checker:        a.checker,
	}
	n.large = c.pool(a.large, large)
	n.small = c.pool(a.small, small)
	for id, p := range a.private {
		if n.private == nil {
			n.private = map[[2]int64]*privatePool{}
		}
		q := &privatePool{small: c.pool(p.small, newPool(true)), large: c.pool(p.large, newPool(false))}
		q.small.private, q.large.private = true, true
		q.small.id, q.large.id = id, id
		n.private[id] = q
		c.privPools = append(c.privPools, p.small, p.large)
		c.privCopies = append(c.privCopies, q.small, q.large)
	}
	n.nextPool, n.nextTag = a.nextPool, a.nextTag
	if a.active.n > 0 {
		// An empty table (after empty_cache(), where most clones happen)
		// starts small again: it grows on its first put.
		if len(slots) == len(a.active.slots) {
			clear(slots)
		} else {
			slots = make([]addrSlot, len(a.active.slots))
		}
		n.active.slots = slots
		n.active.n, n.active.shift = a.active.n, a.active.shift
		for i, s := range a.active.slots {
			if s.b != nil {
				n.active.slots[i] = addrSlot{s.ptr, c.block(s.b)}
			}
		}
	}
	for _, b := range a.pending {
		n.pending = append(n.pending, c.block(b))
	}
	for _, s := range a.segs {
		n.segs = append(n.segs, c.seg(s))
	}
	// Blocks point to their pool: repoint the copies to the copied pools,
	// and clear the originals' forward pointers.
	for _, b := range c.orig {
		cb := b.twin
		b.twin = nil
		switch b.pool {
		case a.large:
			cb.pool = n.large
		case a.small:
			cb.pool = n.small
		default:
			cb.pool = nil
			for i, p := range c.privPools {
				if p == b.pool {
					cb.pool = c.privCopies[i]
				}
			}
		}
	}
	// Keep the list's memory, not the originals: an allocator restored
	// from this copy must not hold the one it replaces.
	clear(c.orig)
	n.cloneSlab, n.cloneOrig = c.slab, c.orig[:0]
	return n
}

// cloner holds one clone's bookkeeping.
type cloner struct {
	// orig lists the blocks copied so far (each with twin set).
	orig []*block
	slab []block
	segs map[*expSegment]*expSegment
	// privPools are the private pools, privCopies their copies.
	privPools, privCopies []*blockPool
}

// cloneSlab is how many block copies one allocation holds.
const cloneSlab = 256

// block returns b's copy, making it (and its neighbours') on first sight.
func (c *cloner) block(b *block) *block {
	if b == nil {
		return nil
	}
	if b.twin != nil {
		return b.twin
	}
	if len(c.slab) == cap(c.slab) {
		c.slab = make([]block, 0, cloneSlab) // an untracked allocator's blocks
	}
	c.slab = append(c.slab, *b)
	cb := &c.slab[len(c.slab)-1]
	b.twin = cb
	c.orig = append(c.orig, b)
	if len(b.streamUses) > 0 {
		cb.streamUses = append([]int64(nil), b.streamUses...)
	} else {
		cb.streamUses = nil
	}
	if b.seg != nil {
		cb.seg = c.seg(b.seg)
	}
	cb.prev = c.block(b.prev)
	cb.next = c.block(b.next)
	return cb
}

// seg returns the copy of expandable segment s.
func (c *cloner) seg(s *expSegment) *expSegment {
	if sc, ok := c.segs[s]; ok {
		return sc
	}
	sc := *s
	sc.mapped = append([]bool(nil), s.mapped...)
	if c.segs == nil {
		c.segs = map[*expSegment]*expSegment{}
	}
	c.segs[s] = &sc
	return &sc
}

// pool makes q (a fresh pool, or one of a dropped clone) a copy of p with
// copies of its blocks, and returns it.
func (c *cloner) pool(p, q *blockPool) *blockPool {
	*q = blockPool{
		blocks:             blockSet{keys: q.blocks.keys[:0], items: q.blocks.items[:0], dead: p.blocks.dead, addrOrder: p.blocks.addrOrder},
		unmapped:           blockSet{keys: q.unmapped.keys[:0], items: q.unmapped.items[:0], dead: p.unmapped.dead, addrOrder: p.unmapped.addrOrder},
		isSmall:            p.isSmall,
		getFreeBlocksCalls: p.getFreeBlocksCalls,
	}
	q.blocks.keys = append(q.blocks.keys, p.blocks.keys...)
	q.unmapped.keys = append(q.unmapped.keys, p.unmapped.keys...)
	for _, b := range p.blocks.items {
		q.blocks.items = append(q.blocks.items, c.block(b))
	}
	for _, b := range p.unmapped.items {
		q.unmapped.items = append(q.unmapped.items, c.block(b))
	}
	return q
}
