package main

import (
	"sort"

	"github.com/vramkit/vramkit/internal/pickle"
)

// closingEntries are the trace entries that end one repetition of a trace
// cleanly: free_requested and free_completed for every block still live,
// then the segment_free events of an empty_cache(), in the order the
// allocator releases them (large pool, then small; each by stream, size,
// address). Small-pool segments are the 2 MiB ones.
func closingEntries(l *pickle.List, t int64) []*pickle.Dict {
	type seg struct{ addr, size, stream int64 }
	type blk struct{ addr, size, stream int64 }
	var live []blk
	liveIdx := map[int64]int{}
	segs := map[int64]seg{}
	get := func(d *pickle.Dict, k string) int64 {
		v, _ := d.Get(k)
		n, _ := pickle.Int(v)
		return n
	}
	for _, it := range l.Items {
		d := it.(*pickle.Dict)
		a, _ := d.Get("action")
		addr, size, stream := get(d, "addr"), get(d, "size"), get(d, "stream")
		switch a {
		case "alloc":
			liveIdx[addr] = len(live)
			live = append(live, blk{addr, size, stream})
		case "free_requested":
			if i, ok := liveIdx[addr]; ok {
				live[i].size = -1
				delete(liveIdx, addr)
			}
		case "segment_alloc":
			segs[addr] = seg{addr, size, stream}
		case "segment_free":
			delete(segs, addr)
		}
	}
	entry := func(action string, addr, size, stream int64) *pickle.Dict {
		return &pickle.Dict{Items: []pickle.Item{
			{Key: "action", Value: action}, {Key: "addr", Value: addr}, {Key: "size", Value: size},
			{Key: "stream", Value: stream}, {Key: "time_us", Value: t},
			{Key: "compile_context", Value: "N/A"}, {Key: "user_metadata", Value: ""},
		}}
	}
	var out []*pickle.Dict
	for _, b := range live {
		if b.size >= 0 {
			out = append(out, entry("free_requested", b.addr, b.size, b.stream), entry("free_completed", b.addr, b.size, b.stream))
		}
	}
	var all []seg
	for _, g := range segs {
		all = append(all, g)
	}
	small := func(g seg) bool { return g.size == 2<<20 }
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if small(a) != small(b) {
			return !small(a)
		}
		if a.stream != b.stream {
			return a.stream < b.stream
		}
		if a.size != b.size {
			return a.size < b.size
		}
		return a.addr < b.addr
	})
	for _, g := range all {
		out = append(out, entry("segment_free", g.addr, g.size, g.stream))
	}
	return out
}

// shiftSegments returns a copy of the segments list with every segment and
// block address moved by by, to match the last repetition of the trace.
func shiftSegments(v any, by int64) any {
	l, ok := v.(*pickle.List)
	if !ok {
		return v
	}
	out := &pickle.List{}
	for _, it := range l.Items {
		g, ok := it.(*pickle.Dict)
		if !ok {
			out.Items = append(out.Items, it)
			continue
		}
		ng := &pickle.Dict{}
		for _, kv := range g.Items {
			switch kv.Key {
			case "address":
				kv.Value = shift(kv.Value, by)
			case "blocks":
				if bl, ok := kv.Value.(*pickle.List); ok {
					nb := &pickle.List{}
					for _, b := range bl.Items {
						bd, ok := b.(*pickle.Dict)
						if !ok {
							nb.Items = append(nb.Items, b)
							continue
						}
						c := &pickle.Dict{}
						for _, bkv := range bd.Items {
							if bkv.Key == "address" {
								bkv.Value = shift(bkv.Value, by)
							}
							c.Items = append(c.Items, bkv)
						}
						nb.Items = append(nb.Items, c)
					}
					kv.Value = nb
				}
			}
			ng.Items = append(ng.Items, kv)
		}
		out.Items = append(out.Items, ng)
	}
	return out
}
