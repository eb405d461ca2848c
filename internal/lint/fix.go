package lint

import (
	"fmt"
	"sort"
	"strings"
)

// ApplyFixes applies the edits of the diagnostics to src, all edits of one
// diagnostic or none: a fix whose edits overlap an earlier fix's is left
// out (running --fix again picks it up). It returns the new source and the
// diagnostics that were fixed.
func ApplyFixes(src []byte, diags []Diagnostic) ([]byte, []Diagnostic) {
	var taken []Edit
	var fixed []Diagnostic
	overlaps := func(e Edit) bool {
		for _, t := range taken {
			if e.Start < t.End && t.Start < e.End || e.Start == t.Start && e.End == t.End {
				return true
			}
			// Two insertions at one point, or an insertion inside a
			// replaced range, are ambiguous too.
			if e.Start == e.End && e.Start > t.Start && e.Start < t.End || t.Start == t.End && t.Start > e.Start && t.Start < e.End {
				return true
			}
		}
		return false
	}
	for _, d := range diags {
		if len(d.Edits) == 0 {
			continue
		}
		ok := true
		for _, e := range d.Edits {
			if e.Start < 0 || e.End > len(src) || e.Start > e.End || overlaps(e) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		// Edits of one diagnostic must not overlap each other either.
		mine := append([]Edit(nil), d.Edits...)
		sort.Slice(mine, func(i, j int) bool { return mine[i].Start < mine[j].Start })
		for i := 1; i < len(mine); i++ {
			if mine[i].Start < mine[i-1].End {
				ok = false
			}
		}
		if !ok {
			continue
		}
		taken = append(taken, d.Edits...)
		fixed = append(fixed, d)
	}
	sort.Slice(taken, func(i, j int) bool { return taken[i].Start < taken[j].Start })
	var b strings.Builder
	last := 0
	for _, e := range taken {
		b.Write(src[last:e.Start])
		b.WriteString(e.New)
		last = e.End
	}
	b.Write(src[last:])
	return []byte(b.String()), fixed
}

// FixResult is what --fix did (or would do) to one file.
type FixResult struct {
	Path   string
	Old    []byte
	New    []byte
	Fixed  []Diagnostic
	Reason string // why the file was left alone, when New is nil
}

// Fix computes the safe rewrites for one checked file: the edits applied,
// then the result parsed again. A result that no longer parses is
// discarded (Reason says so) and the file must be left untouched.
func Fix(parse ParseFunc, f *File, diags []Diagnostic) FixResult {
	r := FixResult{Path: f.Path, Old: f.Src}
	newSrc, fixed := ApplyFixes(f.Src, diags)
	if len(fixed) == 0 {
		return r
	}
	if _, err := parse(newSrc); err != nil {
		r.Reason = fmt.Sprintf("not fixed: the rewritten file would not parse (%v); please report this", err)
		return r
	}
	r.New, r.Fixed = newSrc, fixed
	return r
}
