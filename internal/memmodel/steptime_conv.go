package memmodel

import (
	"math"
	"sort"

	"github.com/vramkit/vramkit/internal/gpu"
)

// Convolutions in the step-time model: calibrated by cuDNN class when the
// calibration timed some, derived from the calibrated GEMMs otherwise.

// convClass groups convolutions the way cuDNN's algorithm choice does.
func convClass(cin, cout, k, groups int64) string {
	switch {
	case groups > 1:
		return "depthwise"
	case cin <= 4:
		return "stem"
	case k == 1:
		return "pointwise"
	}
	return "dense"
}

// convUncached is the forward time of a convolution and its backward (data
// gradient when dgrad, weight gradient when wgrad), from the calibrated
// convolutions of the same class, dtype and memory format (NCHW, as
// torchvision models run, or channels_last where the model's tensors are
// NHWC-strided). Dense, pointwise and stem convolutions are cuDNN's
// implicit GEMMs: each costs its implicit GEMMs at the calibrated GEMM rate
// of their shapes times how much slower than those GEMMs the nearest
// calibrated convolutions ran (measured, interpolated in the logarithm of
// the shape), so that the GEMM table carries the size dependence the dozen
// convolution shapes cannot. Depthwise convolutions are not GEMMs: they
// take the rate of the nearest calibrated depthwise convolution. A shape
// timed at several batch sizes (ResNet-50's at 64 and 256) gives its
// forward at each, interpolated in the batch, and its backward from the
// largest (largerBatchTimed).
//
// fp16 takes the fp16 rows where the calibration has them (cuDNN's fp16
// and bf16 kernels differ: NCHW depthwise 3×3 and 5×5 run 2–4× faster in
// fp16, the 7×7 stem 1.8×), bf16's otherwise; both against the bf16 GEMMs.
// float32 NCHW depthwise convolutions take the bf16 rows as well: ATen
// runs both dtypes with the same conv_depthwise2d kernels, accumulating in
// float32, and the calibrated pairs of one shape agree within 5%
// (EfficientNet-B0's float32 profile at batch 64: 1.86 ms forward, 9.26
// backward; a quarter of the bf16 batch-256 profile's 7.52 and 35.9).
func (r *rates) convUncached(c *convShape, dt DType) (fwd, bwd float64) {
	dtype := "fp32"
	if dt == F16 || dt == BF16 {
		dtype = "bf16"
	}
	class := convClass(c.cin, c.cout, c.k, c.groups)
	var rows []gpu.ConvRate
	if dt == F16 {
		rows = r.convRowsEither("fp16", class, c.channelsLast)
	}
	if len(rows) == 0 {
		rows = r.convRowsEither(dtype, class, c.channelsLast)
	}
	if class == "depthwise" && dt == F32 && !c.channelsLast {
		rows = append(rows, r.convRows("bf16", class, false)...)
	}
	if class == "depthwise" && dt == F16 && c.channelsLast {
		// channels-last depthwise kernels are one build for both half
		// types (dev29's ConvNeXt 7x7 pairs within 3%); the bf16 rows
		// profiled in whole steps (testdata/dev33) price fp16 too
		rows = append(rows, r.convRows("bf16", class, true)...)
	}
	if len(rows) == 0 {
		return r.convAsGEMM(c, dtype, class)
	}
	if class == "depthwise" && c.channelsLast {
		rows = sameKernelSize(rows, c.k)
	}
	q := convPoint(c.n, c.cin, c.cout, c.ho, c.k, c.stride)
	type cand struct{ d, v float64 }
	var fs, bs []cand
	for _, v := range rows {
		ho := (v.H+2*(v.K/2)-v.K)/v.Stride + 1
		p := convPoint(v.N, v.Cin, v.Cout, ho, v.K, v.Stride)
		var d float64
		for i := range q {
			d += sq(q[i] - p[i])
		}
		bwd := r.convBackward(v, dt)
		useBwd := !largerBatchTimed(v, rows)
		if class == "depthwise" {
			fl := convFlops(v.N, v.Cin, v.Cout, ho, v.K, v.Groups)
			fs = append(fs, cand{d, math.Log(fl / v.FwdS)})
			if useBwd {
				bs = append(bs, cand{d, math.Log(2 * fl / bwd)})
			}
			continue
		}
		vs := &convShape{n: v.N, cin: v.Cin, cout: v.Cout, h: v.H, ho: ho, k: v.K, stride: v.Stride, groups: v.Groups,
			dgrad: true, wgrad: true}
		gf, gd, gw := r.implicitGEMMs(vs, dtype) // fp16 rows too: the table's half GEMMs are bf16
		fs = append(fs, cand{d, math.Log(v.FwdS / gf)})
		if useBwd {
			bs = append(bs, cand{d, math.Log(bwd / (gd + gw))})
		}
	}
	mean := func(cs []cand) float64 {
		sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
		return math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].v }))
	}
	f, b := mean(fs), mean(bs)
	if class != "depthwise" {
		gf, gd, gw := r.implicitGEMMs(c, dtype)
		fwd = f * gf
		if c.dgrad {
			bwd += b * gd
		}
		if c.wgrad {
			bwd += b * gw
		}
		return fwd, bwd
	}
	// depthwise convolutions are memory-bound: scaled by bandwidth
	fl := convFlops(c.n, c.cin, c.cout, c.ho, c.k, c.groups)
	// the bytes it moves: its input and output (the weights are tiny)
	es := 4.0
	if dtype == "bf16" {
		es = 2
	}
	bytes := es * float64(c.n*(c.cin*c.h*c.h+c.cout*c.ho*c.ho))
	fwd = r.memS(fl/f, bytes)
	var parts float64
	if c.dgrad {
		parts++
	}
	if c.wgrad {
		parts++
	}
	return fwd, parts * r.memS(fl/b, bytes)
}

// sameKernelSize is the depthwise rows of kernel size k, or all of them
// when none has it. A depthwise convolution is memory-bound, so its FLOP
// rate grows with k² at the same bytes, and cuDNN and ATen build their
// depthwise kernels per size: a 5×5 row is not a 7×7's neighbour.
// EfficientNet's channels-last 3×3 and 5×5 rows at batch 128
// (testdata/dev35), once in the table, put ConvNeXt-B's 7×7 backward at
// 512 channels of 14² from 205 to 323 µs, its b64 bf16 step 65.7 →
// 69.0 ms against 58.8–64.9 measured.
func sameKernelSize(rows []gpu.ConvRate, k int64) []gpu.ConvRate {
	var out []gpu.ConvRate
	for _, v := range rows {
		if v.K == k {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return rows
	}
	return out
}

// convBackward is the backward time of calibrated convolution v alone.
// The calibration ran forward and backward repeatedly on the same leaf
// input and weight, so each backward also accumulated its gradients into
// their .grad (an add over the input, read twice and written once, and
// one over the weight), which a training step's convolution does not do:
// that is taken off, at the calibrated add bandwidth.
//
// A row timed by its kernels (gpu.ConvRate.Kernels) has neither: its
// backward is what it timed.
func (r *rates) convBackward(v gpu.ConvRate, dt DType) float64 {
	if v.Kernels {
		return v.FwdBwdS - v.FwdS
	}
	es := 4.0
	if v.Dtype == "bf16" || v.Dtype == "fp16" {
		es = 2
	}
	in := es * float64(v.N*v.Cin*v.H*v.H)
	w := es * float64(v.Cout*(v.Cin/max(v.Groups, 1))*v.K*v.K)
	b := v.FwdBwdS - v.FwdS
	acc := r.stream("add", dt, 3*in) + r.stream("add", dt, 3*w)
	// never below a fifth of what was timed: the subtraction is an estimate
	return math.Max(b-acc, b/5)
}

// largerBatchTimed reports whether the calibration also timed v's
// convolution (same shape, dtype and memory format) on more images. Its
// backward then stands for both. Timed as eager calls, Python's
// backward() call and cuDNN's per-call setup bound a small batch's
// iteration (ResNet-50's shapes at batch 64 ran their backward 1.2–3.8×
// faster than at 256, for 4× the work, while their forward took 2.2–3.9×
// as long), which the autograd engine does not pay inside a network.
// Timed by their kernels (testdata/dev29), batch 64's backward kernels
// take 10–16% more per image than batch 256's; steps of 96–128 images ran
// at batch 256's rate: priced from both batches by distance, ResNet-101
// and ResNet-152 b128 (late15, late17, late22) came out 3–4% slower than
// measured against 0–3% from the larger batch alone. Forward times keep
// every batch.
func largerBatchTimed(v gpu.ConvRate, rows []gpu.ConvRate) bool {
	for _, u := range rows {
		if u.N > v.N && u.Dtype == v.Dtype && u.ChannelsLast == v.ChannelsLast && u.Cin == v.Cin && u.Cout == v.Cout &&
			u.H == v.H && u.K == v.K && u.Stride == v.Stride && u.Groups == v.Groups {
			return true
		}
	}
	return false
}

// convRowsEither is convRows in the memory format asked for, or in the
// other one when the calibration timed none of the class in it.
func (r *rates) convRowsEither(dtype, class string, channelsLast bool) []gpu.ConvRate {
	if rows := r.convRows(dtype, class, channelsLast); len(rows) > 0 {
		return rows
	}
	return r.convRows(dtype, class, !channelsLast)
}

// convRows is the calibrated convolutions of one class, dtype and memory
// format that timed the GPU rather than the host: the rows timed by their
// kernels where the calibration has some (testdata/dev29: at batch 64 an
// eager backward of EfficientNet's 1x1 convolutions took 3-8x its
// kernels' time, of ResNet-50's 1.2-3.8x), so that one class is never
// interpolated between the two kinds of timing; the eager rows whose
// forward the host did not bound otherwise (float32, which dev29 did not
// time). Kept instead, the eager rows of shapes dev29 did not time moved
// EfficientNet's steps of 128-256 images 2-4 points under (bench/steptime,
// session 18).
func (r *rates) convRows(dtype, class string, channelsLast bool) []gpu.ConvRate {
	var eager, kernels []gpu.ConvRate
	for _, v := range r.cal.Conv {
		if v.Dtype != dtype || v.ChannelsLast != channelsLast || convClass(v.Cin, v.Cout, v.K, v.Groups) != class {
			continue
		}
		switch {
		case v.Kernels:
			kernels = append(kernels, v)
		case !r.hostBound(v.FwdS):
			eager = append(eager, v)
		}
	}
	if len(kernels) > 0 {
		return kernels
	}
	return eager
}

// convPoint is where a convolution sits in the space its calibrated
// neighbours are sought in: log output pixels, channels in and out, kernel
// and stride. The stride tells apart convolutions whose implicit GEMMs are
// the same: ResNet-50's 3×3 128-channel convolution at 28² and its
// stride-2 one from 56² (batch 256, bf16: 192 and 313 µs forward).
func convPoint(n, cin, cout, ho, k, stride int64) [5]float64 {
	return [5]float64{lg(n * ho * ho), lg(cin), lg(cout), lg(k), lg(stride)}
}

// implicitGEMMs is the calibrated time of the GEMMs a dense convolution
// amounts to (float32 at cuDNN's default TF32): forward M = output pixels,
// N = Cout, K = Cin·k²; data gradient M = input pixels, N = Cin, K =
// Cout·k²; weight gradient M = Cout, N = Cin·k², K = output pixels.
func (r *rates) implicitGEMMs(c *convShape, dtype string) (fwd, dgrad, wgrad float64) {
	g := dtype
	if g == "fp32" {
		g = "tf32"
	}
	px, pxIn := c.n*c.ho*c.ho, c.n*c.h*c.h
	kk := c.k * c.k
	fwd = math.Max(r.gemm(g, 1, px, c.cout, c.cin*kk), r.launch())
	dgrad = math.Max(r.gemm(g, 1, pxIn, c.cin, c.cout*kk), r.launch())
	wgrad = math.Max(r.gemm(g, 1, c.cout, c.cin*kk, px), r.launch())
	return fwd, dgrad, wgrad
}

// convAsGEMM times a convolution of a class the calibration did not
// measure as its implicit GEMMs slowed by convSlowdown for what NCHW costs
// (layout transposes, im2col tiles). Depthwise convolutions move bytes:
// input, output and, backward, their gradients, at the calibrated copy
// bandwidth slowed likewise.
func (r *rates) convAsGEMM(c *convShape, dtype, class string) (fwd, bwd float64) {
	slow := convSlowdown(dtype, class, c.k)
	if class == "depthwise" {
		inB := float64(c.n * c.cin * c.h * c.h)
		outB := float64(c.n * c.cout * c.ho * c.ho)
		es := 4.0
		if dtype == "bf16" {
			es = 2
		}
		fwd = slow * r.stream("copy", F32, es*(inB+outB))
		var parts float64
		if c.dgrad {
			parts++
		}
		if c.wgrad {
			parts++
		}
		return fwd, parts * fwd
	}
	gf, gd, gw := r.implicitGEMMs(c, dtype)
	fwd = slow * gf
	if c.dgrad {
		bwd += slow * gd
	}
	if c.wgrad {
		bwd += slow * gw
	}
	return fwd, bwd
}

// convSlowdown is how much slower than the same-shape GEMM (or, for
// depthwise, the same bytes copied) cuDNN and ATen ran torchvision's NCHW
// convolutions (cudnn.benchmark off), by dtype and class. Used only for a
// table without convolutions of the class (the first H200 run had none);
// round 1 fitted them once across all
// development vision timings together (ResNet-50, ConvNeXt-T,
// EfficientNet-B0, ViT patchify), not per workload. Depthwise convolutions
// split three ways, as ATen dispatches them: half-precision 3×3 and 5×5
// go to cuDNN's depthwise kernels (slow in NCHW, the backward above all),
// other half-precision ones and every float32 one to ATen's own
// conv_depthwise2d.
func convSlowdown(dtype, class string, k int64) float64 {
	switch {
	case class == "depthwise" && dtype == "bf16" && (k == 3 || k == 5):
		return 40
	case class == "depthwise" && dtype == "bf16":
		return 4
	case class == "depthwise":
		return 16
	case dtype == "bf16" && class == "stem":
		return 4
	case dtype == "bf16":
		return 2.5
	case class == "stem":
		return 2
	}
	return 1.5
}

func convFlops(n, cin, cout, ho, k, groups int64) float64 {
	return 2 * float64(n*cout*ho*ho*(cin/groups)*k*k)
}
