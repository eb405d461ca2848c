package memmodel

// One builder for every Llama-like decoder. LLaMA itself is the zero
// DecoderQuirks; the families that differ from it (Gemma, Phi-3, Qwen3,
// OLMo, Granite, the MoE decoders) each set the few quirks that change
// what their transformers modeling file allocates, in their own
// family_*.go file, instead of copying the builder.

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
	// MLP), "post" (after them, OLMo2) or "sandwich" (both, Gemma 2/3).
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
	// Names are the family's module names where they are not LLaMA's, by
	// role: "qkv" (fused), "q", "k", "v", "o", "up", "down", "head".
	Names map[string]string `json:"names,omitempty"`
}

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

// MoE is a sparse mixture-of-experts MLP (Mixtral, Qwen2-MoE, Qwen3-MoE).
type MoE struct {
	Experts int `json:"experts"`
	TopK    int `json:"top_k"`
	// FFN is the width of one expert (moe_intermediate_size).
	FFN int `json:"ffn"`
	// SharedFFN is the width of the shared expert that every token runs
	// through (Qwen2-MoE, DeepSeek style), 0 for none; SharedGate scales
	// its output by a learned sigmoid gate.
	SharedFFN  int  `json:"shared_ffn,omitempty"`
	SharedGate bool `json:"shared_gate,omitempty"`
	// AuxLoss: output_router_logits is on, so the forward pass computes
	// the load-balancing loss over every layer's router logits.
	AuxLoss bool `json:"aux_loss,omitempty"`
	// DenseLayers keep a dense MLP of the model's FFN width.
	DenseLayers []int `json:"dense_layers,omitempty"`
}

// Sparse reports whether layer l runs the MoE block.
func (m *MoE) Sparse(l int) bool { return m.sparse(l) }

// sparse reports whether layer l runs the MoE block.
func (m *MoE) sparse(l int) bool {
	if m.Experts == 0 {
		return false
	}
	for _, d := range m.DenseLayers {
		if d == l {
			return false
		}
	}
	return true
}

// buildDecoder records transformers' <Family>ForCausalLM for a Llama-like
// decoder: embeddings, rotary cos/sin shared by all layers (in the hidden
// dtype), per layer attention (GQA) and a gated MLP or a MoE block, the
// final norm, the LM head (tied or not) and the causal-LM loss. With zero
// quirks it is LlamaForCausalLM (also Mistral and Qwen2).
func buildDecoder(b *builder, a *Arch, batch, seq int64, cache bool) {
	q := &a.Decoder
	labels := batch * seq
	if a.Head == "sequence-classification" {
		labels = batch
	}
	ids := b.textInput(batch, seq, labels)
	d, heads, kvh, hd, vocab := int64(a.Hidden), int64(a.Heads), a.kvHeads(), a.headDim(), int64(a.Vocab)
	b.module = "embed_tokens"
	wte := b.param(vocab * d)
	h := b.embedding(ids, wte, vocab, d)
	if q.EmbedScale {
		h = b.scale(h)
	}
	h = b.dropout(h, q.EmbedDropout)
	var slideMask Tensor = -1
	// masking_utils skips the sliding layers' mask (is_causal) only while
	// the keys are fewer than the window (_ignore_causal_mask_sdpa's
	// kv_length < local_attention_size): a sequence exactly as long as
	// the window gets the mask too (late76's StarCoder2 s4096 b8, window
	// 4096: -10.5% allocated at first sight, the bias SDPA saves per layer)
	if q.SlidingWindow > 0 && int64(q.SlidingWindow) <= seq && b.attn != "eager" {
		slideMask = b.slidingMask(seq)
	}
	// the rotary embedding runs on position_ids, which the model makes
	// from cache_position with a batch of one: cos and sin are seq×head_dim
	// and broadcast over the batch
	rd := q.RotaryDim(hd)
	cos := b.g.newTensor(seq*rd, b.dt(h), false)
	sin := b.g.newTensor(seq*rd, b.dt(h), false)
	b.op("rotary", []Tensor{ids}, []Tensor{cos, sin}, nil).noBackward = true
	rope := func(x Tensor, nh int64) Tensor {
		n := batch * nh * seq * hd
		xc := b.mul(x, cos)
		b.tt(xc).numel = n
		rot := b.rotateHalf(x, n)
		r := b.mul(rot, sin)
		b.tt(r).numel = n
		y := b.add(xc, r)
		if q.RopeCat {
			y = b.copy(y)
			if b.tt(x).base != x {
				// apply_rotary_pos_emb's q[..., :rotary_dim] of a fused
				// projection's slice: one more SliceBackward (its pass-
				// through half is empty at full rotary)
				b.g.ops[len(b.g.ops)-1].viewGrads = 1
			}
		}
		return y
	}
	mask := b.causalMask(batch, seq, b.dt(h))
	// Phi-3's attention registers o_proj before qkv_proj: model.to()
	// moves them in that order (dev45's Phi-3 trace)
	var qkvAt, oProj [][2]int
	defer func() {
		if len(oProj) > 0 {
			b.g.loadOrder = beforeRanges(len(b.g.params), qkvAt, oProj)
		}
	}()
	norm := func(x Tensor, dim int64) Tensor { return b.decoderNorm(q.Norm, x, dim) }
	if q.Parallel != "" {
		// what the layers run without grad saves nothing (noGradSaves)
		defer b.noGradSaves(len(b.g.ops))
	}
	for l := 0; l < a.Layers; l++ {
		b.block = l
		b.module = layerModule(l, "self_attn")
		y := h
		if q.NormPlace != "post" {
			y = norm(h, d)
		}
		var qs, ks, vs Tensor
		if q.FusedQKV {
			qkvAt = append(qkvAt, [2]int{len(b.g.params), 0})
			qkv := b.linear(y, d, (heads+2*kvh)*hd, a.AttnBias, q.name("qkv", "qkv_proj"))
			qkvAt[len(qkvAt)-1][1] = len(b.g.params)
			qs, ks, vs = b.slice(qkv, batch*seq*heads*hd), b.slice(qkv, batch*seq*kvh*hd), b.slice(qkv, batch*seq*kvh*hd)
		}
		qkNorm := func(x Tensor, nh int64) Tensor {
			switch q.QKNorm {
			case "head":
				return norm(x, hd)
			case "full":
				return norm(x, nh*hd)
			}
			return x
		}
		if !q.FusedQKV {
			// Qwen3 and OLMo2 normalise each projection as it comes
			// (q_norm(q_proj(x)), then k), Gemma 3 after all three
			inline := !q.QKNormLate
			qs = b.headsGradCopy(b.linear(y, d, heads*hd, a.AttnBias, q.name("q", "q_proj")))
			if inline {
				qs = qkNorm(qs, heads)
			}
			ks = b.headsGradCopy(b.linear(y, d, kvh*hd, a.AttnBias, q.name("k", "k_proj")))
			if inline {
				ks = qkNorm(ks, kvh)
			}
			vs = b.headsGradCopy(b.linear(y, d, kvh*hd, a.AttnBias, q.name("v", "v_proj")))
			if !inline {
				qs, ks = qkNorm(qs, heads), qkNorm(ks, kvh)
			}
		} else {
			qs, ks = qkNorm(qs, heads), qkNorm(ks, kvh)
		}
		qIn, kIn := qs, ks
		if rd < hd {
			qs, ks = b.partialRope(qs, ks, cos, sin, batch*seq, heads, kvh, rd, hd)
		} else {
			qs, ks = rope(qs, heads), rope(ks, kvh)
		}
		if q.RopeCastBack {
			qe, ke := qs, ks
			qs, ks = b.cast(qe, b.dt(qIn)), b.cast(ke, b.dt(kIn))
			b.keep(qe, ke) // q_embed and k_embed, until both casts exist
		}
		b.keep(qIn, kIn) // apply_rotary_pos_emb's arguments, until it returns
		if cache {
			ks, vs = b.cacheKV(ks, vs)
		}
		s := attnShape{batch: batch, heads: heads, sq: seq, sk: seq, hd: hd, causal: true, kvHeads: kvh, softcap: q.AttnSoftcap,
			dropout: a.AttnDropout}
		// selective checkpointing recomputes the attention call alone
		// (scaled_dot_product_attention under torch.utils.checkpoint, its
		// autocast casts inside): the q/k norms and the rotary embedding
		// keep what they save (late42's OLMo 2 1B, whose full-width q/k
		// norms save float32 copies, -6.14% -> +0.00% allocated; late26's
		// Llama 3.2 1B -1.68% -> +0.00%)
		b.sel = true
		var att Tensor
		if slideMask >= 0 && q.Sliding(l) {
			att = b.sdpaMask(qs, ks, vs, b.boolBias(slideMask, batch*seq*seq), s)
		} else {
			att = b.attend(qs, ks, vs, mask, s)
		}
		b.sel = false
		if be := b.fusedBackend(att); (q.RopeCat || rd < hd) && (be == "flash" || be == "cudnn") {
			// flash and cuDNN write the output in the query's layout;
			// RopeCat's query is a concatenation, contiguous heads-first,
			// so sdpa_attention_forward's transpose(1, 2).contiguous()
			// copies it, a copy o_proj saves beside SDPA's own (dev18's
			// Phi-3 bf16 trace, sdpa_attention.py:168: one hidden-size
			// bf16 block per layer; the memory-efficient kernel writes
			// tokens-first whatever the query's strides, and Llama's
			// elementwise rotary keeps the projection's tokens-first
			// layout, so neither copies)
			att = b.copy(att)
		}
		oAt := len(b.g.params)
		att = b.linear(att, heads*hd, d, q.Bias, q.name("o", "o_proj"))
		if q.FusedQKV {
			oProj = append(oProj, [2]int{oAt, len(b.g.params)})
		}
		// the attention module's argument and its query/key/value locals
		// stay referenced until its forward returns
		b.keep(y, qs, ks, vs)
		if q.NormPlace != "" {
			att = norm(att, d)
		}
		if q.ResidScale {
			att = b.scale(att)
		}
		att = b.dropout(att, a.Dropout)
		if q.Parallel != "" {
			h = b.parallelMLP(h, y, att, a)
			continue
		}
		h = b.add(h, att)
		b.module = layerModule(l, "mlp")
		y = h
		if q.NormPlace != "post" {
			y = norm(h, d)
		}
		if a.MoE.sparse(l) {
			y = b.moeBlock(y, a, batch*seq)
		} else {
			y = b.decoderMLP(y, d, int64(a.FFN), q)
		}
		if q.NormPlace != "" {
			y = norm(y, d)
		}
		if q.ResidScale {
			y = b.scale(y)
		}
		y = b.dropout(y, a.Dropout)
		h = b.add(h, y)
	}
	b.block = -1
	b.g.blocks = a.Layers
	b.module = "norm"
	h = norm(h, d)
	if a.Head == "sequence-classification" {
		decoderScoreHead(b, a, h, batch)
		return
	}
	b.module = q.name("head", "lm_head")
	var logits Tensor
	if a.Tied {
		logits = b.linearWith(h, wte, -1, d, vocab)
	} else {
		logits = b.linear(h, d, vocab, q.HeadBias, "lm_head")
	}
	if q.LogitScale {
		logits = b.scale(logits)
	}
	if q.FinalSoftcap > 0 {
		logits = b.scale(logits)
		logits = b.unary("tanh", logits, b.dt(logits), false, true)
		logits = b.scale(logits)
	}
	b.module = "loss"
	if a.MoE.AuxLoss {
		b.auxLoss(a, batch*seq)
	}
	b.lmLoss(logits, batch, seq, vocab)
	if q.Parallel != "" {
		// the final norm's output is the base model's last_hidden_state,
		// which ForCausalLM.forward holds until it returns: through the
		// loss, where a frozen LM head (LoRA) saves no copy of it (dev77's
		// Pythia-1b LoRA trace: 32 MiB live at the loss that the replay
		// had freed). Qwen3's LoRA snapshot (dev8) holds it too, but
		// there the replay also keeps the first norm's saves, which
		// noGradSaves would drop: the two are changed together, where
		// the traces were read (see noGradSaves)
		b.keep(h)
	}
}
