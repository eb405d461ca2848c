package cli

import (
	"flag"
	"strings"
)

// planFlagScope is which plans each of plan's flags applies to: t
// training, g --task generate, s --task serve. A flag that is not listed
// applies to every plan (model, seq, precision, gpu, attn, ...).
var planFlagScope = map[string]string{
	"image": "t", "checkpoint": "t", "accum": "t", "optimizer": "t", "lora-rank": "t", "lora-targets": "t",
	"parallel": "t", "gpus": "t", "tp": "t", "pp": "t", "micro-batches": "t", "global-batch": "t",
	"sweep": "t", "compile": "t", "channels-last": "t", "vae-encode": "t", "quant": "t", "by-module": "t",
	"batch": "tg", "alloc-conf": "tg", "fit": "tg", "margin": "tg",
	"new-tokens": "g", "max-cache-len": "g", "maximize": "g",
	"cache": "gs", "kv-dtype": "gs",
	"gpu-memory-utilization": "s", "block-size": "s", "max-num-seqs": "s", "max-num-batched-tokens": "s", "context": "s",
}

var planScopeNames = map[byte]string{'t': "training", 'g': "--task generate", 's': "--task serve"}

// checkPlanScope refuses a flag set explicitly on a plan it does not
// apply to, which that plan would otherwise ignore without a word
// (--lora-rank on a generate plan, --new-tokens on a training one), and
// --global-batch or --maximize without --fit. scope is 't', 'g' or 's'.
func checkPlanScope(fs *flag.FlagSet, scope byte, fit bool) error {
	var err error
	fs.Visit(func(fl *flag.Flag) {
		if err != nil {
			return
		}
		s, ok := planFlagScope[fl.Name]
		switch {
		case ok && strings.IndexByte(s, scope) < 0:
			var names []string
			for i := range len(s) {
				names = append(names, planScopeNames[s[i]])
			}
			err = usagef("--%s is for %s plans, not %s ones", fl.Name, strings.Join(names, " and "), planScopeNames[scope])
		case (fl.Name == "global-batch" || fl.Name == "maximize") && !fit:
			err = usagef("--%s is for --fit", fl.Name)
		}
	})
	return err
}
