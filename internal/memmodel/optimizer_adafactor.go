package memmodel

import "math"

// Adafactor (transformers): factored second moments, row and column
// statistics of about 2·sqrt(numel) float32 values per parameter
// (unsharded); the per-parameter loop keeps the update and grad² of one
// parameter at a time.

func init() {
	registerOptimizer(&Optimizer{
		Name: "adafactor",
		State: func(numel int64, _ DType) []StateTensor {
			return []StateTensor{{Name: "exp_avg_sq_factored", Fixed: maxI64(int64(2*math.Sqrt(float64(numel))*4), 4)}}
		},
		Scratch: func(DType) []StateTensor {
			return []StateTensor{{Name: "adafactor_update", PerElem: 4}, {Name: "adafactor_update", PerElem: 4}}
		},
		Traffic: 28,
		Formula: true,
	})
}
