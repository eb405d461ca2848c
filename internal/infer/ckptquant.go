package infer

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// A quantised checkpoint's config.json says how its weights are stored
// (quantization_config), and vLLM reads it from there: serving an AWQ
// checkpoint needs no --quantization flag, and a flag that names another
// method is refused (vllm/config/model.py: "Quantization method specified
// in the model config ... does not match the quantization method
// specified in the `quantization` argument"). A serve plan from such a
// config.json therefore plans the checkpoint's format, not 16-bit
// weights 3-4 times its size. Hugging Face generate loads bitsandbytes
// checkpoints as precision int4/int8 plans them; its GPTQ, AWQ and FP8
// kernels are not modelled.

// ckptServed is the servedQuants name vLLM loads a checkpoint of format
// q as ("" if none of them).
func ckptServed(q memmodel.HFQuant) string {
	switch {
	case q.Method == "awq" && (q.Bits == 0 || q.Bits == 4):
		return "awq"
	case q.Method == "gptq" && (q.Bits == 0 || q.Bits == 4):
		return "gptq"
	case q.Method == "gptq" && q.Bits == 8:
		return "gptq-int8"
	case q.Method == "fp8":
		return "fp8"
	case q.Method == "bitsandbytes" && q.Bits == 4:
		return "bitsandbytes"
	}
	return ""
}

// applyCkptQuant reconciles the spec with the checkpoint's own format
// and returns the spec to resolve and a note for the plan ("" when the
// config.json names none). Families whose builders model their own
// checkpoint format (gpt-oss's MXFP4 experts) keep it.
func applyCkptQuant(c *config, s memmodel.Spec) (memmodel.Spec, string, error) {
	q := memmodel.ReadHFQuant(s.HFConfig)
	if !q.Present || q.Native(c.arch.Family) {
		return s, "", nil
	}
	if q.Method == "" {
		return s, "", specErr("hf_config", "config.json: quantization_config has no quant_method")
	}
	served := ckptServed(q)
	what := q.Method
	if q.Bits > 0 {
		what = fmt.Sprintf("%s (%d-bit)", q.Method, q.Bits)
	}
	if s.Task == nil || *s.Task != "serve" {
		if q.Method == "bitsandbytes" && (q.Bits == 4 || q.Bits == 8) {
			want := fmt.Sprintf("int%d", q.Bits)
			if s.Precision != want {
				return s, "", specErr("precision", "config.json's quantization_config loads %s weights: give precision %s (Hugging Face loads the checkpoint so)", what, want)
			}
			return s, "", nil
		}
		return s, "", specErr("hf_config", "config.json's quantization_config is %s: generate plans 16/32-bit or bitsandbytes weights; plan this checkpoint with --task serve (vLLM), or drop quantization_config to plan the unquantised model", what)
	}
	if q.Method == "compressed-tensors" {
		// its config_groups, not one key, say the scheme: the user names it
		switch s.Quant {
		case "w4a16", "w8a8", "fp8":
			return s, "", nil
		}
		return s, "", specErr("quant", "config.json's quantization_config is compressed-tensors: give --quant w4a16, w8a8 or fp8, whichever its config_groups describe")
	}
	if served == "" {
		if s.Quant != "" {
			return s, "", specErr("quant", "config.json's quantization_config is %s and vLLM loads the checkpoint as that, not as %s", what, s.Quant)
		}
		return s, "", specErr("hf_config", "config.json's quantization_config is %s, which vramkit does not plan; give --quant (awq, gptq, gptq-int8, w4a16, fp8, w8a8, bitsandbytes) if the checkpoint is one of those", what)
	}
	if s.Quant != "" && s.Quant != served {
		return s, "", specErr("quant", "config.json's quantization_config is %s: vLLM refuses a quantization (%s) that differs from the checkpoint's", what, s.Quant)
	}
	note := ""
	if s.Quant == "" {
		note = fmt.Sprintf("config.json's quantization_config: %s weights, as vLLM loads the checkpoint (quant %s)", what, served)
		s.Quant = served
	}
	return s, note, nil
}
