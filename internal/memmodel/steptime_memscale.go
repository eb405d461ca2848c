package memmodel

// memS is the time on this GPU of a memory-bound kernel that took refS
// on the calibrated GPU to move bytes. On the calibrated GPU itself it is
// refS. On another GPU only the part of the kernel that bandwidth bounds
// slows by the bandwidth ratio: a kernel that reached a fraction of the
// reference's fastest stream (peakStream) was bound by something else
// (blocks in flight, a per-row loop, its reduction), which the same SMs
// at the same clock run at the same speed. So the kernel takes the longer
// of its reference time, scaled by the CUDA cores' throughput ratio where
// the GPU is slower (coreScale, at most 1: a faster GPU's other limits
// are not assumed faster), and its bytes at the GPU's fastest stream
// (peakStream × bwScale). The cores' ratio stands in for what the SMs
// do besides streaming (Hopper doubled fp32 per SM, so it overstates an
// A100's shortfall there): where it is the smaller of the two
// ratios, the bandwidth ratio alone scales the kernel, as before. So it
// does on another architecture than the reference's (both decided once,
// rates.streamCap):
// only an H100 has been timed, and public ResNet-50 fp16 training figures
// (TensorFlow's tf_cnn_benchmarks, b64: RTX 3090 1027 images/s, 62 ms a
// step; RTX 4090 1688, 38 ms) put this rule 15% under on the 3090 (53 ms)
// where the bandwidth ratio is 36% over (85 ms): an under-estimate is the
// worse error.
//
// Until session 33 every memory-bound time was divided by the bandwidth
// ratio alone. late61, the first steps timed on an H100 (blind: each
// workload timed before on an H200; the same 989 TFLOP/s, 3.35 against
// 4.8 TB/s, whose probes streamed 3.0 and 4.24 TB/s), ran 1.03-1.10x the
// H200's time on ResNets, EfficientNets and ConvNeXts, where the
// bandwidth ratio said 1.24-1.40x (their batch norms and pointwise
// kernels reach 1.5-3 TB/s on the H200), and 1.13-1.20x on bf16
// decoders (1.19-1.30x predicted).
func (r *rates) memS(refS, bytes float64) float64 {
	if !r.scaled {
		return refS
	}
	if !r.streamCap {
		return refS / r.bwScale
	}
	t := refS / r.coreScale
	if r.peakStream > 0 && bytes > 0 {
		t = max(t, bytes/(r.peakStream*r.bwScale))
	}
	return t
}
