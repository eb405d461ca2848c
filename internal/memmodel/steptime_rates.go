package memmodel

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
)

// rates answers "how long does this kernel take on this GPU" from a
// calibration table (gpu.Calibration): the times PyTorch's kernels took on
// a real GPU at shapes near the ones training runs, interpolated in the
// logarithm of the shape. A GPU without its own table borrows the H200's,
// with every compute time scaled by the ratio of the two GPUs' peak FLOP/s
// for the dtype and every memory-bound time by their bandwidth ratio;
// scaled says so, and the step-time band widens.
type rates struct {
	cal    *gpu.Calibration
	scaled bool
	// flopScale divides calibrated compute times, by calibration dtype
	// (bf16, fp32, tf32); bwScale is the ratio of the two GPUs' memory
	// bandwidth and coreScale of their CUDA cores' throughput (fp32
	// FLOP/s, at most 1), which memS applies to memory-bound kernels.
	flopScale map[string]float64
	bwScale   float64
	coreScale float64
	// peakStream is the reference GPU's fastest calibrated stream
	// (bytes per second): what a kernel bound by bandwidth alone reached.
	peakStream float64
	// streamCap: memS caps a scaled kernel at the GPU's fastest stream
	// instead of dividing it by bwScale (see memS for when).
	streamCap bool
	// curves holds the memory-bound curves by op and dtype, sorted by bytes.
	curves map[string][]gpu.StreamRate
	// gemms indexes the calibrated GEMMs and memoises interpolations
	// (built on first use).
	gemms *gemmIndex
	// convs memoises convolution times by shape and dtype.
	convs map[convKey][2]float64
	// bns memoises BatchNorm rates by dtype and shape.
	bns map[bnKey][2]float64
	// sms is the GPU's streaming multiprocessors (0: not in the catalog),
	// which decide a LayerNorm weight gradient's kernel (gammaBeta).
	sms int
	// halfClock multiplies the calibrated half-precision rate of aligned
	// GEMMs (see burstClock).
	halfClock float64
}

// referenceGPU is the GPU whose calibration other GPUs are scaled from.
const referenceGPU = "h200"

// newRates loads g's calibration, or the reference GPU's scaled to g.
func newRates(g gpu.GPU) (*rates, error) {
	cal, err := gpu.Calibrated(g.Name)
	if err != nil {
		return nil, err
	}
	if cal != nil {
		return ratesFrom(cal, nil, g), nil
	}
	ref, err := gpu.Lookup(referenceGPU)
	if err != nil {
		return nil, err
	}
	if cal, err = gpu.Calibrated(referenceGPU); err != nil {
		return nil, err
	}
	if cal == nil {
		return nil, fmt.Errorf("step time: no calibration for %s nor for %s", g.Name, referenceGPU)
	}
	return ratesFrom(cal, &ref, g), nil
}

// ratesFrom builds the rates of GPU g from cal, measured on g itself when
// ref is nil and on ref otherwise.
func ratesFrom(cal *gpu.Calibration, ref *gpu.GPU, g gpu.GPU) *rates {
	r := &rates{cal: cal, flopScale: map[string]float64{"bf16": 1, "fp32": 1, "tf32": 1}, bwScale: 1, coreScale: 1, sms: g.SMs,
		halfClock: burstClock(cal)}
	if ref != nil {
		r.scaled = true
		lowp := g.BF16TFLOPs
		if lowp == 0 {
			lowp = g.FP16TFLOPs // no bf16: AMP runs fp16
		}
		tf32 := g.TF32TFLOPs
		if tf32 == 0 {
			tf32 = g.FP32TFLOPs // no TF32: convolutions run in plain fp32
		}
		r.flopScale = map[string]float64{"bf16": lowp / ref.BF16TFLOPs, "fp32": g.FP32TFLOPs / ref.FP32TFLOPs,
			"tf32": tf32 / ref.TF32TFLOPs}
		r.bwScale = g.BandwidthGBps / ref.BandwidthGBps
		r.coreScale = min(1, g.FP32TFLOPs/ref.FP32TFLOPs)
		r.streamCap = g.ComputeCapability == ref.ComputeCapability && r.coreScale >= r.bwScale
	}
	r.curves = map[string][]gpu.StreamRate{}
	for _, s := range cal.Stream {
		k := s.Op + "/" + s.Dtype
		r.curves[k] = append(r.curves[k], s)
	}
	for _, v := range r.curves {
		sort.Slice(v, func(i, j int) bool { return v[i].Bytes < v[j].Bytes })
	}
	r.peakStream = max(r.bandwidth("copy", F32), r.bandwidth("copy", BF16))
	return r
}

// describe says which figures the rates rest on, for GPU name: the kernel
// classes the calibration measured, those derived from them, and whether
// they were scaled from another GPU.
func (r *rates) describe(name string) string {
	var measured, derived []string
	add := func(ok bool, what string) {
		if ok {
			measured = append(measured, what)
		} else {
			derived = append(derived, what)
		}
	}
	add(len(r.cal.GEMM) > 0, "GEMM")
	add(len(r.cal.SDPA) > 0, "attention")
	add(len(r.cal.Stream) > 0, "memory-bound")
	add(len(r.cal.Conv) > 0, "convolution")
	add(len(r.cal.Optim) > 0, "optimizer")
	cal := r.cal
	s := fmt.Sprintf("%s rates measured on %s (%s, torch %s)", strings.Join(measured, ", "), cal.GPU, cal.Device, cal.Torch)
	if len(derived) > 0 {
		s += "; " + strings.Join(derived, ", ") + " derived from them (not calibrated)"
	}
	switch {
	case r.scaled && r.streamCap:
		s += fmt.Sprintf("; scaled to %s by peak FLOP/s, memory-bound kernels slowed only down to its fastest stream (checked on an H100: testdata/late61)", name)
	case r.scaled:
		s += fmt.Sprintf("; all scaled to %s by peak FLOP/s and memory bandwidth", name)
	}
	return s
}

// describeHost says whose host costs the options' h are.
func describeHost(h HostCosts) string {
	switch {
	case reflect.DeepEqual(h, DefaultHostCosts()):
		return lentH200Words()
	case reflect.DeepEqual(h, LentH100HostCosts()):
		return lentH100Words()
	case reflect.DeepEqual(h, CalibrationHostCosts()):
		return "host costs of the calibration machine"
	}
	return "host costs given in the options"
}

// hostSource is the plan's words for the host tm priced: its costs' name,
// times the spec's host_scale where it gave one.
func (tm *timeModel) hostSource() string {
	s := tm.hostLabel
	if tm.userScale != 1 {
		s += fmt.Sprintf(" x%.3g (host_scale)", tm.userScale)
	}
	return s
}

// launch is the GPU floor of one kernel queued behind others. The
// calibration cannot see it: its back-to-back tiny kernels (LaunchS) run
// as fast as Python issues them (EnqueueS), so gpuFloor is the figure
// commonly measured for kernels queued on Hopper, an estimate.
func (r *rates) launch() float64 { return gpuFloor }

// gpuFloor is the smallest GPU time of one queued kernel, seconds.
const gpuFloor = 2.5e-6

// hostBound reports whether a calibrated time is no longer than issuing
// the op from Python takes (with a margin): such a point measured the
// host, not the kernel, and says nothing about the GPU rate.
func (r *rates) hostBound(s float64) bool { return s < 2*r.cal.EnqueueS }

// mmHostBound is hostBound for a calibrated torch.mm, whose issue costs
// more than the tiny add_ that EnqueueS times: it allocates its output and
// asks cuBLAS for a kernel. The small-GEMM run (testdata/dev16) timed its
// 240 products twice, eagerly back to back as every calibration does and
// replayed from a CUDA graph, which leaves out the host: 0.05–8.6 GFLOP
// bf16 products took 14.7–22.5 µs eagerly and 3–14 µs replayed, and every
// product whose eager time exceeded its replayed one by more than 25% took
// at most 24.1 µs eagerly (2.49× the run's 9.68 µs EnqueueS) but one (fp32
// 256×1024×1024, 27.7 against 19.6 µs); above mmIssue×EnqueueS 101 of the
// 105 fp32 products agree within 5% (the rest 0.92–1.05 but that one), and
// the 55 bf16 ones run 0–22% faster replayed, the half-precision clock of
// short bursts (burstClock). At 2× (hostBound) 17 host-bound products would
// pass.
func (r *rates) mmHostBound(s float64) bool { return s < mmIssue*r.cal.EnqueueS }

// mmIssue is torch.mm's host cost in units of EnqueueS (see mmHostBound).
const mmIssue = 2.5

// calDtype is the calibration dtype an op of dt runs as: half types as
// bf16, float32 matmuls as fp32 (PyTorch leaves TF32 off for matmul) and
// float32 convolutions as tf32 (cuDNN's allow_tf32 is on).
func calDtype(dt DType, conv bool) string {
	switch {
	case dt == F16 || dt == BF16:
		return "bf16"
	case conv:
		return "tf32"
	}
	return "fp32"
}

// gemm is the time of a batch of m×k by k×n products.
func (r *rates) gemm(dtype string, batch, m, n, k int64) float64 {
	t, ok := r.gemmFrom(dtype, batch, m, n, k, false)
	if !ok {
		return 0
	}
	if dtype == "bf16" && (m%8 != 0 || n%8 != 0 || k%8 != 0) {
		t *= unalignedSlowdown
	}
	return t
}

// gemmTraffic is the least time a GEMM takes to read its operands and
// write its result once at the calibrated copy bandwidth (a Linear's or a
// matmul's: linearGEMM; a convolution's implicit GEMMs are priced against
// the calibrated convolutions' own, steptime_conv.go). The calibrated
// shapes are compute-bound, and a rate interpolated from them prices a
// product with one short dimension (ConvNeXt's first-stage MLP: 401,408
// tokens by 96 by 384) as if it were: 0.041 ms at 716 TFLOP/s, where
// dev33's profiled steps ran the three products of that shape in
// 0.092-0.137 ms (216-321 TFLOP/s) and their 385 MB take 0.09 ms at the
// copy bandwidth.
func (r *rates) gemmTraffic(dtype string, batch, m, n, k int64) float64 {
	es := 2.0
	dt := BF16
	if dtype == "fp32" || dtype == "tf32" {
		es, dt = 4, F32
	}
	bw := r.bandwidth("copy", dt)
	if bw == 0 {
		return 0
	}
	bytes := es * float64(batch*(m*k+k*n+m*n))
	return r.memS(bytes/bw, bytes)
}

// gemmFrom is the time of the GEMM at the rate interpolated from the
// calibration's aligned shapes, or (odd) from its odd-vocabulary shapes;
// a batched float32 GEMM computes at bmmLogRate's rate instead.
//
// A product of more rows never takes less time than one of fewer (it
// holds the smaller one), but a rate interpolated in log space between a
// short product that reads its weight at a low rate and a long one that
// computes at a high rate can say so: float32 4096×4096 weights, timed at
// 16 rows (79 µs, 6.8 TFLOP/s) and 128 (95 µs, 45), priced 93 µs at 32
// rows and 67 at 64, and gpt-oss-20b's float32 expert GEMMs (autocast's
// grouped-GEMM fallback, 32 and 64 rows an expert) made its batch of 2
// plan faster than its batch of 1. So the time is held at least at that
// of every halving of the rows (TestStepTimeNeverFallsWithMoreWork).
func (r *rates) gemmFrom(dtype string, batch, m, n, k int64, odd bool) (float64, bool) {
	scale := r.flopScale[dtype]
	if !odd && (dtype == "bf16" || dtype == "fp16") {
		scale *= r.halfClock
	}
	if rate, ok := r.bmmLogRate(dtype, batch); ok {
		return 2 * float64(batch*m*n*k) / math.Exp(rate) / scale, true
	}
	return r.gemmHeldS(dtype, m*batch, n, k, odd, scale)
}

// linearGEMM is one of a Linear's three GEMMs (forward, input gradient,
// weight gradient: m×k by k×n in the role's order). odd says the Linear
// has an odd number of input or output features (GPT-2's 50,257-token
// vocabulary, Granite's 49,155, Whisper's 51,865): the logits, their
// gradient and so an operand of each of the three GEMMs then has an odd
// leading dimension, and cuBLAS runs its align1 tensor-core kernels (the
// profiles of Granite and Whisper show them for all three). The H200's
// odd-vocabulary calibration (gt_calib.py --unaligned) measured 118–142
// TFLOP/s for them in bf16 and fp16, against 520–720 for the same shapes
// padded to a multiple of 64; float32 (TF32 off) was not slower. Without
// odd shapes in the calibration it falls back to gemm.
func (r *rates) linearGEMM(dtype string, batch, m, n, k int64, odd bool) float64 {
	if odd && (dtype == "bf16" || dtype == "fp16") {
		if t, ok := r.gemmFrom(dtype, batch, m, n, k, true); ok {
			return t
		}
	}
	return math.Max(r.gemm(dtype, batch, m, n, k), r.gemmTraffic(dtype, batch, m, n, k))
}

// burstProbe is the H200's bf16 8192³ GEMM rate in short bursts: the
// median of the machine probes (bench/gpu/gt/gt_probe.py: 20 products
// back to back, ~27 ms, after 3 warm-ups) that start every timing process
// of testdata (259 probes, 775–813 TFLOP/s, quartiles 786 and 806). Its
// 4096³ probe reads a median 773 TFLOP/s, its float32 4096³ one 50.7.
const burstProbe = 800.9e12

// burstClock is how much faster half-precision GEMMs run in training than
// in the calibration cal. gt_calib.py times every shape for at least
// 100 ms of back-to-back products (five batches of ≥ 20 ms), long enough
// for the H200 to lower its clocks under tensor-core load: its 8192³ bf16
// point reads 668 TFLOP/s and its 4096³ one 671, where the probes read
// 801 and 773 (float32, at a fraction of the power, 50.9 and 50.7: no
// difference). A training step interleaves GEMMs with memory-bound
// kernels, so it runs them at the burst clock: five bf16 transformer
// profiles (testdata/profile: LLaMA-small, Gemma, ViT-B/16, T5, the LoRA
// adapter set) show the table's GEMM times 14–25% long, float32
// LLaMA-small's exact. The table is rescaled by the ratio of the probe to
// its own 8192³ point (×1.20), uniformly over shapes: the probes time no
// other shape, and the kernel profiles name kernels, not shapes. The
// odd-vocabulary align1 GEMMs (linearGEMM) run at a fifth of the rate and
// keep their calibrated times: Granite's and Whisper's profiles match
// them. 1 for a calibration without the 8192³ point or of another GPU.
func burstClock(cal *gpu.Calibration) float64 {
	if cal.GPU != referenceGPU {
		return 1
	}
	for _, g := range cal.GEMM {
		if g.Dtype == "bf16" && g.MNK == [3]int64{8192, 8192, 8192} && g.Seconds > 0 {
			return max(1, burstProbe/(2*8192*8192*8192/g.Seconds))
		}
	}
	return 1
}

// oddShape reports whether a calibrated GEMM has an odd dimension (the
// odd-vocabulary run's shapes); the aligned interpolation never uses them.
func oddShape(mnk [3]int64) bool { return mnk[0]%2 == 1 || mnk[1]%2 == 1 || mnk[2]%2 == 1 }

// unalignedSlowdown: a bf16 GEMM with a dimension that is not a multiple
// of 8 and no odd-shape calibration to price it (see linearGEMM, which
// prices Linears with odd features from measurements) is slowed by this
// estimate.
const unalignedSlowdown = 2.0

// idw is the inverse-squared-distance mean of the nearest (up to) four
// values, exact on a measured point.
func idw(n int, at func(i int) (dist2, v float64)) float64 {
	var sw, sv float64
	for i := 0; i < min(n, 4); i++ {
		d, v := at(i)
		if d < 1e-9 {
			return v
		}
		sw += 1 / d
		sv += v / d
	}
	return sv / sw
}

// Host scales a spec may give (HostScale): the lent hosts ran the same
// host-bound step 0.55x (late99's eager ResNet-101 b16, 28.0 ms against a
// 51.5 ms plan) to 1.7x (dev108's TinyLlama decode) of the median host's
// price; a factor a tenth of that or ten times it is a mistake, not a CPU.
const (
	minHostScale = 0.1
	maxHostScale = 10
)

// HostCostScale is the factor s.HostScale puts on the host's costs: 1
// where it is unset, an ErrSpec naming host_scale where it is not a
// number between minHostScale and maxHostScale.
func (s Spec) HostCostScale() (float64, error) {
	switch f := s.HostScale; {
	case f == 0:
		return 1, nil
	case !(f >= minHostScale && f <= maxHostScale): // NaN fails both
		return 0, specErr("host_scale", "must be between %g and %g (the host's per-operator time over the median lent host's; 0.5 is a CPU twice as fast), got %g", float64(minHostScale), float64(maxHostScale), f)
	default:
		return f, nil
	}
}
