package memmodel

// DeBERTa-v2's ops beside the layer (deberta_build.go): the bmm, gather
// and index ops of its attention, the ConvLayer and the heads.

// debertaBmm is bmm saving only what its backward needs: a for c's
// gradient, c for a's. Under LoRA the first layer's keys need none, so
// its queries are not kept (dev92's LoRA trace: 11 of 12 saved).
func (b *builder) debertaBmm(a, c Tensor, batch, m, n, k int64) Tensor {
	y := b.bmm(a, c, batch, m, n, k)
	o := &b.g.ops[len(b.g.ops)-1]
	ac, cc := o.in[0], o.in[1]
	o.mat2First = true
	o.save = o.save[:0]
	if b.rg(cc) {
		o.save = append(o.save, ac)
	}
	if b.rg(ac) {
		o.save = append(o.save, cc)
	}
	return y
}

// viewGradCopy marks the op that made y, a tensor permuted and copied
// contiguous (transpose_for_scores, the context's permute): its gradient
// comes back permuted and ViewBackward copies it before that op's
// backward, the incoming one freed at once (dev92's traces: a q-, k- or
// v-sized copy ahead of each projection's backward and of the context
// product's).
func (b *builder) viewGradCopy(y Tensor) Tensor {
	if o := &b.g.ops[len(b.g.ops)-1]; len(o.out) > 0 && o.out[len(o.out)-1] == y {
		o.gradCopy = true
	}
	return y
}

// intOp records an op without a gradient making a fresh tensor of numel
// elements of dt from ins (masks, index tensors, zeros).
func (b *builder) intOp(kind string, numel int64, dt DType, ins ...Tensor) Tensor {
	y := b.g.newTensor(numel, dt, false)
	b.op(kind, ins, []Tensor{y}, nil).noBackward = true
	return y
}

// gather is torch.gather of n elements of x at index idx: it saves x
// itself (gather_backward scatters into zeros of x's size).
func (b *builder) gather(x, idx Tensor, n int64) Tensor {
	y := b.out(n, b.dt(x), x)
	o := b.op("gather", []Tensor{x, idx}, []Tensor{y}, []Tensor{x, idx})
	o.flops = float64(n)
	return y
}

// addScalar is x + a Python number (0 + x): a new tensor, the gradient
// passed through.
func (b *builder) addScalar(x Tensor) Tensor {
	y := b.out(b.numel(x), b.dt(x), x)
	o := b.op("add_scalar", []Tensor{x}, []Tensor{y}, nil)
	o.passGrad = []bool{true}
	o.flops = float64(b.numel(x))
	return y
}

// debertaAct applies an activation as debertaActName (family_deberta.go)
// names it.
func (b *builder) debertaAct(kind string, x Tensor) Tensor {
	if kind == "tanh" {
		return b.unary("tanh", x, b.dt(x), false, true)
	}
	return b.activation(kind, x)
}

// reorderParams puts the graph's parameters in order (old indices in their
// new order): model.parameters() follows module registration, which a
// forward that uses a module before the ones registered ahead of it
// (DeBERTa's relative embeddings) does not.
func (b *builder) reorderParams(order []int) {
	old := b.g.params
	np := make([]paramInfo, len(old))
	at := make([]int, len(old))
	for n, o := range order {
		np[n], at[o] = old[o], n
	}
	for i := range b.g.tensors {
		if p := b.g.tensors[i].param; p >= 0 {
			b.g.tensors[i].param = at[p]
		}
	}
	b.g.params = np
}

// debertaConv is ConvLayer (deberta-v2-xlarge and -xxlarge), run once on
// the first layer's input x beside its output res: Conv1d over the
// sequence (permuted copies in and out), the padding positions zeroed in
// place, dropout and the activation, the residual sum, LayerNorm and the
// product with the attention mask.
func debertaConv(b *builder, a *Arch, x, res, ones Tensor, batch, seq int64) Tensor {
	dd := &a.Deberta
	d, k := int64(a.Hidden), int64(dd.ConvKernel)
	y, _ := b.conv1d(b.copy(x), batch, d, seq, d, k, 1, (k-1)/2)
	y = b.copy(y)
	// (1 - input_mask).bool(): a float then a bool batch × seq
	rm := b.intOp("to_bool", batch*seq, U8, b.intOp("rsub", batch*seq, F32, ones))
	z := b.alias(y)
	b.op("masked_fill_", []Tensor{y, rm}, []Tensor{z}, []Tensor{rm}).passGrad = []bool{true}
	z = b.debertaAct(dd.ConvAct, b.dropout(z, a.Dropout))
	z = b.layerNorm(b.add(res, z), d, true)
	return b.mul(z, b.cast(ones, b.dt(z)))
}

// debertaLayout names DeBERTa's head modules for the BERT heads.
var debertaLayout = encoderLayout{names: map[string]string{"transform": "dense"}}

// debertaHead is the task's head on the encoder output h: ContextPooler
// (the first token, pooler_dropout, dense, pooler_hidden_act), dropout
// (cls_dropout, else hidden_dropout_prob) and the classifier, or BERT's
// MLM, token-classification and QA heads, which DeBERTa-v2's match.
func debertaHead(b *builder, a *Arch, h, wte Tensor, batch, seq int64) {
	// the model output's last_hidden_state is referenced until the
	// forward returns (sequence_output, outputs[0])
	defer b.keep(h)
	switch a.Head {
	case "masked-lm":
		bertMLMHead(b, a, h, wte, &debertaLayout)
		return
	case "token-classification":
		bertTokenHead(b, a, h, &debertaLayout)
		return
	case "question-answering":
		bertQAHead(b, a, h, batch, seq, &debertaLayout)
		return
	}
	d := int64(a.Hidden)
	// hidden_states[:, 0] is a view the dense saves where no autocast
	// cast copies it, which keeps the encoder's output for backward
	c := b.slice(h, batch*d)
	c = b.dropout(c, a.Deberta.PoolerDropout)
	c = b.linear(c, d, d, true, "dense")
	c = b.debertaAct(a.Deberta.PoolerAct, c)
	c = b.dropout(c, a.Deberta.ClsDropout)
	classes := int64(max(a.Labels, 2))
	logits := b.linear(c, d, classes, true, "classifier")
	b.g.returned = append(b.g.returned, logits)
	b.g.loss = b.crossEntropy(logits, classes)
}
