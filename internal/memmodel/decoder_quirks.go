package memmodel

// DecoderQuirks are the ways a Llama-like decoder departs from
// transformers' LlamaForCausalLM, as far as memory is concerned.
type DecoderQuirks struct {
	// Norm is the RMSNorm flavour: "" (LLaMA: weight applied to the
	// normalised value cast back to the input dtype), "f32w" (OLMo2: the
	// weight applied in float32, then cast), "f32w1p" (Gemma: x·(1+w) in
	// float32, then cast), "ln" (OLMo: LayerNorm without parameters) or
	// "lnb" (nn.LayerNorm with weight and bias: GPT-NeoX, Phi).
	Norm string `json:"norm,omitempty"`
	// NormPlace is where the block norms sit: "" (before attention and
	// MLP), "post" (after them, OLMo2), "sandwich" (both, Gemma 2/3) or
	// "after" (after each residual add, BERT-style, and no final norm:
	// OPT-350m's do_layer_norm_before false).
	NormPlace string `json:"norm_place,omitempty"`
	// Act is the MLP activation: "" (SiLU) or "gelu_tanh" (Gemma).
	Act string `json:"act,omitempty"`
	// QKNorm normalises queries and keys before the rotary embedding:
	// "head" (per head, Qwen3 and Gemma 3) or "full" (over the whole
	// projection, OLMo2).
	QKNorm string `json:"qk_norm,omitempty"`
	// QKNormLate: the query/key norms run after all three projections
	// (Gemma 3) rather than each right after its own (Qwen3, OLMo2).
	QKNormLate bool `json:"qk_norm_late,omitempty"`
	// EmbedScale multiplies the token embeddings by a constant (Gemma's
	// √hidden, Granite's embedding_multiplier): one more activation.
	EmbedScale bool `json:"embed_scale,omitempty"`
	// ResidScale multiplies each block's output before the residual add
	// (Granite's residual_multiplier).
	ResidScale bool `json:"resid_scale,omitempty"`
	// LogitScale divides the logits by a constant (Granite's
	// logits_scaling).
	LogitScale bool `json:"logit_scale,omitempty"`
	// FinalSoftcap is Gemma 2's final_logit_softcapping (logits/c, tanh,
	// ·c: two more vocabulary-wide tensors, the tanh output saved).
	FinalSoftcap float64 `json:"final_softcap,omitempty"`
	// AttnSoftcap is Gemma 2's attn_logit_softcapping: applied only by
	// the eager attention (SDPA ignores it).
	AttnSoftcap float64 `json:"attn_softcap,omitempty"`
	// FusedQKV and FusedGateUp are Phi-3's qkv_proj and gate_up_proj:
	// one projection whose slices are views of one output.
	FusedQKV    bool `json:"fused_qkv,omitempty"`
	FusedGateUp bool `json:"fused_gate_up,omitempty"`
	// RopeCat: apply_rotary_pos_emb concatenates the rotated part with
	// the pass-through part (Phi-3's partial rotary), one more copy of q
	// and k.
	RopeCat bool `json:"rope_cat,omitempty"`
	// RopeCastBack: apply_rotary_pos_emb returns q_embed.to(q.dtype) and
	// k_embed.to(k.dtype) (OLMo and OLMo 2). Under autocast the rotary
	// cos/sin are float32 (made in the residual stream's dtype) and the
	// projections bf16, so the rotated q and k are cast back to bf16:
	// attention and the KV cache then see bf16 keys and queries, and
	// the float32 products are freed as soon as both casts exist.
	RopeCastBack bool `json:"rope_cast_back,omitempty"`
	// RopeFactor is rope_scaling's factor where the rotary embedding's
	// table grows with it (linear, YaRN: vLLM builds cos/sin for
	// max_position_embeddings × factor positions); LocalRope is a second,
	// unscaled rotary embedding of the sliding layers (Gemma 3's
	// rope_local_base_freq).
	RopeFactor float64 `json:"rope_factor,omitempty"`
	LocalRope  bool    `json:"local_rope,omitempty"`
	// SlidingWindow limits the attention of sliding layers to that many
	// tokens; every SlidingEvery-th layer (1-based) attends globally
	// (Gemma 2: 2, Gemma 3: 6). Beyond the window SDPA gets a boolean
	// mask, which it converts to a bias in the query dtype per call and
	// which runs (and is saved by) the memory-efficient kernel.
	SlidingWindow int `json:"sliding_window,omitempty"`
	SlidingEvery  int `json:"sliding_every,omitempty"`
	// LayerTypes, when config.json lists them, say per layer
	// "sliding_attention" or "full_attention" instead of SlidingEvery.
	LayerTypes []string `json:"layer_types,omitempty"`
	// Parallel runs attention and MLP side by side off the residual
	// stream, x + attn(norm(x)) + mlp(norm(x)): "two-norm" (GPT-NeoX's
	// use_parallel_residual, a norm for each) or "one-norm" (Phi, one
	// norm's output feeding both).
	Parallel string `json:"parallel,omitempty"`
	// PlainMLP is an ungated MLP, down(act(up(x))) (GPT-NeoX, Phi).
	PlainMLP bool `json:"plain_mlp,omitempty"`
	// Bias puts biases on the attention's output projection and the MLP's
	// projections (GPT-NeoX, Phi); HeadBias on the LM head (Phi).
	Bias     bool `json:"bias,omitempty"`
	HeadBias bool `json:"head_bias,omitempty"`
	// PartialRotary is the fraction of each head's dimensions the rotary
	// embedding turns (GPT-NeoX's rotary_pct, Phi's partial_rotary_factor;
	// 0 for all): the rotated part is concatenated back with the rest.
	PartialRotary float64 `json:"partial_rotary,omitempty"`
	// EmbedDropout follows the token embedding (Phi's embd_pdrop,
	// GPT-NeoX's hidden_dropout); Arch.Dropout follows the attention's
	// and the MLP's outputs.
	EmbedDropout float64 `json:"embed_dropout,omitempty"`
	// LearnedPos replaces the rotary embedding with a learned position
	// embedding looked up per batch row (OPT's OPTLearnedPositionalEmbedding:
	// positions from the attention mask's cumulative sum, offset by 2)
	// and added to the token embedding.
	LearnedPos bool `json:"learned_pos,omitempty"`
	// QScale multiplies the query projection's output by 1/√head_dim
	// before attention (OPT): one more query-size tensor per layer.
	QScale bool `json:"q_scale,omitempty"`
	// EmbedProj is a token embedding narrower than the layers, projected
	// in after the lookup and out before the LM head (OPT-350m's
	// word_embed_proj_dim, project_in and project_out); 0 for none.
	EmbedProj int `json:"embed_proj,omitempty"`
	// MathAttn: grouped key/value heads reach SDPA with a causal mask,
	// which no fused kernel takes together (flash takes no mask, the
	// memory-efficient kernel no grouped heads): the math kernel runs in
	// every precision, its float32 scores and probabilities saved per
	// layer (Falcon: dev89's bf16 traces).
	MathAttn bool `json:"math_attn,omitempty"`
	// EagerF32 is GPT-J's own attention (_attn): q and k upcast to float32
	// (bound until it returns), their product cast back by autocast,
	// masked by where(), divided by a float32 scale (a float32 copy of the
	// scores), a float32 softmax cast back, the product with v. OBiasOff
	// drops the output projection's bias where Bias puts biases on the
	// MLP (GPT-J).
	EagerF32 bool `json:"eager_f32,omitempty"`
	OBiasOff bool `json:"o_bias_off,omitempty"`
	// RopeQDtype: the rotary tables are cast to the query's dtype before
	// the rotation (GPT-J's sin/cos .to(q.dtype)), so under autocast the
	// rotated q and k, their concatenation with the pass-through part and
	// the key/value cache filled from them stay in the projections' bf16
	// (dev92's GPT-J traces: 16 MiB keys where float32 tables made 32).
	RopeQDtype bool `json:"rope_q_dtype,omitempty"`
	// Names are the family's module names where they are not LLaMA's, by
	// role: "qkv" (fused), "q", "k", "v", "o", "up", "down", "head".
	Names map[string]string `json:"names,omitempty"`
}

// embedWidth is the token embedding's width for layers of width d.
func (q *DecoderQuirks) embedWidth(d int64) int64 {
	if q.EmbedProj > 0 {
		return int64(q.EmbedProj)
	}
	return d
}

// preNorm reports whether a norm precedes the attention and the MLP.
func (q *DecoderQuirks) preNorm() bool { return q.NormPlace != "post" && q.NormPlace != "after" }

// normsBranch reports whether the attention's and the MLP's outputs are
// normalised before their residual adds (OLMo 2, Gemma 2/3).
func (q *DecoderQuirks) normsBranch() bool { return q.NormPlace == "post" || q.NormPlace == "sandwich" }

// name is the module name of role r, or LLaMA's (def).
func (q *DecoderQuirks) name(r, def string) string {
	if n, ok := q.Names[r]; ok {
		return n
	}
	return def
}

// RotaryDim is how many of hd dimensions per head the rotary embedding turns.
func (q *DecoderQuirks) RotaryDim(hd int64) int64 {
	if q.PartialRotary <= 0 || q.PartialRotary >= 1 {
		return hd
	}
	return int64(float64(hd) * q.PartialRotary)
}

// Sliding reports whether layer l attends within the sliding window.
func (q *DecoderQuirks) Sliding(l int) bool {
	if q.SlidingWindow <= 0 {
		return false
	}
	if l < len(q.LayerTypes) {
		return q.LayerTypes[l] == "sliding_attention"
	}
	return q.SlidingEvery <= 1 || (l+1)%q.SlidingEvery != 0
}
