package analyze

// categoryCurve returns, for each trace index of at (ascending), the live
// bytes per category after the last request at or before it: the same
// classification as the breakdown at the peak, over the whole trace, so a
// report can stack its timeline by category. One pass over the requests.
func (d *dev) categoryCurve(at []int) []Categories {
	out := make([]Categories, len(at))
	reqs := d.t.reqs
	if len(reqs) == 0 {
		return out
	}
	cats := make([]string, len(d.t.lives))
	for k := range d.t.lives {
		cats[k] = d.category(k)
	}
	var cur Categories
	j, next := 0, 0 // next: the first life not yet added (lives are in request order)
	for j < len(at) && at[j] < int(reqs[0].Event) {
		j++
	}
	for i := range reqs {
		for ; next < len(d.t.lives) && int(d.t.lives[next].alloc) == i; next++ {
			l := &d.t.lives[next]
			addCat(&cur, cats[next], l.size)
			cur.BlockRounding += l.block - l.size
		}
		// A request frees at most one life, found by its ID: no list of
		// lives sorted by free time is needed.
		if k := d.t.freedAt(i); k >= 0 {
			l := &d.t.lives[k]
			addCat(&cur, cats[k], -l.size)
			cur.BlockRounding -= l.block - l.size
		}
		for j < len(at) && (i+1 == len(reqs) || int(reqs[i+1].Event) > at[j]) {
			out[j] = cur
			j++
		}
	}
	return out
}
