package infer

import "github.com/vramkit/vramkit/internal/memmodel"

// Result is the prediction for one generate configuration on one GPU.
type Result struct {
	Task         string `json:"task"`
	Model        string `json:"model"`
	GPU          string `json:"gpu"`
	Params       int64  `json:"params"`
	Batch        int    `json:"batch"`
	Prompt       int    `json:"prompt_tokens"`
	NewTokens    int    `json:"new_tokens"`
	Precision    string `json:"precision"`
	ComputeDType string `json:"compute_dtype"`
	KVDType      string `json:"kv_dtype"`
	Cache        string `json:"cache"`
	Attention    string `json:"attention"`
	// Weights is the parameters' bytes; KVCache the cache at the end of
	// generation (batch × tokens held × bytes per token).
	Weights       int64         `json:"weights_bytes"`
	KVCache       int64         `json:"kv_cache_bytes"`
	PeakAllocated int64         `json:"peak_allocated_bytes"`
	PeakReserved  int64         `json:"peak_reserved_bytes"`
	Context       int64         `json:"cuda_context_bytes"`
	Process       int64         `json:"process_bytes"`
	AllocatedBand memmodel.Band `json:"peak_allocated_band"`
	ReservedBand  memmodel.Band `json:"peak_reserved_band"`
	ProcessBand   memmodel.Band `json:"process_band"`
	// Breakdown is the live bytes per category at the allocated peak,
	// plus allocator overhead (reserved − allocated) and the CUDA context.
	Breakdown map[string]int64 `json:"breakdown"`
	PeakPhase string           `json:"peak_phase"`
	PeakStep  int              `json:"peak_step"`
	// PrefillTime is the first forward over the prompt; DecodeStep the
	// mean time of one later forward, DecodeTokensPerSec batch over it.
	PrefillTime        float64    `json:"prefill_s"`
	PrefillBand        [2]float64 `json:"prefill_band_s"`
	DecodeStep         float64    `json:"decode_step_s"`
	DecodeTokensPerSec float64    `json:"decode_tokens_per_s"`
	DecodeBand         [2]float64 `json:"decode_tokens_per_s_band"`
	// DecodeBound says what limits a decode step: "memory" (reading the
	// weights and the cache at BandwidthGBps) or "host" (Python and
	// kernel launches of an eager forward).
	DecodeBound   string   `json:"decode_bound"`
	DecodeRead    int64    `json:"decode_read_bytes"`
	BandwidthGBps float64  `json:"bandwidth_gbps"`
	TotalTime     float64  `json:"generate_s"`
	Capacity      int64    `json:"capacity_bytes"`
	Fits          bool     `json:"fits"`
	Headroom      int64    `json:"headroom_bytes"`
	Notes         []string `json:"notes,omitempty"`
}

// bands sets the uncertainty of the memory figures, from the signed
// errors on the 46 generate captures of testdata/captures/generate (see
// docs/inference.md) with a margin: peak allocated was within 0.1%, so
// ±3%; peak reserved from 8.5% under (the real allocator fragmented more:
// GPT-2 medium and Qwen2.5-0.5B at batch 32, measurements 9.3% above the
// prediction) to 3.6% over (static caches), so −5%…+12%. Paths with no
// capture behind them are wider.
func bands(c *config, r *Result) {
	aLo, aHi, rLo, rHi := 0.03, 0.03, 0.05, 0.12
	widen := func(by float64, why string) {
		aLo, aHi, rLo, rHi = aLo+by, aHi+by, rLo+by, rHi+by
		r.Notes = append(r.Notes, why)
	}
	if c.q != quantNone {
		widen(0.10, "int8/int4 weights are modelled from bitsandbytes' storage and kernels, not captured: wider band")
	}
	if c.kv != c.dt {
		widen(0.05, "transformers' DynamicCache has no fp8 storage; the cache is modelled as stored in 1-byte elements and read back in the compute dtype")
	}
	if c.eager {
		widen(0.05, "eager attention is modelled from the code, not captured")
	}
	if c.spec.AllocConf != "" {
		rHi += 0.05
	}
	band := func(v int64, lo, hi float64) memmodel.Band {
		return memmodel.Band{Low: int64(float64(v) * (1 - lo)), High: int64(float64(v) * (1 + hi))}
	}
	r.AllocatedBand = band(r.PeakAllocated, aLo, aHi)
	r.ReservedBand = band(r.PeakReserved, rLo, rHi)
	ctxErr := int64(150 << 20)
	r.ProcessBand = memmodel.Band{Low: r.ReservedBand.Low + r.Context - ctxErr, High: r.ReservedBand.High + r.Context + ctxErr}
}
