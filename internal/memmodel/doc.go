// Package memmodel predicts the GPU memory and step time of one PyTorch
// training configuration without a GPU.
//
// A model is described layer by layer as a graph of tensor operations (the
// same ops autograd records: linear, conv, layer_norm, softmax, dropout,
// casts inserted by autocast ...). Each op knows what it allocates and what
// autograd saves for backward. From that graph and a configuration
// (precision, checkpointing, accumulation, optimizer, LoRA, parallelism) the
// package generates the stream of allocations and frees of whole training
// steps — parameter load, forward, loss, backward with recomputation,
// optimizer step, zero_grad — and replays it through the caching-allocator
// simulator to obtain peak allocated and peak reserved memory. Rules per op
// were calibrated against real torch 2.11 snapshots (see testdata/).
//
// Model families and optimizers are registered values, one file each
// (family_*.go, optimizer_*.go): a Family holds its graph builder, catalog
// entries, Hugging Face model_types, LoRA targets and task; an Optimizer
// its per-parameter state, step scratch and step-time traffic. The stream
// is a sequence of allocsim.Request values replayed by allocsim.Simulate.
//
// The Llama-like decoders (LLaMA, Mistral, Qwen2/3, Gemma, Phi-3, OLMo,
// Granite and the MoE decoders) share one builder, decoder.go, with
// per-family quirks (DecoderQuirks) and the MoE block of moe.go.
// Techniques that change how a step runs rather than the model are spec
// keys resolved in techniques.go: attn (attend.go), compile (compile.go,
// AOTAutograd's partitioner rules), quant (quant.go, QLoRA 4-bit weights)
// and architecture overrides; modules.go attributes memory per module.
//
// Numbers the stream cannot know (cuDNN workspace choice, CUDA context) are
// estimates; Estimate reports an uncertainty band with every prediction.
package memmodel
