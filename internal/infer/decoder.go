package infer

import (
	"sort"
	"strings"
)

// decoder is how one model family runs under generate: its parameters,
// its embedding, one decoder layer and its norm. Each family registers
// one from its own file (family_*.go), keyed by memmodel's family name;
// nothing else in the package switches on family names.
type decoder struct {
	family  string
	weights func(c *config, w *weights)
	// embed allocates the input embeddings of q tokens per sequence,
	// fills in what every layer reads (rotary tables), and returns the
	// residual stream's start and the tensors the model's forward holds
	// until it returns.
	embed func(m *model, q int64, in *layerIn) (x int32, keep []int32)
	block func(m *model, l int, x int32, in layerIn) int32
	norm  func(m *model, x int32, T int64) int32
	// servedMLP is the widest MLP intermediate of vLLM's fused forward in
	// units of ffn (see profilePeak); served, when set, gives it in
	// elements per token on one of tp GPUs instead (mixture of experts).
	servedMLP int64
	served    func(c *config, tp int64) int64
	// halfRefused, when set and true, says vLLM refuses float16 for the
	// model: "auto" on a GPU without bfloat16 loads it in float32
	halfRefused func(c *config) bool
	// layouts, when set, is how many ways vLLM may lay the weights out
	// on c's GPU (kernels chosen by what is installed); weights builds
	// the one c.layout names, 0 the likeliest, and the plan's weights
	// band spans them all
	layouts func(c *config) int
	// note, when set, says what the plan assumed for the family
	note func(c *config) string
	// refuse, when set, says why vLLM would not serve c (nil: it does)
	refuse func(c *config) error
	// noLoRA: vLLM's model class takes no LoRA adapters
	noLoRA bool
	// learnedPos: positions are a learned embedding (GPT-2), no rotary
	// table
	learnedPos bool
	// stridedKV is how many of a decode step's new key and value tensors
	// reach DynamicCache's torch.cat as strided views of a fused q/k/v
	// projection's output (GPT-2's c_attn split and BLOOM's: both;
	// GPT-NeoX's and Phi-3's: the value, the key being rebuilt by the
	// rotary embedding):
	// cat then takes its generic strided path (see timeModel.catStrided)
	stridedKV int
	// mathAttn: the family's attention runs SDPA's math kernel in every
	// precision (Falcon: a causal mask with grouped heads)
	mathAttn bool
	// eagerF32: the family's own eager attention with float32 scores
	// whatever is asked (GPT-J, attendGPTJ); its float 4-D mask is made
	// as eager attention's is
	eagerF32 bool
	// encDec, when set, is the whole generate call of an encoder-decoder
	// family (BART: the encoder pass, then the decoder's steps), in place
	// of the decoder-only loop and blocks
	encDec func(m *model)
	// audio, when set, says the encoder reads a fixed audio window, not a
	// prompt (Whisper)
	audio *audioInput
}

// generates reports whether Hugging Face generate is planned for the
// family (serve plans need only the weights and the served forward).
func (d *decoder) generates() bool { return d.block != nil || d.encDec != nil }

// decoders holds the registered families; filled by init functions only.
var decoders = map[string]*decoder{}

func registerDecoder(d *decoder) {
	if decoders[d.family] != nil {
		panic("infer: decoder registered twice: " + d.family)
	}
	decoders[d.family] = d
}

// decoderFamilies lists the families inference is planned for (generate:
// those it runs generate for).
func decoderFamilies(generate bool) string {
	var names []string
	for n, d := range decoders {
		if generate && !d.generates() {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// audioInput is an encoder fed a fixed window of audio features instead
// of a prompt of tokens.
type audioInput struct {
	// positions is the encoder's length whatever the spec's seq, or why
	// that seq cannot be planned
	positions func(c *config) (int64, error)
	// input describes the window for the plan's header; note is what the
	// plan assumed about the call
	input func(c *config) string
	note  string
	// setup and setupPerSeq are the host seconds the family's own
	// generate adds before the encoder runs, once and per sequence
	// (Whisper's, over GenerationMixin's; see encDecTimes)
	setup, setupPerSeq float64
}
