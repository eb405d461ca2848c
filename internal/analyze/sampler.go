package analyze

import (
	"fmt"
	"sort"
)

// processorLives lists the allocations transformers' logits processors
// and warpers made (logits_process.py): each a float32 copy of the batch ×
// vocab scores, a bool mask of them, or top-p's sort buffers.
func (d *dev) processorLives() []int {
	var out []int
	for k := range d.t.lives {
		if d.facts[d.t.lives[k].stack].lib.processor {
			out = append(out, k)
		}
	}
	return out
}

// scoresSize is the size the processors' allocations share most often of
// those of 64 KiB or more: one float32 copy of the scores (0 when none).
func (d *dev) scoresSize(ks []int) int64 {
	n := map[int64]int{}
	for _, k := range ks {
		if s := d.t.lives[k].size; s >= 64<<10 {
			n[s]++
		}
	}
	sizes := make([]int64, 0, len(n))
	for s := range n {
		sizes = append(sizes, s)
	}
	sort.Slice(sizes, func(i, j int) bool {
		return n[sizes[i]] > n[sizes[j]] || n[sizes[i]] == n[sizes[j]] && sizes[i] > sizes[j]
	})
	if len(sizes) == 0 {
		return 0
	}
	return sizes[0]
}

// processorAdvice: when the logits processors' copies of the scores hold
// a twentieth of a decode peak or more (sampling with top-p sorts the batch
// × vocab scores: values, int64 indices and the sort's buffers, about 11
// float32 copies at its peak), sampling with top-k alone keeps about 1.25
// copies (its mask and output). The saving is the trace replayed without
// the processors' tensors, less those 1.25 copies.
func (d *dev) processorAdvice(out *Device) []Advice {
	g := out.Generation
	ks := d.processorLives()
	if g == nil || len(ks) == 0 {
		return nil
	}
	at := d.t.argmax(0, len(d.t.level))
	var held int64
	n := 0
	for _, k := range ks {
		if l := &d.t.lives[k]; int(l.alloc) <= at && (l.free == never || int(l.free) > at) {
			held += l.size
			n++
		}
	}
	g.Processors = held
	u := d.scoresSize(ks)
	s := out.PeakAllocated - d.peakWithout(ks) - u*5/4
	if g.PeakIn != "decode" || u == 0 || s*20 < out.PeakAllocated {
		return nil
	}
	return []Advice{{Action: "sample with top_k alone, not top_p (or decode a smaller batch): the logits processors' copies of the scores set the peak",
		Saving: s, Detail: fmt.Sprintf("%d tensors made by transformers' logits processors and warpers (logits_process.py) hold %s at the peak, "+
			"%.1f times one float32 copy of the batch × vocab scores (%s): top_p sorts the scores (values, int64 indices and the sort's buffers, "+
			"about 11 copies at its peak) where top_k keeps a mask and one copy; the peak would be %s lower (the trace replayed without the "+
			"processors' tensors, less the 1.25 copies top_k keeps). Each copy shrinks with the batch.",
			n, bytesStr(held), float64(held)/float64(u), bytesStr(u), bytesStr(s))}}
}
