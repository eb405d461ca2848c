package memmodel

import "fmt"

// The OPT family: transformers' OPTForCausalLM (facebook/opt-125m ..
// opt-66b), recorded by buildDecoder. A pre-norm decoder with
// nn.LayerNorm (weight and bias); learned position embeddings (offset by
// 2) looked up per batch row from the attention mask's cumulative sum and
// added to the token embedding; q/k/v/out_proj with biases, the query
// multiplied by 1/√head_dim before attention; an ungated ReLU MLP (fc1,
// fc2); dropout after each branch; the LM head tied to the token
// embedding. opt-350m puts each LayerNorm after its residual add, has no
// final norm, and embeds tokens 512 wide, projected in and out of the
// 1024-wide layers.

func init() {
	register(&Family{
		Name: "opt", Task: "causal-lm", Attention: true, Decoder: true,
		ModelTypes: []string{"opt"},
		// PEFT's default target modules for opt
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			// facebook/opt-* config.json
			optArch("opt-125m", 768, 12, 12, 3072, 0, true),
			optArch("opt-350m", 1024, 24, 16, 4096, 512, false),
			optArch("opt-1.3b", 2048, 24, 32, 8192, 0, true),
			optArch("opt-2.7b", 2560, 32, 32, 10240, 0, true),
			optArch("opt-6.7b", 4096, 32, 32, 16384, 0, true),
			optArch("opt-13b", 5120, 40, 40, 20480, 0, true),
			optArch("opt-30b", 7168, 48, 56, 28672, 0, true),
			optArch("opt-66b", 9216, 64, 72, 36864, 0, true),
		},
		Aliases: map[string]string{
			"facebook/opt-125m": "opt-125m", "facebook/opt-350m": "opt-350m", "facebook/opt-1.3b": "opt-1.3b",
			"facebook/opt-2.7b": "opt-2.7b", "facebook/opt-6.7b": "opt-6.7b", "facebook/opt-13b": "opt-13b",
			"facebook/opt-30b": "opt-30b", "facebook/opt-66b": "opt-66b",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildDecoder(b, a, in.Batch, in.Seq, in.Cache) },
		FromHF: optFromHF,
	})
}

// optQuirks are OPT's, with its module names.
func optQuirks(before, affine bool, proj int, act string, bias bool) DecoderQuirks {
	q := DecoderQuirks{Norm: "lnb", Act: act, PlainMLP: true, Bias: bias, LearnedPos: true, QScale: true,
		Names: map[string]string{"o": "out_proj", "up": "fc1", "down": "fc2"}}
	if !affine {
		q.Norm = "ln"
	}
	if !before {
		q.NormPlace = "after"
	}
	if proj > 0 {
		q.EmbedProj = proj
	}
	return q
}

func optArch(name string, hidden, layers, heads, ffn, proj int, before bool) Arch {
	return Arch{Name: name, Family: "opt", Hidden: hidden, Layers: layers, Heads: heads, FFN: ffn, Vocab: 50272,
		MaxPos: 2048, DefaultSeq: 2048, AttnBias: true, Tied: true, Dropout: 0.1,
		Decoder: optQuirks(before, true, proj, "relu", true)}
}

// hfOPT is OPT's config.json.
type hfOPT struct {
	HiddenSize  int      `json:"hidden_size"`
	Layers      int      `json:"num_hidden_layers"`
	Heads       int      `json:"num_attention_heads"`
	FFN         int      `json:"ffn_dim"`
	Vocab       int      `json:"vocab_size"`
	MaxPos      int      `json:"max_position_embeddings"`
	Proj        int      `json:"word_embed_proj_dim"`
	Before      *bool    `json:"do_layer_norm_before"`
	RemoveFinal bool     `json:"_remove_final_layer_norm"`
	Dropout     *float64 `json:"dropout"`
	AttnDrop    *float64 `json:"attention_dropout"`
	Act         string   `json:"activation_function"`
	Bias        *bool    `json:"enable_bias"`
	Affine      *bool    `json:"layer_norm_elementwise_affine"`
	Tie         *bool    `json:"tie_word_embeddings"`
}

func optFromHF(modelType string, data []byte) (Arch, error) {
	var h hfOPT
	if err := decodeHF(data, &h); err != nil {
		return Arch{}, err
	}
	if err := needPositive(hfKey{"hidden_size", h.HiddenSize}, hfKey{"num_hidden_layers", h.Layers},
		hfKey{"num_attention_heads", h.Heads}, hfKey{"ffn_dim", h.FFN}, hfKey{"vocab_size", h.Vocab}); err != nil {
		return Arch{}, err
	}
	if err := notNegative(hfKey{"max_position_embeddings", h.MaxPos}, hfKey{"word_embed_proj_dim", h.Proj}); err != nil {
		return Arch{}, err
	}
	if h.HiddenSize%h.Heads != 0 {
		return Arch{}, fmt.Errorf("config.json: hidden_size %d is not a multiple of num_attention_heads %d", h.HiddenSize, h.Heads)
	}
	act := h.Act
	switch act {
	case "", "relu":
		act = "relu"
	case "gelu":
	default:
		return Arch{}, fmt.Errorf("config.json: activation_function %q: OPT is modelled with relu or gelu", h.Act)
	}
	before := orBool(h.Before, true)
	if before && h.RemoveFinal {
		return Arch{}, fmt.Errorf("config.json: _remove_final_layer_norm (a pre-v4.20 OPT fine-tune without its final norm) is not modelled")
	}
	proj := 0
	if h.Proj > 0 && h.Proj != h.HiddenSize {
		proj = h.Proj
	}
	bias := orBool(h.Bias, true)
	a := Arch{Name: modelType, Family: "opt", Hidden: h.HiddenSize, Layers: h.Layers, Heads: h.Heads, FFN: h.FFN,
		Vocab: h.Vocab, MaxPos: 2048, DefaultSeq: 2048, AttnBias: bias, Tied: orBool(h.Tie, true),
		Dropout: orF64(h.Dropout, 0.1), AttnDropout: orF64(h.AttnDrop, 0),
		Decoder: optQuirks(before, orBool(h.Affine, true), proj, act, bias)}
	if h.MaxPos > 0 {
		a.MaxPos = h.MaxPos
	}
	a.DefaultSeq = a.MaxPos
	return a, nil
}

// learnedPos are the tensors OPTDecoder.forward binds to locals until it
// returns: the attention mask it makes (ones, float32), the position ids
// and the token and position embeddings.
type learnedPos struct{ mask, ids, tok, pos Tensor }

// learnedPositions adds OPT's learned position embedding to the token
// embedding h (projected in first where the embedding is narrower than
// the layers): the positions, per batch row, index a table of
// max_position_embeddings + 2 rows.
func (b *builder) learnedPositions(h Tensor, a *Arch, batch, seq int64) (Tensor, learnedPos) {
	d, e := int64(a.Hidden), a.Decoder.embedWidth(int64(a.Hidden))
	b.module = "embed_positions"
	table := int64(a.MaxPos) + 2
	wpe := b.param(table * d)
	mask := b.g.newTensor(batch*seq, F32, false)
	b.op("ones", nil, []Tensor{mask}, nil).noBackward = true
	ids := b.g.newTensor(batch*seq, I64, false)
	b.op("cumsum", []Tensor{mask}, []Tensor{ids}, nil).noBackward = true
	pe := b.embedding(ids, wpe, table, d)
	if e != d {
		b.module = "project_in"
		// project_in saves its low-precision cast; the token embedding,
		// rebound to its output, dies here (dev82's OPT-350m trace)
		h = b.linear(h, e, d, false, "project_in")
	}
	p := learnedPos{mask: mask, ids: ids, tok: h, pos: pe}
	return b.add(h, pe), p
}

// learnedPositionsEnd ends OPT's decoder stack after its final norm: the
// forward's locals are released (dev82's OPT-125m trace frees the mask,
// the ids and both embeddings after the final norm) and a narrower
// embedding is projected back out (project_out).
func (b *builder) learnedPositionsEnd(h Tensor, p learnedPos, a *Arch) Tensor {
	b.keep(p.mask, p.ids, p.tok, p.pos)
	d, e := int64(a.Hidden), a.Decoder.embedWidth(int64(a.Hidden))
	if e != d {
		b.module = "project_out"
		h = b.linear(h, d, e, false, "project_out")
	}
	return h
}
