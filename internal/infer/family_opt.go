package infer

// OPT as transformers' OPTForCausalLM runs it under generate: decoderBlock
// with nn.LayerNorm, no rotary embedding (LearnedPos), the query scaled
// after its projection (QScale) and the ungated ReLU MLP; opt-350m puts
// each LayerNorm after its residual add and projects its 512-wide token
// embedding in and out of the layers. Dropouts are identities in eval
// mode.
func init() {
	registerDecoder(&decoder{
		family: "opt", weights: optWeights, embed: optEmbed,
		block: (*model).decoderBlock, norm: (*model).optFinal,
		// vLLM's fc1 output and its ReLU's
		servedMLP:  2,
		learnedPos: true,
		// vLLM's OPTForCausalLM implements SupportsPP only
		// (vllm/model_executor/models/opt.py)
		noLoRA: true,
	})
}

// optWidth is the token embedding's width: word_embed_proj_dim where
// opt-350m's is narrower than the layers.
func optWidth(c *config) int64 {
	if e := int64(c.arch.Decoder.EmbedProj); e > 0 {
		return e
	}
	return c.hidden
}

// optWeights lists OPTForCausalLM's parameters in construction order:
// embed_tokens, embed_positions (max_position_embeddings + 2 rows),
// project_out and project_in where the embedding is narrower, the final
// LayerNorm (registered before the layers, absent when the norms follow
// the adds), per layer k/v/q/out_proj, the attention's LayerNorm, fc1,
// fc2 and the MLP's LayerNorm; lm_head unless tied.
func optWeights(c *config, w *weights) {
	h, v, dt, e := c.hidden, c.vocab, c.dt, optWidth(c)
	w.add(v*e, v*e*dt)
	pos := int64(c.arch.MaxPos) + 2
	w.add(pos*h, pos*h*dt)
	if e != h {
		w.dense(c, h, e, false) // project_out
		w.dense(c, e, h, false) // project_in
	}
	if c.arch.Decoder.NormPlace != "after" {
		lnWeights(c, w)
	}
	bias := c.arch.AttnBias
	for l := int64(0); l < c.layers; l++ {
		for range 4 {
			w.dense(c, h, h, bias)
		}
		lnWeights(c, w)
		w.dense(c, h, c.ffn, bias)
		w.dense(c, c.ffn, h, bias)
		lnWeights(c, w)
	}
	w.head = v * e * dt
	if !c.arch.Tied {
		w.add(v*e, v*e*dt) // lm_head
		w.embed = v * e * dt
	}
}

// optEmbed is OPTDecoder's embedding: the token lookup, the masks, the
// learned positions (int64 ids from generate's attention mask, offset by
// 2, gone after the lookup) and their embedding, project_in (the lookup's
// output dies as inputs_embeds is rebound), and their sum; the model's
// forward holds the embeddings until it returns (dev82's trace).
func optEmbed(m *model, q int64, in *layerIn) (x int32, keep []int32) {
	c, s := m.c, m.s
	T := c.batch * q
	emb := s.alloc(T*optWidth(c)*c.dt, CatActivations)
	m.makeMasks()
	ids := s.alloc(T*8, CatActivations)
	pe := s.alloc(T*c.hidden*c.dt, CatActivations)
	s.free(ids)
	if optWidth(c) != c.hidden {
		p := m.linear(emb, T, optWidth(c), c.hidden)
		s.free(emb)
		emb = p
	}
	return s.alloc(T*c.hidden*c.dt, CatActivations), []int32{emb, pe}
}

// optFinal is the decoder's end: the final LayerNorm (unless the norms
// follow the adds) and project_out back to the embedding's width.
func (m *model) optFinal(x int32, T int64) int32 {
	c, s := m.c, m.s
	y := x
	if c.arch.Decoder.NormPlace != "after" {
		y = m.layerNorm(x, T)
	}
	if e := optWidth(c); e != c.hidden {
		p := m.linear(y, T, c.hidden, e)
		if y != x {
			s.free(y)
		}
		y = p
	}
	return y
}
