package memmodel

// The scratch buffers of column reductions (bias gradients and the like),
// after PyTorch's setReduceConfig: see biasGradScratch.

// biasGradScratch is the scratch of a bias gradient, grad.sum(0) over n
// rows of outF columns (or any such column reduction: ConvNeXt's layer
// scale and depthwise-conv bias reduce channels-last maps the same way).
// It follows PyTorch's setReduceConfig (Reduce.cuh) for a reduction over
// the non-contiguous dimension with outputs vectorised by 4: a CTA of 128
// threads covers bw·4 columns (bw = 32, fewer for narrow outputs) and bh
// row lanes; when each thread would sum at least 256 values the rows are
// split across ctas CTAs per column block, as many as fill the resident
// grid (limit CTAs of 128 threads, 16 per SM on the H200) but no more than
// one per 16 values a thread sums, and the float32 partial sums of every
// CTA-row are staged in a global buffer, with one semaphore per column
// block. The H200 traces match it to the byte: 4·outF·128 bytes per 64
// rows for 384, 768 and 1024 columns (BERT, GPT-2, ViT-L, ConvNeXt), 704
// and 352 CTA-rows at the grid cap for 384 and 768 columns, and 1,056 of
// 64 columns' worth for ConvNeXt's 96 (25.9 MB, 8-byte semaphores). Wide
// outputs take the same path: GPT-2's c_attn (2304) and c_fc (3072) and
// BERT's intermediate (3072) stage 88–118 CTAs per column block at 8192
// rows and 64 at 4096 (139,198,464 / 138,412,032 / 100,663,296 bytes with
// 72- and 96-byte semaphores, in the fp32, bf16 and checkpointed runs alike).
func biasGradScratch(n, outF, limit int64) []int64 {
	if n < 64 {
		return nil
	}
	vec := int64(4)
	for outF%vec != 0 {
		vec /= 2
	}
	const maxThreads = 512
	lanes := maxThreads / vec // threads of one CTA
	dim0 := outF / vec
	p0, p1 := min(lastPow2(dim0), lanes), min(lastPow2(n), lanes)
	bw := min(p0, 32)
	bh := min(p1, lanes/bw)
	bw = min(p0, lanes/bh)
	if n < bh*16 && n < 256 {
		return nil // every CTA-row reduces in shared memory
	}
	vpt := (n + bh - 1) / bh
	if vpt < 256 {
		return nil
	}
	grid := (dim0 + bw - 1) / bw
	ctas := (vpt + 15) / 16
	if limit > 0 {
		perSM := 2048 / (bw * bh)
		target := limit / 16 * perSM
		ctas = min(ctas, (target+grid-1)/grid)
	}
	ctas = max(ctas, (vpt+255)/256)
	if ctas <= 1 {
		return nil
	}
	return []int64{4 * outF * ctas * bw * vec, 4 * grid}
}

// lastPow2 is the largest power of two not above n (n ≥ 1).
func lastPow2(n int64) int64 {
	p := int64(1)
	for p*2 <= n {
		p *= 2
	}
	return p
}
