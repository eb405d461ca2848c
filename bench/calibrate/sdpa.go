package main

import (
	"math"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
)

// defaultBackend is the backend whose kernels a default SDPA call ran:
// cuDNN's are named cudnn_generated_fort_native_sdpa_*, flash's
// flash_fwd/flash_bwd, the memory-efficient ones fmha_cutlass*.
func defaultBackend(kernels []string) string {
	for _, k := range kernels {
		switch {
		case strings.Contains(k, "cudnn_generated") && strings.Contains(k, "sdpa"):
			return "cudnn"
		case strings.Contains(k, "flash_fwd") || strings.Contains(k, "flash_bwd"):
			return "flash"
		case strings.Contains(k, "fmha_cutlass"):
			return "efficient"
		}
	}
	return ""
}

// mergeSDPA keeps one row per backend, dtype, shape and mask, the
// geometric mean of every timing of it (the default choice and the same
// backend forced run the same kernels; a shape two runs timed is two
// measurements of one thing), in first-seen order.
func mergeSDPA(rows []gpu.SDPARate) []gpu.SDPARate {
	type acc struct {
		i      int
		n      float64
		lf, lb float64
	}
	key := func(v gpu.SDPARate) gpu.SDPARate { v.FwdS, v.FwdBwdS = 0, 0; return v }
	at := map[gpu.SDPARate]*acc{}
	var out []gpu.SDPARate
	for _, v := range rows {
		a, ok := at[key(v)]
		if !ok {
			a = &acc{i: len(out)}
			at[key(v)] = a
			out = append(out, v)
		}
		a.n++
		a.lf += math.Log(v.FwdS)
		a.lb += math.Log(v.FwdBwdS)
		out[a.i].FwdS, out[a.i].FwdBwdS = math.Exp(a.lf/a.n), math.Exp(a.lb/a.n)
	}
	return out
}

// biasRows are --sdpa-bias's rows as kernel-timed gpu.SDPARate: the
// backend the kernels name (the default picks cuDNN for every variant but
// the bias that requires grad, which runs the memory-efficient kernels),
// "causal" as Causal with no mask, "bias-strided" (the same constant bias
// with k and v as strided views, the same cuDNN kernels and times) left
// out. A row whose forward and backward kernels name different backends
// is left out.
func biasRows(r *raw) []gpu.SDPARate {
	var out []gpu.SDPARate
	for _, s := range r.SDPABias {
		if s.Error != "" || s.Fwd <= 0 || s.FwdBwd <= s.Fwd || s.Mask == "bias-strided" {
			continue
		}
		be := defaultBackend(s.TopFwd)
		if be == "" || defaultBackend(s.Top) != be {
			continue
		}
		m, causal := s.Mask, false
		switch m {
		case "none":
			m = ""
		case "causal":
			m, causal = "", true
		}
		out = append(out, gpu.SDPARate{Backend: be, Dtype: s.Dtype, BHSD: [4]int64{s.BB, s.HH, s.S, s.D}, Causal: causal,
			FwdS: s.Fwd, FwdBwdS: s.FwdBwd, Mask: m, Kernels: true, Dropout: s.Dropout})
	}
	return out
}
