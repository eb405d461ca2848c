package gpu

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
)

// Calibration is what one GPU achieved in a calibration run
// (bench/gpu/gt/gt_calib.py on the lent machine): the rates PyTorch's
// kernels reach at the shapes training runs, as opposed to the data
// sheet's peaks in GPU. The step-time model reads it; GPUs without one are
// scaled from a calibrated GPU by their peak figures.
//
// The files under calibration/ are generated from the raw JSON of a run by
// bench/calibrate (see the go:generate line below); do not edit them.
type Calibration struct {
	GPU    string `json:"gpu"`    // catalog name of the calibrated GPU
	Source string `json:"source"` // the raw file it was built from
	Device string `json:"device"` // the device name CUDA reported
	Torch  string `json:"torch"`
	CUDNN  int    `json:"cudnn"`
	// LaunchS is the GPU time of the smallest kernel issued back to back;
	// EnqueueS is what the host spends issuing one tiny op from Python.
	LaunchS  float64         `json:"launch_s"`
	EnqueueS float64         `json:"enqueue_s"`
	GEMM     []GEMMRate      `json:"gemm"`
	SDPA     []SDPARate      `json:"sdpa"`
	Conv     []ConvRate      `json:"conv"`
	Stream   []StreamRate    `json:"stream"`
	Optim    []OptimizerRate `json:"optimizer"`
}

// GEMMRate is torch.mm of an M×K by a K×N matrix. Dtype fp32 is float32
// with TF32 off (PyTorch's default for matmul), tf32 with it on.
type GEMMRate struct {
	Dtype   string   `json:"dtype"`
	MNK     [3]int64 `json:"mnk"`
	Seconds float64  `json:"s"`
}

// SDPARate is F.scaled_dot_product_attention on B×H×S×D bf16 inputs
// under one backend, forward alone and forward plus backward.
type SDPARate struct {
	Backend string   `json:"backend"` // flash | efficient | math
	BHSD    [4]int64 `json:"bhsd"`
	Causal  bool     `json:"causal"`
	FwdS    float64  `json:"fwd_s"`
	FwdBwdS float64  `json:"fwdbwd_s"`
}

// ConvRate is F.conv2d (NCHW unless ChannelsLast, cudnn.benchmark off):
// N images of Cin×H×H through Cout k×k filters, forward alone and forward
// plus backward (data and weight gradients).
type ConvRate struct {
	Dtype        string  `json:"dtype"`
	ChannelsLast bool    `json:"channels_last"`
	N            int64   `json:"n"`
	Cin          int64   `json:"cin"`
	Cout         int64   `json:"cout"`
	H            int64   `json:"h"`
	K            int64   `json:"k"`
	Stride       int64   `json:"stride"`
	Groups       int64   `json:"groups"`
	FwdS         float64 `json:"fwd_s"`
	FwdBwdS      float64 `json:"fwdbwd_s"`
}

// StreamRate is one memory-bound op (add, copy, gelu, layer_norm,
// softmax, sum ...) moving Bytes in Seconds.
type StreamRate struct {
	Op      string  `json:"op"`
	Dtype   string  `json:"dtype"`
	Bytes   float64 `json:"bytes"`
	Seconds float64 `json:"s"`
}

// OptimizerRate is one optimizer.step() over Params float32 parameters in
// Tensors tensors.
type OptimizerRate struct {
	Optimizer string  `json:"optimizer"` // adamw | sgd_momentum
	Impl      string  `json:"impl"`      // foreach | fused | forloop
	Params    int64   `json:"params"`
	Tensors   int64   `json:"tensors"`
	Seconds   float64 `json:"s"`
}

//go:generate go run ../../bench/calibrate -gpu h200 -in ../../testdata/late/calibration-full.json -out calibration/h200.json

//go:embed calibration
var calibrations embed.FS

// Calibrated returns the calibration of the catalog GPU name, or nil when
// that GPU has none.
func Calibrated(name string) (*Calibration, error) {
	data, err := calibrations.ReadFile("calibration/" + name + ".json")
	if err != nil {
		if _, ok := err.(*fs.PathError); ok {
			return nil, nil
		}
		return nil, err
	}
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("gpu: calibration/%s.json: %w", name, err)
	}
	return &c, nil
}

// CalibratedNames lists the GPUs with a calibration.
func CalibratedNames() []string {
	ents, _ := calibrations.ReadDir("calibration")
	var out []string
	for _, e := range ents {
		if n := e.Name(); len(n) > 5 && n[len(n)-5:] == ".json" {
			out = append(out, n[:len(n)-5])
		}
	}
	return out
}
