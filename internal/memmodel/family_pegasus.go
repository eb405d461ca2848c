package memmodel

// The Pegasus family: transformers' PegasusForConditionalGeneration
// (google/pegasus-large and its summarisation fine-tunes pegasus-xsum,
// -cnn_dailymail, -multi_news, …; config.json model_type pegasus),
// BART's encoder-decoder (buildBART) with mBART's pre-norm layers and
// final LayerNorm per stack on Marian's embeddings: fixed sinusoidal
// position tables (a parameter that requires no grad, one row of
// positions broadcast over the batch) and no LayerNorm on the
// embeddings. The shared embedding is scaled by sqrt(d_model)
// (scale_embedding), the MLP is ReLU in every released checkpoint, and
// the LM head is tied to the shared embedding plus final_logits_bias.
// Pegasus-X (model_type pegasus_x: staggered block-local attention) is
// another model and is not this family.

func init() {
	register(&Family{
		Name: "pegasus", Task: "seq2seq", Attention: true,
		// enable_input_require_grads' leaves, held (dev100)
		InputGradHeld: true,
		ModelTypes:    []string{"pegasus"},
		// PEFT 0.21 has no default for pegasus (target_modules must be
		// given): BART's q_proj/v_proj
		LoRATargets: []string{"q_proj", "v_proj"},
		Models: []Arch{
			pegasusArch("pegasus-large", 16, 1024),
			pegasusArch("pegasus-xsum", 16, 512),
			pegasusArch("distill-pegasus-xsum-16-4", 4, 512),
		},
		Aliases: map[string]string{
			"google/pegasus-large": "pegasus-large", "google/pegasus-xsum": "pegasus-xsum",
			"google/pegasus-cnn_dailymail": "pegasus-large", "pegasus-cnn_dailymail": "pegasus-large",
			"google/pegasus-multi_news": "pegasus-large", "pegasus-multi_news": "pegasus-large",
			"sshleifer/distill-pegasus-xsum-16-4": "distill-pegasus-xsum-16-4",
		},
		Build:  func(b *builder, a *Arch, in Input) { buildBART(b, a, in.Batch, in.Seq) },
		FromHF: func(_ string, data []byte) (Arch, error) { return bartKinFromHF(data, pegasusKin) },
	})
}

// pegasusKin is Pegasus' layout: pre-norm with final LayerNorms,
// sinusoids, no embedding LayerNorm, ReLU.
var pegasusKin = bartKin{family: "pegasus", class: "PegasusForConditionalGeneration", vocab: 96103,
	layout: BARTOpts{PreNorm: true, NoEmbedNorm: true, Sinusoidal: true, Act: "relu"}}

// pegasusArch is pegasus-large's shape (1024 wide, 16 encoder layers, 16
// heads, 4096 MLP) with decLayers decoder layers and maxPos positions;
// every released checkpoint drops out 0.1 in attention and the MLP too.
func pegasusArch(name string, decLayers, maxPos int) Arch {
	a := bartKinArch(pegasusKin, name, 1024, 16, 16, 4096)
	a.DecLayers, a.MaxPos, a.DefaultSeq = decLayers, maxPos, maxPos
	a.AttnDropout, a.ActDropout = 0.1, 0.1
	return a
}
