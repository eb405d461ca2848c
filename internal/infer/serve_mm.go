package infer

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/units"
)

// What vLLM loads and profiles beyond the text model: the rotary
// embedding's cos/sin table, and for a multimodal checkpoint (Gemma 3
// 4B-27B) the image encoder and its profiling pass. From vLLM's source
// (notes: /work/notes/vllm_mm_code.md in the session that wrote this;
// the file references below are vLLM's):
//
//   - RotaryEmbedding builds cos|sin for every position in the model
//     dtype, a buffer "Model loading took" counts on every rank: Gemma 3
//     4B's global layers' linear ×8 scaling makes it 1,048,576 positions
//     of 256 (512 MiB) beside its local layers' 131,072 (64 MiB). Gemma 3
//     4B on an MI300X loaded 8.58 GiB (params 8.01 + tables 0.56); 27B on
//     an A100 51.45 (51.10 + 0.28).
//   - gemma3_mm builds SigLIP and the projector whatever the limits until
//     _mark_tower_model (vllm#32605, January 2026: towerSkipMinor) leaves
//     a tower whose every modality is limited to 0 unbuilt. Its
//     projections and position embedding split over tensor-parallel
//     ranks; it stays bf16 in quantised checkpoints (SigLIP's 4304-wide
//     MLP is no multiple of 64, and quantisers leave the tower out).
//   - profile_run first runs K dummy images of the largest size through
//     the encoder in one batch, keeps their outputs through the text
//     forward and the sampler, then frees them: the profile's peak is the
//     larger of the encoder's pass and the text pass plus those outputs.
//     The encoder budget is N = max(max_num_batched_tokens, T) for T
//     prompt tokens an image; K = ⌈N/T⌉ before 0.10, ⌊N/T⌋ from 0.10
//     (vllm#20434), at most max_num_seqs × the image limit (1 by default
//     before 0.10, 999 after; from 0.10 also at most max_model_len/T a
//     sequence). vLLM's SigLIP attention is flash, xformers or unmasked
//     SDPA (no 4096² scores), so an image's peak is SigLIP's MLP: the
//     residual, the norm's output, fc1 and its GELU over 4096 patches,
//     with the pixels in float32 and the model dtype.
const (
	towerSkipMinor  = 15
	floorItemsMinor = 10
	// encoderBand is the encoder pass's band: the per-image figure is
	// read from the layer code, not measured
	encoderBand = 0.25
)

// ropeTables is vLLM's rotary cos/sin tables, replicated on every rank.
func ropeTables(c *config) int64 {
	if c.dec.learnedPos || c.arch.MaxPos <= 0 {
		return 0
	}
	q := c.arch.Decoder
	rows := float64(c.arch.MaxPos) * max(1, q.RopeFactor)
	if q.LocalRope {
		rows += float64(c.arch.MaxPos)
	}
	return int64(rows) * c.headDim * c.dt
}

// towerLoaded reports whether vLLM builds the checkpoint's image encoder:
// a multimodal checkpoint unless images are off (images_per_prompt 0) on
// a version that then leaves it unbuilt.
func towerLoaded(c *config, e engine, images *int) bool {
	if c.arch.Images == nil {
		return false
	}
	return images == nil || *images > 0 || !e.atLeast(towerSkipMinor)
}

// towerWeights is one rank's share of the image encoder and projector:
// the sharded part split tp ways, the rest replicated; params is the
// whole tower's.
func towerWeights(c *config, tp int64) (bytes, params int64) {
	sh, rep := c.arch.Images.Params(c.hidden)
	dt := max(c.dt, 2)
	return (sh/tp + rep) * dt, sh + rep
}

// encoderPass is the profiling run's image-encoder pass on one rank: the
// dummy images K, the pass's peak, and the outputs held through the text
// forward. images is the spec's limit (nil: vLLM's default).
func encoderPass(c *config, e engine, mnbt, seqs, context int64, images *int, tp int64) (k, peak, held int64) {
	t := c.arch.Images
	T := int64(t.ItemTokens)
	n := max(mnbt, T)
	limit := int64(1)
	if e.atLeast(floorItemsMinor) {
		limit = 999
	}
	if images != nil {
		limit = int64(*images)
	}
	if e.atLeast(floorItemsMinor) {
		k = max(1, min(n/T, seqs*max(1, min(limit, context/T))))
	} else {
		k = min((n+T-1)/T, seqs*limit)
	}
	h, f := int64(t.Hidden), int64(t.FFN)
	px := int64(t.Image) * int64(t.Image) * 3
	perImage := t.Patches()*(2*h+2*f/tp)*c.dt + px*(4+c.dt)
	return k, k * perImage, k * int64(t.Tokens) * c.hidden * c.dt
}

// refuseImages refuses image settings on a text model.
func refuseImages(c *config, images *int, skip bool) error {
	if c.arch.Images == nil && (images != nil || skip) {
		key := "images_per_prompt"
		if images == nil {
			key = "skip_mm_profiling"
		}
		return specErr(key, "%s is a text model: vLLM serves it without images", c.arch.Name)
	}
	return nil
}

// addEncoder lays the encoder's profiling pass over the text profile's
// peaks (activation and its band) and says what it assumed.
func (r *ServeResult) addEncoder(c *config, e engine, images *int, skip bool, tp int64) {
	if c.arch.Images == nil {
		return
	}
	if images != nil && *images == 0 {
		b, _ := towerWeights(c, tp)
		if towerLoaded(c, e, images) {
			r.Notes = append(r.Notes, fmt.Sprintf("images off: no image-encoder pass is profiled, but vLLM before 0.%d still loads the image encoder (%s of the weights)", towerSkipMinor, units.Bytes(b)))
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("images off: vLLM leaves the image encoder (%s) unbuilt and profiles no pass through it", units.Bytes(b)))
		}
		return
	}
	if skip {
		r.Notes = append(r.Notes, "--skip-mm-profiling: the image encoder's pass is not profiled, so its activations at the first images are not in the budget")
		return
	}
	k, peak, held := encoderPass(c, e, int64(r.MaxNumBatchedTokens), int64(r.MaxNumSeqs), int64(r.Context), images, tp)
	r.EncoderImages, r.EncoderPeak = k, peak
	lo, hi := int64(float64(peak)*(1-encoderBand)), int64(float64(peak)*(1+encoderBand))
	text := r.Activation
	r.Activation = max(peak, r.Activation+held)
	r.ActivationLow = max(lo, r.ActivationLow+held)
	r.ActivationHigh = max(hi, r.ActivationHigh+held)
	r.Notes = append(r.Notes, fmt.Sprintf("image encoder: the profile runs %d dummy images through it at once (%s at its peak, ±%.0f%%: read from vLLM's layer code, not measured) beside the text forward's %s; images_per_prompt 0 (--limit-mm-per-prompt '{\"image\":0}') leaves the pass out",
		k, units.Bytes(peak), 100*encoderBand, units.Bytes(text)))
}
