package infer

// The OLMo family (memmodel's olmo: OLMo and OLMo 2) and Granite as vLLM
// serves them. Their served forward is LLaMA's (fused qkv and gate_up,
// SiluAndMul); what differs is the weights:
//   - OLMo's LayerNorms have no parameters (elementwise_affine=False), so
//     its layers and its final norm hold only projections;
//   - OLMo 2 normalises q and k over the whole projection (q_norm of the
//     query width, k_norm of the key width) and puts its two norms after
//     attention and after the MLP (post_attention_layernorm,
//     post_feedforward_layernorm), none before;
//   - Granite is LLaMA's layer whose embeddings, residual branches and
//     logits are multiplied by constants, which hold no memory.
//
// Under Hugging Face generate each runs decoderBlock with its quirks (the
// norms' flavour and place, OLMo 2's q/k norms, Granite's multipliers);
// Granite also scales its embeddings (llamaEmbed) and its logits
// (forward).
func init() {
	registerDecoder(&decoder{family: "olmo", weights: olmoWeights, embed: llamaEmbed,
		block: (*model).decoderBlock, norm: (*model).norm, servedMLP: 3})
	registerDecoder(&decoder{family: "granite", weights: llamaWeights, embed: llamaEmbed,
		block: (*model).decoderBlock, norm: (*model).norm, servedMLP: 3})
}

// olmoWeights lists OlmoForCausalLM's or Olmo2ForCausalLM's parameters in
// construction order.
func olmoWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	olmo2 := c.arch.Decoder.Norm != "ln"
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	w.add(v*h, v*h*dt) // embed_tokens
	for l := int64(0); l < c.layers; l++ {
		w.dense(c, h, qd, c.arch.AttnBias)
		w.dense(c, h, kd, c.arch.AttnBias)
		w.dense(c, h, kd, c.arch.AttnBias)
		w.dense(c, qd, h, false) // o_proj
		if olmo2 {
			w.add(qd, qd*dt) // q_norm
			w.add(kd, kd*dt) // k_norm
			w.add(h, h*dt)   // post_attention_layernorm
		}
		gatedMLPWeights(c, w, c.ffn)
		if olmo2 {
			w.add(h, h*dt) // post_feedforward_layernorm
		}
	}
	if olmo2 {
		rotaryTail(c, w)
		return
	}
	rotaryHead(c, w) // OLMo's final LayerNorm has no weight either
}
