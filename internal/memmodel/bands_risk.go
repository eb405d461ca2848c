package memmodel

import (
	"fmt"
	"sort"
	"strings"
)

// A first-sight error is a mixture: most configurations are predicted
// within about 1% (their mechanisms are modelled), and a tail misses by
// 2–95% (a mechanism never seen: a new family shape, a technique mix,
// a precision). One band per class must cover the tail, so it is many
// times the typical error. The band is therefore as wide as a
// configuration's risk, judged from what plan knows before any
// measurement: its kind (BandKind: family × non-default techniques ×
// precision) and the table's record of that kind. A configuration is
// risky where its kind has no captured row (the first of its kind), or
// where a blind row of its kind missed by more than riskyMiss at first
// sight (the mechanism behind the miss may not be the one fixed since:
// ConvNeXt checkpointed missed +5.1% on late2 and +15.7% on late9; Qwen3
// LoRA on every linear +16.4% on late10 and +21.8% on late11). Risky
// configurations take the quantiles scored on risky rows' first-sight
// errors (Quantiles "reserved_novel", ClassBand.ReservedNovel); the rest
// the quantiles of the others. bench/bands judges both with each capture
// set left out.

// riskyMiss is the first-sight |error| of a blind row of a kind above
// which the kind stays risky: twice the typical first-sight error (1.0%
// median over the blind rows).
const riskyMiss = 0.02

// KindRecord is the table's record of one configuration kind.
type KindRecord struct {
	// Rows is how many captured rows of the kind the table holds.
	Rows int `json:"rows"`
	// Blind is how many of them have a first-sight error recorded, and
	// FirstSightMiss the largest |(pred−meas)/meas| among those.
	Blind          int     `json:"blind,omitempty"`
	FirstSightMiss float64 `json:"first_sight_miss,omitempty"`
}

// BandKind is the kind of a configuration of classes (as BandClasses
// names them): its family, the techniques it does not run at their
// default, and its precision, e.g. "qwen3 checkpoint=block lora=yes
// bf16-amp". The GPU and the model's size are not part of it: the first
// changes no mechanism, the second changes every row.
func BandKind(classes []string) string {
	var fam, prec string
	var tech []string
	for _, c := range classes {
		dim, val, _ := strings.Cut(c, "=")
		switch dim {
		case "family":
			fam = val
		case "precision":
			prec = val
		case "gpu", "kind":
		default:
			if d, ok := kindDefaults[dim]; ok && val == d {
				continue
			}
			tech = append(tech, c)
		}
	}
	sort.Strings(tech)
	return strings.Join(append(append([]string{fam}, tech...), prec), " ")
}

// kindDefaults are the values a plain run has in each technique
// dimension; any other value (and any attn, alloc_conf or lengths class)
// is part of a configuration's kind.
var kindDefaults = map[string]string{"checkpoint": "none", "lora": "no", "parallel": "none", "optimizer": "adamw"}

// Risk says whether a configuration of classes takes the risky bands,
// and why (empty when it does not). A table without kind records (one
// written before them) treats nothing as risky.
func (t *BandTable) Risk(classes []string) (risky bool, why string) {
	if len(t.Kinds) == 0 {
		return false, ""
	}
	k := BandKind(classes)
	r, ok := t.Kinds[k]
	switch {
	case !ok:
		return true, fmt.Sprintf("first of its kind (%s: none of the %d kinds captured): wider band", k, len(t.Kinds))
	case r.FirstSightMiss > riskyMiss:
		return true, fmt.Sprintf("its kind (%s) missed by %.1f%% at first sight on a blind capture: wider band", k, 100*r.FirstSightMiss)
	}
	return false, ""
}
