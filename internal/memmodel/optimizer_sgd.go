package memmodel

// SGD (torch.optim): plain SGD keeps no state; with momentum it keeps one
// momentum_buffer per parameter. The foreach update allocates no scratch
// the caching allocator sees.

func init() {
	registerOptimizer(&Optimizer{Name: "sgd", Traffic: 12})
	registerOptimizer(&Optimizer{
		Name: "sgd-momentum",
		State: func(_ int64, dt DType) []StateTensor {
			return []StateTensor{{Name: "momentum_buffer", PerElem: float64(dt.Size())}}
		},
		Traffic:    20,
		Calibrated: "sgd_momentum", Impl: "foreach",
		Kernels: foreachKernels,
	})
}
