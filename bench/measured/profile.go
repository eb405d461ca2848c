package measured

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Profiled is one workload of testdata/profile: its unprofiled step time
// (the median of its timed steps after the first two) and what
// torch.profiler saw in one step: the GPU's busy time (the union of kernel
// intervals) and every kernel, counted and timed by class.
type Profiled struct {
	Timed
	GPUBusyS float64                 `json:"gpu_busy_s"`
	Classes  map[string]ProfileClass `json:"classes"`
}

// ProfileClass is a kernel class's count and GPU time per step.
type ProfileClass struct {
	Kernels float64 `json:"kernels"`
	S       float64 `json:"s"`
}

// Kernels is the kernels per step over every class.
func (p Profiled) Kernels() float64 {
	var n float64
	for _, c := range p.Classes {
		n += c.Kernels
	}
	return n
}

// KernelS is the GPU time per step of every classed kernel, summed: the
// busy time with no range of the GPU row in it (dev33's compiled profiles
// count "## Call CompiledFxGraph ##" ranges in their gpu_busy_s) and with
// kernels that overlapped counted twice.
func (p Profiled) KernelS() float64 {
	var s float64
	for _, c := range p.Classes {
		s += c.S
	}
	return s
}

// profileKernels is gt_work.py's NAME-kernels.json (per step).
type profileKernels struct {
	GPUBusyS float64 `json:"gpu_busy_s"`
	Kernels  []struct {
		Name  string  `json:"name"`
		Count float64 `json:"count"`
		S     float64 `json:"s"`
	} `json:"kernels"`
}

// ReadProfiles reads dir/results.jsonl (gt_work.py's profile rows) and
// each row's NAME-kernels.json.
//
// A capture set laid out as testdata/dev6 (the rows in
// families/results.jsonl, the kernels in profiles/) is read the same
// way: only its rows with a profiles/NAME-kernels.json count.
func ReadProfiles(dir string) ([]Profiled, error) {
	rows, kernels := filepath.Join(dir, "results.jsonl"), dir
	if _, err := os.Stat(rows); err != nil {
		if _, err2 := os.Stat(filepath.Join(dir, "profiles")); err2 == nil {
			rows, kernels = filepath.Join(dir, "families", "results.jsonl"), filepath.Join(dir, "profiles")
		}
	}
	data, err := os.ReadFile(rows)
	if err != nil {
		return nil, err
	}
	var out []Profiled
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var c GTRow
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		kpath := filepath.Join(kernels, c.Name+"-kernels.json")
		if kernels != dir {
			if _, err := os.Stat(kpath); err != nil {
				continue // a row of the set that was not profiled
			}
		}
		if len(c.IterS) < 4 {
			return nil, fmt.Errorf("%s: %s: %d timed steps, want at least 4", dir, c.Name, len(c.IterS))
		}
		c.StepMedianS = Median(c.IterS[2:])
		w, why, err := fromCaptureRow(c)
		if err != nil {
			return nil, err
		}
		if why != "" {
			continue
		}
		w.Source = filepath.Base(dir)
		k, err := os.ReadFile(kpath)
		if err != nil {
			return nil, err
		}
		var pk profileKernels
		if err := json.Unmarshal(k, &pk); err != nil {
			return nil, fmt.Errorf("%s-kernels.json: %w", c.Name, err)
		}
		p := Profiled{Timed: w, GPUBusyS: pk.GPUBusyS, Classes: map[string]ProfileClass{}}
		for _, k := range pk.Kernels {
			cl := KernelClass(k.Name)
			if cl == "" {
				continue
			}
			pc := p.Classes[cl]
			pc.Kernels += k.Count
			pc.S += k.S
			p.Classes[cl] = pc
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

// KernelClass sorts a CUDA kernel of a profile by name into the step-time
// model's classes (memmodel.StepDetail): gemm, attention, conv, norm,
// copy, optimizer, pointwise. Profiler entries that are not kernels (the
// optimizer's annotation on the GPU row, "Optimizer.step#AdamW.step",
// memsets, copies between host and device) return "".
func KernelClass(name string) string {
	l := strings.ToLower(name)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(l, s) {
				return true
			}
		}
		return false
	}
	switch {
	case strings.Contains(name, "#") && !strings.Contains(name, " ") || has("memset", "memcpy"):
		return ""
	case strings.HasPrefix(name, "## "):
		// a range on the GPU row, not a kernel: "## Call CompiledFxGraph
		// ... ##" spans a compiled graph's kernels (dev33's profiles, taken
		// with shapes recorded, have them)
		return ""
	case strings.HasPrefix(l, "triton_tem_fused_"):
		// Inductor's templates: a GEMM or a convolution with its epilogue
		if has("convolution") {
			return "conv"
		}
		return "gemm"
	case strings.HasPrefix(l, "triton_"):
		// Inductor's generated kernels are fused pointwise ops and
		// reductions, whatever ops their names list ("...convolution_
		// backward_native_batch_norm_backward..." is BatchNorm's backward
		// fused with the ops around it)
		if has("batch_norm", "layer_norm", "group_norm", "rms_norm") {
			return "norm"
		}
		return "pointwise"
	case has("multi_tensor_apply"):
		return "optimizer"
	case has("sdpa", "flash", "fmha", "attention", "cudnn::fusion"): // cudnn::fusion: cuDNN SDPA's backward helpers
		return "attention"
	case has("conv2d", "conv_", "convolution", "convolve", "fprop", "dgrad", "wgrad", "nchwtonhwc", "nhwctonchw", "implicit_gemm"):
		return "conv"
	case has("nvjet", "gemm", "cutlass", "cublas", "splitk"):
		return "gemm"
	case has("batch_norm", "layer_norm", "gammabeta", "rms_norm", "group_norm", "welford", "cudnn::bn_", "cudnn::batchnorm_",
		"groupnorm", "rowwisemoments", "computeinternalgradients"): // ATen's GroupNorm kernels
		return "norm"
	case has("copy_kernel", "direct_copy", "catarraybatchedcopy"):
		return "copy" // casts, strided .contiguous() copies, cat
	}
	return "pointwise"
}

// Median is the median of xs (the mean of the middle two for an even
// count; 0 for none). xs is not changed.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
