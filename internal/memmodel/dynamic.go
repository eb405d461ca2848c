package memmodel

import (
	"math/rand"
	"sort"
)

// Dynamic padding: the spec's lengths are the sequence lengths of the
// training samples in the order the loader yields them, and padding says
// how a batch is padded:
//
//	max      every batch to the spec's seq (a fixed shape)
//	longest  each batch to its longest sample (DataCollatorWithPadding)
//	bucket   samples sorted by length, batches of neighbours, batch
//	         order shuffled (a bucketing / length-grouped sampler)
//
// Peak allocated is set by the longest batch, which is reported as the
// worst case. Reserved memory also depends on the order in which shapes
// arrive: a long batch that follows many short ones finds the cache cut
// into blocks of the wrong sizes and asks CUDA for more. Rather than a
// formula, the plan replays the actual schedule of batch lengths (up to
// maxDynSteps steps, one graph per distinct length) through the allocator
// simulator, so the reserved figure reflects that order; a different
// order can move it by tens of percent (the H200 capture measured +26%
// over the fixed shape for bucketing, +0% for pad-to-longest), which is
// why the reserved band is widened.

// maxDynSteps bounds the replayed schedule; reserved memory stops growing
// once every length class has met the longest batch.
const maxDynSteps = 32

// DynamicResult summarises a dynamic-padding plan.
type DynamicResult struct {
	Padding string `json:"padding"`
	Steps   int    `json:"steps_replayed"`
	// MaxLen and MeanLen are the padded batch length, tokens.
	MaxLen  int     `json:"max_batch_len_tokens"`
	MeanLen float64 `json:"mean_batch_len_tokens"`
	// Efficiency is real tokens / padded tokens.
	Efficiency float64 `json:"padding_efficiency"`
	// FixedAllocated is peak allocated of the longest batch alone (the
	// worst case); FixedReserved its reserved memory with one shape.
	FixedAllocated int64 `json:"worst_case_allocated_bytes"`
	FixedReserved  int64 `json:"fixed_shape_reserved_bytes"`
}

// batchLengths turns the sample lengths into per-step padded lengths.
func batchLengths(lengths []int, batch, seq int, padding string) ([]int, float64, error) {
	if len(lengths) < batch {
		return nil, 0, specErr("lengths", "need at least one batch (%d) of lengths, got %d", batch, len(lengths))
	}
	ls := append([]int(nil), lengths...)
	for _, l := range ls {
		if l < 1 || (seq > 0 && l > seq) {
			return nil, 0, specErr("lengths", "length %d outside 1..seq (%d)", l, seq)
		}
	}
	if padding == "bucket" {
		sort.Ints(ls)
	}
	n := len(ls) / batch
	steps := make([]int, n)
	real := 0
	for i := 0; i < n; i++ {
		m := 0
		for _, l := range ls[i*batch : (i+1)*batch] {
			m = max(m, l)
			real += l
		}
		switch padding {
		case "max":
			steps[i] = seq
		default:
			steps[i] = m
		}
	}
	if padding == "bucket" {
		// a fixed seed keeps plans reproducible; the order is a guess
		rand.New(rand.NewSource(7)).Shuffle(n, func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
	}
	padded := 0
	for _, l := range steps {
		padded += l * batch
	}
	return steps, float64(real) / float64(padded), nil
}

// dynSchedule resolves the spec's padding into per-step batch lengths
// (at most maxDynSteps), the padding efficiency and the mode's name.
func (c *config) dynSchedule(s Spec) ([]int, float64, string, error) {
	if c.arch.Vision() {
		return nil, 0, "", specErr("lengths", "dynamic padding applies to text models, not %s", c.arch.Family)
	}
	pad := s.Padding
	if pad == "" {
		pad = "longest"
	}
	if pad != "max" && pad != "longest" && pad != "bucket" {
		return nil, 0, "", specErr("padding", "want max|longest|bucket, got %q", s.Padding)
	}
	steps, eff, err := batchLengths(s.Lengths, s.Batch, int(c.seq), pad)
	if err != nil {
		return nil, 0, "", err
	}
	if len(steps) > maxDynSteps {
		steps = steps[:maxDynSteps]
	}
	return steps, eff, pad, nil
}

// replayDynamic replays the schedule of batch lengths (after one step on
// the first batch that creates optimizer state) and returns its peaks; d
// is filled with the schedule's statistics.
func (c *config) replayDynamic(steps []int, d *DynamicResult) (alloc, resv int64) {
	graphs := map[int]*Graph{}
	var gs []*Graph
	var mean float64
	for _, l := range steps {
		if graphs[l] == nil {
			cc := *c
			cc.seq = int64(l)
			graphs[l] = cc.buildGraph()
		}
		gs = append(gs, graphs[l])
		mean += float64(l)
		d.MaxLen = max(d.MaxLen, l)
	}
	d.Steps, d.MeanLen = len(steps), mean/float64(len(steps))
	gs = append([]*Graph{gs[0]}, gs...)
	cfg := c.stepConfig(gs[0], len(gs))
	cfg.releaseAtRebuild = c.ddpReleased() // the longest batch's forward (ddpRelease)
	alloc, resv = c.replay(generateSchedule(gs, cfg))
	return alloc, resv
}

// dynStepTime is the mean step time over the schedule of batch lengths.
func (c *config) dynStepTime(steps []int, tm timeModel) float64 {
	graphs := map[int]*Graph{}
	var total float64
	for _, l := range steps {
		g := graphs[l]
		if g == nil {
			cc := *c
			cc.seq = int64(l)
			g = cc.buildGraphWith(cc.inputGradUnderCkpt())
			graphs[l] = g
		}
		total += c.walkStep(g, c.stepConfig(g, 2), tm)
	}
	return total / float64(len(steps))
}
