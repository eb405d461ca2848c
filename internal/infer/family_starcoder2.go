package infer

// StarCoder2 as transformers' Starcoder2ForCausalLM runs it under
// generate: decoderBlock with nn.LayerNorm (weight and bias) in place of
// RMSNorm and the ungated MLP (c_fc, gelu_pytorch_tanh, c_proj), every
// layer a sliding one (its 4096-token window); the projections carry
// biases (use_bias). Dropouts are identities in eval mode.
func init() {
	registerDecoder(&decoder{
		family: "starcoder2", weights: starcoder2Weights, embed: llamaEmbed,
		block: (*model).decoderBlock, norm: (*model).layerNorm,
		// vLLM's c_fc output and its GELU's
		servedMLP: 2,
		// vLLM's Starcoder2ForCausalLM implements SupportsPP only
		// (vllm/model_executor/models/starcoder2.py)
		noLoRA: true,
	})
}

// starcoder2Weights lists Starcoder2ForCausalLM's parameters in
// construction order: per layer the attention (q, k, v, o with biases),
// the MLP (c_fc, c_proj with biases), the two LayerNorms; the final
// LayerNorm; lm_head unless tied.
func starcoder2Weights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
	bias := c.arch.AttnBias
	w.add(v*h, v*h*dt) // embed_tokens
	for l := int64(0); l < c.layers; l++ {
		w.dense(c, h, qd, bias)
		w.dense(c, h, kd, bias)
		w.dense(c, h, kd, bias)
		w.dense(c, qd, h, bias)
		w.dense(c, h, c.ffn, bias)
		w.dense(c, c.ffn, h, bias)
		lnWeights(c, w) // input_layernorm
		lnWeights(c, w) // post_attention_layernorm
	}
	lnWeights(c, w) // norm
	rotaryHead(c, w)
}
