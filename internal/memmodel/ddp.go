package memmodel

// DistributedDataParallel's gradient buckets: the reducer's construction-
// time buffer, the buckets it rebuilds before the second forward, and
// when the first goes (applySharding's DDP case, generateSchedule).

// ddpBuckets are the sizes of the gradient buckets DDP's reducer rebuilds
// before the second forward, in the order it allocates them: the
// trainable parameters in gradient-ready order (the reverse of
// parameters(), as a backward meets them), cut where a bucket reaches its
// cap, 1 MiB for the first (dist._DEFAULT_FIRST_BUCKET_BYTES) and
// bucket_cap_mb=25 after (compute_bucket_assignment_by_size). Each bucket
// is one tensor of the parameters' dtype. The construction-time set is one
// buffer of every parameter (bucket_size_limits=[sys.maxsize] without
// find_unused_parameters): late44's TinyLlama snapshots allocate the
// rebuilt set as 250 MiB (lm_head) then 44/44/44/36 MiB per layer, into
// the blocks zero_grad has just freed, where one 4 GiB tensor needed a
// segment of its own (reserved 12-18% over).
func ddpBuckets(params []paramInfo) []int64 {
	const first, capBytes = 1 << 20, 25 << 20
	var out []int64
	var cur int64
	limit := int64(first)
	for i := len(params) - 1; i >= 0; i-- {
		p := params[i]
		if !p.trainable {
			continue
		}
		cur += p.numel * p.dt.Size()
		if cur >= limit {
			out = append(out, cur)
			cur, limit = 0, capBytes
		}
	}
	if cur > 0 {
		out = append(out, cur)
	}
	return out
}

// ncclWatchdogPoll is how often ProcessGroupNCCL's watchdog thread looks
// at the collectives in flight (kWatchdogThreadSleepMillis, 100 ms): a
// finished one's tensors go at the first look after it ends.
const ncclWatchdogPoll = 0.100

// ddpRelease decides when DDP's construction-time gradient buffer goes in
// the second step. The first step's all-reduce holds it until the NCCL
// watchdog's next look; the rebuild comes tens of milliseconds after the
// reduction. In 12 of 17 runs or ranks measured (late44, dev30, dev48,
// late46) the look had come (freed at the rebuild), in 5 it came 29-41 ms
// into the second step, after a short forward's peak (generateSchedule).
// So when the second step's forward alone is predicted to take longer
// than a watchdog period, the buffer is gone before that forward's end and
// it goes at the rebuild; otherwise it is kept through the step, the safe
// side of a coin toss.
func (c *config) ddpRelease(g *Graph, cfg *stepConfig, tm timeModel) {
	var p pipeline
	c.walkForward(g, newGenerator(g, *cfg), tm, &p)
	c.ddpForward = max(p.host, p.gpu)
	cfg.releaseAtRebuild = c.ddpReleased()
}

// ddpReleased says ddpRelease let the construction-time buffer go at the
// rebuild.
func (c *config) ddpReleased() bool { return c.ddpForward > ncclWatchdogPoll }
