package cli

import (
	"flag"
	"strings"
)

// planFlagScope is which plans each of plan's flags that sets no spec key
// applies to: t training, g --task generate, s --task serve. Flags that
// set a spec key are judged with the spec (memmodel's
// Spec.MisplacedKey); --batch is here because a spec always has one.
var planFlagScope = map[string]string{
	"global-batch": "t", "sweep": "t", "by-module": "t",
	"batch": "tg", "fit": "tgs", "margin": "tg",
	"maximize": "g", "concurrency": "s",
}

var planScopeNames = map[byte]string{'t': "training", 'g': "--task generate", 's': "--task serve"}

// checkPlanScope refuses a flag set explicitly on a plan it does not
// apply to, which that plan would otherwise ignore without a word
// (--lora-rank on a generate plan, --new-tokens on a training one), and
// --global-batch, --maximize or --concurrency without --fit. scope is 't', 'g' or 's'.
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
		case (fl.Name == "global-batch" || fl.Name == "maximize" || fl.Name == "concurrency") && !fit:
			err = usagef("--%s is for --fit", fl.Name)
		}
	})
	return err
}
