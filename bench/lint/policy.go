package main

import (
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/vramkit/vramkit/internal/lint"
	"github.com/vramkit/vramkit/internal/lint/rules"
)

// retiredVerdict is a verdict on a finding the rules no longer report,
// with the sub-pattern that had produced it (retired.tsv).
type retiredVerdict struct{ code, pattern, verdict string }

func readRetired(path string) ([]retiredVerdict, error) {
	var out []retiredVerdict
	err := readTSV(path, 6, func(f []string) error {
		switch f[4] {
		case "real", "false", "debatable":
		default:
			return fmt.Errorf("verdict %q (want real, false or debatable)", f[4])
		}
		out = append(out, retiredVerdict{code: f[2], pattern: f[3], verdict: f[4]})
		return nil
	})
	return out, err
}

// basePattern folds a pattern's "-elsewhere" variant (callers in other
// files choose the grad mode) into the pattern itself: the policy judges
// the heuristic path, and the variant only lowers its level further.
func basePattern(p string) string {
	if b, ok := stringsCutSuffix(p, "-elsewhere"); ok {
		return b
	}
	return p
}

func stringsCutSuffix(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// policy prints, over every set, the precision of each rule's sub-patterns
// counting the current findings and the retired verdicts (the false
// alarms a pattern raised before it was fixed count against it), next to
// the level the rule reports the pattern at. The policy it checks: a
// warning needs >= 95% over all judged findings, the default output
// (warning or info) >= 85%; the rest are hints.
func policy(w io.Writer, sets []string, findings []finding, verdicts map[string]verdict, retired []retiredVerdict) {
	byPat := map[string]*stat{}
	add := func(code, pattern, v string) {
		k := code + "/" + basePattern(pattern)
		if byPat[k] == nil {
			byPat[k] = &stat{}
		}
		byPat[k].add(v)
	}
	for _, f := range findings {
		if slices.Contains(sets, f.set) {
			add(f.code, f.pattern, verdicts[f.key()].verdict)
		}
	}
	for _, r := range retired {
		add(r.code, r.pattern, r.verdict)
	}
	keys := make([]string, 0, len(byPat))
	for k := range byPat {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintln(w, "== policy: every set, retired verdicts included ==")
	for _, k := range keys {
		s := byPat[k]
		fmt.Fprintf(w, "  %-26s %-14s %v\n", k, levelOf(k), *s)
	}
	fmt.Fprintln(w)
}

// levelOf is the level the rules report code/pattern at now.
func levelOf(key string) string {
	code, pattern := key[:5], key[6:]
	for _, r := range append(rules.All(), lint.ParseError) {
		if r.Code != code {
			continue
		}
		lv, ok := r.Patterns[pattern]
		if !ok {
			lv = lint.Level{Severity: r.Severity, Hint: r.Hint}
		}
		if lv.Hint {
			return "hint"
		}
		return min(lv.Severity, r.Severity).String()
	}
	return "?"
}
