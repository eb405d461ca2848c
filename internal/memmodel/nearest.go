package memmodel

import (
	"fmt"
	"strings"
)

// suggest returns "; did you mean X?" naming the known value nearest to s,
// or "" when nothing is close enough to be a plausible typo.
func suggest(s string, known []string) string {
	s = strings.ToLower(s)
	best, bestD := "", -1
	for _, k := range known {
		d := editDistance(s, strings.ToLower(k))
		if strings.HasPrefix(strings.ToLower(k), s) && len(s) >= 3 {
			d = min(d, 1) // "llama3" for "llama3-8b"
		}
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	// a third of the name may be wrong: "gtp2" → "gpt2", "adamw8bit" →
	// "adamw-8bit", but not "foo" → "t5"
	if best == "" || bestD > max(1, len(s)/3) {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the optimal-string-alignment distance of a and b
// (bytes): insertions, deletions, substitutions and swaps of adjacent
// letters ("gtp2" is one edit from "gpt2") each cost one.
func editDistance(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(a)][len(b)]
}
