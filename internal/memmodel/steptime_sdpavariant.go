package memmodel

import (
	"math"
	"sort"

	"github.com/vramkit/vramkit/internal/gpu"
)

// The fused attention calls that are not the plain call the rates are
// read off (steptime_sdpa.go): a materialised causal mask under
// torch.compile, and in eager attention dropout inside the kernel and
// T5's additive bias, priced from the kernel-timed rows of each variant
// (sdpaVariant: dev33's masked calls, dev50's dropout and bias ones), and
// where the spec forces the memory-efficient kernels their per-element
// extra (sdpaEfficientExtra).

// sdpaVariant is the forward and backward time of a default fused call
// with attention dropout or an additive bias, read off the kernel-timed
// rows of that variant (gpu.SDPARate.Kernels, Mask, Dropout): their rates
// on the backend's work (sdpaWork), interpolated in log batch·heads,
// sequence and head dim as sdpa interpolates the plain rows. The plain
// rows are timed by events around eager calls, whose backward carries
// host floors and .grad adds at these shapes (BERT-base's 32×12×512×64:
// 0.19 ms against 0.12 by the kernels), so a variant is not priced as a
// ratio to them. testdata/dev50 (gt_calib.py --sdpa-bias, eight shapes of
// T5, BERT-base and GPT-2, bf16, head dim 64) against the dropout-free
// call by the kernels: cuDNN with dropout 0.1 runs forward 2.0-2.55x and
// backward 1.15-1.3x (BERT's attention in training; dev15's BERT-base b32
// s512 profile ran it at 0.159 ms forward, the calibration's 0.159);
// causal with dropout (GPT-2's) 1.6-1.75x and 0.95-1.05x, about 2.3x and
// 1.2x dev33's causal call; T5's constant zero bias with dropout 3.0-3.85x
// and 1.45-2.1x; the bias that requires grad (T5's cross-attention under
// gradient checkpointing) takes the memory-efficient kernels at 50-55
// TFLOP/s, 5.8-8.2x and 4.1-7.9x. A variant timed only with dropout (the
// bias that requires grad) prices a dropout-free call by those rows, the
// upper side. ok is false without such rows (another GPU's calibration),
// which leaves the call priced as the plain one.
func (r *rates) sdpaVariant(a *attnCost, dt DType) (fwd, bwd float64, ok bool) {
	mask, be := "", "cudnn"
	switch {
	case a.masked:
		mask = "additive"
	case a.bias == "const":
		mask = "bias"
	case a.bias == "grad":
		mask, be = "bias-grad", "efficient"
	}
	causal := a.causal && mask == ""
	match := func(s gpu.SDPARate, drop bool) bool {
		return s.Kernels && s.Backend == be && s.Mask == mask && s.Causal == causal && (s.Dropout > 0) == drop &&
			(mask != "" || causal || drop)
	}
	drop := a.dropout > 0
	has := false
	for _, s := range r.cal.SDPA {
		has = has || match(s, drop)
	}
	if !has {
		drop = !drop
	}
	dtype := "bf16"
	if dt == F16 {
		for _, s := range r.cal.SDPA {
			if match(s, drop) && s.Dtype == "fp16" {
				dtype = "fp16"
			}
		}
	}
	q := sdpaPoint(a)
	type cand struct{ d, f, b float64 }
	var cs []cand
	for _, s := range r.cal.SDPA {
		if !match(s, drop) || s.Dtype != dtype {
			continue
		}
		w := sdpaWork(be, s.BHSD[0]*s.BHSD[1], s.BHSD[2], s.BHSD[2], s.BHSD[3], causal)
		cs = append(cs, cand{sdpaDist(q, s.BHSD), math.Log(w / s.FwdS), math.Log(2.5 * w / (s.FwdBwdS - s.FwdS))})
	}
	if len(cs) == 0 {
		return 0, 0, false
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	rf := math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].f }))
	rb := math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].b }))
	w := sdpaWork(be, a.batch*a.heads, a.sq, a.sk, a.hd, causal)
	return w / rf / r.flopScale["bf16"], 2.5 * w / rb / r.flopScale["bf16"], true
}

// sdpaEfficientExtra is what dropout and a bias add to a half-precision
// call the memory-efficient kernels run because the spec forces them,
// whose rates come from dropout-free unmasked rows: per score
// element (B·H·Sq·Sk, half of it causal), forward and backward, the
// difference between dev50's kernel-timed rows (dropout 0.1 without a
// mask; with the constant bias; the bias that requires grad) and the
// calibration's dropout-free row of the same shape (sdpaBackwardS's
// backward), at the nearest shape timed both ways (two: 8×12×1024×64 and
// 16×12×512×64). bf16 kernels: dropout adds about 2.0 ps a score element
// forward and 1.2-2.0 backward; the constant bias 0.8 forward and 0.7-0.8
// backward; the bias gradient 0.8 forward and 2.2-2.4 backward. Zero
// without such rows. Float32 calls (3xTF32 kernels, whose GEMMs run about
// four times longer and may hide the random numbers) get none: no float32
// kernel was timed with dropout, and the float32 BERT and GPT-2 steps,
// priced without it, were already 2-5% over (adding the bf16 cost put
// them 4-7% over).
func (r *rates) sdpaEfficientExtra(a *attnCost) (fwd, bwd float64) {
	q := sdpaPoint(a)
	kernel := func(mask string, bhsd [4]int64) (gpu.SDPARate, bool) {
		for _, s := range r.cal.SDPA {
			if s.Kernels && s.Backend == "efficient" && s.Mask == mask && s.Dropout > 0 && !s.Causal && s.BHSD == bhsd {
				return s, true
			}
		}
		return gpu.SDPARate{}, false
	}
	best := math.Inf(1)
	for _, w := range r.cal.SDPA {
		if w.Kernels || w.Backend != "efficient" || w.Mask != "" || w.Causal || w.Dtype != "bf16" {
			continue
		}
		d := sdpaDist(q, w.BHSD)
		plain, ok := kernel("", w.BHSD)
		if !ok || d >= best {
			continue
		}
		elems := float64(w.BHSD[0] * w.BHSD[1] * w.BHSD[2] * w.BHSD[2])
		var f, b float64
		if a.dropout > 0 {
			f += plain.FwdS - w.FwdS
			b += (plain.FwdBwdS - plain.FwdS) - r.sdpaBackwardS(w)
		}
		if a.bias != "" {
			mask := map[string]string{"const": "bias", "grad": "bias-grad"}[a.bias]
			m, ok := kernel(mask, w.BHSD)
			if !ok {
				continue
			}
			f += m.FwdS - plain.FwdS
			b += (m.FwdBwdS - m.FwdS) - (plain.FwdBwdS - plain.FwdS)
		}
		best, fwd, bwd = d, math.Max(f, 0)/elems, math.Max(b, 0)/elems
	}
	n := float64(a.batch * a.heads * a.sq * a.sk)
	if a.causal {
		n /= 2
	}
	return fwd * n, bwd * n
}
