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
	// tower is the bytes of a multimodal checkpoint's image encoder
	// loaded beside the language model, which a text decode step does not
	// read
	tower int64
	// an encoder-decoder's encoder (encoderDone): its bytes, which a
	// decode step does not read, and how many of linear's first entries
	// are its matrices
	encBytes  int64
	encLinear int
}

// encoderDone marks the weights added since start (the bytes before the
// encoder's first) as the encoder's.
func (w *weights) encoderDone(start int64) {
	w.encBytes, w.encLinear = w.bytes-start, len(w.linear)
}

// macs is the multiply-accumulates per token through linear's matrices.
func macs(linear [][2]int64) int64 {
	var n int64
	for _, l := range linear {
		n += l[0] * l[1]
	}
	return n
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

// kept adds an in×out linear weight that stays in the compute dtype
// under quantisation (a mixture-of-experts router).
func (w *weights) kept(c *config, in, out int64) {
	w.add(in*out, in*out*c.dt)
	w.linear = append(w.linear, [2]int64{in, out})
}

// decodeRead is the weight bytes one decode step reads.
func (w *weights) decodeRead() int64 { return w.bytes - w.embed - w.tower - w.encBytes }

// layerMACs is the multiply-accumulates per token through the layers'
// linear weights.
func (w *weights) layerMACs() int64 { return macs(w.linear) }

// buildWeights lists the parameters of the model in c, as its family's
// loader allocates them.
func buildWeights(c *config) *weights {
	w := &weights{}
	if c.arch.Images != nil && c.generate {
		imageTowerWeights(c, w)
	}
	c.dec.weights(c, w)
	return w
}

// imageTowerWeights lists a multimodal checkpoint's SigLIP tower and
// projector as Hugging Face builds them before the language model
// (Gemma3ForConditionalGeneration: vision_tower, multi_modal_projector,
// language_model), in the weights' dtype: the patch embedding and its
// bias, the position embedding, per layer two LayerNorms, k/v/q/out
// projections with biases and the MLP's fc1 and fc2, the post-LayerNorm,
// and the projector's norm and matrix. Their count is ImageTower.Params'.
func imageTowerWeights(c *config, w *weights) {
	t := c.arch.Images
	h, f, p, dt := int64(t.Hidden), int64(t.FFN), int64(t.Patch), c.dt
	before := w.bytes
	w.add(3*p*p*h, 3*p*p*h*dt)
	w.add(h, h*dt)
	w.add(t.Patches()*h, t.Patches()*h*dt)
	for range t.Layers {
		w.add(h, h*dt) // layer_norm1
		w.add(h, h*dt)
		for range 4 { // k, v, q, out_proj
			w.add(h*h, h*h*dt)
			w.add(h, h*dt)
		}
		w.add(h, h*dt) // layer_norm2
		w.add(h, h*dt)
		w.add(h*f, h*f*dt) // fc1
		w.add(f, f*dt)
		w.add(f*h, f*h*dt) // fc2
		w.add(h, h*dt)
	}
	w.add(h, h*dt) // post_layernorm
	w.add(h, h*dt)
	w.add(h, h*dt)                   // mm_soft_emb_norm
	w.add(h*c.hidden, h*c.hidden*dt) // mm_input_projection_weight
	w.tower = w.bytes - before
}
