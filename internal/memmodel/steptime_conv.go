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

// conv is the forward time of a convolution and its backward (data
// gradient when dgrad, weight gradient when wgrad), from the calibrated
// convolutions of the same class, dtype and memory format (NCHW, as
// torchvision models run, or channels_last where the model's tensors are
// NHWC-strided). Dense, pointwise and stem convolutions are cuDNN's
// implicit GEMMs: each costs its implicit GEMMs at the calibrated GEMM rate
// of their shapes times how much slower than those GEMMs the nearest
// calibrated convolutions ran (measured, interpolated in the logarithm of
// the shape), so that the GEMM table carries the size dependence the dozen
// convolution shapes cannot. Depthwise convolutions are not GEMMs: they
// take the rate of the nearest calibrated depthwise convolution.
func (r *rates) conv(c *convShape, dt DType) (fwd, bwd float64) {
	dtype := "fp32"
	if dt == F16 || dt == BF16 {
		dtype = "bf16"
	}
	class := convClass(c.cin, c.cout, c.k, c.groups)
	rows := r.convRows(dtype, class, c.channelsLast)
	if len(rows) == 0 {
		rows = r.convRows(dtype, class, !c.channelsLast)
	}
	if len(rows) == 0 {
		return r.convAsGEMM(c, dtype, class)
	}
	q := convPoint(c.n, c.cin, c.cout, c.ho, c.k)
	type cand struct{ d, f, b float64 }
	cs := make([]cand, 0, len(rows))
	for _, v := range rows {
		ho := (v.H+2*(v.K/2)-v.K)/v.Stride + 1
		p := convPoint(v.N, v.Cin, v.Cout, ho, v.K)
		d := sq(q[0]-p[0]) + sq(q[1]-p[1]) + sq(q[2]-p[2]) + sq(q[3]-p[3])
		bwd := r.convBackward(v, dt)
		if class == "depthwise" {
			fl := convFlops(v.N, v.Cin, v.Cout, ho, v.K, v.Groups)
			cs = append(cs, cand{d, math.Log(fl / v.FwdS), math.Log(2 * fl / bwd)})
			continue
		}
		vs := &convShape{n: v.N, cin: v.Cin, cout: v.Cout, h: v.H, ho: ho, k: v.K, stride: v.Stride, groups: v.Groups,
			dgrad: true, wgrad: true}
		gf, gd, gw := r.implicitGEMMs(vs, dtype)
		cs = append(cs, cand{d, math.Log(v.FwdS / gf), math.Log(bwd / (gd + gw))})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	f := math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].f }))
	b := math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].b }))
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
	fwd = fl / f / r.bwScale
	var parts float64
	if c.dgrad {
		parts++
	}
	if c.wgrad {
		parts++
	}
	return fwd, parts * fl / b / r.bwScale
}

// convBackward is the backward time of calibrated convolution v alone.
// The calibration ran forward and backward repeatedly on the same leaf
// input and weight, so each backward also accumulated its gradients into
// their .grad (an add over the input, read twice and written once, and
// one over the weight), which a training step's convolution does not do:
// that is taken off, at the calibrated add bandwidth.
func (r *rates) convBackward(v gpu.ConvRate, dt DType) float64 {
	es := 4.0
	if v.Dtype == "bf16" {
		es = 2
	}
	in := es * float64(v.N*v.Cin*v.H*v.H)
	w := es * float64(v.Cout*(v.Cin/max(v.Groups, 1))*v.K*v.K)
	b := v.FwdBwdS - v.FwdS
	acc := r.stream("add", dt, 3*in) + r.stream("add", dt, 3*w)
	// never below a fifth of what was timed: the subtraction is an estimate
	return math.Max(b-acc, b/5)
}

// convRows is the calibrated convolutions of one class, dtype and memory
// format that timed the GPU rather than the host.
func (r *rates) convRows(dtype, class string, channelsLast bool) []gpu.ConvRate {
	var out []gpu.ConvRate
	for _, v := range r.cal.Conv {
		if v.Dtype == dtype && v.ChannelsLast == channelsLast && convClass(v.Cin, v.Cout, v.K, v.Groups) == class &&
			!r.hostBound(v.FwdS) {
			out = append(out, v)
		}
	}
	return out
}

// convPoint is where a convolution sits in the space its calibrated
// neighbours are sought in: log output pixels, channels in and out, kernel.
func convPoint(n, cin, cout, ho, k int64) [4]float64 {
	return [4]float64{lg(n * ho * ho), lg(cin), lg(cout), lg(k)}
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
