package analyze

import (
	"fmt"
	"slices"
	"sort"
)

// Generation is what an inference trace shows of text generation: each
// generate call runs one prefill forward pass over the prompt, which
// creates the KV cache, then one decode pass per new token, which grows it
// (a DynamicCache concatenates one position per step) or writes into it (a
// StaticCache is allocated at its full length up front).
type Generation struct {
	// Calls counts prefills: forward passes that start with no KV cache
	// alive. DecodeSteps counts the passes that extend a cache.
	Calls       int `json:"calls"`
	DecodeSteps int `json:"decode_steps"`
	// PrefillPeak and DecodePeak are the highest allocated bytes during
	// prefill passes and during decode passes.
	PrefillPeak int64 `json:"prefill_peak_bytes"`
	DecodePeak  int64 `json:"decode_peak_bytes"`
	// PeakIn is "prefill" or "decode": the part of generation that sets
	// the peak, or "load" when the trace peaks before the first forward
	// pass (while the model loads) above every pass; PeakKVCache is the
	// cache alive then.
	PeakIn      string `json:"peak_in"`
	PeakKVCache int64  `json:"peak_kv_cache_bytes"`
	// LoadPeak is the highest allocated bytes before the first forward
	// pass, when the trace records loading.
	LoadPeak int64 `json:"load_peak_bytes,omitempty"`
	// KVCacheMax is the largest the cache grew; KVGrowthPerStep what one
	// decode step added (the whole batch's keys and values of one
	// position, over every layer): 0 for a static cache.
	KVCacheMax      int64 `json:"kv_cache_max_bytes"`
	KVGrowthPerStep int64 `json:"kv_growth_per_step_bytes"`
	// KVPerToken is the cache per token of one sequence when the batch is
	// known (Options.Batch): KVGrowthPerStep / batch.
	KVPerToken int64 `json:"kv_bytes_per_token,omitempty"`
	// StaticCache: the cache was allocated once and did not grow.
	StaticCache bool `json:"static_cache"`
	// BeamSearch: generate ran beam search (transformers' _beam_search):
	// the cache holds num_beams sequences a prompt, and each step
	// reorders it, copying every layer's keys and values.
	BeamSearch bool `json:"beam_search"`
	// Processors is what the logits processors and warpers
	// (logits_process.py: repetition penalty, temperature, top-k, top-p)
	// hold at the peak: float32 copies of the batch × vocab scores, and
	// top-p's sort buffers when it runs.
	Processors int64 `json:"logits_processors_peak_bytes"`
	// ProcessorsSort: a warper sorted the scores (top-p, typical-p): the
	// processors made int64 index tensors twice a float32 copy's size.
	// Without one the chain is temperature, top-k or min-p (or penalties):
	// about one to three copies, and top_k is no cheaper.
	ProcessorsSort bool `json:"logits_processors_sort,omitempty"`
	// KeptScores is what the output keeps at the peak under
	// output_scores / output_logits (kept_scores.go): KeptScoresTensors
	// score tensors generate's loop made in earlier steps, still alive.
	KeptScores        int64 `json:"kept_scores_bytes,omitempty"`
	KeptScoresTensors int   `json:"kept_scores_tensors,omitempty"`
}

// generation reads prefill and decode passes from the KV cache alive at
// the start and end of each forward pass (iteration).
func (d *dev) generation(out *Device) *Generation {
	if !out.Traits.Inference || len(d.starts) < 2 {
		return nil
	}
	n := len(d.starts) - 1
	// KV cache bytes after each request index in starts (and at each
	// iteration's end): one sweep over the cache's allocations and frees.
	type ev struct {
		at    int
		delta int64
	}
	var evs []ev
	g := &Generation{}
	for k := range d.t.lives {
		l := &d.t.lives[k]
		g.BeamSearch = g.BeamSearch || d.facts[l.stack].lib.beam
		if d.facts[l.stack].lib.role != roleKVCache {
			continue
		}
		evs = append(evs, ev{int(l.alloc), l.size})
		if l.free != never {
			evs = append(evs, ev{int(l.free), -l.size})
		}
	}
	sort.Slice(evs, func(i, j int) bool { return evs[i].at < evs[j].at })
	// Cache bytes before request i; i never decreases between calls, so
	// one cursor walks the events once.
	var cur int64
	next := 0
	kvAt := func(i int) int64 {
		for ; next < len(evs) && evs[next].at < i; next++ {
			cur += evs[next].delta
		}
		return cur
	}
	var growth []int64
	var best int64 = -1
	for it := 0; it < n; it++ {
		lo, hi := d.starts[it], d.starts[it+1]
		topAt := d.t.argmax(lo, hi)
		before, atTop, after := kvAt(lo), kvAt(topAt+1), kvAt(hi)
		g.KVCacheMax = max(g.KVCacheMax, after)
		top := d.t.level[topAt]
		prefill := before == 0
		if prefill {
			g.Calls++
			g.PrefillPeak = max(g.PrefillPeak, top)
		} else {
			g.DecodeSteps++
			g.DecodePeak = max(g.DecodePeak, top)
			growth = append(growth, after-before)
		}
		// The pass that reaches the highest level sets the peak (the
		// trace's argmax may sit before the first pass at the same level).
		if top > best {
			best = top
			g.PeakIn = "decode"
			if prefill {
				g.PeakIn = "prefill"
			}
			g.PeakKVCache = atTop
		}
	}
	// a model loaded with a transient copy (an untied head, a dtype or
	// device conversion) can peak before any pass runs
	if d.starts[0] > 0 {
		g.LoadPeak = d.t.level[d.t.argmax(0, d.starts[0])]
		if g.LoadPeak > best {
			g.PeakIn, g.PeakKVCache = "load", 0
		}
	}
	if len(growth) > 0 {
		sort.Slice(growth, func(i, j int) bool { return growth[i] < growth[j] })
		g.KVGrowthPerStep = growth[len(growth)/2]
	}
	g.StaticCache = g.DecodeSteps > 0 && g.KVGrowthPerStep == 0 && g.KVCacheMax > 0
	if d.o.Batch > 0 {
		g.KVPerToken = g.KVGrowthPerStep / int64(d.o.Batch)
	}
	return g
}

// generationAdvice: what lowers an inference peak, by what sets it.
func (d *dev) generationAdvice(out *Device) []Advice {
	g := out.Generation
	if g == nil {
		return nil
	}
	var adv []Advice
	peak := out.PeakAllocated
	kv := g.PeakKVCache
	if g.PeakIn == "load" {
		// nothing generation does sets the peak: what it could save
		// stops at the load's peak, so only the load's transient is advice
		gen := max(g.PrefillPeak, g.DecodePeak)
		adv = append(adv, Advice{Action: "load the model without a transient copy: straight to the GPU in its final dtype " +
			"(from_pretrained(..., dtype=torch.bfloat16, device_map=\"cuda\")), or built on the meta device and then loaded",
			Saving: g.LoadPeak - gen,
			Detail: fmt.Sprintf("the peak is while the model loads (%s), before the first forward pass; generation itself "+
				"peaks at %s. Tensors made during loading and freed before generation (a second copy of the weights: a head "+
				"created and then tied, a float32 copy cast down, weights initialised on the GPU and then overwritten from a checkpoint) set it",
				bytesStr(g.LoadPeak), bytesStr(gen))})
		return adv
	}
	if kv*5 >= peak {
		adv = append(adv, Advice{Action: "quantise the KV cache (generate(..., cache_implementation=\"quantized\"), 4-bit)",
			Saving: kv * 3 / 4, Detail: fmt.Sprintf("the KV cache is %s (%.0f%% of the peak) at the peak; 4-bit keys and "+
				"values take a quarter of bf16 ones (estimate: 3/4 of it, less the recent tokens kept unquantised)",
				bytesStr(kv), pct(kv, peak))})
		adv = append(adv, Advice{Action: "halve the batch or the context (prompt + new tokens)", Saving: kv / 2,
			Detail: fmt.Sprintf("the KV cache grows with batch × tokens: %s per decode step here; half the batch or "+
				"the tokens halves its %s", bytesStr(g.KVGrowthPerStep), bytesStr(kv))})
	}
	if !g.StaticCache && g.DecodeSteps > 0 {
		if waste := out.PeakReserved - out.PeakAllocated; waste*10 >= out.PeakReserved {
			adv = append(adv, Advice{Action: "preallocate the cache: generate(..., cache_implementation=\"static\")",
				Saving: waste / 2, Detail: fmt.Sprintf("a DynamicCache reallocates every layer's keys and values one "+
					"position longer at every step (torch.cat), so the allocator caches blocks of ever-changing sizes: "+
					"%s reserved above the peak allocated; a StaticCache allocates them once at full length. It does not "+
					"lower the peak allocated (it holds the full length from the start), and on the captured H200 generate "+
					"runs it changed peak reserved by −7%% to +6%%: estimate half the waste, confirm by measuring", bytesStr(waste))})
		}
	}
	kept, size := d.keptScores()
	adv = append(adv, d.keptScoresAdvice(out, kept, size)...)
	adv = append(adv, d.processorAdvice(out, kept)...)
	if s := (peak - kv - out.Categories.Parameters) / 2; g.PeakIn == "prefill" && s*20 >= peak {
		adv = append(adv, Advice{Action: "prefill in smaller pieces: a smaller batch for the prompt, or a shorter prompt",
			Saving: s,
			Detail: fmt.Sprintf("the peak is in prefill (%s), set by the whole prompt's activations and logits, not by "+
				"the cache; decode peaks at %s", bytesStr(g.PrefillPeak), bytesStr(g.DecodePeak))})
	}
	return adv
}

// processorLives lists the allocations transformers' logits processors
// and warpers made (logits_process.py): each a float32 copy of the batch ×
// vocab scores, a bool mask of them, or top-p's sort buffers; not those
// in kept (sorted), the scores the output keeps (keptScores).
func (d *dev) processorLives(kept []int) []int {
	var out []int
	for k := range d.t.lives {
		if _, in := slices.BinarySearch(kept, k); !in && d.facts[d.t.lives[k].stack].lib.processor {
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

// processorAdvice: when the logits processors sorted the scores and their
// copies hold a twentieth of a decode peak or more (top-p sorts the batch
// × vocab scores: values, int64 indices and the sort's buffers, about 11
// float32 copies at its peak), sampling with top-k alone keeps about 1.25
// copies (its mask and output). The saving is the trace replayed without
// the processors' tensors, less those 1.25 copies.
func (d *dev) processorAdvice(out *Device, kept []int) []Advice {
	g := out.Generation
	ks := d.processorLives(kept)
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
	for _, k := range ks {
		diff := d.t.lives[k].size - 2*u // the sort's indices: twice the copy's size, give or take a rounding
		g.ProcessorsSort = g.ProcessorsSort || u > 0 && diff > -1024 && diff < 1024
	}
	s := out.PeakAllocated - d.peakWithout(ks) - u*5/4
	if g.PeakIn != "decode" || !g.ProcessorsSort || u == 0 || s*20 < out.PeakAllocated {
		return nil
	}
	return []Advice{{Action: "sample with top_k alone, not top_p (or decode a smaller batch): the logits processors' copies of the scores set the peak",
		Saving: s, Detail: fmt.Sprintf("%d tensors made by transformers' logits processors and warpers (logits_process.py) hold %s at the peak, "+
			"%.1f times one float32 copy of the batch × vocab scores (%s): top_p sorts the scores (values, int64 indices and the sort's buffers, "+
			"about 11 copies at its peak) where top_k keeps a mask and one copy; the peak would be %s lower (the trace replayed without the "+
			"processors' tensors, less the 1.25 copies top_k keeps). Each copy shrinks with the batch.",
			n, bytesStr(held), float64(held)/float64(u), bytesStr(u), bytesStr(s))}}
}
