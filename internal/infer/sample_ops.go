package infer

// The warpers' operators as they allocate through the caching allocator
// (dev102's probe of torch 2.11 on float32 batch × vocab scores, and its
// generate traces).

// warpers runs TemperatureLogitsWarper, TopKLogitsWarper,
// TopPLogitsWarper and MinPLogitsWarper, in generate's order, on the chain's scores (u bytes: batch × vocab float32):
// sc allocates a tensor of the scores' size, swap makes a warper's output
// the chain's scores (dropping the previous unless it is the named copy).
func (m *model) warpers(u int64, sc func() int32, swap func(int32)) {
	c, s := m.c, m.s
	p := c.samp
	if p.temp != 1 {
		swap(sc()) // scores / temperature
	}
	if p.topK > 0 {
		// scores < topk(scores, k).values[..., -1, None]: the top-k's
		// values and indices, the bool mask, then masked_fill's copy
		vals, idx := s.alloc(c.batch*p.topK*4, CatTemporaries), s.alloc(c.batch*p.topK*8, CatTemporaries)
		s.free(idx)
		mask := s.alloc(u/4, CatLogits)
		s.free(vals)
		out := sc()
		s.free(mask)
		swap(out)
	}
	if p.topP < 1 {
		// sort ascending, softmax(...).cumsum(-1) (the softmax freed),
		// cumsum <= 1 - top_p, the mask scattered back to the token order,
		// masked_fill's copy; the sort's outputs and the masks freed after
		vals, idx := m.sortRows(c.batch, c.vocab)
		sm := sc()
		cs := sc()
		s.free(sm)
		b1 := s.alloc(u/4, CatLogits)
		b2 := s.alloc(u/4, CatLogits)
		out := sc()
		s.free(vals, idx, cs, b1, b2)
		swap(out)
	}
	if p.minP > 0 {
		// MinPLogitsWarper: softmax(scores), its row maxima times min_p,
		// probs < that (a bool mask), topk(probs, min_tokens_to_keep)'s
		// indices scattered into the mask in place, masked_fill's copy;
		// the function's locals freed when it returns (transformers pull
		// 42248, merged 2025-11, before 5.0: topk in place of an argsort
		// of the whole vocabulary, whose sort buffers 4.x allocated)
		probs := sc()
		top, scaled := s.alloc(c.batch*4, CatTemporaries), s.alloc(c.batch*4, CatTemporaries)
		mask := s.alloc(u/4, CatLogits)
		vals, idx := s.alloc(c.batch*4, CatTemporaries), s.alloc(c.batch*8, CatTemporaries)
		s.free(vals)
		out := sc()
		s.free(probs, top, scaled, mask, idx)
		swap(out)
	}
}

// sortRows is torch.sort of rows × n float32 values along the last
// dimension on CUDA (launch_stable_sort_kernel): the values and int64
// indices it returns, and the buffers of the path it takes by the number
// of rows — one row (or rows of a million or more): a radix sort of each
// row with the row's index array; 2..127 rows: one radix sort of all
// values with (index, segment) pairs, then a sort on the segments; 128
// rows or more: cub's segmented sort. Each path's cub temporary storage
// is about three copies of what it sorts (keys and values double
// buffered) and a part per element; dev102's probe measured every path at
// vocabularies 32000..256000 and 1..256 rows.
func (m *model) sortRows(rows, n int64) (vals, idx int32) {
	s := m.s
	u := rows * n * 4
	tmp := func(b int64) int32 { return s.alloc(b, CatLogits) }
	vals, idx = tmp(u), tmp(2*u)
	switch {
	case rows == 1 || n >= 1_000_000:
		a := tmp(n * 8)
		s.free(tmp(3*n*4 + cubSortExtra(n)))
		s.free(a)
	case rows < 128:
		a, b := tmp(2*u), tmp(2*u) // (index, segment) pairs, in and out
		k := tmp(u)                // the sorted keys cub writes
		s.free(tmp(3*u + cubSortExtra(rows*n)))
		s.free(k)
		s.free(tmp(cubKeysExtra(rows * n))) // the sort on segment bits
		s.free(a, b)
	default:
		a := tmp(2 * u) // each row's 0..n-1
		s.free(tmp(3*u + 255))
		s.free(a)
	}
	return vals, idx
}

// cubSortExtra is cub's radix sort storage of n pairs beyond the double
// buffers (dev102's probe: 14,847 bytes at 32,000 elements, 107,007 at
// 512,000, 3,129,855 at 16,384,000).
func cubSortExtra(n int64) int64 { return n*1905/10000 + 8704 }

// cubKeysExtra is the storage of the full sort's second pass, over the
// segment bits of n keys (26,111 bytes at 128,000, 2,915,839 at
// 16,384,000).
func cubKeysExtra(n int64) int64 { return n*1777/10000 + 3900 }

// sampleSegment is the segment sampling's largest temporary takes when no
// cached block holds it (0 without sampling): the top-p sort's cub
// storage, else multinomial's exponential tensor, rounded as the caching
// allocator sizes a segment for it.
func (c *config) sampleSegment() int64 {
	if !c.samp.on {
		return 0
	}
	u := c.batch * c.vocab * 4
	n := u
	if c.samp.topP < 1 {
		n = 3*u + cubSortExtra(c.batch*c.vocab)
	}
	switch {
	case n <= 1<<20:
		return 2 << 20 // the small pool's segment
	case n < 10<<20:
		return 20 << 20
	}
	return (n + 2<<20 - 1) / (2 << 20) * (2 << 20)
}
