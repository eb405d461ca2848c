package memmodel

// The mBART family: transformers' MBartForConditionalGeneration
// (facebook/mbart-large-cc25, mbart-large-50 and its many-to-many /
// one-to-many fine-tunes; config.json model_type mbart), BART's
// encoder-decoder (buildBART) with pre-norm layers: each sublayer
// normalises its input (self_attn_layer_norm before attention,
// final_layer_norm before the MLP) and adds its dropout output to the
// residual, and a final LayerNorm closes each stack. Like BART:
// learned positions offset by 2, layernorm_embedding on both stacks, the
// shared embedding scaled by sqrt(d_model) (scale_embedding), a GELU MLP,
// the LM head tied to the shared embedding plus final_logits_bias.

func init() {
	register(&Family{
		Name: "mbart", Task: "seq2seq", Attention: true,
		// enable_input_require_grads' leaves, held (dev100)
		InputGradHeld: true,
		ModelTypes:    []string{"mbart"},
		// PEFT 0.21 has no default for mbart (target_modules must be
		// given): BART's q_proj/v_proj, as dev96's LoRA row names them
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			mbartArch("mbart-large-50", 250054),
			mbartArch("mbart-large-cc25", 250027),
		},
		Aliases: map[string]string{
			"facebook/mbart-large-50": "mbart-large-50", "facebook/mbart-large-cc25": "mbart-large-cc25",
			"facebook/mbart-large-50-many-to-many-mmt": "mbart-large-50", "mbart-large-50-many-to-many-mmt": "mbart-large-50",
			"facebook/mbart-large-50-many-to-one-mmt": "mbart-large-50", "mbart-large-50-many-to-one-mmt": "mbart-large-50",
			"facebook/mbart-large-50-one-to-many-mmt": "mbart-large-50", "mbart-large-50-one-to-many-mmt": "mbart-large-50",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildBART(b, a, in.Batch, in.Seq) },
		FromHF: func(_ string, data []byte) (Arch, error) { return bartKinFromHF(data, mbartKin) },
	})
}

// mbartKin is mBART's layout: pre-norm with final LayerNorms.
var mbartKin = bartKin{family: "mbart", class: "MBartForConditionalGeneration", vocab: 250054,
	layout: BARTOpts{PreNorm: true}}

func mbartArch(name string, vocab int) Arch {
	a := bartKinArch(mbartKin, name, 1024, 12, 16, 4096)
	a.Vocab = vocab
	return a
}
