// Package names finds the known name nearest to a mistyped one, for the
// "did you mean" of every refusal (commands, flags, models, GPUs,
// optimizers, allocator settings). One rule everywhere, so a typo that one
// command corrects is corrected by all of them.
package names

import "strings"

// Nearest returns the entry of known closest to got, or "" when none is a
// plausible typo. Close means an edit distance (Distance, case-insensitive)
// of at most a third of the longer name, at least 1, or, for names of three
// letters or more, one being a prefix of the other ("llama3" for
// "llama3-8b"). Among close names the smaller distance wins, then the
// earlier entry of known.
func Nearest(got string, known []string) string {
	g := strings.ToLower(got)
	best, bestD := "", -1
	for _, k := range known {
		kl := strings.ToLower(k)
		d := Distance(g, kl)
		prefix := len(g) >= 3 && (strings.HasPrefix(kl, g) || strings.HasPrefix(g, kl))
		if d > max(1, max(len(g), len(kl))/3) && !prefix {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// Distance is the optimal-string-alignment distance of a and b in bytes:
// insertions, deletions, substitutions and swaps of two adjacent letters
// ("gtp2" is one edit from "gpt2") each cost one.
func Distance(a, b string) int {
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
