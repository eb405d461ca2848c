package infer

import (
	"encoding/json"
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

// ckptQuant is a config.json's quantization_config as far as planning
// goes.
type ckptQuant struct {
	method string // quant_method, "" when the config has none
	bits   int    // bits per weight (bits, or bitsandbytes' load_in_*)
	served string // the servedQuants name vLLM loads it as, "" if none
}

// readCkptQuant reads quantization_config from a config.json.
func readCkptQuant(data []byte) (ckptQuant, error) {
	var h struct {
		Q *struct {
			Method  string `json:"quant_method"`
			Bits    int    `json:"bits"`
			Load4   bool   `json:"load_in_4bit"`
			Load8   bool   `json:"load_in_8bit"`
			WBits   int    `json:"w_bit"` // AutoAWQ's own key
			Version string `json:"version"`
		} `json:"quantization_config"`
	}
	if err := json.Unmarshal(data, &h); err != nil || h.Q == nil {
		// the family parser has already reported a file it cannot read
		return ckptQuant{}, nil
	}
	q := ckptQuant{method: h.Q.Method, bits: h.Q.Bits}
	if q.bits == 0 {
		q.bits = h.Q.WBits
	}
	switch q.method {
	case "awq":
		if q.bits == 0 || q.bits == 4 {
			q.bits, q.served = 4, "awq"
		}
	case "gptq":
		switch q.bits {
		case 0, 4:
			q.bits, q.served = 4, "gptq"
		case 8:
			q.served = "gptq-int8"
		}
	case "fp8":
		q.bits, q.served = 8, "fp8"
	case "bitsandbytes":
		switch {
		case h.Q.Load4:
			q.bits, q.served = 4, "bitsandbytes"
		case h.Q.Load8:
			q.bits = 8
		}
	case "":
		return ckptQuant{}, fmt.Errorf("quantization_config has no quant_method")
	}
	return q, nil
}

// applyCkptQuant reconciles the spec with the checkpoint's own format
// and returns the spec to resolve and a note for the plan ("" when the
// config.json names none). Families whose builders model their own
// checkpoint format (gpt-oss's MXFP4 experts) keep it.
func applyCkptQuant(c *config, s memmodel.Spec) (memmodel.Spec, string, error) {
	q, err := readCkptQuant(s.HFConfig)
	if err != nil {
		return s, "", specErr("hf_config", "%v", err)
	}
	if q.method == "" {
		return s, "", nil
	}
	if f, err := memmodel.LookupFamily(c.arch.Family); err == nil && f.CheckpointQuant == q.method {
		return s, "", nil
	}
	what := q.method
	if q.bits > 0 {
		what = fmt.Sprintf("%s (%d-bit)", q.method, q.bits)
	}
	if s.Task == nil || *s.Task != "serve" {
		if q.method == "bitsandbytes" && (q.bits == 4 || q.bits == 8) {
			want := fmt.Sprintf("int%d", q.bits)
			if s.Precision != want {
				return s, "", specErr("precision", "config.json's quantization_config loads %s weights: give precision %s (Hugging Face loads the checkpoint so)", what, want)
			}
			return s, "", nil
		}
		return s, "", specErr("hf_config", "config.json's quantization_config is %s: generate plans 16/32-bit or bitsandbytes weights; plan this checkpoint with --task serve (vLLM), or drop quantization_config to plan the unquantised model", what)
	}
	if q.method == "compressed-tensors" {
		// its config_groups, not one key, say the scheme: the user names it
		switch s.Quant {
		case "w4a16", "w8a8", "fp8":
			return s, "", nil
		}
		return s, "", specErr("quant", "config.json's quantization_config is compressed-tensors: give --quant w4a16, w8a8 or fp8, whichever its config_groups describe")
	}
	if q.served == "" {
		if s.Quant != "" {
			return s, "", specErr("quant", "config.json's quantization_config is %s and vLLM loads the checkpoint as that, not as %s", what, s.Quant)
		}
		return s, "", specErr("hf_config", "config.json's quantization_config is %s, which vramkit does not plan; give --quant (awq, gptq, gptq-int8, w4a16, fp8, w8a8, bitsandbytes) if the checkpoint is one of those", what)
	}
	if s.Quant != "" && s.Quant != q.served {
		return s, "", specErr("quant", "config.json's quantization_config is %s: vLLM refuses a quantization (%s) that differs from the checkpoint's", what, s.Quant)
	}
	note := ""
	if s.Quant == "" {
		note = fmt.Sprintf("config.json's quantization_config: %s weights, as vLLM loads the checkpoint (quant %s)", what, q.served)
		s.Quant = q.served
	}
	return s, note, nil
}
