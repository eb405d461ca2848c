package infer

import (
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// ErrSpec marks an invalid inference spec; the message names the field.
// It is memmodel's sentinel, so callers test one error for every plan.
var ErrSpec = memmodel.ErrSpec

// maxNewTokens is the longest generate call plan replays: a quarter of a
// million decode steps, about half a minute for an 8B model.
const maxNewTokens = 1 << 18

func specErr(field, format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrSpec, field, fmt.Sprintf(format, a...))
}

// config is a spec resolved against the model catalog and the GPU table.
type config struct {
	spec memmodel.Spec
	arch memmodel.Arch
	dec  *decoder
	gpu  gpu.GPU
	// batch is the sequences the model runs: the prompts times the beams
	// (beam search expands every input num_beams times) or times the
	// sequences sampling returns a prompt; prompts is the spec's batch,
	// beams its num_beams (1: greedy), returns its num_return_sequences
	// under sampling (1 otherwise)
	batch, prompts, beams, returns int64
	// samp is the decoding options: do_sample, the warpers,
	// repetition_penalty
	samp sampling
	// tp and engine: the serve plan's tensor-parallel degree and vLLM
	// version, for the families whose loaded layout depends on them
	tp     int64
	engine engine
	layout int   // which of the decoder's layouts the weights follow
	seq    int64 // prompt tokens
	gen    int64 // new tokens
	dt     int64 // bytes per element of the compute dtype
	dtype  string
	prec   string // the weights' precision, "auto" resolved
	q      quant
	// generate: the plan is Hugging Face generate's (not vLLM's serve)
	generate bool
	// hostScale is the spec's host_scale (1: unset): the host's
	// per-operator time over the median lent host's
	hostScale float64
	// ckptNote says the plan took the weights' format from config.json's
	// quantization_config ("" when it did not)
	ckptNote string
	kv       int64 // bytes per cache element
	// static is a StaticCache preallocated to seq+gen; eager is the
	// eager attention implementation (materialised scores).
	static bool
	eager  bool
	// maxCacheLen is the spec's max_cache_len: a StaticCache at least
	// this long (0: sized to the call)
	maxCacheLen int64
	// model shape
	hidden, layers, heads, kvHeads, headDim, ffn, vocab int64
}

// resolve validates an inference spec (task generate or serve).
func resolve(s memmodel.Spec) (*config, error) {
	c := &config{spec: s}
	var err error
	if k, task := s.MisplacedKey(); k != "" {
		if k == "quant" && task == "generate" {
			// a generate plan names quantised weights by precision
			return nil, specErr(k, "a generate plan does not read it: for bitsandbytes weights give precision int4 (nf4/fp4) or int8 (LLM.int8)")
		}
		return nil, specErr(k, "a %s plan does not read it", task)
	}
	switch {
	case s.Model != nil && *s.Model != "" && len(s.HFConfig) > 0:
		return nil, specErr("model", "give either model or hf_config, not both")
	case len(s.HFConfig) > 0:
		if c.arch, err = memmodel.ParseHFConfig(s.HFConfig); err != nil {
			return nil, specErr("hf_config", "%v", err)
		}
		if s, c.ckptNote, err = applyCkptQuant(c, s); err != nil {
			return nil, err
		}
		c.spec = s
	case s.Model != nil && *s.Model != "":
		if c.arch, err = memmodel.Lookup(*s.Model); err != nil {
			return nil, specErr("model", "%v", err)
		}
	default:
		return nil, specErr("model", "missing: give a catalog name or hf_config")
	}
	generate := s.Task == nil || *s.Task != "serve"
	c.generate = generate
	if c.dec = decoders[c.arch.Family]; c.dec == nil || (generate && !c.dec.generates()) {
		if c.dec != nil {
			return nil, specErr("model", "%s is %s model: --task serve plans it; generate is planned for the decoder families %s", c.arch.Name, article(c.arch.Family), decoderFamilies(true))
		}
		return nil, specErr("model", "%s is %s model; inference is planned for the decoder families %s", c.arch.Name, article(c.arch.Family), decoderFamilies(generate))
	}
	if c.gpu, err = gpu.Lookup(s.GPU); err != nil {
		return nil, specErr("gpu", "%v", err)
	}
	if c.hostScale, err = s.HostCostScale(); err != nil {
		return nil, err
	}
	if s.Batch <= 0 {
		return nil, specErr("batch", "must be at least 1, got %d", s.Batch)
	}
	c.batch, c.prompts, c.beams, c.returns = int64(s.Batch), int64(s.Batch), 1, 1
	c.samp = greedySampling() // serve plans read none of it
	c.seq = int64(s.Seq)
	if c.seq == 0 {
		c.seq = 512
	}
	if c.dec.audio != nil {
		if c.seq, err = c.dec.audio.positions(c); err != nil {
			return nil, specErr("seq", "%v", err)
		}
	}
	if c.seq < 1 {
		return nil, specErr("seq", "must be at least 1, got %d", s.Seq)
	}
	if s.NewTokens < 0 {
		return nil, specErr("new_tokens", "must not be negative, got %d", s.NewTokens)
	}
	c.gen = int64(s.NewTokens)
	if c.gen > maxNewTokens {
		return nil, specErr("new_tokens", "at most %d: each decoded token is replayed through the allocator (plan a longer context's KV cache with --task serve)", maxNewTokens)
	}
	if msg := memmodel.CheckScale(&c.arch, float64(c.batch)*float64(c.seq+c.gen), float64(c.batch), float64(c.seq+c.gen)); msg != "" {
		return nil, specErr("batch", "%s", msg)
	}
	// learned position tables end at max_positions; rotary ones do not.
	// An encoder-decoder's prompt is the encoder's, and the decoder counts
	// its start token and the new ones apart
	if fam, err := memmodel.LookupFamily(c.arch.Family); err == nil && !fam.AnyLength && c.arch.MaxPos > 0 {
		maxPos := int64(c.arch.MaxPos)
		switch {
		case c.dec.encDec != nil && c.dec.audio == nil && c.seq > maxPos:
			return nil, specErr("seq", "prompt %d exceeds the encoder's %d positions", c.seq, maxPos)
		case c.dec.encDec != nil && c.gen+1 > maxPos:
			return nil, specErr("new_tokens", "%d new tokens and the start token exceed the decoder's %d positions", c.gen, maxPos)
		case c.dec.encDec == nil && c.seq+c.gen > maxPos:
			return nil, specErr("seq", "prompt %d + new tokens %d exceed the model's %d positions", c.seq, c.gen, maxPos)
		}
	}
	c.q = quantNone
	if !generate {
		// the vLLM version a serve plan follows: the dtype and the
		// quantised kernels depend on it
		if c.engine, err = parseVLLM(s.VLLM); err != nil {
			return nil, specErr("vllm", "%v", err)
		}
	}
	prec := s.Precision
	if prec == "" || prec == "auto" {
		// what inference stacks load by default: the checkpoint's half
		// precision (bf16 where the GPU has it)
		prec = "bf16"
		if !c.gpu.BF16 {
			prec = "fp16"
		}
	}
	c.prec = prec
	switch prec {
	case "fp32":
		c.dt, c.dtype = 4, "fp32"
	case "bf16", "fp16":
		c.dt, c.dtype = 2, prec
	case "int8", "int4":
		c.dt, c.dtype = 2, "bf16"
		if !c.gpu.BF16 {
			c.dtype = "fp16"
		}
		c.q = quantInt8
		if prec == "int4" {
			c.q = quantInt4
		}
	default:
		return nil, specErr("precision", "inference weights are auto|fp32|fp16|bf16|int8|int4, got %q", s.Precision)
	}
	if c.dtype == "bf16" && !c.gpu.BF16 {
		return nil, specErr("precision", "%s has no bfloat16 support; use fp16", c.gpu.Name)
	}
	if c.dtype == "fp16" && c.dec.halfRefused != nil && c.dec.halfRefused(c) {
		if s.Precision == "fp16" {
			return nil, specErr("precision", "vLLM refuses float16 for %s; use bf16, or fp32 on %s", c.arch.Name, c.gpu.Name)
		}
		c.dt, c.dtype = 4, "fp32"
		if c.q == quantNone {
			c.prec = "fp32"
		}
	}
	switch s.KVDType {
	case "", "auto", "model":
		c.kv = c.dt
	case "fp8", "fp8_e4m3", "fp8_e5m2":
		c.kv = 1
	case "fp16", "bf16":
		c.kv = 2
	case "fp32":
		c.kv = 4
	default:
		return nil, specErr("kv_dtype", "want the model dtype (empty), fp8, fp16, bf16 or fp32, got %q", s.KVDType)
	}
	switch s.Cache {
	case "", "dynamic":
	case "static":
		if c.dec.encDec != nil {
			return nil, specErr("cache", "static: not planned for %s, an encoder-decoder model (its EncoderDecoderCache is planned dynamic)", c.arch.Name)
		}
		c.static = true
	default:
		return nil, specErr("cache", "want dynamic|static, got %q", s.Cache)
	}
	switch {
	case s.MaxCacheLen < 0:
		return nil, specErr("max_cache_len", "must not be negative, got %d", s.MaxCacheLen)
	case s.MaxCacheLen > 0 && !c.static:
		return nil, specErr("max_cache_len", "sizes a StaticCache: set cache to static")
	}
	c.maxCacheLen = int64(s.MaxCacheLen)
	if err := c.resolveBeams(s.NumBeams); err != nil {
		return nil, err
	}
	if err := c.resolveSampling(s); err != nil {
		return nil, err
	}
	switch s.Attn {
	case "", "sdpa":
	case "eager":
		c.eager = true
	default:
		return nil, specErr("attn", "generate plans sdpa or eager attention, got %q", s.Attn)
	}
	if c.dec != nil && c.dec.eagerF32 {
		c.eager = true // transformers runs the family's own attention
	}
	a := c.arch
	c.hidden, c.layers, c.heads, c.ffn, c.vocab = int64(a.Hidden), int64(a.Layers), int64(a.Heads), int64(a.FFN), int64(a.Vocab)
	c.kvHeads = int64(a.KVHeads)
	if c.kvHeads == 0 {
		c.kvHeads = c.heads
	}
	c.headDim = int64(a.HeadDim)
	if c.headDim == 0 {
		c.headDim = c.hidden / c.heads
	}
	if err := resolveQuant(c, s); err != nil {
		return nil, err
	}
	return c, nil
}

// kvBytesPerToken is the cache one token occupies across all layers.
func (c *config) kvBytesPerToken() int64 {
	return 2 * c.layers * c.kvHeads * c.headDim * c.kv
}

// article is name with "a" or "an" before it ("an olmo", "a gemma").
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
