package infer

import (
	"fmt"
	"math"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// Result is the prediction for one generate configuration on one GPU.
type Result struct {
	Task   string `json:"task"`
	Model  string `json:"model"`
	GPU    string `json:"gpu"`
	Params int64  `json:"params"`
	Batch  int    `json:"batch"`
	// Beams is generate's num_beams (1: greedy search); the model runs
	// Batch × Beams sequences.
	Beams int `json:"num_beams"`
	// DoSample is generate's do_sample; ReturnSequences its
	// num_return_sequences (the model runs Batch × ReturnSequences
	// sequences); Decoding says in words how the next token is chosen and
	// which processors run.
	DoSample        bool   `json:"do_sample"`
	ReturnSequences int    `json:"num_return_sequences"`
	Decoding        string `json:"decoding"`
	Prompt          int    `json:"prompt_tokens"`
	// Input, when set, is what the encoder reads instead of a prompt of
	// tokens (Whisper's audio window); Prompt is then its positions.
	Input        string `json:"input,omitempty"`
	NewTokens    int    `json:"new_tokens"`
	Precision    string `json:"precision"`
	ComputeDType string `json:"compute_dtype"`
	KVDType      string `json:"kv_dtype"`
	Cache        string `json:"cache"`
	Attention    string `json:"attention"`
	// Weights is the parameters' bytes; KVCache the cache at the end of
	// generation (batch × tokens held × bytes per token).
	Weights       int64 `json:"weights_bytes"`
	KVCache       int64 `json:"kv_cache_bytes"`
	PeakAllocated int64 `json:"peak_allocated_bytes"`
	memmodel.Reserved
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
	// SamplerStep is the part of DecodeStep that sampling takes (the
	// warpers, softmax and multinomial after the forward:
	// sampler_time.go); 0 under greedy search.
	SamplerStep float64    `json:"sampler_step_s,omitempty"`
	DecodeBand  [2]float64 `json:"decode_tokens_per_s_band"`
	// DecodeBound says what limits a decode step: "memory" (reading the
	// weights and the cache at BandwidthGBps) or "host" (Python and
	// kernel launches of an eager forward).
	DecodeBound string `json:"decode_bound"`
	// HostScale is the spec's host_scale the host's prices were
	// multiplied by (0: none, the median lent host's).
	HostScale float64 `json:"host_scale,omitempty"`
	// DecodeGPU and DecodeHost are a step's two prices, the GPU's work
	// and the host's issuing of it (sampling in both); DecodeStep is the
	// larger.
	DecodeGPU     float64 `json:"decode_gpu_s"`
	DecodeHost    float64 `json:"decode_host_s"`
	DecodeRead    int64   `json:"decode_read_bytes"`
	BandwidthGBps float64 `json:"bandwidth_gbps"`
	TotalTime     float64 `json:"generate_s"`
	Capacity      int64   `json:"capacity_bytes"`
	// Confidence is the probability the bands are built to cover;
	// BandClasses the generate classes (with their rows) they rest on.
	Confidence  float64  `json:"confidence"`
	BandClasses []string `json:"band_classes"`
	// Fits, Headroom and Verdict are one decision (memmodel.Decide) on
	// the top of the process band against the GPU's memory: Headroom is
	// Capacity − ProcessBand.High, negative exactly when it does not fit.
	Fits     bool             `json:"fits"`
	Headroom int64            `json:"headroom_bytes"`
	Verdict  memmodel.Verdict `json:"verdict"`
	Notes    []string         `json:"notes,omitempty"`
	// Alternatives are changes that lower the call's memory (Advise),
	// best first; empty when the allocator holds little beyond the
	// tensors.
	Alternatives []Alternative `json:"alternatives,omitempty"`
}

// BandClasses names the classes of generate workload spec belongs to, as
// bands.json keys them (its "generate" set): the model family, the
// weights' precision, the cache layout and the GPU. bench/bands groups the
// generate captures' errors by the same names.
func BandClasses(spec memmodel.Spec) ([]string, error) {
	c, err := resolve(spec)
	if err != nil {
		return nil, err
	}
	return c.bandClasses(), nil
}

func (c *config) bandClasses() []string {
	cache := "dynamic"
	if c.static {
		cache = "static"
	}
	return []string{"family=" + c.arch.Family, "precision=" + c.prec, "cache=" + cache, "gpu=" + c.gpu.Name}
}

// bands sets the uncertainty of the memory figures from the errors
// measured on generate captures (bands.json's generate set, built by
// bench/bands: per class of family, precision, cache and GPU, at the
// table's confidence). Paths with no capture behind them (quantised
// weights, an fp8 cache, eager attention) are wider by a stated amount.
func bands(c *config, r *Result) {
	t := memmodel.EmbeddedBands() // parsed once per process, shared: read only
	r.ModelReserved = r.PeakReserved
	if t.Generate != nil && t.Generate.Allowance != nil {
		// the bands below are of the figure with the allowance
		if add := r.Reserved.Apply(*t.Generate.Allowance); add > 0 {
			r.Process += add
			r.Breakdown["untraced_allowance"] = add
		}
	}
	rb, ab, basis, why, ok := t.GenerateBand(c.bandClasses())
	if !ok {
		// no generate rows in the table: the errors of the 46 dev
		// captures with a margin (docs/inference.md)
		rb, ab, basis = [2]float64{0.95, 1.12}, [2]float64{0.97, 1.03}, []string{"built-in"}
	}
	r.Confidence, r.BandClasses = t.Confidence, basis
	if r.Confidence == 0 {
		r.Confidence = 0.95
	}
	if len(why) > 0 {
		r.Notes = append(r.Notes, "uncertainty: "+strings.Join(why, "; "))
	}
	widen := func(by float64, note string) {
		rb, ab = [2]float64{rb[0] - by, rb[1] + by}, [2]float64{ab[0] - by, ab[1] + by}
		r.Notes = append(r.Notes, note)
	}
	if c.q != quantNone {
		widen(0.10, "int8/int4 weights are modelled from bitsandbytes' storage and kernels, not captured: band widened by 10% each side")
	}
	if c.kv != c.dt {
		widen(0.05, "transformers' DynamicCache has no fp8 storage; the cache is modelled as stored in 1-byte elements and read back in the compute dtype: band widened by 5% each side")
	}
	if c.eager {
		widen(0.05, "eager attention is modelled from the code, not captured: band widened by 5% each side")
	}
	if c.spec.AllocConf != "" {
		// said: it widened the top without a word
		rb[1] += 0.05
		r.Notes = append(r.Notes, "allocator settings (alloc_conf) are replayed, not captured on generate calls: the reserved band's top raised by 5% of the prediction")
	}
	if g := t.Generate; g != nil && g.MaxNewTokens > 0 && c.gen > int64(g.MaxNewTokens) && r.PeakReserved > 0 {
		// how well the allocator reuses a growing cache's freed blocks
		// over so many steps is the replay's alone: reserved may be
		// anywhere down to the allocated peak
		widen(0.10, fmt.Sprintf("no held-out generate call ran more than %d new tokens (this one runs %d): the allocator's reuse of the cache's freed blocks over so many steps is the replay's, unmeasured: band widened by 10%% each side, the reserved band's low end down to the allocated band's", g.MaxNewTokens, c.gen))
		rb[0] = min(rb[0], ab[0]*float64(r.PeakAllocated)/float64(r.PeakReserved))
	}
	if seg := c.sampleSegment(); seg > 0 && r.PeakPhase == PhaseDecode.String() && r.PeakReserved > 0 {
		rb[1] += float64(seg) / float64(r.PeakReserved)
		r.Notes = append(r.Notes, fmt.Sprintf("the peak is a decode step's sampling: its largest temporary (%s) may need a segment of its own once the cache's growth has fragmented the cached blocks (dev102's Qwen2.5 trace took one at its last step): the reserved band's top raised by %s", units.Bytes(seg), units.Bytes(seg)))
	}
	band := func(v int64, b [2]float64) memmodel.Band {
		return memmodel.Band{Low: int64(math.Floor(float64(v) * b[0])), High: int64(math.Ceil(float64(v) * b[1]))}
	}
	r.AllocatedBand = band(r.PeakAllocated, ab)
	r.ReservedBand = band(r.PeakReserved, rb)
	ctxErr := int64(150 << 20)
	r.ProcessBand = memmodel.Band{Low: r.ReservedBand.Low + r.Context - ctxErr, High: r.ReservedBand.High + r.Context + ctxErr}
}
