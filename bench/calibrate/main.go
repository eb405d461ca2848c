// Command calibrate turns the raw output of calibration runs on a GPU
// (bench/gpu/gt/gt_calib.py, e.g. testdata/late/calibration-full.json)
// into the compact table vramkit embeds (internal/gpu/calibration/NAME.json):
// the measured times only, rates recomputed from shapes, failed
// measurements dropped.
//
//	go run ./bench/calibrate -gpu h200 -in 'RAW.json[,MORE.json|GLOB...]' -out internal/gpu/calibration/h200.json
//
// Several raw files make one table: -in lists files or glob patterns
// (testdata/late/calibration-*.json reads every run), comma-separated. The
// base is the first run that timed GEMMs and the launch floor (a full
// run): it gives the device, launch floor and host cost; every other run
// adds its rows in name order (partial runs such as gt_calib.py --conv16
// and --conv256, or --small-gemm's GEMMs); a convolution or a GEMM timed by
// two runs keeps the geometric mean of their times.
//
// internal/gpu runs it through go:generate over every raw file.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
)

func main() {
	name := flag.String("gpu", "h200", "catalog name of the calibrated GPU")
	in := flag.String("in", "testdata/captures/calibration/calibration.json", "raw calibration JSON files, comma-separated")
	out := flag.String("out", "", "table to write (default stdout)")
	flag.Parse()
	if err := run(*name, *in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "calibrate:", err)
		os.Exit(1)
	}
}

func run(name, in, out string) error {
	if _, err := gpu.Lookup(name); err != nil {
		return err
	}
	paths, err := expand(in)
	if err != nil {
		return err
	}
	runs := make([]gpu.Calibration, len(paths))
	// the bias-gradient rows of the runs read so far (a profile's
	// convolutions take their sums off: convRowsOfOps)
	var reduce []gpu.ReduceRate
	base := -1
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, "-ops.json") {
			// a profiled step's convolutions (ops.go): rows for the
			// run merged below, which has no launch figures of its own
			rows, err := convRowsOfOps(path, data, reduce)
			if err != nil {
				return err
			}
			norms, err := normRowsOfOps(path, data)
			if err != nil {
				return err
			}
			runs[i] = gpu.Calibration{GPU: name, Source: filepath.Base(path), Conv: rows, Norm: norms}
			continue
		}
		var r raw
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		runs[i] = build(name, filepath.Base(path), &r)
		reduce = append(reduce, runs[i].Reduce...)
		if base < 0 && len(runs[i].GEMM) > 0 && runs[i].LaunchS > 0 {
			base = i
		}
	}
	if base < 0 {
		return fmt.Errorf("%s: no run with GEMM and launch measurements", in)
	}
	c := runs[base]
	for i := range runs {
		if i != base {
			merge(&c, &runs[i])
		}
	}
	enc, err := encode(c)
	if err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(enc)
		return err
	}
	return os.WriteFile(out, enc, 0o644)
}

// expand is the files of a comma-separated list of paths and glob
// patterns, each pattern's matches in name order, each file once.
func expand(in string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, p := range strings.Split(in, ",") {
		m, err := filepath.Glob(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s: no such file", p)
		}
		for _, f := range m { // Glob sorts
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// merge adds a later run's rows to c. A convolution both runs timed (same
// shape, dtype and memory format, and the same way: events or kernels)
// keeps one row, the geometric mean of the two: the runs disagree by up to
// a third on the same shape, neither is the better measurement. Launch and host figures stay the first run's.
func merge(c, b *gpu.Calibration) {
	c.Source += "+" + b.Source
	c.GEMM = mergeGEMM(append(c.GEMM, b.GEMM...))
	c.SDPA = mergeSDPA(append(c.SDPA, b.SDPA...))
	c.Stream = append(c.Stream, b.Stream...)
	c.Optim = append(c.Optim, b.Optim...)
	c.Norm = append(c.Norm, b.Norm...)
	c.Reduce = append(c.Reduce, b.Reduce...)
	key := func(v gpu.ConvRate) gpu.ConvRate { v.FwdS, v.FwdBwdS = 0, 0; return v }
	at := make(map[gpu.ConvRate]int, len(c.Conv))
	for i, v := range c.Conv {
		at[key(v)] = i
	}
	for _, v := range b.Conv {
		i, ok := at[key(v)]
		if !ok {
			c.Conv = append(c.Conv, v)
			continue
		}
		c.Conv[i].FwdS = math.Sqrt(c.Conv[i].FwdS * v.FwdS)
		c.Conv[i].FwdBwdS = math.Sqrt(c.Conv[i].FwdBwdS * v.FwdBwdS)
	}
	sortStream(c.Stream)
}

func build(name, src string, r *raw) gpu.Calibration {
	c := gpu.Calibration{GPU: name, Source: src, Device: r.Device, Torch: r.Torch, CUDNN: r.CUDNN,
		LaunchS: r.Launch.Events, EnqueueS: r.Launch.Enqueue}
	for _, g := range r.GEMM {
		if g.S > 0 {
			c.GEMM = append(c.GEMM, gpu.GEMMRate{Dtype: g.Dtype, MNK: [3]int64{g.MM, g.NN, g.KK}, Seconds: g.S})
		}
	}
	// Of the odd-vocabulary run only the odd shapes whose odd dimension is
	// a leading dimension (fwd: the output's N, dgrad: the input's K) are
	// kept: a Linear's logits, its gradient and so all three of its GEMMs
	// have the vocabulary as leading dimension (the profiles show cuBLAS's
	// align1 kernels for all three), while the run's wgrad operand was a
	// contiguous copy with an aligned leading dimension. The aligned
	// neighbours are only the run's yardstick (the full run times aligned
	// shapes).
	for _, g := range r.GEMMUnaligned {
		if g.S > 0 && !g.Aligned && g.Role != "wgrad" {
			c.GEMM = append(c.GEMM, gpu.GEMMRate{Dtype: g.Dtype, MNK: [3]int64{g.MM, g.NN, g.KK}, Seconds: g.S})
		}
	}
	// Of the small-GEMM run only the float32 products are kept: eager bf16
	// products at these shapes time torch.mm's host issue (every one up to
	// 8.6 GFLOP took 14.7–22.5 µs, where testdata/dev16's CUDA-graph
	// replays take 3–14 µs), and the bf16 rows above that cost move the
	// interpolation far from their shapes: the batch-64 ResNet
	// convolutions priced from the bf16 table's ratios (steptime_conv.go)
	// moved 5–13% with them (branch steptime27-fold).
	for _, g := range r.GEMMSmall {
		if g.S > 0 && g.Dtype == "fp32" {
			c.GEMM = append(c.GEMM, gpu.GEMMRate{Dtype: g.Dtype, MNK: [3]int64{g.MM, g.NN, g.KK}, Seconds: g.S})
		}
	}
	c.GEMM = mergeGEMM(c.GEMM)
	for _, s := range r.SDPA { // the full run timed bf16 only
		if s.Error == "" && s.Fwd > 0 && s.FwdBwd > s.Fwd {
			c.SDPA = append(c.SDPA, gpu.SDPARate{Backend: s.Backend, Dtype: "bf16", BHSD: [4]int64{s.BB, s.HH, s.S, s.D},
				Causal: s.Causal, FwdS: s.Fwd, FwdBwdS: s.FwdBwd})
		}
	}
	for _, s := range r.SDPABackends {
		be := s.Backend
		if be == "default" {
			// torch's own choice counts as the backend its kernels name;
			// a choice the table cannot name is left out
			if be = defaultBackend(s.Kernels); be == "" {
				continue
			}
		}
		if s.Error == "" && s.Fwd > 0 && s.FwdBwd > s.Fwd {
			c.SDPA = append(c.SDPA, gpu.SDPARate{Backend: be, Dtype: s.Dtype, BHSD: [4]int64{s.BB, s.HH, s.S, s.D},
				Causal: s.Causal, FwdS: s.Fwd, FwdBwdS: s.FwdBwd})
		}
	}
	// of the mask run the unmasked and additive-mask rows: what a mask
	// costs cuDNN (the bool mask's rows add the conversion kernel eager
	// launches, which Inductor fuses away)
	for _, s := range r.SDPAMask {
		if s.Error != "" || s.Fwd <= 0 || s.FwdBwd <= s.Fwd || (s.Mask != "none" && s.Mask != "additive") {
			continue
		}
		m := s.Mask
		if m == "none" {
			m = ""
		}
		c.SDPA = append(c.SDPA, gpu.SDPARate{Backend: "cudnn", Dtype: s.Dtype, BHSD: [4]int64{s.BB, s.HH, s.S, s.D},
			FwdS: s.Fwd, FwdBwdS: s.FwdBwd, Mask: m, Kernels: true})
	}
	c.SDPA = append(c.SDPA, biasRows(r)...)
	c.SDPA = mergeSDPA(c.SDPA)
	for _, v := range r.Conv {
		if v.Error == "" && v.Fwd > 0 && v.FwdBwd > v.Fwd {
			c.Conv = append(c.Conv, gpu.ConvRate{Dtype: v.Dtype, ChannelsLast: v.CL, N: v.N, Cin: v.Cin, Cout: v.Cout,
				H: v.H, K: v.K, Stride: v.Stride, Groups: v.Groups, FwdS: v.Fwd, FwdBwdS: v.FwdBwd, Kernels: v.Kernels})
		}
	}
	for _, p := range r.Pointwise {
		if p.S > 0 && p.Bytes > 0 {
			c.Stream = append(c.Stream, gpu.StreamRate{Op: p.Op, Dtype: p.Dtype, Bytes: p.Bytes, Seconds: p.S})
		}
	}
	for _, p := range r.Broadcast {
		if p.S > 0 && p.Bytes > 0 && broadcastKept(p.Op, p.Dtype) {
			c.Stream = append(c.Stream, gpu.StreamRate{Op: p.Op, Dtype: p.Dtype, Bytes: p.Bytes, Seconds: p.S})
		}
	}
	c.Reduce, c.Stream = reduceActRows(r.ReduceAct, c.Stream)
	for _, v := range r.Norm {
		if v.Error == "" && v.Fwd > 0 && v.FwdBwd > v.Fwd && v.Bytes > 0 {
			c.Norm = append(c.Norm, gpu.NormRate{Op: v.Op, Dtype: v.Dtype, N: v.N, C: v.C, H: v.H, Bytes: v.Bytes,
				FwdS: v.Fwd, FwdBwdS: v.FwdBwd, ChannelsLast: v.CL})
		}
	}
	for _, o := range r.Optimizer {
		if o.Error == "" && o.S > 0 {
			c.Optim = append(c.Optim, gpu.OptimizerRate{Optimizer: o.Optimizer, Impl: o.Impl, Params: o.Params,
				Tensors: o.Tensors, Seconds: o.S})
		}
	}
	sortStream(c.Stream)
	return c
}

// mergeGEMM keeps one row per dtype and shape, in first-seen order, at the
// geometric mean of the times measured for it: the small-GEMM run repeats
// shapes of the full run (float32 1024³: 56.6 µs there, 56.5 µs here) and
// its own forward and weight-gradient orientations coincide where N·K is
// square in tokens (1024 tokens × 1024 × 1024). The interpolation takes
// the four nearest shapes, so a repeated shape would count twice.
func mergeGEMM(rows []gpu.GEMMRate) []gpu.GEMMRate {
	type key struct {
		dtype string
		mnk   [3]int64
	}
	at := map[key]int{}
	logSum := map[int]float64{}
	n := map[int]int{}
	var out []gpu.GEMMRate
	for _, g := range rows {
		k := key{g.Dtype, g.MNK}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, g)
		}
		logSum[i] += math.Log(g.Seconds)
		n[i]++
	}
	for i := range out {
		if n[i] > 1 {
			out[i].Seconds = math.Exp(logSum[i] / float64(n[i]))
		}
	}
	return out
}

// broadcastKept reports whether a --broadcast row is a rate the table
// keeps: a float32 "to_fp32" converts nothing (x.float() of a float32
// tensor returns it; its times are the host's).
func broadcastKept(op, dtype string) bool { return !(op == "to_fp32" && dtype == "fp32") }

// sortStream orders memory-bound rows by op, dtype and size.
func sortStream(s []gpu.StreamRate) {
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		if a.Dtype != b.Dtype {
			return a.Dtype < b.Dtype
		}
		return a.Bytes < b.Bytes
	})
}

// encode writes the table with one measurement a line, so that a new
// calibration shows in a diff as the rows that changed.
func encode(c gpu.Calibration) ([]byte, error) {
	whole, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(whole, &fields); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range keys {
		fmt.Fprintf(&b, "%q: ", k)
		var rows []json.RawMessage
		if json.Unmarshal(fields[k], &rows) == nil && len(rows) > 0 {
			b.WriteString("[\n")
			for j, r := range rows {
				b.WriteString("  ")
				b.Write(r)
				if j < len(rows)-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString("]")
		} else {
			b.Write(fields[k])
		}
		if i < len(keys)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}
