package infer

// gpt-oss (memmodel's gpt-oss family) as vLLM serves it: attention,
// router, norms, embedding and LM head in bf16, and the experts in MXFP4
// (4-bit values and an 8-bit exponent per 32, biases beside them), which
// vLLM pads to the tile sizes of the MoE kernel it picks by GPU and
// version (vllm/model_executor/layers/quantization/mxfp4.py). Hugging
// Face generate is not planned for it.
func init() {
	registerDecoder(&decoder{family: "gpt-oss", weights: gptOSSWeights, served: moeServed,
		layouts: func(c *config) int { return len(mxfp4Kernels(c, c.engine)) }, note: gptOSSNote, refuse: gptOSSRefused})
}

// mxfp4Kernel is how vLLM runs the MXFP4 experts: the padding of the
// per-GPU intermediate size and of the hidden size, the bytes of each
// bias element, and whether the scales are held twice (the Triton path
// keeps the loaded scale Parameters beside the swizzled ones).
type mxfp4Kernel struct {
	name        string
	padI, padH  int64
	biasBytes   int64
	scalesTwice bool
}

// mxfp4TritonMinor is the first 0.x planned with the Triton MXFP4 kernels
// on sm_90 (triton_kernels in vLLM's images): 0.10.1 logged Marlin's
// padded size on an H100 (vllm#23278, 65.97 GiB for 120B), ~0.11 the
// Triton size with its scales twice (llm-d-benchmark: 64.38 and 13.47).
const mxfp4TritonMinor = 11

// mxfp4Kernels are the MoE kernels vLLM e may run the experts with on
// c's GPU, the likeliest first: on sm_90 vLLM's images carry
// triton_kernels (Triton) and a pip install without them runs Marlin
// (vllm#27508's 0.11 install left the cache Marlin's size); Blackwell
// runs FlashInfer's; Ampere, Ada and sm_120 Marlin; ROCm Triton.
func mxfp4Kernels(c *config, e engine) []mxfp4Kernel {
	marlin := mxfp4Kernel{name: "Marlin", padI: 128, padH: 256, biasBytes: 2}
	triton := mxfp4Kernel{name: "Triton", padI: 64, padH: 1, biasBytes: 4, scalesTwice: true}
	cc := c.gpu.ComputeCapability
	switch {
	case cc >= 100 && cc < 120:
		return []mxfp4Kernel{{name: "FlashInfer (sm_100)", padI: 256, padH: 256, biasBytes: 4}}
	case cc == 90 && e.atLeast(mxfp4TritonMinor):
		return []mxfp4Kernel{triton, marlin}
	case cc == 90:
		return []mxfp4Kernel{marlin, triton}
	case cc == 0:
		return []mxfp4Kernel{triton}
	}
	return []mxfp4Kernel{marlin}
}

func roundUp(x, m int64) int64 { return cdiv(x, m) * m }

// gptOSSWeights lists the parameters vLLM loads on one of c.tp GPUs,
// times c.tp (rankWeights divides them back): the experts' padding
// depends on each GPU's share of the intermediate size.
func gptOSSWeights(c *config, w *weights) {
	h, v, dt := c.hidden, c.vocab, c.dt
	moe := c.arch.MoE
	E, tp := int64(moe.Experts), max(c.tp, 1)
	k := mxfp4Kernels(c, c.engine)[c.layout]
	I, H := roundUp(int64(moe.FFN)/tp, k.padI), roundUp(h, k.padH)
	scale := int64(1)
	if k.scalesTwice {
		scale = 2
	}
	w13 := 2*I*H/2 + scale*2*I*H/32 + 2*I*k.biasBytes
	w2 := H*I/2 + scale*H*I/32 + H*k.biasBytes
	w.add(v*h, v*h*dt) // embed_tokens
	for l := int64(0); l < c.layers; l++ {
		attentionWeights(c, w, false)
		w.add(h, h*dt)             // o_proj's bias
		w.add(c.heads, c.heads*dt) // sinks
		w.kept(c, h, E)            // router
		w.add(E, E*dt)             // router bias
		w.add(E*int64(moe.FFN)*3*h, E*(w13+w2)*tp)
	}
	rotaryTail(c, w)
}

// gptOSSNote names the MoE kernel the weights were laid out for.
func gptOSSNote(c *config) string {
	ks := mxfp4Kernels(c, c.engine)
	n := "MXFP4 experts laid out for vLLM's " + ks[0].name + " MoE kernel"
	if len(ks) > 1 {
		n += " (the weights' range covers " + ks[1].name + "'s padding, which an install without triton_kernels runs)"
	}
	return n + "; attention sinks and the experts' biases counted, attention and embeddings in bf16"
}

// gptOSSRefused: what vLLM refuses for gpt-oss — another quantisation
// over its MXFP4 checkpoint, a dtype other than bf16, GPUs before sm_80
// (MXFP4's minimum), versions before 0.10.1.
func gptOSSRefused(c *config) error {
	switch {
	case c.q != quantNone:
		return specErr("quant", "gpt-oss's experts are MXFP4 in its checkpoint; leave quant and precision int8/int4 out")
	case c.spec.Precision != "" && c.spec.Precision != "auto" && c.spec.Precision != "bf16":
		return specErr("precision", "vLLM runs gpt-oss in bf16, not %s", c.spec.Precision)
	case c.gpu.ComputeCapability > 0 && c.gpu.ComputeCapability < 80:
		return specErr("gpu", "vLLM's MXFP4 experts need compute capability 8.0 or later; %s is %d.%d", c.gpu.Name, c.gpu.ComputeCapability/10, c.gpu.ComputeCapability%10)
	case !c.engine.atLeast(10):
		return specErr("vllm", "vLLM serves gpt-oss from 0.10.1")
	}
	return nil
}
