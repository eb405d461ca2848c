package infer

// Falcon (tiiuae/falcon-7b's architecture) as transformers' FalconForCausalLM
// runs it under generate: parallelBlock with the fused query_key_value
// (one key/value head under multi_query), full rotary, nn.LayerNorm, no
// biases, and SDPA's math kernel: Falcon hands SDPA a materialised causal
// mask with grouped heads, which no fused kernel takes (dev89's trace:
// float32 upcasts, repeat_interleave'd keys and values, float32 scores).
func init() {
	registerDecoder(&decoder{
		family: "falcon", weights: falconWeights, embed: llamaEmbed,
		block: (*model).parallelBlock, norm: (*model).layerNorm,
		// vLLM's dense_h_to_4h output and its GELU's
		servedMLP: 2,
		mathAttn:  true,
	})
}

// falconWeights lists FalconForCausalLM's parameters in construction
// order: word_embeddings, per layer input_layernorm (ln_attn and ln_mlp in
// the new architecture), query_key_value, dense, dense_h_to_4h and
// dense_4h_to_h (biases where bias is set), ln_f; the head tied.
func falconWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	bias := c.arch.AttnBias
	w.add(v*h, v*h*dt)
	for l := int64(0); l < c.layers; l++ {
		lnWeights(c, w)
		if c.arch.Decoder.Parallel == "two-norm" {
			lnWeights(c, w)
		}
		w.dense(c, h, qd+2*kd, bias)
		w.dense(c, qd, h, bias)
		w.dense(c, h, c.ffn, bias)
		w.dense(c, c.ffn, h, bias)
	}
	lnWeights(c, w)
	rotaryHead(c, w)
}
