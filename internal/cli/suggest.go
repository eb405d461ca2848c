package cli

import (
	"flag"
	"fmt"
	"strings"
)

// didYouMean returns ` (did you mean "x"?)` when one of known is close to
// got, else "". Close is an edit distance of at most a third of the
// longer name (at least 1), or one name being a prefix of the other.
func didYouMean(got string, known []string) string {
	if s := closest(got, known); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// closest is the entry of known nearest to got, or "" if none is close.
func closest(got string, known []string) string {
	best, bestD := "", -1
	g := strings.ToLower(got)
	for _, k := range known {
		kl := strings.ToLower(k)
		d := editDistance(g, kl)
		limit := max(1, max(len(g), len(kl))/3)
		if d > limit && !(len(g) >= 3 && (strings.HasPrefix(kl, g) || strings.HasPrefix(g, kl))) {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// names lists the commands' names.
func names(cmds []*Command) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Name
	}
	return out
}

// flagError adds a "did you mean" to the flag package's error for an
// unknown flag, naming the flag with the two dashes the help text uses.
func flagError(fs *flag.FlagSet, err error) error {
	const prefix = "flag provided but not defined: -"
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return err
	}
	name := strings.TrimPrefix(msg, prefix)
	var known []string
	fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
	hint := ""
	if s := closest(name, known); s != "" {
		hint = fmt.Sprintf(" (did you mean --%s?)", s)
	}
	return fmt.Errorf("unknown flag --%s%s", name, hint)
}
