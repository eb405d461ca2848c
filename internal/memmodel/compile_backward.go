package memmodel

// compiledBackwardInputs allocates, as a compiled step's backward starts,
// the gradient of every tensor the compiled forward returns beside the
// loss (Graph.returned), and returns their ids: autograd hands the
// compiled backward one gradient per output of the forward, materialising
// zeros (Function's materialize_grads) for the outputs the loss does not
// reach (the key/value cache; the logits when the loss is in the same
// graph), and the logits' real gradient when the loss is a graph of its
// own. They are the backward's inputs and are freed only when it
// returns: the dev9 snapshots (torch 2.11, H200) allocate 24 zero
// gradients of 24 MiB (GPT-2 s512 b32) and 48 of 32 MiB plus a 500 MiB
// logits-sized one (LLaMA-small s1024 b8) before the backward graph's
// first kernel and free them after its last. Eager steps get none.
func (gen *generator) compiledBackwardInputs() []int32 {
	g := gen.g
	if !g.compiled {
		return nil
	}
	var ids []int32
	for _, t := range g.returned {
		if tt := &g.tensors[t]; tt.grad {
			ids = append(ids, gen.alloc(tt.bytes(), CatTemporaries, "compiled_backward_input"))
		}
	}
	return ids
}

// fusedGradBytes is the size of the gradient a fused pointwise op's
// backward produces for input t when it is not passed through (a
// reduction: the loss's NLL, a mean). Inductor fuses the backward of the
// whole pointwise chain that produced t and writes the gradient only where
// the chain starts, at the output of the non-fused op it read, in that
// tensor's dtype: the loss's float32 log-softmax gradient is never
// materialised, the bf16 logits' gradient is (the dev9 GPT-2 s512 b32
// snapshot: one 1,570.5 MiB request where the eager step makes a 3,141 MiB
// float32 one).
func (gen *generator) fusedGradBytes(t Tensor) int64 {
	g := gen.g
	n := g.tensors[t].numel
	for {
		p := gen.producer(g.tensors[t].base)
		if p < 0 || !g.ops[p].fused {
			break
		}
		next := Tensor(-1)
		for _, in := range g.ops[p].in {
			if g.tensors[in].numel == n && g.tensors[in].grad {
				next = in
				break
			}
		}
		if next < 0 {
			break
		}
		t = next
	}
	return n * g.tensors[t].dt.Size()
}
