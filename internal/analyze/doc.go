// Package analyze explains a memory snapshot: where the peak comes from
// (parameters, gradients, optimizer state, activations, temporaries), how
// the training step is structured, how much the allocator's cache wastes,
// whether memory leaks from one iteration to the next, why an
// out-of-memory error happened, and which changes would save the most.
//
// Everything is inferred from the allocator trace. Stack frames, when the
// snapshot has them, say which phase (forward, backward, optimizer step)
// made an allocation; without frames the same categories come from
// lifetimes alone — when an allocation was made and when it was freed,
// relative to the iterations found in the trace — and the report says its
// confidence is lower. The package prints nothing: Analyze returns a
// Report that internal/cli renders as text or JSON.
//
// Resolve is the one place where a snapshot's run settings (allocator
// configuration, memory fraction, total memory, usable capacity) are
// decided, from flags, the snapshot and the gpu table, each with its
// source; every command calls it before its one replay. It lives here,
// not in allocsim, so that the allocator simulator stays free of GPU
// facts (allocsim imports no gpu); analyze already sits above both.
package analyze
