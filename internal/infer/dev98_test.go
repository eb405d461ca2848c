package infer

import "testing"

// TestDev98Timing holds the generate points the encoder-decoder pricing
// (encDecTimes) was fitted on, timed alone on lent H100s with the
// breakdown of gt_work.time_detail (testdata/dev98/RESULTS.md). Call 179's
// host ran TinyLlama's fixture points 0.87-0.89x as long as the fixtures'
// H200 host did, so its host-bound points sit about 12% under the
// prediction; call 181's host ran the same TinyLlama point 1.31x as long
// (and twice as noisy): the bands hold both hosts.
func TestDev98Timing(t *testing.T) { checkTimedSet(t, "dev98", 33, 0.12) }

// TestDev98Memory holds the same points' peaks (one process a model,
// several points in a row: the later points' reserved carries the
// earlier ones' segments, as every generate set's does).
func TestDev98Memory(t *testing.T) { checkGenerateSet(t, "dev98", 33, 0.02, 0.002, 0.96) }
