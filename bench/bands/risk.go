package main

import (
	"math"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// kindsOf is the record of each configuration kind (memmodel.BandKind)
// among ss: its rows, its rows with a first-sight error, and the largest
// of those errors (relative, unsigned).
func kindsOf(ss []sample) map[string]memmodel.KindRecord {
	out := map[string]memmodel.KindRecord{}
	for _, s := range ss {
		k := memmodel.BandKind(s.classes)
		r := out[k]
		r.Rows++
		if s.blind {
			r.Blind++
			r.FirstSightMiss = math.Max(r.FirstSightMiss, round4(math.Abs(errOf(s.xb))))
		}
		out[k] = r
	}
	return out
}

// riskLevels is how many risk levels memmodel's BandTable.Risk gives.
const riskLevels = 3

// markRisk sets each blind row's risk as plan would have judged it when
// the row was first seen: memmodel's BandTable.Risk on the kinds of the
// rows of the sets captured before the row's own (setOrder; the
// development sets come before every late set). A row without a
// first-sight error is scored on the error of models fitted to it, which
// is not a first sight: it is at level 0.
func markRisk(ss []sample) {
	byOrder := map[string][]sample{}
	for _, s := range ss {
		o := setOrder(s.group)
		byOrder[o] = append(byOrder[o], s)
	}
	tables := map[string]*memmodel.BandTable{}
	for i, s := range ss {
		if !s.blind {
			ss[i].risk = 0
			continue
		}
		o := setOrder(s.group)
		t, ok := tables[o]
		if !ok {
			var earlier []sample
			for eo, es := range byOrder {
				if eo < o {
					earlier = append(earlier, es...)
				}
			}
			t = &memmodel.BandTable{Kinds: kindsOf(earlier)}
			tables[o] = t
		}
		ss[i].risk, _ = t.Risk(s.classes)
	}
}
