package memmodel

// cuDNN's float16 depthwise convolutions.
//
// ATen runs an NCHW depthwise convolution with its own conv_depthwise2d
// kernels, which take no workspace, unless ConvParams::use_cudnn_depthwise
// sends it to cuDNN: float16 only (bfloat16 and float32 never), at least
// 32 channels, and, for cuDNN 8.2 and later,
// check_cudnn_depthwise_workload_with_filter (aten/src/ATen/native/
// Convolution.cpp): a square 1×1, 3×3 or 5×5 filter on a map at least 7
// wide, every stride-1 convolution, and a stride-2 one only with 512
// channels or more, or 256 or more on a map at least 28 wide (batch > 1).
// The cuDNN calls then take workspaces as the dense ones do (Conv_v8.cpp:
// after their output, freed when they return), which bf16 runs of the
// same network never make: the blind EfficientNet-B0 b64 fp16 trace asks
// them where its bf16 twin (vision6) does not, and holds 82 MiB more
// reserved for the same allocated peak. The dispatch below was read in a
// main-branch Convolution.cpp whose version is not pinned; the torch 2.11
// traces agree with it on every EfficientNet depthwise conv that took a
// workspace (those that took none may run either way).

// cudnnHalfDepthwise reports whether ATen sends a float16 depthwise k×k
// convolution of c channels on a map w wide (batch n) to cuDNN.
func cudnnHalfDepthwise(n, c, w, k, stride int64) bool {
	if c < 32 || w < 7 || (k != 1 && k != 3 && k != 5) {
		return false
	}
	switch {
	case stride == 1:
		return true
	case stride != 2:
		return false
	case n == 1:
		return k != 1 || w <= 28
	case k == 1:
		return n <= 16 && c >= 128 && w <= 7
	default:
		return c >= 512 || (c >= 256 && w >= 28)
	}
}

// halfDepthwiseWorkspace returns the forward, data-gradient and
// weight-gradient workspaces of a float16 depthwise convolution of c
// channels ATen may send to cuDNN (cudnnHalfDepthwise), read off every
// depthwise convolution of four fp16 traces (dev17's resv13 snapshots: B0
// at b64 checkpointed and at b128, B3 at 300 px b64; the blind B0 b64):
//   - stride 1 on maps 28 wide or more, up to 144 channels, take their
//     input plus their output for the weight gradient only, after the
//     weight gradient is allocated (B0: 32 channels at 112×112 3×3 and 144
//     at 56×56 3×3, 98.2 and 110.5 MiB at b64, 196.2 and 220.7 at b128; B3:
//     40 at 150×150, 220.1 MiB). Wider ones take none (B3's 192 at 75×75
//     3×3 and 288 at 38×38 5×5, B0's 240 at 28×28 5×5 at b128), except B0's
//     240 at b64 (46.2 MiB, left out: the one miss, low);
//   - 5×5 stride 1 on maps of 10×10 or less take it forward and for the
//     data gradient, before the weight gradient exists (B0's 1152 channels
//     on 7×7: 13.9 MiB at b64, 27.7 at b128; B3's 1392 on 10×10: 34.1 MiB);
//   - the rest none: 14×14 and 19×19 maps (B0's 480 3×3 and 672 5×5, B3's
//     816 5×5), 3×3 on 7×7 and 10×10, and every strided one.
//
// Newer ATen replaces the hand-written dispatch with a decision tree fitted
// per GPU generation (torchgen/_autoheuristic), which would explain a
// choice that depends on batch; the channel bound is where the traces
// place it. cuDNN asks 0.1–0.35 MiB beyond the two tensors, less than the
// 2 MiB the allocator rounds such blocks to; workspaceTail stands for it.
func halfDepthwiseWorkspace(c, w, k, stride, in, out int64) (fwd, dgrad, wgrad int64) {
	ws := in + out + workspaceTail
	switch {
	case stride == 1 && w >= 28 && c <= 144:
		return 0, 0, ws
	case stride == 1 && w <= 10 && k == 5:
		return ws, ws, 0
	}
	return 0, 0, 0
}
