package main

// The input: what gt_calib.py writes (the calibration runs' JSON), as far
// as the table keeps it.

// sdpaKernelRow is one attention call of a kernel-timed SDPA run
// (--sdpa-mask, --sdpa-bias): its mask, dtype, B×H×S×D and the summed
// kernel times of the forward and of forward plus backward.
type sdpaKernelRow struct {
	Mask   string  `json:"mask"`
	Dtype  string  `json:"dtype"`
	BB     int64   `json:"B"`
	HH     int64   `json:"H"`
	S      int64   `json:"S"`
	D      int64   `json:"D"`
	Fwd    float64 `json:"fwd_s"`
	FwdBwd float64 `json:"fwdbwd_s"`
	Error  string  `json:"error"`
}

// raw is the part of gt_calib.py's output the table keeps.
type raw struct {
	Device string `json:"device"`
	Torch  string `json:"torch"`
	CUDNN  int    `json:"cudnn"`
	Launch struct {
		Events  float64 `json:"per_kernel_events_s"`
		Enqueue float64 `json:"per_kernel_cpu_enqueue_s"`
	} `json:"launch"`
	GEMM []struct {
		Dtype string  `json:"dtype"`
		MM    int64   `json:"M"`
		NN    int64   `json:"N"`
		KK    int64   `json:"K"`
		S     float64 `json:"s"`
	} `json:"gemm"`
	// GEMMUnaligned is gt_calib.py --unaligned: GEMMs with an odd
	// vocabulary dimension in a Linear's three roles, beside the same
	// shapes padded to a multiple of 64.
	GEMMUnaligned []struct {
		Dtype   string  `json:"dtype"`
		MM      int64   `json:"M"`
		NN      int64   `json:"N"`
		KK      int64   `json:"K"`
		Role    string  `json:"role"`
		Aligned bool    `json:"aligned"`
		S       float64 `json:"s"`
	} `json:"gemm_unaligned"`
	// GEMMSmall is gt_calib.py --small-gemm: float32 (TF32 off) and bf16
	// products at small models' Linear shapes, in the forward orientation
	// (M = tokens) and the weight-gradient one (K = tokens).
	GEMMSmall []struct {
		Dtype string  `json:"dtype"`
		MM    int64   `json:"M"`
		NN    int64   `json:"N"`
		KK    int64   `json:"K"`
		S     float64 `json:"s"`
	} `json:"gemm_small"`
	SDPA []struct {
		Backend string  `json:"backend"`
		BB      int64   `json:"B"`
		HH      int64   `json:"H"`
		S       int64   `json:"S"`
		D       int64   `json:"D"`
		Causal  bool    `json:"causal"`
		Fwd     float64 `json:"fwd_s"`
		FwdBwd  float64 `json:"fwdbwd_s"`
		Error   string  `json:"error"`
	} `json:"sdpa"`
	// SDPABackends is gt_calib.py --sdpa-backends: bf16 and fp16 shapes
	// timed under torch's default choice (no sdpa_kernel context; Kernels
	// names what ran) and under each backend forced.
	SDPABackends []struct {
		Backend string   `json:"backend"`
		Dtype   string   `json:"dtype"`
		BB      int64    `json:"B"`
		HH      int64    `json:"H"`
		S       int64    `json:"S"`
		D       int64    `json:"D"`
		Causal  bool     `json:"causal"`
		Kernels []string `json:"kernels"`
		Fwd     float64  `json:"fwd_s"`
		FwdBwd  float64  `json:"fwdbwd_s"`
		Error   string   `json:"error"`
	} `json:"sdpa_backends"`
	// SDPAMask is gt_calib.py --sdpa-mask: cuDNN attention (torch's
	// default) timed by its kernels with no mask, is_causal, a bool and an
	// additive materialised causal mask (gpu.SDPARate.Mask, Kernels).
	SDPAMask []sdpaKernelRow `json:"sdpa_mask"`
	// SDPABias is gt_calib.py --sdpa-bias: the default backend's kernels
	// with no mask, is_causal, T5's zero bias constant and requiring grad,
	// at dropout 0 and 0.1, and the memory-efficient backend forced
	// (Backend "efficient"); Top and TopFwd name the kernels that ran.
	SDPABias []struct {
		sdpaKernelRow
		Dropout float64  `json:"dropout"`
		Backend string   `json:"backend"`
		Top     []string `json:"top"`
		TopFwd  []string `json:"top_fwd"`
	} `json:"sdpa_bias"`
	Conv []struct {
		Dtype  string  `json:"dtype"`
		CL     bool    `json:"channels_last"`
		N      int64   `json:"N"`
		Cin    int64   `json:"Cin"`
		Cout   int64   `json:"Cout"`
		H      int64   `json:"H"`
		K      int64   `json:"k"`
		Stride int64   `json:"stride"`
		Groups int64   `json:"groups"`
		Fwd    float64 `json:"fwd_s"`
		FwdBwd float64 `json:"fwdbwd_s"`
		// Kernels: gt_calib.py --conv-kernels' rows (gpu.ConvRate.Kernels)
		Kernels bool   `json:"kernels"`
		Error   string `json:"error"`
	} `json:"conv"`
	Pointwise []struct {
		Dtype string  `json:"dtype"`
		Op    string  `json:"op"`
		Bytes float64 `json:"bytes"`
		S     float64 `json:"s"`
	} `json:"pointwise"`
	// Broadcast is gt_calib.py --broadcast: the elementwise kernels whose
	// operands differ in shape or dtype (ATen's non-vectorised broadcast
	// and mixed-dtype paths) and the bf16 → float32 cast, with bytes
	// counting each operand once; rows without bytes (RMSNorm and rotary
	// timed whole under autograd) are not memory-bound rates.
	Broadcast []struct {
		Dtype string  `json:"dtype"`
		Op    string  `json:"op"`
		Bytes float64 `json:"bytes"`
		S     float64 `json:"s"`
	} `json:"broadcast"`
	Norm []struct {
		Op     string  `json:"op"`
		Dtype  string  `json:"dtype"`
		N      int64   `json:"N"`
		C      int64   `json:"C"`
		H      int64   `json:"H"`
		Bytes  float64 `json:"bytes"`
		Fwd    float64 `json:"fwd_s"`
		FwdBwd float64 `json:"fwdbwd_s"`
		CL     bool    `json:"channels_last"`
		Error  string  `json:"error"`
	} `json:"norm"`
	ReduceAct []reduceActRow `json:"reduce_act"`
	Optimizer []struct {
		Optimizer string  `json:"optimizer"`
		Impl      string  `json:"impl"`
		Params    int64   `json:"params"`
		Tensors   int64   `json:"tensors"`
		S         float64 `json:"s"`
		Error     string  `json:"error"`
	} `json:"optimizer"`
}
