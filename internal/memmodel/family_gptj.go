package memmodel

import "fmt"

// The GPT-J family: transformers' GPTJForCausalLM (EleutherAI/gpt-j-6b),
// recorded by buildDecoder. Attention and MLP in parallel off one
// LayerNorm; q/k/v/out_proj without biases; rotary_dim of each head
// rotated in interleaved pairs and concatenated back with the rest; the
// key/value cache filled in training (use_cache); GPT-J's own attention
// (EagerF32) whatever attn implementation is asked; an ungated gelu_new
// MLP with biases (fc_in, fc_out); an untied LM head with a bias.

func init() {
	register(&Family{
		Name: "gptj", Task: "causal-lm", Attention: true, AnyLength: true, Decoder: true,
		ModelTypes: []string{"gptj"},
		// PEFT's default target modules for gptj
		LoRATargets: []string{"q_proj", "v_proj"},
		Models:      []Arch{gptjArch("gpt-j-6b", 4096, 28, 16, 64)},
		Aliases:     map[string]string{"eleutherai/gpt-j-6b": "gpt-j-6b", "gpt-j": "gpt-j-6b", "gptj-6b": "gpt-j-6b"},
		Build:       func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF:      gptjFromHF,
	})
}

func gptjArch(name string, hidden, layers, heads, rotary int) Arch {
	q := DecoderQuirks{Norm: "lnb", Act: "gelu_new", Parallel: "one-norm", PlainMLP: true, Bias: true, OBiasOff: true,
		HeadBias: true, EagerF32: true, RopeQDtype: true, PartialRotary: float64(rotary) / float64(hidden/heads),
		Names: map[string]string{"o": "out_proj", "up": "fc_in", "down": "fc_out"}}
	return Arch{Name: name, Family: "gptj", Hidden: hidden, Layers: layers, Heads: heads, FFN: 4 * hidden,
		Vocab: 50400, MaxPos: 2048, DefaultSeq: 2048, Decoder: q}
}

func gptjFromHF(modelType string, data []byte) (Arch, error) {
	var h struct {
		NEmbd    int      `json:"n_embd"`
		NLayer   int      `json:"n_layer"`
		NHead    int      `json:"n_head"`
		NInner   *int     `json:"n_inner"`
		Rotary   *int     `json:"rotary_dim"`
		Vocab    int      `json:"vocab_size"`
		NPos     int      `json:"n_positions"`
		Act      string   `json:"activation_function"`
		Tie      *bool    `json:"tie_word_embeddings"`
		Resid    *float64 `json:"resid_pdrop"`
		Embd     *float64 `json:"embd_pdrop"`
		AttnDrop *float64 `json:"attn_pdrop"`
	}
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"n_embd", h.NEmbd}, hfKey{"n_layer", h.NLayer}, hfKey{"n_head", h.NHead},
		hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"n_positions", h.NPos}); err != nil {
		return Arch{}, err
	}
	if h.NEmbd%h.NHead != 0 {
		return Arch{}, fmt.Errorf("config.json: n_embd %d is not a multiple of n_head %d", h.NEmbd, h.NHead)
	}
	hd := h.NEmbd / h.NHead
	rot := hd
	if h.Rotary != nil && *h.Rotary > 0 {
		rot = *h.Rotary
	}
	if rot > hd || rot%2 != 0 {
		return Arch{}, fmt.Errorf("config.json: rotary_dim %d: want an even number of at most the head size %d", rot, hd)
	}
	a := gptjArch(modelType, h.NEmbd, h.NLayer, h.NHead, rot)
	if h.NInner != nil && *h.NInner > 0 {
		a.FFN = *h.NInner
	}
	a.Vocab = h.Vocab
	if h.NPos > 0 {
		a.MaxPos, a.DefaultSeq = h.NPos, h.NPos
	}
	a.Decoder.Act = hfGelu(h.Act, "gelu_new")
	a.Tied = orBool(h.Tie, false)
	a.Dropout, a.AttnDropout = orF64(h.Resid, 0), orF64(h.AttnDrop, 0)
	a.Decoder.EmbedDropout = orF64(h.Embd, 0)
	return a, nil
}

// gptjAttend is GPTJAttention._attn as dev91's traces allocate it.
func (b *builder) gptjAttend(q, k, v, mask Tensor, s attnShape) Tensor {
	q32, k32 := b.cast(q, F32), b.cast(k, F32)
	scores := s.batch * s.heads * s.sq * s.sk
	f := 2 * float64(scores*s.hd)
	sc := b.matmul(q32, k32, scores, f)
	// the scores masked: a checkpointed layer reads the model's mask,
	// so torch.utils.checkpoint holds it until the layer's recomputation
	msk := b.out(b.numel(sc), b.dt(sc), sc)
	b.op("masked_fill", []Tensor{sc, mask}, []Tensor{msk}, nil)
	sc = msk
	w := b.unary("div", sc, F32, false, false)
	p := b.unary("softmax", w, F32, false, true)
	p = b.cast(p, b.dt(v))
	p = b.dropout(p, s.dropout)
	o := b.matmul(p, v, s.batch*s.heads*s.sq*s.hd, f)
	out := b.copy(o) // _merge_heads
	b.keep(q32, k32) // query and key rebound to their float32 copies until _attn returns
	return out
}
