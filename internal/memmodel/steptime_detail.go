package memmodel

// kernelClass is the class of GPU work a kernel of the step-time walk
// belongs to, as a kernel profile would sort it (StepDetail).
type kernelClass int

const (
	kGEMM kernelClass = iota
	kAttention
	kConv
	kNorm
	kCopy
	kPointwise
	kOptimizer
	numKernelClasses
)

var kernelClassNames = [numKernelClasses]string{"gemm", "attention", "conv", "norm", "copy", "pointwise", "optimizer"}

// classOf is the kernel class of op o's kernels. Whisper's nn.Conv1d
// runs in cuDNN (a 2-D convolution of height 1: the Whisper profiles of
// testdata/profile and dev12 name its kernels with the conv2d ones,
// 22 per bf16 step) although the graph prices it as a tensor-core op
// without a convolution shape: it is a convolution all the same.
func classOf(o *op) kernelClass {
	switch {
	case o.attn != nil:
		return kAttention
	case o.conv != nil || o.kind == "conv1d":
		return kConv
	case o.gemm != nil || o.matmul || o.kind == "grouped_mm":
		return kGEMM
	}
	switch o.kind {
	case "layer_norm", "batch_norm", "rms_norm", "group_norm":
		return kNorm
	case "to", "copy", "cat":
		return kCopy // casts, .contiguous() and cat: ATen's copy kernels
	}
	return kPointwise
}

// StepDetail is how the step-time walk spends one training step: the
// host's issue time (Python, the dispatcher, the autograd engine, the
// launches), the GPU's kernel time, and the kernels it issues by class.
// The step is at least the larger of the two; it is host-bound when the
// host's issue time exceeds the GPU's work, and a faster or slower CPU
// then moves it (StepTimeBand widens).
type StepDetail struct {
	HostS     float64 `json:"host_s"`
	GPUS      float64 `json:"gpu_busy_s"`
	Kernels   float64 `json:"kernels"`
	HostBound bool    `json:"host_bound"`
	// GroupedSyncs is how many device syncs a step's mixture-of-experts
	// layers cause: torch._grouped_mm's fallback calls (float32 experts).
	GroupedSyncs int                    `json:"grouped_mm_syncs,omitempty"`
	Classes      map[string]KernelClass `json:"classes"`
	// PhaseS is the host clock's seconds in forward, backward and the
	// optimizer, waits on the GPU included (gt_work.py's phase_s)
	PhaseS [3]float64 `json:"phase_s"`
}

// KernelClass is the kernels of one class in a step and their GPU time.
type KernelClass struct {
	Kernels float64 `json:"kernels"`
	GPUS    float64 `json:"gpu_s"`
}

// detail summarises the clocks of a walked step.
func (p *pipeline) detail() *StepDetail {
	d := &StepDetail{HostS: p.hostBusy, GPUS: p.busy, HostBound: p.hostBusy > p.busy,
		GroupedSyncs: p.groupedSyncs, Classes: map[string]KernelClass{}, PhaseS: p.phases}
	for k := range p.kernels {
		d.Kernels += p.kernels[k]
		if p.kernels[k] > 0 || p.classGPU[k] > 0 {
			d.Classes[kernelClassNames[k]] = KernelClass{Kernels: p.kernels[k], GPUS: p.classGPU[k]}
		}
	}
	return d
}

// kernels is how many kernels d seconds of one op's GPU time stand for:
// one, or none for an op that moves nothing (a view).
func kernels(d float64) float64 {
	if d > 0 {
		return 1
	}
	return 0
}
