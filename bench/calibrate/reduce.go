package main

import "github.com/vramkit/vramkit/internal/gpu"

// reduceActRow is one row of gt_calib.py --reduce-act (session 27,
// testdata/dev56): a bias-gradient reduction (colsum: M×C summed over M;
// convbias: an N×C×H×W tensor summed over N, H and W in layout nchw or
// nhwc) or an activation's forward or backward kernel over numel
// elements, each timed by its kernels.
type reduceActRow struct {
	Op     string  `json:"op"`
	Dtype  string  `json:"dtype"`
	Layout string  `json:"layout"`
	M      int64   `json:"M"`
	C      int64   `json:"C"`
	Shape  []int64 `json:"shape"`
	Bytes  float64 `json:"bytes"`
	S      float64 `json:"s"`
}

// activationStreams are the --reduce-act activation kernels kept as
// stream rows: the GELU forward is the pointwise run's own row (3.12
// TB/s in bf16 there, 3.07 here), ReLU moves bytes like a multiply
// (4.0–4.3 TB/s), and float16 runs within 4% of bfloat16, whose rows
// stand for it (the table's half-precision dtype).
var activationStreams = map[string]bool{"gelu_backward": true, "gelu_tanh": true, "gelu_tanh_backward": true,
	"silu": true, "silu_backward": true}

// reduceActRows turns the --reduce-act rows into reduction rows and the
// activation kernels' stream rows (appended to stream).
func reduceActRows(rows []reduceActRow, stream []gpu.StreamRate) ([]gpu.ReduceRate, []gpu.StreamRate) {
	var out []gpu.ReduceRate
	for _, v := range rows {
		if v.S <= 0 || v.Bytes <= 0 || v.Dtype == "fp16" {
			continue
		}
		switch {
		case v.Op == "colsum" && v.M > 0 && v.C > 0:
			out = append(out, gpu.ReduceRate{Op: "colsum", Dtype: v.Dtype, Rows: v.M, Cols: v.C, Bytes: v.Bytes, Seconds: v.S})
		case v.Op == "convbias" && len(v.Shape) == 4:
			n, c, hw := v.Shape[0], v.Shape[1], v.Shape[2]*v.Shape[3]
			out = append(out, gpu.ReduceRate{Op: "convbias", Dtype: v.Dtype, ChannelsLast: v.Layout == "nhwc",
				Rows: n * hw, Plane: hw, Cols: c, Bytes: v.Bytes, Seconds: v.S})
		case activationStreams[v.Op]:
			stream = append(stream, gpu.StreamRate{Op: v.Op, Dtype: v.Dtype, Bytes: v.Bytes, Seconds: v.S})
		}
	}
	return out, stream
}
