package infer

import "fmt"

// encDecWork is what one encoder-decoder generate computes, split the way
// its steps run: the encoder over the prompt (or Whisper's window) once,
// the decoder over one token a sequence a step, and at the first step the
// cross-attention's keys and values projected from every encoded row.
type encDecWork struct {
	encMACs   float64 // per encoded row, through the encoder's matrices
	crossMACs float64 // per encoded row, the decoder's cross-attention k and v projections
	stepMACs  float64 // per new token, the decoder's other matrices
	headMACs  float64 // per new token, the LM head
	rows      float64 // encoded rows a sequence
	encPairs  float64 // the encoder's attention score pairs a sequence and head, all layers
}

// encDecWorkOf reads the work from the model's weights: the encoder's
// matrices are linear's first w.encLinear, the decoder's the rest, of
// which each layer's cross-attention k and v take hidden × heads·head_dim.
func (m *model) encDecWorkOf() encDecWork {
	c := m.c
	inner := float64(c.heads * c.headDim)
	cross := 2 * float64(c.hidden) * inner * float64(c.decLayers())
	dec := float64(macs(m.w.linear[m.w.encLinear:]))
	T := float64(c.seq)
	return encDecWork{
		encMACs:   float64(macs(m.w.linear[:m.w.encLinear])),
		crossMACs: cross,
		stepMACs:  dec - cross,
		headMACs:  float64(c.hidden * c.vocab),
		rows:      T,
		encPairs:  T * T * float64(c.layers),
	}
}

// encDecTimes prices an encoder-decoder's generate. Its first token
// (the prefill) is generate's setup, the encoder's pass over the prompt
// and one decoder step that also projects the cross-attention's keys and
// values; a decode step is the decoder over one token a sequence, reading
// its own weights (not the encoder's), its self-attention cache grown by
// a token and the cross-attention's cache over the encoded rows. Each
// costs the larger of the GPU's time (FLOPs at the achieved GEMM rate,
// the encoder's attention at the fused kernel's, bytes at the achieved
// bandwidth, a floor per kernel) and the host's (its allocations, a proxy
// for operators, at the encoder-decoder's host cost each).
func (m *model) encDecTimes(r *Result, tm timeModel) {
	c := m.c
	rate, bw := c.rates(tm)
	b := float64(c.batch)
	wk := m.encDecWorkOf()
	attnFlops := 4 * b * float64(c.heads*c.headDim) * wk.encPairs
	attnRate := c.peakFLOPs() * tm.effAttn
	if c.dec.mathAttn {
		// T5: SDPA's math kernel on float32 copies, GEMMs at float32's rate
		attnRate = c.gpu.FP32TFLOPs * 1e12 * tm.effF32
	}
	flops := 2*b*wk.rows*(wk.encMACs+wk.crossMACs) + 2*b*(wk.stepMACs+wk.headMACs)
	bytes := float64(m.w.bytes) + 2*float64(m.traffic[0]) + float64(c.crossKVBytes())
	gpuP := flops/rate + attnFlops/attnRate + bytes/bw + float64(m.kernels[0])*tm.launch
	hostP := float64(m.kernels[0]) * tm.hostEncDec
	// generate's own setup runs on the host before the encoder's first
	// kernel: nothing overlaps it
	setup := tm.setupEncDec
	if a := c.dec.audio; a != nil {
		setup += a.setup + a.setupPerSeq*b
	}
	samp := m.samplerTime(0, tm.hostEncDec)
	r.PrefillTime = setup + max(gpuP, hostP) + samp
	// the setup runs on the host
	lo, hi := tm.prefillBand.span(gpuP+samp, setup+hostP+samp)
	r.PrefillBand = [2]float64{lo, hi}
	r.BandwidthGBps = c.gpu.BandwidthGBps
	if c.gen <= 1 || len(m.kernels) < 2 {
		r.TotalTime = r.PrefillTime
		return
	}
	mid := float64(c.gen) / 2
	self := float64(c.selfKVBytes(int64(mid)))
	db := float64(m.w.decodeRead()) + 3*self + float64(c.crossKVBytes()) + 2*float64(m.traffic[1])
	df := 2 * b * (wk.stepMACs + wk.headMACs)
	gpuD := db/bw + df/rate + float64(m.kernels[1])*tm.launch
	hostD := float64(m.kernels[1])*tm.hostEncDec + tm.hostStep
	samp = m.samplerTime(1, tm.hostEncDec)
	r.SamplerStep = samp
	r.decode(tm, c.prompts*c.returns, c.gen, gpuD+samp, hostD+samp, db)
	r.Notes = append(r.Notes, fmt.Sprintf("the first token is generate's setup (%.1f ms on the host) and then the encoder's pass over %d rows a sequence with one decoder step (%.1f ms GPU, %.1f ms host); each decode step reads %.2f GB (the decoder's weights, its cache and the cross-attention's) and is %s-bound",
		1e3*setup, c.seq, 1e3*gpuP, 1e3*hostP, db/1e9, r.DecodeBound))
}
