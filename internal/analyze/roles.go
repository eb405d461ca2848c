package analyze

import (
	"strings"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// role is what a library allocated a tensor for, when its frames say so
// beyond the training phase: the pieces of memory that sharded training,
// Hugging Face models and generation add, which the lifetime rules alone
// would misfile (an all-gathered parameter freed after its block's forward
// pass is no temporary; a KV cache kept until the outputs are dropped is
// no activation).
type role uint8

const (
	roleNone role = iota
	// roleKVCache: transformers' cache_utils (DynamicCache.update's
	// torch.cat, StaticCache's preallocated tensors).
	roleKVCache
	// roleUnshard: FSDP's all-gather output and the unsharded parameters
	// it is copied into (fully_shard unshard / alloc_storage).
	roleUnshard
	// roleCollective: buffers of collectives: FSDP all-gather inputs and
	// reduce-scatter buffers, DDP gradient buckets, DTensor
	// redistribution, other c10d calls.
	roleCollective
	// roleReduceScatter: FSDP's foreach_reduce; what outlives backward is
	// the sharded gradient, the rest the reduce-scatter's buffers.
	roleReduceScatter
	// roleDDPBucket: DistributedDataParallel's gradient buckets.
	roleDDPBucket
	// roleLoss: the loss function (cross_entropy and the Hugging Face loss
	// wrappers), where fp32 logits are copied and log-softmaxed.
	roleLoss
	// roleActivation: transformers' activation modules (activations.py),
	// some of which are written as Python operators (NewGELUActivation).
	roleActivation
)

// libFacts are what the library frames of one stack say about the run,
// beyond the phase.
type libFacts struct {
	role role
	// agIn, agOut: FSDP's all-gather input (the shard cast to the
	// all-gather dtype) and output (every rank's shard): out/in is the
	// world size.
	agIn, agOut bool
	// hookThread: no frame of the stack is the user's or the
	// interpreter's entry point, and the outermost is inside torch: a
	// Python hook the autograd engine's thread ran (FSDP's post-backward,
	// DDP's reducer), so the allocation belongs to backward.
	hookThread bool
	peft       bool   // inside peft (LoRA and other adapters)
	generate   bool   // inside transformers' generate()
	beam       bool   // inside generate's beam search (_beam_search)
	processor  bool   // inside a logits processor or warper (transformers' logits_process.py)
	fsdp       bool   // inside torch.distributed.fsdp
	zero       bool   // inside ZeroRedundancyOptimizer
	dtensor    bool   // inside torch.distributed.tensor (DTensor, tensor parallelism)
	optimizer  string // the optimizer's module, e.g. "torch/optim/adamw.py"; "" outside one
	// genLoop: made by generate's own code (transformers/generation/),
	// outside any module's forward: the token choice, the scores and
	// what the loop keeps, not the model's activations
	genLoop bool
}

// classifyLibrary reads the library frames of a stack (innermost first).
func classifyLibrary(fr []snapshot.Frame) libFacts {
	var f libFacts
	if len(fr) == 0 {
		return f
	}
	// Roles come from the frames inside the innermost module call: a
	// wrapper around the whole forward (DistributedDataParallel.forward)
	// does not make every activation its own.
	inner := true
	for i, x := range fr {
		fn := x.Filename
		if strings.Contains(fn, "torch/nn/modules/module.py") {
			inner = false
		}
		switch {
		case strings.Contains(fn, "transformers/cache_utils.py"):
			if f.role == roleNone && inner {
				f.role = roleKVCache
			}
		case strings.Contains(fn, "torch/distributed/fsdp/"):
			f.fsdp = true
			if f.role == roleNone || f.role == roleCollective {
				switch x.Name {
				case "foreach_reduce":
					f.role = roleReduceScatter
				case "alloc_storage", "init_all_gather_outputs", "alloc_all_gather_outputs",
					"foreach_all_gather_copy_out":
					f.role = roleUnshard
				case "foreach_all_gather", "all_gather_copy_in":
					f.role, f.agOut = roleUnshard, true
				case "_get_param_all_gather_inputs", "all_gather_inputs":
					// The shard cast to the all-gather dtype
					// (MixedPrecisionPolicy's param_dtype).
					f.role, f.agIn = roleCollective, true
				}
			}
		case strings.Contains(fn, "torch/nn/parallel/distributed.py"):
			if f.role == roleNone && inner {
				f.role = roleDDPBucket
			}
		case strings.Contains(fn, "torch/distributed/optim/zero_redundancy_optimizer"):
			f.zero = true
		case strings.Contains(fn, "torch/distributed/tensor/") || strings.Contains(fn, "torch/distributed/_tensor/"):
			f.dtensor = true
			if f.role == roleNone && inner && i < 6 {
				f.role = roleCollective
			}
		case strings.Contains(fn, "torch/distributed/"):
			if f.role == roleNone && inner && i < 4 {
				f.role = roleCollective
			}
		case strings.Contains(fn, "/peft/"):
			f.peft = true
		case strings.Contains(fn, "transformers/generation/"):
			f.generate = true
			f.beam = f.beam || x.Name == "_beam_search"
			f.processor = f.processor || strings.HasSuffix(fn, "logits_process.py")
			f.genLoop = f.genLoop || inner
		case strings.Contains(fn, "transformers/activations.py"):
			if f.role == roleNone && inner && i == 0 {
				f.role = roleActivation
			}
		case strings.Contains(fn, "transformers/loss/") ||
			strings.Contains(fn, "torch/nn/functional.py") && (x.Name == "cross_entropy" || x.Name == "nll_loss"):
			if f.role == roleNone && inner {
				f.role = roleLoss
			}
		}
		if f.optimizer == "" {
			f.optimizer = optimizerModule(fn)
		}
	}
	outer := fr[len(fr)-1].Filename
	if strings.Contains(outer, "torch/") && isLibrary(outer) {
		f.hookThread = true
		for _, x := range fr {
			if !isLibrary(x.Filename) {
				f.hookThread = false
				break
			}
		}
	}
	return f
}

// optimizerModule names the optimizer implementation a frame is in, by
// its path from the package root: torch/optim/adamw.py,
// transformers/optimization.py (Adafactor), bitsandbytes/optim/...,
// torchao/optim/...; "" for any other frame. torch/optim/optimizer.py is
// the base class every optimizer shares, so it names none.
func optimizerModule(fn string) string {
	for _, p := range []string{"torch/optim/", "bitsandbytes/optim/", "torchao/optim/", "torchao/prototype/low_bit_optim/",
		"transformers/optimization.py", "apex/optimizers/", "deepspeed/ops/"} {
		i := strings.Index(fn, p)
		if i < 0 {
			continue
		}
		m := fn[i:]
		if strings.HasSuffix(m, "torch/optim/optimizer.py") || strings.Contains(m, "lr_scheduler") {
			return ""
		}
		return m
	}
	return ""
}

// cuBLAS workspace sizes: CUBLAS_WORKSPACE_CONFIG's default ":4096:8" on
// Hopper and newer (8 × 4 MiB), and ":4096:2:16:8" before it. PyTorch
// allocates one per handle and stream through the caching allocator the
// first time a matmul runs there — the main thread's in the first forward,
// the autograd engine's in the first backward — and never frees it.
var cublasWorkspaceSizes = map[int64]bool{32 << 20: true, 2*4096<<10 + 8*16<<10: true}

// isWorkspace reports whether life k is a library's workspace: a cuBLAS
// workspace size, made in the first iteration's forward or backward pass
// (not by user code in setup) and never freed.
func (d *dev) isWorkspace(k int) bool {
	l := &d.t.lives[k]
	if l.free != never || !cublasWorkspaceSizes[l.size] || int(l.alloc) < d.starts[0] || d.iterOf(int(l.alloc)) > 1 {
		return false
	}
	return d.ph[k] == phForward || d.ph[k] == phBackward
}
