package infer

// Mixture-of-experts decoders (memmodel's mixtral and qwen-moe families)
// as vLLM serves them: their weights and the widest intermediate of the
// fused-MoE forward vLLM profiles. Hugging Face generate is not planned
// for them (no block), so only serve plans read these.
func init() {
	for _, f := range []string{"mixtral", "qwen-moe"} {
		registerDecoder(&decoder{family: f, weights: moeWeights, served: moeServed})
	}
}

// moeWeights lists a MoE decoder's parameters: per layer the attention
// (q/k/v biases and per-head q/k norms where the model has them), the
// router, every expert's gate, up and down projections and, for
// Qwen2-MoE, the shared expert and its gate; layers left dense keep an MLP
// of the model's intermediate size.
func moeWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	moe := c.arch.MoE
	e, f, shared := int64(moe.Experts), int64(moe.FFN), int64(moe.SharedFFN)
	w.add(v*h, v*h*dt) // embed_tokens
	for l := 0; l < int(c.layers); l++ {
		attentionWeights(c, w, c.arch.Decoder.QKNorm == "head")
		if !moe.Sparse(l) {
			gatedMLPWeights(c, w, c.ffn)
			continue
		}
		w.kept(c, h, e) // router: vLLM never quantises it
		for x := int64(0); x < e; x++ {
			gatedMLPWeights(c, w, f)
		}
		if shared > 0 {
			gatedMLPWeights(c, w, shared)
			w.kept(c, h, 1) // shared_expert_gate, a plain nn.Linear
		}
	}
	rotaryTail(c, w)
}

// moeServed is the widest per-token intermediate, in elements, of vLLM's
// MoE layer on one of tp GPUs: the router logits (experts), and the fused
// kernel's caches — each token's top-k rows of the gate_up output (2·f),
// of the activated half (f) and of the down projection (hidden) before
// they are summed — with the shared expert's gate_up and activation
// (3·shared) beside them; a dense layer's gate_up and activation (3·ffn).
func moeServed(c *config, tp int64) int64 {
	moe := c.arch.MoE
	k, f, shared := int64(moe.TopK), int64(moe.FFN)/tp, int64(moe.SharedFFN)/tp
	sparse := int64(moe.Experts) + k*(3*f+c.hidden) + 3*shared
	if len(moe.DenseLayers) > 0 {
		return max(sparse, 3*c.ffn/tp)
	}
	return sparse
}
