// Package infer predicts the GPU memory and speed of running a decoder
// language model for inference, without a GPU.
//
// For `plan --task generate` it writes out the allocation stream of a
// Hugging Face generate() call — weights loaded one parameter at a time,
// the prefill forward over the prompt, then one forward per new token —
// with the key/value cache kept as transformers keeps it: a DynamicCache
// that grows by torch.cat (a new, slightly larger tensor per layer and
// step, the old one freed, which fragments the caching allocator) or a
// StaticCache preallocated to the full length. The stream is replayed
// through the caching-allocator simulator (package allocsim) for peak
// allocated and reserved memory, and timed with a roofline: prefill is
// bound by matrix throughput, each decode step by reading the weights and
// the cache from memory, or by the host issuing kernels when the model is
// small.
//
// For `plan --task serve` it sizes a vLLM-style paged KV cache: weights
// plus one profiled forward of the largest batch, the memory left under
// gpu_memory_utilization cut into blocks of block_size tokens.
//
// docs/inference.md names the code each term models.
package infer
