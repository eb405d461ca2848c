package infer

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// timeModel holds the rates of the roofline. A kernel costs its FLOPs at
// an achieved share of the GPU's peak plus its bytes at an achieved share
// of memory bandwidth; the host issues one operator at a time (eager
// PyTorch under Python), so a forward costs the larger of the GPU's time
// and the host's.
type timeModel struct {
	effLowp float64 // achieved share of peak bf16/fp16 tensor-core FLOPs (GEMM)
	effF32  float64 // fp32 GEMM (PyTorch leaves TF32 off for matmul)
	effAttn float64 // fused attention forward, FLOPs counted on every score pair
	causal  float64 // a causal kernel's time over the same shape's full one
	effBW   float64 // achieved share of memory bandwidth
	// catStrided is torch.cat's achieved share of memory bandwidth on its
	// generic path, taken when an input is a strided view (decoder.stridedKV)
	catStrided float64
	launch     float64 // GPU-side floor per kernel, seconds
	hostOp     float64 // host time per operator of an eager forward, seconds
	hostStep   float64 // per generate step: logits processors, stopping criteria, the .item() sync
	// an encoder-decoder's host time per allocation of its forwards and
	// the setup its generate adds before the first token
	hostEncDec, setupEncDec float64
	// prefillBand and decodeBand spread the GPU's and the host's times
	// of a prefill and of a decode step apart (see timeBand)
	prefillBand, decodeBand timeBand
}

// timeBand is how far a GPU's and a host's time may land from their
// prices, as shares of each: the lent hosts differ far more than the GPUs
// do, so a host-bound figure gets a wide band and a GPU-bound one a
// narrow one. Where the two are close, generate's sync every step leaves
// part of the shorter one exposed: the top adds half of it.
type timeBand struct{ gpuLo, gpuHi, hostLo, hostHi float64 }

// span is the band of a time priced max(gpu, host).
func (b timeBand) span(gpu, host float64) (lo, hi float64) {
	return max(gpu*b.gpuLo, host*b.hostLo), max(gpu*b.gpuHi, host*b.hostHi) + min(gpu, host)/2
}

// defaultTimeModel takes the device shares from the H200 calibration run
// (testdata/captures/calibration/calibration.json, measured apart from any
// generate timing): large bf16 GEMMs reach 613–681 of 989 TFLOP/s, fp32
// GEMMs 49–51 of 67; flash attention's forward 0.27–0.35 of the bf16 peak
// counted on all score pairs, a causal one 0.5–0.65 of the full one's time;
// pointwise kernels 4.0–4.4 of 4.8 TB/s; a tiny kernel 6.3 µs. The host
// costs are a prior for transformers' eager forward (one operator issued
// every 15 µs from Python, 1 ms per generate step); docs/inference.md
// compares them with the captured decode speeds. An encoder-decoder's
// host costs come from dev98 (encDecTimes). The bands hold the spread of
// the lent hosts, where host-bound generate runs: TinyLlama's fixture point
// decoded a step in 12.2 to 18.4 ms on three of them (plan: 14.6), a
// host's runs differ by up to 15% (dev98's call 181), and the two H100
// hosts of dev106 and dev107 ran host-bound steps 1.46–2.24× the price
// (GPT-2 medium, TinyLlama, Llama 3.2 1B, Qwen2.5-0.5B at 8–128 rows):
// the host's time ×0.77–2.3 a decode step, ×0.6–2.3 a prefill. The GPU's
// time keeps the former bands where it bounds (prefill ×0.6–2.0), a decode
// step ×0.8–1.4 (dev106's GPU-bound GPT-2 step: 0.94×).
//
// torch.cat's strided path is dev106's (an H100,
// scripts/decode_profile.py): GPT-2 medium's cache cats ran 613–675 GB/s
// of 3350 from 64 MB read and written up (0.18–0.20), where the contiguous
// cats of Llama 3.2 1B and Qwen2.5-0.5B (dev107) ran 2.9–3.0 TB/s
// (0.87–0.90, effBW's); other GPUs get the same share of their bandwidth
// (not measured).
func defaultTimeModel() timeModel {
	return timeModel{effLowp: 0.65, effF32: 0.75, effAttn: 0.3, causal: 0.6, effBW: 0.85, catStrided: 0.19,
		launch: 6e-6, hostOp: 15e-6, hostStep: 1e-3,
		hostEncDec: 20.5e-6, setupEncDec: 5.5e-3,
		prefillBand: timeBand{gpuLo: 0.6, gpuHi: 2.0, hostLo: 0.6, hostHi: 2.3},
		decodeBand:  timeBand{gpuLo: 0.8, gpuHi: 1.4, hostLo: 0.77, hostHi: 2.3}}
}

// withHost scales tm's host prices by f, a spec's host_scale.
func (tm timeModel) withHost(f float64) timeModel {
	tm.hostOp *= f
	tm.hostStep *= f
	tm.hostEncDec *= f
	tm.setupEncDec *= f
	return tm
}

// timedGPUs are the GPUs generate was timed on (the H200's calibration
// and fixtures; the H100's dev98, late90–late98 and dev106 points).
var timedGPUs = map[string]bool{"h200": true, "h100": true}

// forGPU widens the GPU's side of the bands on a GPU never timed, whose
// rates are the table's scaled, by what a training step's band gets there
// (memmodel.ScaledGPUStepWiden each side): ×0.5–1.7 a decode step's GPU
// time, ×0.3–2.3 a prefill's.
func (tm timeModel) forGPU(name string) timeModel {
	if timedGPUs[name] {
		return tm
	}
	w := memmodel.ScaledGPUStepWiden
	for _, b := range []*timeBand{&tm.decodeBand, &tm.prefillBand} {
		b.gpuLo, b.gpuHi = b.gpuLo-w, b.gpuHi+w
	}
	return tm
}

// peakFLOPs is the dense matmul peak of the compute dtype.
func (c *config) peakFLOPs() float64 {
	switch c.dtype {
	case "fp32":
		return c.gpu.FP32TFLOPs * 1e12
	case "fp16":
		return c.gpu.FP16TFLOPs * 1e12
	}
	return c.gpu.BF16TFLOPs * 1e12
}

// rates is the achieved GEMM rate of the compute dtype (FLOP/s) and the
// achieved memory bandwidth (bytes/s) on c's GPU.
func (c *config) rates(tm timeModel) (gemm, bw float64) {
	eff := tm.effLowp
	if c.dtype == "fp32" {
		eff = tm.effF32
	}
	return c.peakFLOPs() * eff, c.gpu.BandwidthGBps * 1e9 * tm.effBW
}

// mathSDPA reports whether SDPA falls back to its math backend (float32
// grouped-query attention, see attendMath).
func (c *config) mathSDPA() bool {
	return ((c.dt == 4 && !c.static) || c.dec.mathAttn) && c.heads != c.kvHeads && !c.eager
}

// attnPairs is the score pairs (query × key) attention computes for q
// queries after past cached tokens, summed over the layers, per head: a
// StaticCache's decode attends its full length; fused causal kernels skip
// the upper triangle, at the cost tm.causal says. A sliding layer attends
// its window (slidingKV), and under a sliding mask (a prompt past the
// window) SDPA's masked kernel computes every pair.
func (c *config) attnPairs(tm timeModel, q, past int64) float64 {
	keys := float64(past + q)
	if c.static && past > 0 {
		keys = float64(c.staticLen())
	}
	full := float64(q) * keys
	if !c.eager && !c.mathSDPA() && q > 1 && past == 0 {
		full *= tm.causal
	}
	w := int64(c.arch.Decoder.SlidingWindow)
	var pairs float64
	for l := 0; l < int(c.layers); l++ {
		if w <= 0 || !c.arch.Decoder.Sliding(l) {
			pairs += full
			continue
		}
		pairs += c.slidingPairs(tm, w, q, past)
	}
	return pairs
}

// slidingPairs is one sliding layer's score pairs: the keys its cache
// holds (the window, or the prompt's own keys in a prefill), all of them
// computed once a mask is needed.
func (c *config) slidingPairs(tm timeModel, w, q, past int64) float64 {
	var keys int64
	switch {
	case past == 0:
		keys = q
	case c.static:
		keys = min(w, c.staticLen())
	default:
		keys = min(past, w-1) + q
	}
	pairs := float64(q) * float64(keys)
	if !c.eager && !c.mathSDPA() && q > 1 && past == 0 && keys < w {
		pairs *= tm.causal
	}
	return pairs
}

// attnTime is the attention matmuls (QKᵀ and PV) of one forward: fused
// kernels at their own rate, eager and math attention as GEMMs.
func (c *config) attnTime(tm timeModel, q, past int64, gemmRate float64) float64 {
	flops := 4 * float64(c.batch*c.heads*c.headDim) * c.attnPairs(tm, q, past)
	if c.eager || c.mathSDPA() {
		return flops / gemmRate
	}
	return flops / (c.peakFLOPs() * tm.effAttn)
}

// times fills the prefill and decode predictions.
func (m *model) times(r *Result) {
	c, tm := m.c, defaultTimeModel().forGPU(m.c.gpu.Name).withHost(m.c.hostScale)
	if c.hostScale != 1 {
		r.HostScale = c.hostScale
		r.Notes = append(r.Notes, fmt.Sprintf("host costs x%.3g (host_scale): every per-operator and per-step host price is the median lent host's times that; the GPU's are unchanged", c.hostScale))
	}
	if c.dec.encDec != nil {
		m.encDecTimes(r, tm)
		return
	}
	rate, bw := c.rates(tm)
	b := float64(c.batch)
	macs := float64(m.w.layerMACs())
	head := 2 * b * float64(c.hidden*c.vocab)
	perTok := float64(c.kvBytesPerToken())

	// prefill: GEMMs over the whole prompt, the weights read once, the
	// intermediates written and read back, the cache written
	pf := 2*b*float64(c.seq)*macs + head
	pb := float64(m.w.bytes) + 2*float64(m.traffic[0]) + perTok*b*float64(c.seq)
	gpuP := pf/rate + c.attnTime(tm, c.seq, 0, rate) + pb/bw + float64(m.kernels[0])*tm.launch
	hostP := float64(m.kernels[0])*tm.hostOp + tm.hostStep
	samp := m.samplerTime(0, tm.hostOp)
	r.PrefillTime = max(gpuP, hostP) + samp
	lo, hi := tm.prefillBand.span(gpuP+samp, hostP+samp)
	r.PrefillBand = [2]float64{lo, hi}
	r.BandwidthGBps = c.gpu.BandwidthGBps
	if c.gen <= 1 || len(m.kernels) < 2 {
		r.TotalTime = r.PrefillTime
		return
	}

	// decode, at the cache's mean length: every step reads all weights
	// but the embedding rows; DynamicCache's cat reads the cache and writes
	// it grown, then attention reads it again; a StaticCache is read at
	// full length (and copied once more per head group under its mask)
	// (a sliding layer's cache is at most its window)
	mid := float64(c.seq) + float64(c.gen)/2
	cacheB := float64(c.kvHeldBytes(int64(mid)))
	var kvRead float64
	switch {
	case c.static:
		full := float64(c.kvHeldBytes(c.staticLen()))
		kvRead = full
		if c.heads != c.kvHeads {
			kvRead += full * float64(c.heads/c.kvHeads) * float64(c.dt) / float64(c.kv) * 2
		}
	default:
		kvRead = 3 * cacheB
	}
	db := float64(m.w.decodeRead()) + kvRead + 2*float64(m.traffic[1])
	df := 2*b*macs + head
	gpuD := db/bw + df/rate + c.attnTime(tm, 1, int64(mid), rate) + float64(m.kernels[1])*tm.launch
	var slowCat float64
	if !c.static {
		slowCat = c.stridedCatTime(tm, 2*cacheB, bw)
		gpuD += slowCat
	}
	hostD := float64(m.kernels[1])*tm.hostOp + tm.hostStep
	// the step's sampling runs after its forward, whichever bounds it
	samp = m.samplerTime(1, tm.hostOp)
	r.SamplerStep = samp
	r.decode(tm, c.prompts*c.returns, c.gen, gpuD+samp, hostD+samp, db)
	if r.DecodeBound == "memory" {
		r.Notes = append(r.Notes, fmt.Sprintf("decode is memory-bound: each step reads %.2f GB (weights and KV cache) at %.0f GB/s × %.0f%% achieved",
			db/1e9, c.gpu.BandwidthGBps, 100*tm.effBW))
		if slowCat > 0 {
			views := "key and value"
			if c.dec.stridedKV == 1 {
				views = "value"
			}
			// the strided bytes' time at the strided rate: the extra
			// stridedCatTime adds and their price at bw
			catT := slowCat + 2*cacheB*float64(c.dec.stridedKV)/2/bw
			r.Notes = append(r.Notes, fmt.Sprintf("DynamicCache's torch.cat copies the %s cache every step, and %s's fused q/k/v projection leaves the new %s a strided view, so PyTorch takes its generic cat kernel (%.0f%% of the bandwidth, measured on an H100, dev106): %.1f ms of the %.1f ms step; a StaticCache (cache_implementation=\"static\") writes each token in place",
				kvName(c), c.arch.Family, views, 100*tm.catStrided, 1e3*catT, 1e3*r.DecodeStep))
		}
	} else {
		// kernels counts the step's tensor allocations, not its operators:
		// dev98's TinyLlama step dispatches 1243 ATen operators for 907
		// modelled allocations, GPT-2 medium's 952 for 566
		r.Notes = append(r.Notes, fmt.Sprintf("decode is host-bound: issuing each step's eager operators (about %d tensor allocations' worth) from Python takes longer than reading %.2f GB at %.0f GB/s; CUDA graphs or torch.compile would lift it. The host's time is the median lent host's: --host-scale prices yours (--measured-step S solves it from one decode step you timed)",
			m.kernels[1], db/1e9, c.gpu.BandwidthGBps))
	}
}

// stridedCatTime is what DynamicCache's cat of catB bytes (read and
// written, key and value alike) costs beyond their price at bw when the
// family's new keys or values are strided views (decoder.stridedKV).
// The prefill's cat (the prompt's keys into the empty cache) is left at
// bw: dev106's GPT-2 medium prefills measured within 6% of the plan
// without it.
func (c *config) stridedCatTime(tm timeModel, catB, bw float64) float64 {
	share := float64(c.dec.stridedKV) / 2
	if share == 0 {
		return 0
	}
	slow := c.gpu.BandwidthGBps * 1e9 * tm.catStrided
	return catB * share * (1/slow - 1/bw)
}

// decode fills r's decode figures from one step's GPU and host seconds
// and the bytes it reads (the step costs the larger of the two; gen new
// tokens take the prefill and gen-1 steps), with the tokens/s band
// (timeModel.decodeBand).
func (r *Result) decode(tm timeModel, batch, gen int64, gpu, host, read float64) {
	r.DecodeStep, r.DecodeGPU, r.DecodeHost = max(gpu, host), gpu, host
	r.DecodeRead = int64(read)
	r.DecodeBound = "memory"
	if host > gpu {
		r.DecodeBound = "host"
	}
	r.DecodeTokensPerSec = float64(batch) / r.DecodeStep
	lo, hi := tm.decodeBand.span(gpu, host)
	r.DecodeBand = [2]float64{float64(batch) / hi, float64(batch) / lo}
	r.TotalTime = r.PrefillTime + float64(gen-1)*r.DecodeStep
}
