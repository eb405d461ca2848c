package memmodel

// One builder for every Llama-like decoder. LLaMA itself is the zero
// DecoderQuirks; the families that differ from it (Gemma, Phi-3, Qwen3,
// OLMo, Granite, the MoE decoders) each set the few quirks that change
// what their transformers modeling file allocates, in their own
// family_*.go file, instead of copying the builder.

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
	e := q.embedWidth(d)
	wte := b.param(vocab * e)
	h := b.embedding(ids, wte, vocab, e)
	var pos learnedPos
	if q.LearnedPos {
		h, pos = b.learnedPositions(h, a, batch, seq)
	}
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
	var cos, sin Tensor = -1, -1
	if !q.LearnedPos {
		tab := b.dt(h)
		if q.RopeQDtype && b.amp != F32 {
			tab = b.amp // the projections' dtype under autocast
		}
		cos = b.g.newTensor(seq*rd, tab, false)
		sin = b.g.newTensor(seq*rd, tab, false)
		b.op("rotary", []Tensor{ids}, []Tensor{cos, sin}, nil).noBackward = true
	}
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
	if q.EagerF32 && mask < 0 {
		// transformers runs GPT-J eager whatever is asked, so
		// create_causal_mask makes its float 4-D mask in the weights'
		// dtype, held until the model returns (dev92's checkpointed fp16
		// trace: 64 MiB at b4 s2048, -0.89% allocated without it)
		mask = b.heldCausalMask(batch, seq, b.dt(h))
	}
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
		layerIn := h
		y := h
		if q.preNorm() {
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
			if q.QScale {
				qs = b.scale(qs)
			}
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
		switch {
		case q.LearnedPos: // positions were added to the embedding: no rotary
		case rd < hd:
			qs, ks = b.partialRope(qs, ks, cos, sin, batch*seq, heads, kvh, rd, hd)
		default:
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
		} else if q.EagerF32 {
			att = b.gptjAttend(qs, ks, vs, mask, s)
		} else if q.MathAttn && b.attn == "sdpa" && kvh < heads {
			att = b.sdpaGQAMath(qs, ks, vs, s)
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
		att = b.linear(att, heads*hd, d, q.Bias && !q.OBiasOff, q.name("o", "o_proj"))
		if q.FusedQKV {
			oProj = append(oProj, [2]int{oAt, len(b.g.params)})
		}
		// the attention module's argument and its query/key/value locals
		// stay referenced until its forward returns
		b.keep(y, qs, ks, vs)
		if q.normsBranch() {
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
		mid := h
		if q.NormPlace == "after" {
			h = norm(h, d)
			mid = h
		}
		b.module = layerModule(l, "mlp")
		y = h
		if q.preNorm() {
			y = norm(h, d)
		}
		if a.MoE.sparse(l) {
			y = b.moeBlock(y, a, batch*seq)
		} else {
			y = b.decoderMLP(y, d, int64(a.FFN), q)
		}
		if q.normsBranch() {
			y = norm(y, d)
		}
		if q.ResidScale {
			y = b.scale(y)
		}
		y = b.dropout(y, a.Dropout)
		h = b.add(h, y)
		if q.NormPlace == "after" {
			// the layer's argument and its attention half's normalised
			// output stay bound until the layer returns (dev82's OPT-350m
			// trace frees both after the second norm)
			h = norm(h, d)
			b.keep(layerIn, mid)
		}
	}
	b.block = -1
	b.g.blocks = a.Layers
	b.module = "norm"
	if q.NormPlace != "after" {
		h = norm(h, d)
	}
	if q.LearnedPos {
		h = b.learnedPositionsEnd(h, pos, a)
	}
	if a.Head == "sequence-classification" {
		decoderScoreHead(b, a, h, batch)
		return
	}
	b.module = q.name("head", "lm_head")
	var logits Tensor
	if a.Tied {
		logits = b.linearWith(h, wte, -1, e, vocab)
	} else {
		logits = b.linear(h, e, vocab, q.HeadBias, "lm_head")
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
	if q.Parallel != "" || q.LearnedPos {
		// (OPT: dev82's traces free the final norm's output, or the
		// projection's, after the loss too)
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
