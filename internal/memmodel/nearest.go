package memmodel

import (
	"encoding/json"
	"fmt"
	"github.com/vramkit/vramkit/internal/names"
	"sort"
	"strings"
)

// suggest returns "; did you mean X?" naming the known value nearest to s
// (names.Nearest), or "" when nothing is close enough to be a typo.
func suggest(s string, known []string) string {
	if n := names.Nearest(s, known); n != "" {
		return fmt.Sprintf("; did you mean %q?", n)
	}
	return ""
}

// canonicalName maps a model name as people type it (any case, a Hugging
// Face hub id with its organisation, a -hf/-base/-instruct/-chat/-it
// suffix) to a catalog name or alias target; unknown names come back
// lower-cased.
func canonicalName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	try := func(s string) (string, bool) {
		if a, ok := registry.aliases[s]; ok {
			return a, true
		}
		_, ok := registry.models[s]
		return s, ok
	}
	if c, ok := try(n); ok {
		return c
	}
	base := n
	if i := strings.LastIndex(base, "/"); i >= 0 {
		base = base[i+1:]
	}
	for {
		if c, ok := try(base); ok {
			return c
		}
		trimmed := false
		for _, suf := range []string{"-hf", "-base", "-instruct", "-chat", "-it", "-pt", "-v0.1", "-4k", "-128k"} {
			if strings.HasSuffix(base, suf) {
				base, trimmed = strings.TrimSuffix(base, suf), true
			}
		}
		if !trimmed {
			return n
		}
	}
}

// NearestModel is the catalog model whose name or an alias of it is
// closest to name (by edit distance), and whether it is close enough to
// be a plausible misspelling.
func NearestModel(name string) (model string, close bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	s := nearestModel(n)
	_, q, _ := strings.Cut(s, "\"")
	model, _, _ = strings.Cut(q, "\"")
	return model, strings.HasPrefix(s, "; did you mean")
}

// nearestModel is "; did you mean X?" for the catalog model whose name
// or alias is closest to n, and names the nearest one even when no name
// is a plausible typo (the nearest supported alternative).
func nearestModel(n string) string {
	known := Names()
	for k := range registry.aliases {
		known = append(known, k)
	}
	sort.Strings(known)
	target := func(k string) string {
		if a, ok := registry.aliases[k]; ok {
			return a
		}
		return k
	}
	best, bestD := "", -1
	for _, k := range known {
		d := names.Distance(n, k)
		if strings.HasPrefix(k, n) && len(n) >= 3 {
			d = min(d, 1)
		}
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= max(1, len(n)/3) {
		return fmt.Sprintf("; did you mean %q?", target(best))
	}
	// no plausible typo: a catalog name sharing a word-sized run of letters
	// with n ("tinyllama" → a llama) is a nearer alternative than the one a
	// few edits away ("dit-l-2")
	bestL := 0
	for _, k := range known {
		if l := commonRun(n, k); l >= 4 && (l > bestL || l == bestL && names.Distance(n, k) < names.Distance(n, best)) {
			best, bestL = k, l
		}
	}
	return fmt.Sprintf("; nearest in the catalog: %q, or pass the model's config.json with --hf-config", target(best))
}

// commonRun is the length of the longest run of bytes a and b share.
func commonRun(a, b string) int {
	best := 0
	for i := range a {
		for j := range b {
			k := 0
			for i+k < len(a) && j+k < len(b) && a[i+k] == b[j+k] {
				k++
			}
			best = max(best, k)
		}
	}
	return best
}

// unsupportedTypes name the nearest supported model_type for
// architectures people ask for that memmodel does not model.
var unsupportedTypes = map[string]string{
	"deepseek_v2":    "qwen2_moe (shared experts; DeepSeek's multi-head latent attention is not modelled)",
	"deepseek_v3":    "qwen2_moe (shared experts; DeepSeek's multi-head latent attention is not modelled)",
	"olmoe":          "qwen3_moe (q/k norms, no shared expert)",
	"phimoe":         "mixtral",
	"gemma3":         "gemma3_text (pass the text_config; for serve, --model gemma-3-4b/12b/27b carries the SigLIP tower a text_config lacks)",
	"llama4":         "llama (dense) or qwen3_moe (experts)",
	"mistral3":       "mistral (pass the text_config)",
	"qwen2_5_vl":     "qwen2 (pass the text_config)",
	"cohere":         "llama (a decoder of the same sizes)",
	"xlm-roberta-xl": "bert (XLM-R XL's pre-norm layers are not modelled)",
}

// nearestModelType is "; nearest supported: X" for an unsupported
// model_type: a known mapping, a close spelling, or what the config's
// keys look like.
func nearestModelType(t string, data []byte) string {
	if alt, ok := unsupportedTypes[t]; ok {
		if strings.HasPrefix(alt, "--model") {
			return "; plan it with " + alt
		}
		return "; nearest supported: " + alt
	}
	types := sortedKeys(registry.modelType)
	if s := suggest(t, types); s != "" {
		return s
	}
	var keys map[string]any
	_ = json.Unmarshal(data, &keys)
	switch {
	case keys["num_local_experts"] != nil || keys["num_experts"] != nil || keys["n_routed_experts"] != nil:
		return "; nearest supported: mixtral or qwen2_moe (set model_type to the one whose config keys match)"
	case keys["encoder_layers"] != nil || keys["num_decoder_layers"] != nil:
		return "; nearest supported: t5 or whisper (encoder-decoders)"
	case keys["type_vocab_size"] != nil || encoderHead(keys["architectures"]):
		return "; nearest supported: bert (an encoder: set model_type \"bert\" if its layers are BERT's)"
	case keys["num_channels"] != nil || keys["image_size"] != nil:
		return "; plan a vision model with --model vit-b16 or convnext-tiny (the catalog's; of the vision configs only vit and resnet are read)"
	}
	return "; nearest supported: llama (a Llama-like decoder: set model_type \"llama\" if the sizes match)"
}

// encoderHead reports whether a config's architectures name an encoder's
// head (masked LM, sequence or token classification) and no causal LM.
func encoderHead(v any) bool {
	list, _ := v.([]any)
	enc := false
	for _, a := range list {
		name, _ := a.(string)
		if strings.Contains(name, "CausalLM") || strings.Contains(name, "ConditionalGeneration") {
			return false
		}
		for _, h := range []string{"ForMaskedLM", "ForSequenceClassification", "ForTokenClassification", "ForQuestionAnswering"} {
			enc = enc || strings.HasSuffix(name, h)
		}
	}
	return enc
}
