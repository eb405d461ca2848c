package memmodel

// pipeline is the two clocks of the walk; busy sums the GPU's kernel
// time alone, hostBusy the host's issue time alone (without its waits on
// the GPU), and kernels and classGPU count the kernels and their GPU time
// by class (StepDetail). queue holds the kernels issued and not yet known
// finished (launchQueueDepth), oldest first, and queued their count.
type pipeline struct {
	host, gpu, busy, hostBusy float64
	kernels, classGPU         [numKernelClasses]float64
	queue                     []launched
	queued                    float64
	// groupedSyncs counts the _grouped_mm fallback calls, each a device
	// sync (issueGrouped)
	groupedSyncs int
	// phases is the host clock's time in forward, backward and the
	// optimizer (with the GradScaler's sync), waits included, the final
	// synchronize not: what a perf_counter around each phase reads
	phases [3]float64
}

// launched is one op's kernels in the launch queue: how many and when the
// last of them ends on the GPU.
type launched struct{ n, end float64 }

// launchQueueDepth is how many kernel launches a CUDA stream holds before
// the next launch blocks the host until the oldest one finishes: about a
// thousand (a stream of 190 µs kernels launches at 4–5 µs each for the
// first ~1,000, then at the kernels' pace; more streams, more room —
// NVIDIA developer forums 68937). Forward, backward (on the autograd
// engine's device thread) and optimizer of a single-GPU step all launch
// on the one default stream, so the host can run at most this many
// kernels ahead of the GPU: a host that got ahead during GPU-bound
// layers cannot bank more than that queue's worth of GPU time against
// host work that comes later (a checkpointed region's recomputation in
// backward, the optimizer's Python).
const launchQueueDepth = 1024

// issue charges h to the host, then runs n kernels of class k taking d
// seconds together on the GPU (n may be 0: a view costs the host only).
// The launch blocks while the queue holds launchQueueDepth kernels.
func (p *pipeline) issue(h, d float64, k kernelClass, n float64) {
	p.host += h
	p.hostBusy += h
	if n > 0 {
		p.waitForRoom(n)
	}
	p.gpu = maxF(p.gpu, p.host) + d
	p.busy += d
	p.kernels[k] += n
	p.classGPU[k] += d
	if n > 0 {
		p.queue = append(p.queue, launched{n: n, end: p.gpu})
		p.queued += n
	}
}

// waitForRoom retires the launches the GPU has finished by the host's
// clock and, while n more would overflow the queue, makes the host wait
// for the oldest to finish.
func (p *pipeline) waitForRoom(n float64) {
	i := 0
	for ; i < len(p.queue); i++ {
		q := p.queue[i]
		if q.end > p.host && p.queued+n <= launchQueueDepth {
			break
		}
		p.host = maxF(p.host, q.end)
		p.queued -= q.n
	}
	p.queue = p.queue[i:]
}

// sync makes the host wait for the GPU (.item(), synchronize).
func (p *pipeline) sync() {
	p.host = maxF(p.host, p.gpu)
	p.queue, p.queued = p.queue[:0], 0
}
