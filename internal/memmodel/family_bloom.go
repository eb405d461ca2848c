package memmodel

import "fmt"

// The BLOOM family: transformers' BloomForCausalLM (bigscience/bloom-560m
// .. bloom-7b1, bloomz). A pre-norm decoder whose positions are ALiBi
// biases: no position embedding, and its own eager attention (baddbmm of
// the bias with q·kᵀ, the float32 causal mask added, a float32 softmax
// cast back, bmm with v) whatever attn implementation is asked; a
// LayerNorm after the word embedding; one fused query_key_value
// projection, reshaped into per-head copies; BLOOM's GELU as a custom
// autograd function (its Python tanh formula run without a graph, only the
// input saved); dropout-add residuals; ln_f and the LM head tied to the
// word embedding.

func init() {
	register(&Family{
		Name: "bloom", Task: "causal-lm", Attention: true,
		ModelTypes: []string{"bloom"},
		// PEFT's default target modules for bloom
		LoRATargets: []string{"query_key_value"},
		Models: []Arch{
			bloomArch("bloom-560m", 1024, 24, 16), bloomArch("bloom-1b1", 1536, 24, 16),
			bloomArch("bloom-1b7", 2048, 24, 16), bloomArch("bloom-3b", 2560, 30, 32),
			bloomArch("bloom-7b1", 4096, 30, 32),
		},
		Aliases: map[string]string{
			"bigscience/bloom-560m": "bloom-560m", "bigscience/bloom-1b1": "bloom-1b1", "bigscience/bloom-1b7": "bloom-1b7",
			"bigscience/bloom-3b": "bloom-3b", "bigscience/bloom-7b1": "bloom-7b1",
			"bigscience/bloomz-560m": "bloom-560m", "bigscience/bloomz-1b1": "bloom-1b1", "bigscience/bloomz-1b7": "bloom-1b7",
			"bigscience/bloomz-3b": "bloom-3b", "bigscience/bloomz-7b1": "bloom-7b1",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildBLOOM(b, a, in.Batch, in.Seq) },
		FromHF: bloomFromHF,
	})
}

// BLOOM was trained at 2048 tokens; ALiBi itself has no position limit.
func bloomArch(name string, hidden, layers, heads int) Arch {
	return Arch{Name: name, Family: "bloom", Hidden: hidden, Layers: layers, Heads: heads, FFN: 4 * hidden,
		Vocab: 250880, DefaultSeq: 2048, Tied: true, AttnBias: true}
}

func bloomFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		Hidden   int      `json:"hidden_size"`
		NEmbed   int      `json:"n_embed"`
		Layers   int      `json:"n_layer"`
		Heads    int      `json:"n_head"`
		Vocab    int      `json:"vocab_size"`
		PostLN   bool     `json:"apply_residual_connection_post_layernorm"`
		Dropout  *float64 `json:"hidden_dropout"`
		AttnDrop *float64 `json:"attention_dropout"`
		Tie      *bool    `json:"tie_word_embeddings"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if h.Hidden == 0 {
		h.Hidden = h.NEmbed
	}
	if err := needPositive(hfKey{"hidden_size", h.Hidden}, hfKey{"n_layer", h.Layers}, hfKey{"n_head", h.Heads},
		hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if h.Hidden%h.Heads != 0 {
		return Arch{}, fmt.Errorf("config.json: hidden_size %d is not a multiple of n_head %d", h.Hidden, h.Heads)
	}
	if h.PostLN {
		return Arch{}, fmt.Errorf("config.json: apply_residual_connection_post_layernorm is not modelled (every released BLOOM has it false)")
	}
	a := bloomArch(modelType, h.Hidden, h.Layers, h.Heads)
	a.Vocab = h.Vocab
	a.Dropout, a.AttnDropout = orF64(h.Dropout, 0), orF64(h.AttnDrop, 0)
	a.Tied = orBool(h.Tie, true)
	return a, nil
}

// bloomGELU is GeLUFunction: the tanh formula's temporaries (up to four
// of the input's size at once, dev87's trace) made and freed inside the
// forward, only the input saved, and about as many again inside its
// backward before the gradient exists.
func (b *builder) bloomGELU(x Tensor) Tensor {
	y := b.unary("gelu_tanh", x, b.dt(x), true, false)
	n := b.tt(x).bytes()
	o := &b.g.ops[len(b.g.ops)-1]
	o.fwdHeld = []int64{n, n, n}
	o.bwdHeld = []int64{n, n, n}
	return y
}

// bloomAttention is BloomAttention.forward as dev87's traces allocate it:
// the fused projection, per-head copies of q, k and v (_reshape), baddbmm
// with the bias cast to the compute dtype, the float32 causal mask added
// (a float32 b·h·s² tensor), a float32 softmax cast back, bmm with v,
// _merge_heads' copy and dense; fused_qkv and both score tensors are
// locals until the attention returns.
func (b *builder) bloomAttention(x, mask, alibi Tensor, a *Arch, batch, seq int64) Tensor {
	d, heads := int64(a.Hidden), int64(a.Heads)
	hd := d / heads
	qkv := b.linear(x, d, 3*d, true, "query_key_value")
	n := batch * seq * d
	q, k, v := b.copy(b.slice(qkv, n)), b.copy(b.slice(qkv, n)), b.copy(b.slice(qkv, n))
	ac := alibi
	if b.amp != F32 && b.dt(alibi) != b.amp {
		ac = b.cast(alibi, b.amp)
	}
	sc := b.bmm(q, k, batch*heads, seq, seq, hd)
	if ac != alibi {
		b.keep(ac) // the bias cast, until baddbmm returns
	}
	w := b.add(sc, mask)
	p := b.unary("softmax", w, F32, false, true)
	p = b.cast(p, b.dt(v))
	p = b.dropout(p, a.AttnDropout)
	o := b.bmm(p, v, batch*heads, seq, hd, seq)
	o = b.copy(o) // _merge_heads
	o = b.linear(o, d, d, true, "dense")
	b.keep(qkv, sc, w)
	return o
}

// buildBLOOM follows transformers 5's BloomForCausalLM in training.
func buildBLOOM(b *builder, a *Arch, batch, seq int64) {
	ids := b.textInput(batch, seq, batch*seq)
	// under LoRA the embeddings and the first layer's frozen projections
	// read nothing requiring grad: autograd saves nothing for them
	defer b.noGradSaves(len(b.g.ops))
	d, heads, vocab := int64(a.Hidden), int64(a.Heads), int64(a.Vocab)
	b.module = "word_embeddings"
	wte := b.param(vocab * d)
	h := b.embedding(ids, wte, vocab, d)
	h = b.layerNorm(h, d, true) // word_embeddings_layernorm
	// build_alibi_tensor (float32, b·h rows of seq) and the 4-D float32
	// causal mask, both held until the model returns
	alibi := b.g.newTensor(batch*heads*seq, F32, false)
	b.op("alibi", []Tensor{ids}, []Tensor{alibi}, nil).noBackward = true
	mask := b.g.newTensor(batch*seq*seq, F32, false)
	b.op("causal_mask", nil, []Tensor{mask}, nil).noBackward = true
	for l := 0; l < a.Layers; l++ {
		b.block = l
		b.module = layerModule(l, "self_attention")
		y := b.layerNorm(h, d, true)
		att := b.bloomAttention(y, mask, alibi, a, batch, seq)
		h = b.add(h, b.dropout(att, a.Dropout)) // dropout_add
		b.keep(att)
		b.module = layerModule(l, "mlp")
		z := b.layerNorm(h, d, true)
		b.keep(y) // input_layernorm's output, until post_attention_layernorm returns
		m := b.linear(z, d, int64(a.FFN), true, "dense_h_to_4h")
		m = b.bloomGELU(m)
		m = b.linear(m, int64(a.FFN), d, true, "dense_4h_to_h")
		h = b.add(h, b.dropout(m, a.Dropout))
		b.keep(m, z)
	}
	b.block = -1
	b.g.blocks = a.Layers
	b.module = "ln_f"
	h = b.layerNorm(h, d, true)
	b.keep(alibi, mask)
	b.module = "lm_head"
	logits := b.linearWith(h, wte, -1, d, vocab)
	b.module = "loss"
	b.lmLoss(logits, batch, seq, vocab)
	b.keep(h) // the base model's last_hidden_state, through the loss
}
