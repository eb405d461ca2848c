package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

// planFlagScope is which plans each of plan's flags that sets no spec key
// applies to: t training, g --task generate, s --task serve. Flags that
// set a spec key are judged with the spec (memmodel's
// Spec.MisplacedKey); --batch is here because a spec always has one.
var planFlagScope = map[string]string{
	"global-batch": "t", "sweep": "t", "by-module": "t", "measured-step": "tg",
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

// fitSearched are the flags whose spec keys a training --fit chooses
// itself, for every candidate: given with --fit they would be overwritten
// without a word. (--parallel stays: it is what --fsdp-init is checked
// against, and its tp and pp degrees carry into the candidates.)
var fitSearched = []string{"batch", "accum", "precision", "checkpoint"}

// checkFitSearched refuses, on a training --fit, a flag that sets what
// the search picks.
func checkFitSearched(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(fl *flag.Flag) {
		if err == nil && slices.Contains(fitSearched, fl.Name) {
			err = usagef("--%s is what --fit searches (micro-batch, accumulation, precision and checkpointing, for --global-batch): leave it out, or plan it without --fit", fl.Name)
		}
	})
	return err
}

// fitSearchedSpecKeys names the keys of the spec file at path that a
// training --fit chooses itself, with the values the file gave them: the
// search replaces them for every candidate, which the caller says in a
// note (a spec file usually carries a batch, so they are not refused as
// the flags are).
func fitSearchedSpecKeys(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &doc) != nil {
		return nil
	}
	var out []string
	for _, k := range fitSearched {
		if v, ok := doc[k]; ok {
			out = append(out, fmt.Sprintf("%s %s", k, v))
		}
	}
	return out
}

// maxSweep is the largest --sweep HI: a range is walked by doubling from
// LO, which past it would overflow int. No batch or sequence near it
// plans (memmodel refuses the step as too large first).
const maxSweep = 1 << 40

// specGivesStrategy reports whether the spec file at path names a
// parallel strategy, which a training --fit then keeps as the flag's.
func specGivesStrategy(path string) bool {
	if path == "" {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var doc struct {
		Parallel struct {
			Strategy *string `json:"strategy"`
		} `json:"parallel"`
	}
	return json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &doc) == nil && doc.Parallel.Strategy != nil
}
