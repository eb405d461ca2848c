package memmodel

import (
	"math"
	"sort"
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
// convolution of the same class and dtype nearest in shape (NCHW, as
// torchvision models run unless converted to channels_last).
func (r *rates) conv(c *convShape, dt DType) (fwd, bwd float64) {
	dtype := "fp32"
	if dt == F16 || dt == BF16 {
		dtype = "bf16"
	}
	class := convClass(c.cin, c.cout, c.k, c.groups)
	q := [4]float64{lg(c.n * c.ho * c.ho), lg(c.cin), lg(c.cout), lg(c.k)}
	type cand struct{ d, f, b float64 }
	var cs []cand
	for _, v := range r.cal.Conv {
		if v.Dtype != dtype || v.ChannelsLast || convClass(v.Cin, v.Cout, v.K, v.Groups) != class {
			continue
		}
		ho := (v.H+2*(v.K/2)-v.K)/v.Stride + 1
		d := sq(q[0]-lg(v.N*ho*ho)) + sq(q[1]-lg(v.Cin)) + sq(q[2]-lg(v.Cout)) + sq(q[3]-lg(v.K))
		fl := convFlops(v.N, v.Cin, v.Cout, ho, v.K, v.Groups)
		cs = append(cs, cand{d, math.Log(fl / v.FwdS), math.Log(2 * fl / (v.FwdBwdS - v.FwdS))})
	}
	if len(cs) == 0 {
		return r.convAsGEMM(c, dtype, class)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	rf := math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].f }))
	rb := math.Exp(idw(len(cs), func(i int) (float64, float64) { return cs[i].d, cs[i].b }))
	fl := convFlops(c.n, c.cin, c.cout, c.ho, c.k, c.groups)
	scale := r.flopScale["tf32"]
	if dtype == "bf16" {
		scale = r.flopScale["bf16"]
	}
	if class == "depthwise" {
		scale = r.bwScale // depthwise convolutions are memory-bound
	}
	fwd = fl / rf / scale
	var parts float64
	if c.dgrad {
		parts++
	}
	if c.wgrad {
		parts++
	}
	bwd = parts * fl / rb / scale
	return fwd, bwd
}

// convAsGEMM times a convolution the calibration did not measure as the
// implicit GEMMs cuDNN runs: forward M = output pixels, N = Cout, K =
// Cin·k²; data gradient M = input pixels, N = Cin, K = Cout·k²; weight
// gradient M = Cout, N = Cin·k², K = output pixels; each at the
// calibrated GEMM rate of that shape (TF32 for float32, cuDNN's default)
// slowed by convSlowdown for what NCHW costs (layout transposes, im2col
// tiles). Depthwise convolutions move bytes: input, output and, backward,
// their gradients, at the calibrated copy bandwidth slowed likewise.
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
	g := dtype
	if g == "fp32" {
		g = "tf32"
	}
	px, pxIn := c.n*c.ho*c.ho, c.n*c.h*c.h
	kk := c.k * c.k
	fwd = slow * r.gemm(g, 1, px, c.cout, c.cin*kk)
	if c.dgrad {
		bwd += slow * r.gemm(g, 1, pxIn, c.cin, c.cout*kk)
	}
	if c.wgrad {
		bwd += slow * r.gemm(g, 1, c.cout, c.cin*kk, px)
	}
	return fwd, bwd
}

// convSlowdown is how much slower than the same-shape GEMM (or, for
// depthwise, the same bytes copied) cuDNN and ATen ran torchvision's NCHW
// convolutions (cudnn.benchmark off), by dtype and class. The calibration
// run timed no convolution, so these were fitted once across all
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
