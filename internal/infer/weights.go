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

// kept adds an in×out linear weight that stays in the compute dtype
// under quantisation (a mixture-of-experts router).
func (w *weights) kept(c *config, in, out int64) {
	w.add(in*out, in*out*c.dt)
	w.linear = append(w.linear, [2]int64{in, out})
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

// buildWeights lists the parameters of the model in c, as its family's
// loader allocates them.
func buildWeights(c *config) *weights {
	w := &weights{}
	c.dec.weights(c, w)
	return w
}
