// Package analyze explains a memory snapshot: where the peak comes from
// (parameters, gradients, optimizer state, activations, temporaries, and
// what libraries add: a Hugging Face KV cache, FSDP's unsharded
// parameters, collective buffers, cuBLAS workspaces), how the training
// step is structured, how much the allocator's cache wastes, whether
// memory leaks from one iteration to the next, why an out-of-memory error
// happened — for one in the first forward pass, how much the whole pass
// needs and what batch fits — how a generate call splits into prefill and
// decode, and which changes would save the most.
//
// Everything is inferred from the allocator trace. Stack frames, when the
// snapshot has them, say which phase (forward, backward, optimizer step)
// made an allocation and which library made it for what (roles.go);
// without frames the same categories come from lifetimes alone — when an
// allocation was made and when it was freed, relative to the iterations
// found in the trace — and the report says its confidence is lower.
// Categories and sites count requested bytes (BytesDefinition). The
// package prints nothing: Analyze returns a Report that internal/report
// renders as text and internal/cli as JSON.
package analyze
