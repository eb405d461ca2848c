package memmodel

// Adam and AdamW (torch.optim, foreach implementation): exp_avg and
// exp_avg_sq per parameter in the state dtype; _multi_tensor_adam
// allocates one scratch tensor per parameter (the denominator sqrt(v)),
// all alive at once. Memory is identical for both; only the update differs.

func init() {
	for _, name := range []string{"adamw", "adam"} {
		registerOptimizer(&Optimizer{
			Name: name,
			State: func(_ int64, dt DType) []StateTensor {
				return []StateTensor{{Name: "exp_avg", PerElem: float64(dt.Size())}, {Name: "exp_avg_sq", PerElem: float64(dt.Size())}}
			},
			Scratch: func(dt DType) []StateTensor { return []StateTensor{{Name: "adam_denom", PerElem: float64(dt.Size())}} },
			Foreach: true,
			// param read+write, grad read, two states read+write (fp32)
			Traffic: 28,
		})
	}
}
