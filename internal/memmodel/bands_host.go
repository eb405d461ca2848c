package memmodel

import (
	"fmt"
	"math"
	"strings"
)

// How host-bound a step is sets how well one timing can know it. The
// host's issue time (Python, the dispatcher, the autograd engine) moves
// between processes on one host and between steps of one process; the
// GPU's kernel time does not. dev13 timed three host-bound workloads in
// three processes one after another on one host: Whisper b32 bf16 took
// 35–52 ms (×1.46), ConvNeXt-T b32 bf16 24–35 ms (×1.44), Gemma 3 LoRA
// checkpointed 69–91 ms (×1.31), and the steps inside each process moved
// by up to ±20%, while GPU-bound rows of the same processes moved by under
// 0.1%. A step-time prediction cannot be closer than that, whatever the
// model. So the step band depends on the predicted split of the step
// (StepDetail), which plan knows before anything runs: three host levels,
// each with the quantiles of its own rows' errors (bench/bands).
//
//	0  GPU-bound: the host's issue time times the spread between
//	   processes is still below the GPU's time (no process seen would
//	   make it host-bound);
//	1  near: the GPU's time is longer, but a slower process could make
//	   the host the bottleneck;
//	2  host-bound: the host's issue time is the longer.
//
// On the timed rows' first-sight errors (bench/bands; each capture set
// left out) the GPU-bound rows' errors are about a third of the
// host-bound ones' (median |error| about 4% against 12–15%).

// hostProcessSpread is the largest ratio between the step times of one
// host-bound workload timed in separate processes on one host (dev13:
// Whisper b32 bf16, 35.2 and 51.5 ms).
const hostProcessSpread = 1.46

// StepHostLevel is the host level (0 GPU-bound, 1 near, 2 host-bound;
// see above) of a step whose host issue time is hostS and whose GPU time
// is gpuS (seconds, as StepDetail holds them). Without a GPU time the
// step is taken as host-bound.
func StepHostLevel(hostS, gpuS float64) int {
	switch {
	case gpuS <= 0 || hostS >= gpuS:
		return 2
	case hostS*hostProcessSpread >= gpuS:
		return 1
	}
	return 0
}

// StepHostPosition is where a step sits between GPU-bound and host-bound:
// ln(hostS/gpuS), +Inf without a GPU time (taken as host-bound, as
// StepHostLevel does), −Inf without a host time.
func StepHostPosition(hostS, gpuS float64) float64 {
	switch {
	case gpuS <= 0:
		return math.Inf(1)
	case hostS <= 0:
		return math.Inf(-1)
	}
	return math.Log(hostS / gpuS)
}

// stepLevelWeights place a step's band between its class's host-level
// bands (StepBand): the GPU-bound band up to level 0's edge
// (−ln hostProcessSpread), the near band at the middle of level 1, the
// host-bound band from level 2's edge (0) on, linear in the position
// between them. Each level's band holds the errors of rows spread across
// the level, and the error grows with the position inside it (on the
// H200 rows, each set left out: median |error| 2.2-3.0% up to
// ln(host/GPU) = −0.45, 3.8% to −0.28, 5.8% to −0.06, 9.7% to +0.15,
// 13-15% above), so a step near a level's edge took a band too wide on
// one side of the edge and too narrow on the other. At first sight (each
// capture set left out) the median half-width over the median |error| of
// all steps moved from 3.8 to 3.0 (LoRA 5.0 to 3.3, bf16 AMP 4.0 to 2.9,
// ViTs 4.7 to 3.1), 677 of 712 inside where 679 were (docs/steptime.md,
// session 40). It returns the two levels and the weight of the upper.
func stepLevelWeights(pos float64) (lo, hi int, w float64) {
	edge := -math.Log(hostProcessSpread)
	mid := edge / 2
	switch {
	case pos <= edge:
		return 0, 0, 0
	case pos < mid:
		return 0, 1, (pos - edge) / (mid - edge)
	case pos < 0:
		return 1, 2, (pos - mid) / -mid
	}
	return 2, 2, 0
}

// stepHostNote says why a step that is not GPU-bound has the band b
// (ratios measured/predicted).
func stepHostNote(d *StepDetail, level int, b [2]float64) string {
	head := fmt.Sprintf("near host-bound (host issue %.1f ms within %.2f× of the GPU's %.1f ms: a slower process makes the host the bottleneck)",
		1e3*d.HostS, hostProcessSpread, 1e3*d.GPUS)
	if level == 2 {
		head = fmt.Sprintf("host-bound (host issue %.1f ms, GPU %.1f ms)", 1e3*d.HostS, 1e3*d.GPUS)
	}
	return fmt.Sprintf("step time %s: a host-bound step moves by up to %.0f%% between processes on one host and ±20%% between steps, and with the CPU (--host-scale prices yours; --measured-step S solves it from one step you timed); band ×%.2f–×%.2f of the prediction, from the first-sight errors of steps as close to host-bound",
		head, 100*(hostProcessSpread-1), b[0], b[1])
}

// Checkpointed says whether a configuration of classes (as BandClasses
// names them) recomputes activations: its reserved band's low end is its
// own (ClassBand.ReservedCheckpointLow). At first sight the model
// over-predicted checkpointed runs beyond the shared low end four times
// as often as plain ones (6 of 82 blind rows against 4 of 161, before
// bands13): what a checkpointed step frees before the backward pass's
// peak depends on the recomputation's order, which the model replays
// less exactly.
func Checkpointed(classes []string) bool {
	for _, c := range classes {
		if v, ok := strings.CutPrefix(c, "checkpoint="); ok && v != "none" {
			return true
		}
	}
	return false
}
