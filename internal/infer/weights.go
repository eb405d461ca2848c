package infer

// weights is the model's parameters as the loader allocates them, one
// tensor at a time in module order, with what a decode step reads.
type weights struct {
	tensors []int64 // bytes of each tensor, in load order
	bytes   int64
	params  int64
	// linear holds the layers' matrix shapes (in, out), for FLOPs and for
	// the dequantised copies quantised kernels make.
	linear [][2]int64
	// head is the LM head's bytes (the tied embedding when tied); a decode
	// step reads all weights except the embedding tables, of which it
	// reads only the rows of the new tokens.
	head, embed int64
}

func (w *weights) add(numel, bytes int64) {
	w.tensors = append(w.tensors, bytes)
	w.bytes += bytes
	w.params += numel
}

// dense adds an in×out linear weight (and its bias) in the compute dtype or
// quantised.
func (w *weights) dense(c *config, in, out int64, bias bool) {
	if c.q == quantNone {
		w.add(in*out, in*out*c.dt)
	} else {
		w.add(in*out, c.q.bytes(in, out))
	}
	if bias {
		w.add(out, out*c.dt)
	}
	w.linear = append(w.linear, [2]int64{in, out})
}

// buildWeights lists the parameters of the model in c.
func buildWeights(c *config) *weights {
	w := &weights{}
	h, v, dt := c.hidden, c.vocab, c.dt
	switch c.arch.Family {
	case "gpt2":
		w.add(v*h, v*h*dt) // wte, tied to the LM head
		p := int64(c.arch.MaxPos)
		w.add(p*h, p*h*dt)   // wpe
		w.embed = p * h * dt // the tied table is read whole by the head
		for l := int64(0); l < c.layers; l++ {
			w.add(h, h*dt) // ln_1
			w.add(h, h*dt)
			w.dense(c, h, 3*h, true) // c_attn
			w.dense(c, h, h, true)   // attn.c_proj
			w.add(h, h*dt)           // ln_2
			w.add(h, h*dt)
			w.dense(c, h, c.ffn, true) // c_fc
			w.dense(c, c.ffn, h, true) // mlp.c_proj
		}
		w.add(h, h*dt) // ln_f
		w.add(h, h*dt)
		w.head = v * h * dt
	default: // llama, mistral, qwen2
		w.add(v*h, v*h*dt) // embed_tokens
		qd, kd := c.heads*c.headDim, c.kvHeads*c.headDim
		bias := c.arch.AttnBias
		for l := int64(0); l < c.layers; l++ {
			w.add(h, h*dt) // input_layernorm
			w.dense(c, h, qd, bias)
			w.dense(c, h, kd, bias)
			w.dense(c, h, kd, bias)
			w.dense(c, qd, h, false) // o_proj
			w.add(h, h*dt)           // post_attention_layernorm
			w.dense(c, h, c.ffn, false)
			w.dense(c, h, c.ffn, false)
			w.dense(c, c.ffn, h, false)
		}
		w.add(h, h*dt) // norm
		// rotary inv_freq and original_inv_freq buffers (float32)
		w.tensors = append(w.tensors, c.headDim/2*4, c.headDim/2*4)
		w.bytes += c.headDim * 4
		w.head = v * h * dt
		if !c.arch.Tied {
			w.add(v*h, v*h*dt) // lm_head
			w.embed = v * h * dt
		}
	}
	return w
}

// decodeRead is the weight bytes one decode step reads.
func (w *weights) decodeRead() int64 { return w.bytes - w.embed }

// layerMACs is the multiply-accumulates per token through the layers'
// linear weights.
func (w *weights) layerMACs() int64 {
	var n int64
	for _, l := range w.linear {
		n += l[0] * l[1]
	}
	return n
}
