package memmodel

// Adam and AdamW (torch.optim). The default (foreach) implementation keeps
// exp_avg and exp_avg_sq per parameter in the state dtype, its step counter
// on the CPU, and _multi_tensor_adam allocates one scratch tensor per
// parameter (the denominator sqrt(v)), all alive at once. With fused=True
// (the "-fused" entries) Adam._init_group puts each parameter's step
// counter on the GPU (a float32 scalar, created before the two moments)
// and _fused_adam updates parameters and moments in place in one
// multi-tensor kernel: no scratch. Memory is identical for Adam and AdamW;
// only the update differs.

func init() {
	moments := func(_ int64, dt DType) []StateTensor {
		return []StateTensor{{Name: "exp_avg", PerElem: float64(dt.Size())}, {Name: "exp_avg_sq", PerElem: float64(dt.Size())}}
	}
	for _, name := range []string{"adamw", "adam"} {
		registerOptimizer(&Optimizer{
			Name:    name,
			State:   moments,
			Scratch: func(dt DType) []StateTensor { return []StateTensor{{Name: "adam_denom", PerElem: float64(dt.Size())}} },
			Foreach: true,
			// param read+write, grad read, two states read+write (fp32)
			Traffic:    28,
			Calibrated: "adamw", Impl: "foreach",
			Kernels:   foreachKernels,
			Quantised: "adamw-8bit",
		})
		registerOptimizer(&Optimizer{
			Name: name + "-fused",
			State: func(numel int64, dt DType) []StateTensor {
				return append([]StateTensor{{Name: "step", Fixed: 4}}, moments(numel, dt)...)
			},
			Traffic:    28,
			Calibrated: "adamw", Impl: "fused",
			Kernels:   fusedKernels,
			Quantised: "adamw-8bit",
		})
	}
}
