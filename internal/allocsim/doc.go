// Package allocsim re-implements PyTorch 2.11's CUDA caching allocator
// (DeviceCachingAllocator, native backend) so that a recorded allocation
// stream can be replayed without a GPU: rounding, small and large pools,
// per-stream best fit, splitting and merging, oversize rules, expandable
// segments, record_stream's delayed frees, empty_cache, the out-of-memory
// ladder, garbage collection under a memory fraction, and every counter of
// torch.cuda.memory_stats().
//
// The allocator never touches a device: cudaMalloc and friends go to a
// Device, which is either a synthetic GPU of some capacity (what-if
// questions) or, in ReplayDevice, the recorded trace itself, so a replay
// with the recorded settings reproduces the trace event for event.
//
// ReplayDevice is the one way to replay a snapshot: one call fills one
// DeviceReplay (counters, request stream, timeline, state at peak reserved,
// OOM records) in a single pass, and every command reads that value. The
// package knows no GPU: the total memory a fraction multiplies is given
// (ReplayOptions.TotalMemory, from analyze.Resolve and the gpu table).
//
// The reference is ../shared/design/allocator.md §2–4; names follow
// CUDACachingAllocator.cpp so the two can be read side by side.
package allocsim
