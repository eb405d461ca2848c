package memmodel

import (
	"fmt"
	"strings"
)

// The logits-split variant (logitsplit.go) is a second placement of the
// backward pass's cuBLAS workspace that the GPU took on a few measured
// runs and not on most: where the model finds it possible, the GPU took it
// on 6 of 73 training rows (7 counting a Phi-3 fp32 run 2.6% above the
// point whose 1% variant is nearer), every one of them a Gemma 2 or Qwen3
// run with LoRA or checkpointing. Raising every such band's top to the
// variant widened the bands of the runs that did not split by 5–25%. So
// the variant is a band input like a class's centre and spread: each
// class counts its rows that had the variant and those that took it
// (every row toward all its classes: counted as the centre is, technique
// rows toward their techniques only, the Gemma 2 checkpointed split would
// have had no reach with that run left out), and a configuration's band
// reaches the variant only where the rate of the family (or, for a family
// with too few variant rows, of the classes it rests on) is material at
// the table's confidence, i.e. above the share of misses the band allows
// on its high side.

// Split is how often measured runs comparable to a configuration took the
// logits-split variant, and whether its band reaches the variant.
type Split struct {
	// Taken of Rows comparable runs that had the variant split the logits
	// block; Basis is the class they are ("pooled": every class).
	Taken, Rows int
	Basis       string
	// Reach says the rate is above the band's high-side miss share: the
	// band's top, and every fit decision made on it, allows for the split.
	Reach bool
}

func (s Split) rate() float64 {
	if s.Rows == 0 {
		return 0
	}
	return float64(s.Taken) / float64(s.Rows)
}

// String is "K of N comparable runs, class".
func (s Split) String() string {
	return fmt.Sprintf("%d of %d comparable runs, %s", s.Taken, s.Rows, s.Basis)
}

// SplitReach is the split rate of a configuration of classes (as
// BandClasses names them). The family's rate decides where the family has
// at least MinRows rows that had the variant: the split is the caching
// allocator's choice among the free blocks the step leaves, whose sizes
// the family's layers fix, and the measured runs say so: the splits were
// Gemma 2 and Qwen3 runs (6 of their 14 variant rows), and of the other
// families' 59 variant rows, LoRA and checkpointed ones among them, none
// took it but a Phi-3 fp32 run whose 1% variant is nearer its 2.6% miss;
// a technique's rate (LoRA: 4 of 16, every one Gemma 2 or Qwen3) would
// have given all of them the reach.
// Otherwise the rules of bandFor on the rows that had the variant: a class
// holding more than half of them (a default value) says nothing; a class
// with fewer than MinRows of them, or none, takes the pooled rate; the
// highest rate of the rest sets the reach. The GPU is no evidence either
// way: the split is the allocator's choice, which the model replays per
// GPU.
//
// Within the family, the rows with checkpointing or LoRA and the plain ones
// (SplitTechnique) are counted apart, and a configuration takes the rate
// of its own kind where the family has at least MinRows variant rows of
// that kind: both change what the backward pass has freed when the
// workspace is placed, and the measured runs differ there: Gemma 2 split on
// 8 of its 8 checkpointed or LoRA runs with the variant and on none of its
// 4 plain ones. With fewer, the family's rate over both kinds decides.
func (t *BandTable) SplitReach(classes []string) Split {
	pooled := Split{Taken: t.Pooled.SplitTaken, Rows: t.Pooled.SplitRows, Basis: "pooled"}
	tech := SplitTechnique(classes)
	for _, k := range classes {
		c, ok := t.Classes[k]
		if !ok || !strings.HasPrefix(k, "family=") || c.SplitRows < t.MinRows {
			continue
		}
		s := Split{Taken: c.SplitTaken, Rows: c.SplitRows, Basis: k}
		own := Split{Taken: c.SplitTaken - c.SplitTechTaken, Rows: c.SplitRows - c.SplitTechRows, Basis: k + ", plain runs"}
		if tech {
			own = Split{Taken: c.SplitTechTaken, Rows: c.SplitTechRows, Basis: k + ", checkpointed or LoRA runs"}
		}
		if own.Rows >= t.MinRows {
			s = own
		}
		s.Reach = s.rate() > (1-t.Confidence)/2
		return s
	}
	var best Split
	found := false
	consider := func(s Split) {
		if !found || s.rate() > best.rate() || (s.rate() == best.rate() && s.Rows > best.Rows) {
			best, found = s, true
		}
	}
	for _, k := range classes {
		if strings.HasPrefix(k, "gpu=") {
			continue
		}
		c, ok := t.Classes[k]
		switch {
		case ok && c.SplitRows >= t.MinRows && 2*c.SplitRows > pooled.Rows:
			continue
		case ok && c.SplitRows >= t.MinRows:
			consider(Split{Taken: c.SplitTaken, Rows: c.SplitRows, Basis: k})
		default:
			consider(pooled)
		}
	}
	if !found {
		best = pooled
	}
	best.Reach = best.rate() > (1-t.Confidence)/2
	return best
}

// SplitTechnique says whether a configuration of classes (as BandClasses
// names them) has checkpointing or LoRA, the techniques that change the
// backward pass's frees: SplitReach counts those runs apart.
func SplitTechnique(classes []string) bool {
	for _, c := range classes {
		dim, val, _ := strings.Cut(c, "=")
		if (dim == "checkpoint" && val != "none") || (dim == "lora" && val != "no") {
			return true
		}
	}
	return false
}
