package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
)

// opsProfile is gt_work.py's profile="ops" table (NAME-ops.json): per ATen
// op and input shapes of a profiled training step, the calls a step and
// the GPU time of the kernels they launched.
type opsProfile struct {
	Ops []struct {
		Op      string  `json:"op"`
		Shapes  string  `json:"shapes"`
		Count   float64 `json:"count"`
		DeviceS float64 `json:"device_s"`
	} `json:"ops"`
}

// convRowsOfOps turns a profiled eager step's convolutions into
// kernel-timed calibration rows (gpu.ConvRate.Kernels): the forward
// (aten::convolution) and backward (aten::convolution_backward) of each
// input and weight shape, per call, the stride read off the gradient's
// size, the padding k/2 as torchvision's networks pad. The dtype and
// memory format are the file name's (gt_work's "-bf16"; "-cl" for eager
// channels-last, "-compile" for Inductor's steps, which run their
// convolutions channels-last: testdata/dev33). Left out:
// a network's first convolution (its input needs no gradient, so its
// backward has no data gradient), a shape two strides share, and shapes
// the profile did not time both ways. An eager convolution with a bias
// sums its bias gradient inside convolution_backward; the step-time model
// prices that sum apart (memmodel's convBiasSum), so the backward keeps
// the convolution's own kernels: the sum's time from reduce, the
// calibrated bias-gradient rows (dev56), comes off (biasSum).
func convRowsOfOps(path string, data []byte, reduce []gpu.ReduceRate) ([]gpu.ConvRate, error) {
	var p opsProfile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	base := filepath.Base(path)
	dtype, _ := opsDtype(base)
	if dtype == "" {
		return nil, fmt.Errorf("%s: no -bf16, -fp16 or -fp32 in the name", path)
	}
	cl := strings.Contains(base, "-cl-") || strings.Contains(base, "-compile-")
	type key struct{ in, w [4]int64 }
	type acc struct {
		fwd, bwd float64
		out      map[[4]int64]bool
		bias     bool
	}
	at := map[key]*acc{}
	var order []key
	get := func(k key) *acc {
		if a, ok := at[k]; ok {
			return a
		}
		a := &acc{out: map[[4]int64]bool{}}
		at[k] = a
		order = append(order, k)
		return a
	}
	for _, o := range p.Ops {
		var sh [][]int64
		if err := json.Unmarshal([]byte(o.Shapes), &sh); err != nil || o.Count <= 0 {
			continue // a shape list the profiler cut short
		}
		switch {
		case o.Op == "aten::convolution" && len(sh) >= 2 && len(sh[0]) == 4 && len(sh[1]) == 4:
			a := get(key{to4(sh[0]), to4(sh[1])})
			a.fwd = o.DeviceS / o.Count
			a.bias = len(sh) >= 3 && len(sh[2]) == 1
		case o.Op == "aten::convolution_backward" && len(sh) >= 3 && len(sh[0]) == 4 && len(sh[1]) == 4 && len(sh[2]) == 4:
			a := get(key{to4(sh[1]), to4(sh[2])})
			a.bwd = o.DeviceS / o.Count
			a.out[to4(sh[0])] = true
		}
	}
	var rows []gpu.ConvRate
	for _, k := range order {
		a := at[k]
		if a.fwd <= 0 || a.bwd <= 0 || len(a.out) != 1 || k.in[1] <= 4 || k.in[2] != k.in[3] {
			continue
		}
		var out [4]int64
		for o := range a.out {
			out = o
		}
		stride := int64(math.Round(float64(k.in[2]) / float64(out[2])))
		if a.bias && !strings.Contains(base, "-compile-") {
			a.bwd -= biasSum(reduce, dtype, cl, out)
		}
		rows = append(rows, gpu.ConvRate{Dtype: dtype, ChannelsLast: cl || convnextBlock(base, k.in), N: k.in[0], Cin: k.in[1], Cout: k.w[0],
			H: k.in[2], K: k.w[2], Stride: max(stride, 1), Groups: k.in[1] / k.w[1], FwdS: a.fwd,
			FwdBwdS: a.fwd + a.bwd, Kernels: true})
	}
	return rows, nil
}

// normRowsOfOps turns a profiled eager channels-last step's batch norms
// into kernel-timed calibration rows (gpu.NormRate.Kernels): per input
// shape, the forward (aten::native_batch_norm, or aten::cudnn_batch_norm
// for float16 and float32) and backward (their _backward) kernels per call,
// bytes the input's and output's as gt_calib.py --norm counts them. An
// eager timing of a small batch norm is Python's (testdata/dev35: 150–340
// µs backward whatever the shape); its kernels take 13–60 µs. Compiled
// steps (Inductor decomposes batch norm) and NCHW steps give none: the
// NCHW rows stay the eager calibration's, on which the NCHW models were
// judged.
func normRowsOfOps(path string, data []byte) ([]gpu.NormRate, error) {
	base := filepath.Base(path)
	if !strings.Contains(base, "-cl-") {
		return nil, nil
	}
	var p opsProfile
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dtype, es := opsDtype(base)
	if dtype == "" {
		return nil, fmt.Errorf("%s: no -bf16, -fp16 or -fp32 in the name", path)
	}
	type acc struct{ fwd, bwd float64 }
	at := map[[4]int64]*acc{}
	var order [][4]int64
	get := func(k [4]int64) *acc {
		if a, ok := at[k]; ok {
			return a
		}
		a := &acc{}
		at[k] = a
		order = append(order, k)
		return a
	}
	for _, o := range p.Ops {
		var sh [][]int64
		if err := json.Unmarshal([]byte(o.Shapes), &sh); err != nil || o.Count <= 0 || len(sh) < 2 || len(sh[0]) != 4 {
			continue
		}
		switch o.Op {
		case "aten::native_batch_norm", "aten::cudnn_batch_norm":
			get(to4(sh[0])).fwd = o.DeviceS / o.Count
		case "aten::native_batch_norm_backward", "aten::cudnn_batch_norm_backward":
			// the output gradient first (native) or the input (cuDNN):
			// both are the input's shape
			get(to4(sh[0])).bwd = o.DeviceS / o.Count
		}
	}
	var rows []gpu.NormRate
	for _, k := range order {
		a := at[k]
		if a.fwd <= 0 || a.bwd <= 0 || k[2] != k[3] {
			continue
		}
		n := k[0] * k[1] * k[2] * k[3]
		rows = append(rows, gpu.NormRate{Op: "batch_norm", Dtype: dtype, N: k[0], C: k[1], H: k[2],
			Bytes: float64(2 * n * es), FwdS: a.fwd, FwdBwdS: a.fwd + a.bwd, ChannelsLast: true, Kernels: true})
	}
	return rows, nil
}

// opsDtype is the dtype a profile's file name states (gt_work's "-bf16",
// "-fp16", "-fp32") and its element size; "" when it states none.
func opsDtype(base string) (string, int64) {
	for _, d := range []struct {
		name string
		size int64
	}{{"bf16", 2}, {"fp16", 2}, {"fp32", 4}} {
		if strings.Contains(base, "-"+d.name) {
			return d.name, d.size
		}
	}
	return "", 0
}

func to4(s []int64) [4]int64 { return [4]int64{s[0], s[1], s[2], s[3]} }

// biasSum is the time of a convolution's bias-gradient sum over an output
// of shape out (N, C, H, W) in dtype and layout cl (gpu.ConvBiasSeconds;
// float16 takes bfloat16's rows, within 1% in dev56); 0 without rows.
func biasSum(reduce []gpu.ReduceRate, dtype string, cl bool, out [4]int64) float64 {
	if dtype == "fp16" {
		dtype = "bf16"
	}
	t, _ := gpu.ConvBiasSeconds(reduce, dtype, cl, out[0], out[1], out[2]*out[3])
	return t
}

// convnextBlock reports whether a profiled eager step's convolution of
// input shape in ran channels-last although the step was NCHW: torchvision's
// ConvNeXt permutes every block's and downsampling layer's activations to
// channels-last and back (CNBlock's Permute, LayerNorm2d), so every
// convolution after the stem reads an NHWC-strided tensor and cuDNN runs
// its NHWC kernels (dev15's ConvNeXt-T profile: conv2d_c1_k1_nhwc,
// dgrad2d_c1_k1_nhwc, wgrad2d_c1_k1_nhwc); memmodel prices them so
// (family_convnext.go). The stem reads the 3-channel image.
func convnextBlock(base string, in [4]int64) bool {
	return strings.Contains(base, "convnext") && in[1] > 3
}
