package memmodel

// Decoding is how Hugging Face generate chooses each next token, as its
// GenerationConfig names the options: greedy search, beam search or
// sampling with its warpers, and what the output keeps. Spec embeds it
// (the keys sit at a spec's top level); bench/measured's capture rows
// embed it too, so that a row's options are a spec's.
type Decoding struct {
	// NumBeams is generate's num_beams: beam search over that many
	// beams a prompt (0 or 1: greedy search). A checkpoint's
	// generation_config may set it (facebook/bart-large-cnn 4,
	// google/pegasus-xsum 8), and then model.generate() uses it.
	NumBeams int `json:"num_beams,omitempty"`
	// DoSample is generate's do_sample: the next token is drawn from the
	// processed scores (softmax, multinomial) instead of taken by argmax.
	// An instruct checkpoint's generation_config often sets it (Llama 3
	// Instruct with temperature 0.6 and top_p 0.9), and then
	// model.generate() samples. TopK, TopP and Temperature are the
	// warpers it runs: TopK nil means transformers' default, 50 (0: off);
	// TopP and Temperature 0 mean 1.0 (off).
	DoSample    bool    `json:"do_sample,omitempty"`
	TopK        *int    `json:"top_k,omitempty"`
	TopP        float64 `json:"top_p,omitempty"`
	Temperature float64 `json:"temperature,omitempty"`
	// RepetitionPenalty is generate's repetition_penalty (0 or 1: off),
	// a logits processor greedy decoding runs too.
	RepetitionPenalty float64 `json:"repetition_penalty,omitempty"`
	// MinP is generate's min_p, MinPLogitsWarper's threshold under
	// sampling: tokens less probable than min_p times the most probable
	// one are dropped (0: off).
	MinP float64 `json:"min_p,omitempty"`
	// NumReturnSequences is generate's num_return_sequences: sampling
	// draws that many sequences a prompt, every input expanded as many
	// times (0 or 1: one).
	NumReturnSequences int `json:"num_return_sequences,omitempty"`
	// OutputScores and OutputLogits are generate's output_scores and
	// output_logits (with return_dict_in_generate): every step's processed
	// scores, or its float32 logits, are kept in the output, batch × vocab
	// float32 a step, until the caller drops it.
	OutputScores bool `json:"output_scores,omitempty"`
	OutputLogits bool `json:"output_logits,omitempty"`
}
