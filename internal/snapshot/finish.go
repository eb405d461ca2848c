package snapshot

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/vramkit/vramkit/internal/pickle"
)

// finish converts the decoded top-level value.
func (b *builder) finish(v any) (*Snapshot, error) {
	s := b.snap
	switch top := v.(type) {
	case *pickle.List: // legacy: a bare list of segments
		s.LegacyList = true
		if err := b.segments(top); err != nil {
			return nil, err
		}
		return s, nil
	case *pickle.Dict:
		segs, ok := top.Get("segments")
		if !ok {
			return nil, fmt.Errorf("%w: top-level dict has no %q key", ErrNotSnapshot, "segments")
		}
		l, ok := segs.(*pickle.List)
		if !ok {
			return nil, fmt.Errorf("snapshot: segments is %s, not a list", pickle.A(segs))
		}
		if err := b.segments(l); err != nil {
			return nil, err
		}
		if tr, ok := top.Get("device_traces"); ok {
			if err := b.deviceTraces(tr); err != nil {
				return nil, err
			}
		}
		if st, ok := top.Get("allocator_settings"); ok {
			if err := b.settings(st); err != nil {
				return nil, err
			}
		}
		if an, ok := top.Get("external_annotations"); ok {
			b.annotations(an)
		}
		return s, nil
	}
	return nil, fmt.Errorf("%w: the pickle holds %s, not a dict of segments and traces", ErrNotSnapshot, pickle.A(v))
}

func (b *builder) deviceTraces(v any) error {
	outer, ok := v.(*pickle.List)
	if !ok {
		return fmt.Errorf("snapshot: device_traces is %s, not a list", pickle.A(v))
	}
	for dev, it := range outer.Items {
		inner, ok := it.(*pickle.List)
		if !ok {
			return fmt.Errorf("snapshot: device_traces[%d] is %s, not a list", dev, pickle.A(it))
		}
		if len(inner.Items) > 0 { // entries the hook did not take: not dicts
			return fmt.Errorf("snapshot: device_traces[%d]: entry is %s, not a dict", dev, pickle.A(inner.Items[0]))
		}
		b.snap.Devices = append(b.snap.Devices, DeviceTrace{Device: dev, Events: b.flat(b.traces[inner])})
		delete(b.traces, inner)
	}
	return nil
}

func (b *builder) segments(l *pickle.List) error {
	b.snap.Segments = make([]Segment, 0, len(l.Items))
	for i, it := range l.Items {
		d, ok := it.(*pickle.Dict)
		if !ok {
			return fmt.Errorf("snapshot: segments[%d] is %s, not a dict", i, pickle.A(it))
		}
		g, err := b.segment(d)
		if err != nil {
			return fmt.Errorf("snapshot: segments[%d]: %w", i, err)
		}
		b.snap.Segments = append(b.snap.Segments, g)
	}
	return nil
}

func (b *builder) segment(d *pickle.Dict) (Segment, error) {
	g := Segment{Large: true}
	var err error
	get := func(k string) (uint64, error) {
		v, ok := d.Get(k)
		if !ok {
			return 0, nil
		}
		return toUint(v, k)
	}
	if _, ok := d.Get("address"); !ok {
		return g, fmt.Errorf("missing %q", "address")
	}
	if g.Address, err = get("address"); err != nil {
		return g, err
	}
	if g.TotalSize, err = get("total_size"); err != nil {
		return g, err
	}
	if g.AllocatedSize, err = get("allocated_size"); err != nil {
		return g, err
	}
	if g.ActiveSize, err = get("active_size"); err != nil {
		return g, err
	}
	if g.RequestedSize, err = get("requested_size"); err != nil {
		return g, err
	}
	if v, ok := d.Get("device"); ok {
		n, err := toInt(v, "device")
		if err != nil {
			return g, err
		}
		g.Device = int(n)
	}
	if v, ok := d.Get("stream"); ok {
		if g.Stream, err = toStream(v); err != nil {
			return g, err
		}
	}
	if v, ok := d.Get("segment_type"); ok {
		s, _ := v.(string)
		g.Large = s != "small"
	}
	if v, ok := d.Get("segment_pool_id"); ok {
		if t, ok := v.(pickle.Tuple); ok && len(t) == 2 {
			g.PoolID[0], _ = pickle.Int(t[0])
			g.PoolID[1], _ = pickle.Int(t[1])
		}
	}
	if v, ok := d.Get("is_expandable"); ok {
		g.Expandable, _ = v.(bool)
	}
	if v, ok := d.Get("frames"); ok {
		if g.Stack, err = b.stack(v); err != nil {
			return g, err
		}
	}
	bl, _ := d.Get("blocks")
	blocks, ok := bl.(*pickle.List)
	if !ok {
		return g, fmt.Errorf("missing %q list", "blocks")
	}
	addr := g.Address
	for j, it := range blocks.Items {
		bd, ok := it.(*pickle.Dict)
		if !ok {
			return g, fmt.Errorf("blocks[%d] is %s, not a dict", j, pickle.A(it))
		}
		blk, err := b.block(bd, addr)
		if err != nil {
			return g, fmt.Errorf("blocks[%d]: %w", j, err)
		}
		addr = blk.Address + blk.Size
		g.Blocks = append(g.Blocks, blk)
	}
	if g.TotalSize == 0 {
		for _, blk := range g.Blocks {
			g.TotalSize += blk.Size
		}
	}
	return g, nil
}

// block converts a block dict; next is the address implied by the running
// sum of sizes, used when the (older) format has no "address".
func (b *builder) block(d *pickle.Dict, next uint64) (Block, error) {
	blk := Block{Address: next}
	var err error
	if v, ok := d.Get("address"); ok {
		if blk.Address, err = toUint(v, "address"); err != nil {
			return blk, err
		}
	}
	v, ok := d.Get("size")
	if !ok {
		return blk, fmt.Errorf("missing %q", "size")
	}
	if blk.Size, err = toUint(v, "size"); err != nil {
		return blk, err
	}
	if v, ok := d.Get("requested_size"); ok {
		if blk.RequestedSize, err = toUint(v, "requested_size"); err != nil {
			return blk, err
		}
	}
	st, _ := d.Get("state")
	switch st {
	case "active_allocated":
		blk.State = BlockActiveAllocated
	case "active_pending_free", "active_awaiting_free":
		blk.State = BlockActivePendingFree
	case "inactive", nil:
		blk.State = BlockInactive
	default:
		return blk, fmt.Errorf("unknown block state %v", st)
	}
	if v, ok := d.Get("frames"); ok {
		if blk.Stack, err = b.stack(v); err != nil {
			return blk, err
		}
	} else if h, ok := d.Get("history"); ok { // legacy: [{addr, real_size, frames}]
		if hl, ok := h.(*pickle.List); ok && len(hl.Items) > 0 {
			if last, ok := hl.Items[len(hl.Items)-1].(*pickle.Dict); ok {
				if f, ok := last.Get("frames"); ok {
					blk.Stack, _ = b.stack(f)
				}
				if rs, ok := last.Get("real_size"); ok && blk.RequestedSize == 0 {
					blk.RequestedSize, _ = toUint(rs, "real_size")
				}
			}
		}
	}
	return blk, nil
}

func (b *builder) settings(v any) error {
	d, ok := v.(*pickle.Dict)
	if !ok {
		return fmt.Errorf("snapshot: allocator_settings is %s, not a dict", pickle.A(v))
	}
	st := Settings{Present: true, MaxSplit: -1}
	for _, it := range d.Items {
		k, _ := it.Key.(string)
		switch k {
		case "PYTORCH_CUDA_ALLOC_CONF":
			st.AllocConf, _ = it.Value.(string)
		case "max_split_size":
			switch x := it.Value.(type) {
			case int64:
				st.MaxSplit = x
			case *big.Int: // SIZE_MAX written unsigned
				st.MaxSplit = -1
			}
		case "garbage_collection_threshold":
			switch x := it.Value.(type) {
			case float64:
				st.GCThreshold = x
			case int64:
				st.GCThreshold = float64(x)
			}
		case "expandable_segments":
			st.Expandable, _ = it.Value.(bool)
		case "release_lock_on_cudamalloc":
			st.ReleaseLock, _ = it.Value.(bool)
		case "graph_capture_record_stream_reuse":
			st.GraphCaptureRecordStreamReuse, _ = it.Value.(bool)
		case "roundup_power2_divisions":
			rd, ok := it.Value.(*pickle.Dict)
			if !ok {
				continue
			}
			for _, e := range rd.Items {
				ks, _ := e.Key.(string)
				mb, err := strconv.ParseUint(ks, 10, 64)
				n, ok := pickle.Int(e.Value)
				if err != nil || !ok || mb == 0 {
					continue
				}
				idx := 0
				for mb > 1 && idx < 15 {
					mb >>= 1
					idx++
				}
				st.RoundupDivisions[idx] = int(n)
			}
		}
	}
	b.snap.Settings = st
	return nil
}

func (b *builder) annotations(v any) {
	l, ok := v.(*pickle.List)
	if !ok {
		return
	}
	for _, it := range l.Items {
		d, ok := it.(*pickle.Dict)
		if !ok {
			continue
		}
		a := Annotation{}
		for _, e := range d.Items {
			k, _ := e.Key.(string)
			switch k {
			case "device":
				n, _ := pickle.Int(e.Value)
				a.Device = int(n)
			case "time_us":
				a.TimeUS, _ = pickle.Int(e.Value)
			case "name":
				a.Name, _ = e.Value.(string)
			case "stage":
				a.Stage, _ = e.Value.(string)
			default:
				if s, ok := e.Value.(string); ok {
					if a.Extra == nil {
						a.Extra = map[string]string{}
					}
					a.Extra[k] = s
				}
			}
		}
		b.snap.Annotations = append(b.snap.Annotations, a)
	}
}
