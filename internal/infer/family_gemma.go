package infer

// The Gemma family (memmodel's gemma: Gemma, Gemma 2, Gemma 3 text) as
// vLLM serves it: LLaMA's layer with head_dim independent of the width,
// GeluAndMul's fused gate_up (2·ffn) and output (ffn) at the MLP, and for
// Gemma 2 and 3 the norms around attention and the MLP ("sandwich") and,
// for Gemma 3, per-head q/k norms. The embedding is tied to the LM head.
//
// Under Hugging Face generate each runs decoderBlock with Gemma's quirks:
// RMSNorm as x·(1+w) in float32 (normOnePlus), the sandwich's second
// norms (branchOut), Gemma 3's late per-head q/k norms; its embeddings
// are scaled (gemmaEmbed) and Gemma 2 soft-caps its logits (forward);
// the sliding layers keep a window of the cache (update) and attend
// under a mask once the window is reached (forward).
func init() {
	registerDecoder(&decoder{family: "gemma", weights: gemmaWeights, embed: gemmaEmbed,
		block: (*model).decoderBlock, norm: (*model).norm, servedMLP: 3, halfRefused: gemmaHalfRefused})
}

// gemmaEmbed is Gemma's embedding and rotary tables. transformers 5's
// Gemma scaled word embedding multiplies the lookup by embed_scale inside
// the module (a buffer already in the weights' dtype: no cast), so the
// lookup is a temporary and the forward holds the scaled tensor (dev72's
// traces). Gemma 3 has a second rotary embedding for its sliding layers
// (LocalRope): two more tables.
func gemmaEmbed(m *model, q int64, in *layerIn) (x int32, keep []int32) {
	c, s := m.c, m.s
	n := c.batch * q * c.hidden * c.dt
	look := s.alloc(n, CatActivations)
	emb := s.alloc(n, CatActivations) // * embed_scale
	s.free(look)
	in.cos, in.sin = m.rotary(q)
	keep = []int32{emb, in.cos, in.sin}
	if c.arch.Decoder.LocalRope {
		cl, sl := m.rotary(q)
		keep = append(keep, cl, sl)
	}
	return emb, keep
}

// gemmaWeights lists Gemma's parameters as vLLM's Gemma, Gemma2 and
// Gemma3 models construct them.
func gemmaWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	q := &c.arch.Decoder
	w.add(v*h, v*h*dt) // embed_tokens
	// the embedding's embed_scale buffer (a scalar in the weights'
	// dtype; not a parameter)
	w.tensors = append(w.tensors, dt)
	w.bytes += dt
	for l := int64(0); l < c.layers; l++ {
		attentionWeights(c, w, q.QKNorm == "head")
		if q.NormPlace == "sandwich" {
			w.add(h, h*dt) // pre_feedforward_layernorm
			w.add(h, h*dt) // post_feedforward_layernorm
		}
		gatedMLPWeights(c, w, c.ffn)
	}
	rotaryTail(c, w)
}

// gemmaHalfRefused: vLLM refuses float16 for Gemma 2 and 3 (their
// activations overflow it; _FLOAT16_NOT_SUPPORTED_MODELS, planned from
// 0.10), the generations with sliding-window layers; on a GPU without
// bfloat16 "auto" then loads them in float32.
func gemmaHalfRefused(c *config) bool {
	return c.arch.Decoder.SlidingWindow > 0 && c.engine.atLeast(halfRefusedMinor)
}

// halfRefusedMinor is the first 0.x planned with vLLM's float16 refusal
// for Gemma 2 and 3 (it arrived in mid-2025).
const halfRefusedMinor = 10
