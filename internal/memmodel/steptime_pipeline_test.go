package memmodel

import (
	"math"
	"testing"
)

// TestLaunchQueueBoundsHostLead: the host may run at most
// launchQueueDepth kernels ahead of the GPU. 2,000 kernels of 100 µs
// issued at 5 µs each keep the GPU busy for 200 ms; the host, blocked
// once the queue holds 1,024, issues the last one when kernel 976 ends
// (97.605 ms), not at 10 ms. Host work after it (150 ms of Python with no
// kernels: a recomputation's, the optimizer's) therefore ends at
// 247.605 ms and so does the step, where an unbounded queue would hide it
// behind the GPU's 200 ms.
func TestLaunchQueueBoundsHostLead(t *testing.T) {
	const n, h, d, tail = 2000, 5e-6, 100e-6, 150e-3
	var p pipeline
	for range n {
		p.issue(h, d, kPointwise, 1)
	}
	lastIssue := h + float64(n-launchQueueDepth)*d // the first kernel starts when issued, at 5 µs
	if math.Abs(p.host-lastIssue) > 1e-9 {
		t.Errorf("host issued the last kernel at %.2f ms, want %.2f (blocked on a full queue)", 1e3*p.host, 1e3*lastIssue)
	}
	if math.Abs(p.hostBusy-n*h) > 1e-9 {
		t.Errorf("host busy %.3f ms, want %.3f: waiting is not issue time", 1e3*p.hostBusy, 1e3*n*h)
	}
	p.issue(tail, 0, kPointwise, 0)
	p.sync()
	if want := lastIssue + tail; math.Abs(p.host-want) > 1e-9 {
		t.Errorf("step %.2f ms, want %.2f", 1e3*p.host, 1e3*want)
	}
	if math.Abs(p.busy-n*d) > 1e-9 {
		t.Errorf("GPU busy %.2f ms, want %.2f", 1e3*p.busy, 1e3*n*d)
	}
}

// TestLaunchQueueIdleWhenHostBound: when the host issues slower than the
// GPU runs, the queue never fills and the step is the host's time plus
// the last kernel.
func TestLaunchQueueIdleWhenHostBound(t *testing.T) {
	const n, h, d = 5000, 20e-6, 5e-6
	var p pipeline
	for range n {
		p.issue(h, d, kPointwise, 1)
	}
	p.sync()
	if want := n*h + d; math.Abs(p.host-want) > 1e-9 {
		t.Errorf("step %.3f ms, want %.3f", 1e3*p.host, 1e3*want)
	}
	if p.queued > 1 {
		t.Errorf("%g kernels left queued after a sync", p.queued)
	}
}
