package memmodel

// Tensor names one tensor of a Graph.
type Tensor int32

// tensor is what the planner knows of one tensor: its size, type, storage
// and whether autograd tracks it.
type tensor struct {
	numel int64
	dt    DType
	base  Tensor // storage owner; itself unless the tensor is a view or in-place result
	grad  bool   // requires grad
	param int    // index into Graph.params, -1 when not a parameter
	input bool   // a data input (batch), allocated by the step, not by an op
	// slice: a view made by slicing (x[..., a:b]), whose backward
	// scatters into zeros of the base's size; chunks (split) are
	// concatenated instead.
	slice bool
	// keep is the last op during which Python still references the
	// tensor (a module's argument until the module returns, a named
	// local until its function returns), beyond its last use by an op;
	// 0 for none.
	keep int
}

func (t *tensor) bytes() int64 { return t.numel * t.dt.Size() }

// op is one recorded operation. Its outputs are allocated when it runs in
// forward; what it saves stays alive until its backward has run.
type op struct {
	kind    string
	in      []Tensor
	out     []Tensor
	save    []Tensor
	fwdTemp []int64 // scratch allocated and freed inside the forward kernel (cuDNN workspace ...)
	bwdTemp []int64 // scratch of its backward
	// bwdHeld are temporaries its backward formula allocates before the
	// input gradient and frees only after it (pow_backward's x^(e−1) and
	// e·x^(e−1) live with grad·that), so they stack on the gradient
	// rather than reuse one block as bwdTemp's scratch does.
	bwdHeld []int64
	// fwdHeld are temporaries the forward kernel allocates before its
	// outputs and frees once they exist (layer_norm's contiguous copy of
	// a strided input: ViT's seq-first residual stream).
	fwdHeld []int64
	// bwdTempLate: when the op was recomputed under checkpointing, its
	// backward scratch (a bias-gradient reduction) comes after the
	// recomputed saved tensors are dropped; ViT-B/16 bf16's fc2 frees the
	// 155 MB GELU output before its 138 MB scratch, while BERT-tiny fp32
	// without checkpointing takes the scratch first.
	bwdTempLate bool
	// passGrad lists inputs whose gradient is the output gradient itself
	// (add, views): no allocation when the types match.
	passGrad []bool
	// gradWork[j] is scratch allocated right after input j's gradient and
	// freed at once (0: none): cuDNN's data- and weight-gradient calls each
	// take their own workspace after their output, one after the other.
	gradWork []int64
	// inTemp[j] is a temporary input j's gradient formula computes before
	// the gradient itself and frees once it exists (0: none).
	inTemp []int64
	// inTempScratch is the staging of the reduction that sums an inTemp
	// down to its input's shape (a broadcast scale's gradient on a
	// channels-last map: biasGradScratch), allocated after the
	// temporary and freed before the gradient.
	inTempScratch []int64
	// gradCopy: the output's gradient arrives non-contiguous and is copied
	// (ViewBackward's reshape) before the op's backward runs, the incoming
	// one freed at once (a LoRA-wrapped q/k/v projection; see
	// headsGradCopy).
	gradCopy bool
	// heldCopy is 1 + the index in bwdHeld of a contiguous copy of the
	// output's gradient (heldGradCopy); 0: none. Where the op alone holds
	// that gradient, the copy replaces it at once, as gradCopy (dev42's
	// ViT-B/16 fp16 trace: out_proj's strided gradient freed once copied,
	// its input's gradient then taking the freed block).
	heldCopy int
	// narrowGrad: the passGrad inputs' gradients are narrowed views of the
	// output's even when smaller (cat's backward slices its gradient).
	narrowGrad bool
	// gradBytes overrides the size of an input's gradient (embedding: the
	// weight's dense gradient); 0 means "same size as the input".
	block int // checkpoint block, -1 outside any
	// outer is the checkpointed block that encloses the op's when
	// checkpoints nest (Swin's stages around their layers), -1 for none:
	// see nested.go.
	outer      int
	flops      float64 // forward FLOPs
	bwdFlops   float64 // backward FLOPs
	bytes      float64 // forward memory traffic
	matmul     bool    // runs on the tensor cores (FLOPs-bound)
	noBackward bool    // integer ops and the like
	// hold keeps the outputs referenced until the forward pass ends (a
	// key/value cache returned with the model output), whether or not
	// autograd saved them.
	hold bool
	// gemm, conv and attn give the step-time model the shape of a
	// tensor-core op (nil for the other classes); see steptime_rates.go.
	gemm *gemmShape
	conv *convShape
	attn *attnCost
	// plane is a BatchNorm's H·W: the contiguous run ATen's per-channel
	// kernels read (steptime_bn.go); 0 for other ops. nhwc: the
	// BatchNorm's input is channels-last (ATen's NHWC kernels).
	plane int64
	nhwc  bool
	// ltBias marks a linear with a bias: addmm runs it through cuBLASLt's
	// bias epilogue, whose first call on a thread allocates the Lt
	// workspace.
	ltBias bool
	// savesHeldCopy marks a matmul that saves for backward the contiguous
	// copy of its strided input (fwdHeld's first buffer), not the input:
	// the input's storage goes once the output exists and the copy takes
	// its place (ViT's in_proj under autocast: dev42's fp16 trace frees
	// the input's cast right after the output and keeps the copy).
	savesHeldCopy bool
	// mmThenBias marks a biased linear run as a matmul whose output the
	// bias is then added to (at::linear on a non-contiguous 3-D input:
	// matmul, add_): backward runs the add's node first, the bias
	// gradient's reduction and its staging, then MmBackward, the weight's
	// gradient before the input's (dev42's and testdata/blind's ViT-B/16
	// traces: 132.75 MiB of staging, the 3.38 MiB bf16 weight gradient,
	// then the input's).
	mmThenBias bool
	// mat2First marks a bmm whose backward (BmmBackward0) makes mat2's
	// gradient before self's and hands both on once the node has returned
	// (dev92's DeBERTa traces: the value's gradient, then the
	// probabilities', then the saved inputs released).
	mat2First bool
	// noLt marks a biased linear whose GEMM takes no cuBLASLt epilogue,
	// so allocates no Lt workspace: MultiheadAttention's packed
	// in-projection (every ViT trace allocates the thread's first Lt
	// workspace in out_proj, forward and recompute alike).
	noLt bool
	// stridedRows marks a copy whose source is strided with contiguous
	// rows (ViT's in-projection input and qkv on the seq-first view):
	// the step-time walk prices it, and its gradient's copy, at the
	// strided rate (stridedCopy).
	stridedRows bool
	// extra are kernels the op launches beside its own that only the
	// step-time walk prices (steptime_extra.go); the memory model does
	// not read them.
	extra []extraKernel
	// cudnn marks a convolution without a convShape (Whisper's conv1d):
	// cuDNN runs it, so it takes no cuBLAS workspace.
	cudnn bool
	// routing marks the op that stands for a mixture-of-experts layer's
	// token routing on the host (moeRoutingHost): the sort, histogram,
	// gathers and scatters of transformers' experts forward and their
	// backward nodes, which the graph records only by their tensors.
	routing bool
	// light marks ops issued by a thin Python wrapper (PEFT's LoRA
	// branch): the host pays the dispatcher, not a model layer's Python.
	light bool
	// module is the model module that recorded the op (--by-module).
	module string
	// fused: under torch.compile the op runs inside a fused kernel and
	// materialises neither its outputs nor its gradients (compile.go).
	fused bool
	// promotedGrad: an input of another type than the output gets its
	// gradient in the output's type first, cast down to its own type once
	// the rest of the backward (held temporaries, scratch) is done, as
	// autograd's engine casts a promoted gradient (ConvNeXt's float32
	// layer scale on a bf16 map). The wide gradient comes before the held
	// temporaries, and the saved tensors go before the scratch, the held
	// ones after it (the ConvNeXt bf16 traces, every stage: grad·scale,
	// grad·x, x released, the reduction, grad·x freed, the cast).
	promotedGrad bool
	// viewGrad: the input's gradient reaches it as a view (Permute's
	// backward of LayerNorm2d's output gradient), which autograd's
	// InputBuffer does not accumulate into in place (see gbuf.view).
	viewGrad bool
	// viewGrads and viewAdds: SliceBackward nodes this op's gradient
	// stands for that the view chain cannot express (rotate_half of a
	// fused projection's slice), each a zero fill of the input's size and
	// a copy, and how many of their gradients the engine adds into
	// another (steptime_views.go); the memory model ignores them.
	viewGrads, viewAdds int
	// contigIn: the kernel first copies its strided input contiguous, in
	// forward and again in backward (layer_norm's X.contiguous() on
	// torchvision ViT's seq-first stream). Step time only: the memory
	// model holds those copies as fwdHeld/bwdHeld.
	contigIn bool
	// contigPermuted: contigIn's strided input has its innermost dimension
	// permuted (Whisper's encoder stream, the conv output [b, d, l] seen
	// as [b, l, d]), so the copy gathers it element by element
	// (permutedCopySlowdown) where ViT's seq-first stream moves rows of
	// d contiguous elements.
	contigPermuted bool
	// permuted: an elementwise op whose same-shape operands are laid out
	// differently (Whisper's encoder stream, permuted, plus a contiguous
	// branch): TensorIterator cannot vectorise it (permutedMixed).
	permuted bool
}

// gemmShape is a (batch of) m×k by k×n product. Backward runs the data
// gradient (m×n by n×k) when the input needs one and the weight gradient
// (k×m by m×n) when the weight does: frozen LoRA bases skip the latter.
type gemmShape struct {
	batch, m, n, k int64
	dgrad, wgrad   bool
}

// convShape is a 2-D convolution of n images, cin×h×h in, cout×ho×ho out.
type convShape struct {
	n, cin, cout, h, ho, k, stride, groups int64
	dgrad, wgrad                           bool
	channelsLast                           bool // NHWC input: cuDNN's channels_last kernels
}

// attnCost is one fused scaled_dot_product_attention call.
type attnCost struct {
	attnShape
	backend string // flash | efficient
	// masked: the kernel reads a materialised (B, 1, S, S) mask (a
	// compiled decoder's causal mask: see sdpaMask), which costs cuDNN
	// more than the same call without one (sdpaVariant)
	masked bool
	// bias is "" none, "const" an additive bias that needs no gradient,
	// "grad" one that does (attnShape.biasGrad); eager: not under
	// torch.compile; forced: the spec forces the backend (flash or
	// mem_efficient). An eager call's dropout and bias are priced by the
	// calibration's variant rows (sdpaVariant, sdpaEfficientExtra).
	bias          string
	eager, forced bool
}

type paramInfo struct {
	t         Tensor
	numel     int64
	dt        DType
	trainable bool
	shard     float64 // fraction of the parameter held by this rank (FSDP/ZeRO-3, TP)
	module    string  // the module that owns it (--by-module)
	// quant is the bytes per element of a quantised frozen weight
	// (QLoRA's 4-bit NF4 with its constants); 0 stores it in dt.
	quant float64
	// cloneGrad: the gradient arrives in another memory layout than the
	// parameter's (a dense conv run channels_last by cuDNN), so
	// AccumulateGrad cannot steal it and stores a contiguous clone
	// (torch's layout contract for .grad).
	cloneGrad bool
}

// Graph is the forward computation of one micro-batch, in execution order.
type Graph struct {
	tensors []tensor
	ops     []op
	params  []paramInfo
	// loadOrder is the order model.to(device) moves the parameters in,
	// where it is not params' (parameters(), the optimizer's order):
	// Module._apply visits a module's children before its own
	// parameters. Nil: params' order.
	loadOrder []int
	buffers   []int64 // module buffers (BatchNorm running stats), bytes each
	inputs    []Tensor
	loss      Tensor
	blocks    int // number of checkpointable blocks (transformer layers, bottlenecks)
	// selective marks, per block, the ops that selective checkpointing
	// recomputes (attention internals).
	selective map[int]bool
	// compiled: the graph runs under torch.compile (compile.go): no
	// autocast weight-cast cache, pointwise gradients fused.
	compiled bool
	// returned are the tensors the model returns that require grad beside
	// the loss (the logits, the key/value cache): a compiled backward gets
	// a gradient for each (see compiledBackwardInputs).
	returned []Tensor
	// linears are the names of the model's nn.Linear modules (by their
	// attribute name, as PEFT's target_modules match them); adapted counts
	// the Linears a LoRA adapter was attached to.
	linears map[string]bool
	adapted int
	// leafHeld are leaves requiring grad that autograd's AccumulateGrad
	// nodes reference until the graph goes, at the end of backward, with
	// the .grad each accumulates (enable_input_require_grads' hooked
	// embedding output under LoRA and checkpointing: dev97's CLIP trace
	// frees the text tower's and its gradient as backward ends)
	leafHeld []Tensor
}

// isLeafHeld reports whether t is one of g.leafHeld.
func (g *Graph) isLeafHeld(t Tensor) bool {
	for _, l := range g.leafHeld {
		if l == t {
			return true
		}
	}
	return false
}

func (g *Graph) t(x Tensor) *tensor { return &g.tensors[x] }

func (g *Graph) newTensor(numel int64, dt DType, grad bool) Tensor {
	id := Tensor(len(g.tensors))
	g.tensors = append(g.tensors, tensor{numel: numel, dt: dt, base: id, grad: grad, param: -1})
	return id
}

// ParamCount is the number of parameter elements (trainable or not).
func (g *Graph) ParamCount() (total, trainable int64) {
	for _, p := range g.params {
		total += p.numel
		if p.trainable {
			trainable += p.numel
		}
	}
	return total, trainable
}

// FLOPs is the forward and backward FLOPs of one pass over the graph.
func (g *Graph) FLOPs() (fwd, bwd float64) {
	for i := range g.ops {
		fwd += g.ops[i].flops
		bwd += g.ops[i].bwdFlops
	}
	return fwd, bwd
}
