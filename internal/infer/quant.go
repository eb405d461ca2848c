package infer

import (
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// quant is a quantisation of the linear layers: how many bytes a weight
// matrix takes, and what the kernels that run it allocate in a forward.
// Embeddings, norms, the LM head and a mixture-of-experts router stay in
// the compute dtype in every scheme (vLLM quantises an LM head only for
// checkpoints that say so, which vramkit does not plan).
type quant struct {
	name string
	// bits per weight; a scale of scaleBytes (and a zero point of
	// zeroBits) per group of weights along the input dimension, or per
	// output row when group is 0
	bits       int64
	group      int64
	scaleBytes int64
	zeroBits   int64
	// nested: the scales are themselves 8-bit with a float32 scale per
	// nested of them (bitsandbytes' double quantisation)
	nested int64
	// kind says how vLLM runs it: "bnb" (bitsandbytes), "int4" (AWQ,
	// GPTQ and compressed-tensors W4A16: Marlin kernels from sm_80, a
	// dequantising kernel before), "w8" (8-bit weights whose activations
	// are quantised per token to 8 bits too where the GPU can: FP8 from
	// sm_89, int8 from sm_75)
	kind string
	// fp16: the checkpoints load in float16 (AWQ and GPTQ; vLLM's
	// non-Marlin kernels accept nothing else)
	fp16 bool
	// act8CC is the least compute capability that quantises activations
	act8CC int
	// minCC is the least compute capability vLLM loads the format on
	// (its QuantizationConfig.get_min_capability; 0: any CUDA GPU
	// vramkit plans)
	minCC int
}

// Weight-only schemes as bitsandbytes stores them (Hugging Face generate,
// and vLLM's bitsandbytes loader): LLM.int8 keeps one float32 scale per
// output row (SCB); NF4 one float32 absmax per block of 64 weights (vLLM
// expands double-quantised statistics to that at load).
var (
	quantNone = quant{name: "none"}
	quantInt8 = quant{name: "int8", bits: 8, group: 0, scaleBytes: 4, kind: "bnb"}
	quantInt4 = quant{name: "int4", bits: 4, group: 64, scaleBytes: 4, kind: "bnb"}
	// quantInt4DQ is NF4 as vLLM held it before 0.9.2 (vllm#19742, which
	// expands the statistics to float32 at load): double-quantised, an
	// 8-bit absmax per 64 weights and a float32 per 256 of those — what
	// its in-flight quantisation and pre-quantised checkpoints store
	quantInt4DQ = quant{name: "int4", bits: 4, group: 64, scaleBytes: 1, nested: 256, kind: "bnb"}
)

// bnbExpandedMinor: from vLLM 0.10 (vllm#19742 landed in 0.9.2) double-
// quantised NF4 statistics are float32 once loaded.
const bnbExpandedMinor = 10

// servedQuants are the checkpoint formats a serve plan takes (spec key
// quant), as vLLM loads them (docs/inference.md cites its source):
//   - awq: 4-bit, a float16 scale and a 4-bit zero point per 128 weights;
//   - gptq: 4-bit, a float16 scale per 128 (symmetric: Marlin frees the
//     zero points; the older kernels keep them);
//   - gptq-int8: 8-bit, a float16 scale per 128;
//   - w4a16: compressed-tensors' 4-bit format, laid out as gptq;
//   - fp8: one byte a weight and a float32 scale per output channel,
//     activations quantised per token from sm_89 (Marlin weight-only
//     below); the same for an FP8 checkpoint and quantization=fp8;
//   - w8a8: compressed-tensors' int8 weights and per-token activations.
var servedQuants = []quant{
	// AWQ: AWQConfig.get_min_capability is 75 (awq.py: "The AWQ kernel
	// only supports Turing or newer GPUs"), AWQMarlinConfig's 80
	// (awq_marlin.py) until Marlin reached sm_75; FP8: Fp8Config's 80
	// (fp8.py) before 0.13, 75 after. vLLM checks it when it builds the
	// config (vllm/config/vllm.py, _get_quantization_config) and raises
	// "The quantization method awq is not supported for the current GPU.
	// Minimum capability: 75. Current capability: 70."
	{name: "awq", bits: 4, group: 128, scaleBytes: 2, zeroBits: 4, kind: "int4", fp16: true, minCC: 75},
	{name: "gptq", bits: 4, group: 128, scaleBytes: 2, kind: "int4", fp16: true},
	{name: "gptq-int8", bits: 8, group: 128, scaleBytes: 2, kind: "int4", fp16: true},
	{name: "w4a16", bits: 4, group: 128, scaleBytes: 2, kind: "int4"},
	{name: "fp8", bits: 8, group: 0, scaleBytes: 4, kind: "w8", act8CC: 89, minCC: 75},
	{name: "w8a8", bits: 8, group: 0, scaleBytes: 4, kind: "w8", act8CC: 75},
	{name: "bitsandbytes", bits: 4, group: 64, scaleBytes: 4, kind: "bnb"},
}

// bytes is the storage of an in×out linear weight under q.
func (q quant) bytes(in, out int64) int64 {
	if q == quantNone {
		panic("infer: bytes of unquantised weight")
	}
	groups := out
	if q.group > 0 {
		groups = (in + q.group - 1) / q.group * out
	}
	b := (in*out*q.bits+7)/8 + groups*q.scaleBytes + (groups*q.zeroBits+7)/8
	if q.nested > 0 {
		b += (groups + q.nested - 1) / q.nested * 4
	}
	return b
}

// The band of a quantised checkpoint's weights around the computed bytes:
// the same AWQ checkpoint (Qwen2.5-7B-Instruct-AWQ) logged 5.20, 5.29 and
// 5.38 GiB on vLLM 0.19, 0.21 and 0.31 against 5.19 computed (Machete on
// sm_90 keeps AWQ's zero points as float16 scales; layouts change between
// releases); an FP8 Mistral-Nemo logged 1.9% above its bytes; the other
// seen logs came within 0.5% (docs/inference.md).
const (
	quantWeightsLow  = 0.01
	quantWeightsHigh = 0.05
)

// marlinMinor is the first vLLM 0.x whose Marlin kernels run on sm_75
// (vllm#29901, December 2025); before it a T4 ran AWQ and GPTQ through
// kernels that dequantise the weight.
const marlinMinor = 13

// marlinRuns reports whether vLLM e runs Marlin kernels on g: sm_80 and
// later, sm_75 from marlinMinor; never below (a V100 runs GPTQ through
// the kernels that dequantise).
func marlinRuns(g gpu.GPU, e engine) bool {
	cc := g.ComputeCapability
	return cc >= 80 || cc >= 75 && e.atLeast(marlinMinor)
}

// marlinTmpMinor is the first 0.x with the rewritten Marlin kernel
// (vllm#16850, April 2025), which no longer copies the input (a_tmp) on
// every call.
const marlinTmpMinor = 9

// resolveQuant sets c.q from the spec's quant for a serve plan: the
// scheme, the dtype it loads in, and whether the GPU runs it.
func resolveQuant(c *config, s memmodel.Spec) error {
	if s.Quant == "" {
		return nil
	}
	if s.Task == nil || *s.Task != "serve" {
		return specErr("quant", "generate plans Hugging Face's bitsandbytes weights as precision int8 or int4; %s checkpoints are planned for serve (vLLM)", s.Quant)
	}
	var names []string
	for _, q := range servedQuants {
		names = append(names, q.name)
		if q.name != s.Quant {
			continue
		}
		if c.q != quantNone {
			return specErr("quant", "%s is a checkpoint's format: give the compute precision (auto, fp16 or bf16), not %s", q.name, c.prec)
		}
		if c.gpu.ComputeCapability == 0 && q.kind != "w8" {
			return specErr("quant", "%s kernels on %s (ROCm) are not modelled; fp8 and w8a8 are", q.name, c.gpu.Name)
		}
		if cc := c.gpu.ComputeCapability; cc > 0 && cc < q.minCC {
			// planned as if it ran: AWQ on a V100 (sm_70) counted a KV
			// cache for a server that never starts
			return specErr("quant", "vLLM refuses %s on %s: it needs compute capability %d.%d or later, %s is %d.%d",
				q.name, c.gpu.Name, q.minCC/10, q.minCC%10, c.gpu.Name, cc/10, cc%10)
		}
		if err := quantDType(c, q); err != nil {
			return err
		}
		if q.act8CC == 89 && c.gpu.ComputeCapability < 80 && !c.engine.atLeast(marlinMinor) {
			return specErr("quant", "vLLM runs fp8 on compute capability 8.0 and later before 0.13 (Marlin reached sm_75 in vllm#29901); %s is %d.%d",
				c.gpu.Name, c.gpu.ComputeCapability/10, c.gpu.ComputeCapability%10)
		}
		c.q = q
		return nil
	}
	return specErr("quant", "a serve plan takes %s (a checkpoint's format as vLLM loads it), got %q", strings.Join(names, ", "), s.Quant)
}

// quantDType sets the compute dtype a quantised checkpoint runs in:
// AWQ's and GPTQ's float16 (their saved dtype, which vLLM's "auto"
// keeps), bf16 where vLLM refuses float16 for the model (Marlin runs it;
// the older kernels cannot), else what the spec or the GPU gives.
func quantDType(c *config, q quant) error {
	explicit := c.spec.Precision != "" && c.spec.Precision != "auto"
	half := c.dec.halfRefused != nil && c.dec.halfRefused(c)
	marlin := marlinRuns(c.gpu, c.engine)
	switch {
	case explicit && c.prec == "fp32":
		return specErr("precision", "vLLM runs %s checkpoints in fp16 or bf16, not fp32", q.name)
	case half && (!c.gpu.BF16 || q.fp16 && !marlin):
		return specErr("quant", "vLLM refuses float16 for %s and runs %s on %s only in float16", c.arch.Name, q.name, c.gpu.Name)
	case q.fp16 && !marlin && explicit && c.prec == "bf16":
		return specErr("precision", "%s runs in fp16 on %s (no Marlin kernels)", q.name, c.gpu.Name)
	case half:
		c.dt, c.dtype, c.prec = 2, "bf16", "bf16"
	case q.fp16 && !explicit:
		c.dt, c.dtype, c.prec = 2, "fp16", "fp16"
	}
	return nil
}

// quantTemp is what the quantised layers' kernels allocate beyond their
// input and output while one forward of T tokens runs on one of tp GPUs,
// at the MLP where the forward peaks (docs/inference.md): the largest
// weight dequantised to fp16 by the older AWQ/GPTQ kernels; the copy of
// the input Marlin made before vllm#16850; the 8-bit copy of the input
// and its per-token scales under W8A8; bitsandbytes' bfloat16 copies of
// the input and of one dequantised shard.
func quantTemp(c *config, e engine, T, tp int64) int64 {
	if c.q == quantNone {
		return 0
	}
	h, f, experts := c.hidden, c.ffn/tp, int64(0)
	if moe := c.arch.MoE; c.dec.served != nil {
		f, experts = int64(max(moe.FFN, moe.SharedFFN))/tp, int64(moe.Experts)
		if len(moe.DenseLayers) > 0 {
			f = max(f, c.ffn/tp)
		}
	}
	switch kernel(c.q, c.gpu, e) {
	case "dequant":
		return 2 * h * 2 * f // gate_up, the largest layer
	case "marlin-old":
		return 2*T*f + 4*h*min(1024, 64*((T+63)/64))
	case "act8":
		return T*f + 4*T
	case "bnb":
		// vLLM's bitsandbytes MoE dequantises every expert of the layer
		return 2*T*f + 4*T*h + 2*h*f + experts*3*h*f*2
	}
	return 0
}

// kernel is how q runs on g under vLLM e: "marlin" (or Machete: no
// temporaries worth counting), "marlin-old" (before vllm#16850),
// "dequant" (AWQ's and GPTQ's older kernels), "act8" (W8A8), "w8-marlin"
// (FP8 weight-only below sm_89), "bnb".
func kernel(q quant, g gpu.GPU, e engine) string {
	switch q.kind {
	case "bnb":
		return "bnb"
	case "w8":
		if g.ComputeCapability >= q.act8CC || g.ComputeCapability == 0 {
			return "act8"
		}
		return "w8-marlin"
	}
	switch {
	case !marlinRuns(g, e):
		return "dequant"
	case !e.atLeast(marlinTmpMinor):
		return "marlin-old"
	}
	return "marlin"
}

// quantNote says which kernel a serve plan assumed.
func quantNote(c *config, e engine) string {
	k := map[string]string{
		"marlin":     "Marlin/Machete kernels (no temporaries worth counting)",
		"marlin-old": "Marlin kernels before vllm#16850, which copy each layer's input",
		"dequant":    "kernels that dequantise the weight to fp16 at 256 tokens and more (no Marlin on this GPU: sm_80 and later, sm_75 from vLLM 0.13)",
		"act8":       "8-bit activations, each layer's input quantised per token",
		"w8-marlin":  "Marlin weight-only kernels (8-bit activations need sm_89)",
		"bnb":        "bitsandbytes, which dequantises each shard to 16 bits in the forward",
	}[kernel(c.q, c.gpu, e)]
	return fmt.Sprintf("%s weights (%d bits, embeddings and LM head in %s) through %s", c.q.name, c.q.bits, c.dtype, k)
}

// servable refuses what vLLM refuses for c on tp GPUs: the family's own
// refusals; a group-quantised checkpoint whose row-parallel layers leave
// each GPU a number of inputs that is not a whole number of groups (vLLM
// checks the per-GPU shape); bitsandbytes mixture-of-experts layers
// before 0.10 (vllm#20061).
func servable(c *config, tp int64) error {
	if c.dec.refuse != nil {
		if err := c.dec.refuse(c); err != nil {
			return err
		}
	}
	if c.q.kind == "int4" && c.q.group > 0 && tp > 1 {
		f := c.ffn
		if c.dec.served != nil {
			f = int64(c.arch.MoE.FFN)
		}
		for _, in := range []int64{c.heads * c.headDim / tp, f / tp} {
			if in%c.q.group != 0 {
				return specErr("parallel", "tp %d leaves %d inputs a GPU to a row-parallel layer of %s, not a whole number of %s's %d-weight groups: vLLM refuses it", tp, in, c.arch.Name, c.q.name, c.q.group)
			}
		}
	}
	if c.q.kind == "bnb" && c.dec.served != nil && !c.engine.atLeast(10) {
		return specErr("quant", "vLLM loads bitsandbytes mixture-of-experts layers from 0.10 (vllm#20061)")
	}
	return nil
}
