package memmodel

// The MarianMT family: transformers' MarianMTModel (Helsinki-NLP's
// opus-mt-* translation models; config.json model_type marian), BART's
// post-norm encoder-decoder (buildBART) with Marian's departures: fixed
// sinusoidal position tables (MarianSinusoidalPositionalEmbedding, an
// nn.Embedding whose weight requires no grad: counted among the
// parameters, never trained, looked up under no_grad for one row of
// positions), no LayerNorm on the embeddings, and a SiLU ("swish") MLP.
// Like BART it scales the shared embedding by sqrt(d_model)
// (scale_embedding), ties the LM head to it
// (share_encoder_decoder_embeddings) and adds final_logits_bias.
//
// Every opus-mt pair has opus-mt-en-de's shape (512 wide, 6+6 layers, 8
// heads, 2048 MLP, 512 positions) but its own SentencePiece vocabulary:
// the hub ids below plan at en-de's 58,101 tokens, which the LM head's
// logits scale with; pass the pair's config.json (--hf-config) for its
// own vocab_size.

func init() {
	register(&Family{
		Name: "marian", Task: "seq2seq", Attention: true,
		// enable_input_require_grads' leaves, held (dev100)
		InputGradHeld: true,
		ModelTypes:    []string{"marian"},
		// PEFT 0.21 has no default for marian (target_modules must be
		// given): BART's q_proj/v_proj
		LoRATargets: []string{"q_proj", "v_proj"},
		Models:      []Arch{marianArch("opus-mt-en-de", 58101)},
		Aliases:     opusMTAliases("opus-mt-en-de"),
		AliasNotes:  opusMTNotes(),
		Build:       func(b *builder, a *Arch, in Input) { buildBART(b, a, in.Batch, in.Seq) },
		FromHF:      func(_ string, data []byte) (Arch, error) { return bartKinFromHF(data, marianKin) },
	})
}

// marianKin is Marian's layout: post-norm, sinusoids, no embedding
// LayerNorm, SiLU.
var marianKin = bartKin{family: "marian", class: "MarianMTModel", vocab: 58101,
	layout: BARTOpts{NoEmbedNorm: true, Sinusoidal: true, Act: "silu"}}

func marianArch(name string, vocab int) Arch {
	a := bartKinArch(marianKin, name, 512, 6, 8, 2048)
	a.Vocab, a.MaxPos, a.DefaultSeq = vocab, 512, 512
	return a
}

// opusMTPairs are common opus-mt language pairs, all of en-de's shape.
var opusMTPairs = []string{"en-de", "de-en", "en-fr", "fr-en", "en-es", "es-en", "en-it", "it-en", "en-ro", "ro-en",
	"en-ru", "ru-en", "en-zh", "zh-en", "en-nl", "nl-en", "en-jap", "en-roa", "en-mul", "mul-en"}

// opusMTAliases maps the common opus-mt hub ids (and their short names)
// to the catalog's en-de model, the shape they share.
func opusMTAliases(target string) map[string]string {
	m := map[string]string{"opus-mt": target}
	for _, p := range opusMTPairs {
		m["helsinki-nlp/opus-mt-"+p] = target
		if p != "en-de" {
			m["opus-mt-"+p] = target
		}
	}
	return m
}

// opusMTNotes says, for every pair but en-de, that its vocabulary is its
// own.
func opusMTNotes() map[string]string {
	m := map[string]string{"opus-mt": opusMTNote}
	for _, p := range opusMTPairs {
		if p != "en-de" {
			m["opus-mt-"+p] = opusMTNote
		}
	}
	return m
}

const opusMTNote = "every opus-mt pair has its shape, planned at en-de's 58,101-token vocabulary; the pair's own (its config.json's vocab_size) scales the embedding and the logits: pass its config.json with --hf-config for it"
