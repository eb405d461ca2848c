package memmodel

import (
	"fmt"
	"sort"
	"strings"
)

func resnet(name string, blocks []int, bottleneck bool) Arch {
	return Arch{Name: name, Family: "resnet", Blocks: blocks, Bottleneck: bottleneck, Classes: 1000, ImageSize: 224}
}

func vit(name string, hidden, layers, heads, ffn, patch int) Arch {
	return Arch{Name: name, Family: "vit", Hidden: hidden, Layers: layers, Heads: heads, FFN: ffn, Patch: patch,
		Classes: 1000, ImageSize: 224}
}

func convnext(name string, blocks, widths []int, dp float64) Arch {
	return Arch{Name: name, Family: "convnext", Blocks: blocks, Widths: widths, DropPath: dp, Classes: 1000, ImageSize: 224}
}

func efficientnet(name string, w, d float64, res int) Arch {
	return Arch{Name: name, Family: "efficientnet", WidthMult: w, DepthMult: d, ImageSize: res, Classes: 1000}
}

func bert(name string, hidden, layers, heads int) Arch {
	return Arch{Name: name, Family: "bert", Hidden: hidden, Layers: layers, Heads: heads, FFN: 4 * hidden,
		Vocab: 30522, MaxPos: 512, TypeVocab: 2, Dropout: 0.1, Labels: 2, DefaultSeq: 512}
}

func gpt2(name string, hidden, layers, heads int) Arch {
	return Arch{Name: name, Family: "gpt2", Hidden: hidden, Layers: layers, Heads: heads, FFN: 4 * hidden,
		Vocab: 50257, MaxPos: 1024, Dropout: 0.1, Tied: true, DefaultSeq: 1024}
}

func t5(name string, hidden, ffn, heads, layers int) Arch {
	return Arch{Name: name, Family: "t5", Hidden: hidden, FFN: ffn, Heads: heads, HeadDim: 64, Layers: layers,
		DecLayers: layers, Vocab: 32128, Dropout: 0.1, Tied: true, RelBuckets: 32, DefaultSeq: 512}
}

func llama(name string, hidden, layers, heads, kv, ffn, vocab int, tied, bias bool) Arch {
	return Arch{Name: name, Family: "llama", Hidden: hidden, Layers: layers, Heads: heads, KVHeads: kv, FFN: ffn,
		Vocab: vocab, Tied: tied, AttnBias: bias, MaxPos: 4096, DefaultSeq: 2048}
}

var catalog = []Arch{
	resnet("resnet18", []int{2, 2, 2, 2}, false),
	resnet("resnet34", []int{3, 4, 6, 3}, false),
	resnet("resnet50", []int{3, 4, 6, 3}, true),
	resnet("resnet101", []int{3, 4, 23, 3}, true),
	resnet("resnet152", []int{3, 8, 36, 3}, true),
	vit("vit-b16", 768, 12, 12, 3072, 16),
	vit("vit-l16", 1024, 24, 16, 4096, 16),
	vit("vit-h14", 1280, 32, 16, 5120, 14),
	convnext("convnext-tiny", []int{3, 3, 9, 3}, []int{96, 192, 384, 768}, 0.1),
	convnext("convnext-small", []int{3, 3, 27, 3}, []int{96, 192, 384, 768}, 0.4),
	convnext("convnext-base", []int{3, 3, 27, 3}, []int{128, 256, 512, 1024}, 0.5),
	convnext("convnext-large", []int{3, 3, 27, 3}, []int{192, 384, 768, 1536}, 0.5),
	efficientnet("efficientnet-b0", 1.0, 1.0, 224),
	efficientnet("efficientnet-b1", 1.0, 1.1, 240),
	efficientnet("efficientnet-b2", 1.1, 1.2, 288),
	efficientnet("efficientnet-b3", 1.2, 1.4, 300),
	efficientnet("efficientnet-b4", 1.4, 1.8, 380),
	efficientnet("efficientnet-b5", 1.6, 2.2, 456),
	efficientnet("efficientnet-b6", 1.8, 2.6, 528),
	efficientnet("efficientnet-b7", 2.0, 3.1, 600),
	bert("bert-base", 768, 12, 12),
	bert("bert-large", 1024, 24, 16),
	gpt2("gpt2", 768, 12, 12),
	gpt2("gpt2-medium", 1024, 24, 16),
	gpt2("gpt2-large", 1280, 36, 20),
	gpt2("gpt2-xl", 1600, 48, 25),
	t5("t5-small", 512, 2048, 8, 6),
	t5("t5-base", 768, 3072, 12, 12),
	t5("t5-large", 1024, 4096, 16, 24),
	llama("llama-small", 1024, 24, 16, 16, 2816, 32000, false, false),
	llama("llama2-7b", 4096, 32, 32, 32, 11008, 32000, false, false),
	llama("llama2-13b", 5120, 40, 40, 40, 13824, 32000, false, false),
	llama("llama3-8b", 4096, 32, 32, 8, 14336, 128256, false, false),
	llama("llama3.2-1b", 2048, 16, 32, 8, 8192, 128256, true, false),
	llama("mistral-7b", 4096, 32, 32, 8, 14336, 32000, false, false),
	llama("qwen2-0.5b", 896, 24, 14, 2, 4864, 151936, true, true),
	llama("qwen2-1.5b", 1536, 28, 12, 2, 8960, 151936, true, true),
	llama("qwen2-7b", 3584, 28, 28, 4, 18944, 152064, false, true),
}

// aliases maps torchvision and Hugging Face names to catalog names.
var aliases = map[string]string{
	"vit_b_16": "vit-b16", "vit_l_16": "vit-l16", "vit_h_14": "vit-h14",
	"vit-base-patch16-224": "vit-b16", "vit-large-patch16-224": "vit-l16",
	"convnext_tiny": "convnext-tiny", "convnext_small": "convnext-small",
	"convnext_base": "convnext-base", "convnext_large": "convnext-large",
	"bert-base-uncased": "bert-base", "bert-base-cased": "bert-base",
	"bert-large-uncased": "bert-large", "bert-large-cased": "bert-large",
	"google-bert/bert-base-uncased": "bert-base", "google-bert/bert-large-uncased": "bert-large",
	"openai-community/gpt2": "gpt2", "gpt2-small": "gpt2", "openai-community/gpt2-medium": "gpt2-medium",
	"openai-community/gpt2-large": "gpt2-large", "openai-community/gpt2-xl": "gpt2-xl",
	"google-t5/t5-small": "t5-small", "google-t5/t5-base": "t5-base", "google-t5/t5-large": "t5-large",
	"meta-llama/llama-2-7b-hf": "llama2-7b", "meta-llama/meta-llama-3-8b": "llama3-8b",
	"meta-llama/llama-3.2-1b": "llama3.2-1b", "mistralai/mistral-7b-v0.1": "mistral-7b",
	"qwen/qwen2-0.5b": "qwen2-0.5b", "qwen/qwen2-1.5b": "qwen2-1.5b", "qwen/qwen2-7b": "qwen2-7b",
	// names people type for the same checkpoints
	"llama-7b": "llama2-7b", "llama-2-7b": "llama2-7b", "llama-2-7b-hf": "llama2-7b", "meta-llama/llama-2-7b": "llama2-7b",
	"llama-13b": "llama2-13b", "llama-2-13b": "llama2-13b", "llama-2-13b-hf": "llama2-13b",
	"meta-llama/llama-2-13b-hf": "llama2-13b", "llama-3-8b": "llama3-8b", "llama3.1-8b": "llama3-8b",
	"meta-llama/llama-3.1-8b": "llama3-8b", "llama-3.2-1b": "llama3.2-1b", "mistral-7b-v0.1": "mistral-7b",
	"microsoft/resnet-50": "resnet50", "resnet-50": "resnet50", "vit-base": "vit-b16", "vit-large": "vit-l16",
}

func init() {
	for i := 0; i <= 7; i++ {
		aliases[fmt.Sprintf("efficientnet_b%d", i)] = fmt.Sprintf("efficientnet-b%d", i)
	}
}

// Lookup finds a catalog model by name or alias (case-insensitive).
func Lookup(name string) (Arch, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[n]; ok {
		n = a
	}
	for _, a := range catalog {
		if a.Name == n {
			return a, nil
		}
	}
	return Arch{}, fmt.Errorf("unknown model %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the catalog's model names.
func Names() []string {
	var out []string
	for _, a := range catalog {
		out = append(out, a.Name)
	}
	sort.Strings(out)
	return out
}
