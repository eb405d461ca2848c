package memmodel

import (
	"encoding/json"
	"math"
	"testing"
)

// whisperCSpec is testdata/profile's prof-whisper-c-bf16: Whisper with
// d_model 512, six encoder and six decoder layers, batch 12, 192 label
// tokens, bf16 autocast.
func whisperCSpec() Spec {
	s := DefaultSpec()
	s.HFConfig = json.RawMessage(`{"model_type": "whisper", "d_model": 512, "encoder_layers": 6,
		"decoder_layers": 6, "encoder_attention_heads": 8, "decoder_attention_heads": 8,
		"encoder_ffn_dim": 2048, "decoder_ffn_dim": 2048, "vocab_size": 51865, "num_mel_bins": 80,
		"max_source_positions": 1500, "max_target_positions": 448}`)
	s.Model = nil
	s.Batch, s.Seq, s.Precision = 12, 192, "bf16-amp"
	return s
}

// TestWhisperPermutedStream: Whisper's encoder keeps the conv output's
// [b, d, l] layout seen as [b, l, d], so each of its 13 LayerNorms
// (two a layer and the final one) copies its input contiguous in forward
// and again in backward, and each residual add (the positions' and two
// a layer) mixes that float32 stream with a contiguous bfloat16 branch.
// The Whisper-c b12 profile (testdata/profile, one step) times them as
// ATen's generic kernels: 26 float32 direct_copy elementwise_kernel<128,
// 2> launches, 1.659 ms, and 13 gpu_kernel_impl<CUDAFunctor_add<float>>
// launches, 0.874 ms. Before the copies were priced (the memory model
// held them since the dev8 snapshot) the walk charged nothing for the
// copies and the adds at the contiguous rate, about 0.3 ms.
func TestWhisperPermutedStream(t *testing.T) {
	_, g, _, tm, _ := walkOf(t, whisperCSpec())
	var copies, adds int
	var copyS, addS float64
	for i := range g.ops {
		o := &g.ops[i]
		if o.contigIn {
			copies += 2 // forward and backward
			copyS += 2 * tm.r.contigInCopy(o, g)
		}
		if o.permuted {
			adds++
			addS += tm.forward(o, g)
		}
	}
	if copies != 26 || adds != 13 {
		t.Errorf("%d contiguous copies and %d permuted adds, the profile counts 26 and 13", copies, adds)
	}
	for _, c := range []struct {
		what           string
		got, want, tol float64
	}{
		{"LayerNorm input copies", 1e3 * copyS, 1.659, 0.1},
		{"residual adds", 1e3 * addS, 0.874, 0.15},
	} {
		if math.Abs(c.got/c.want-1) > c.tol {
			t.Errorf("%s: %.3f ms, profiled %.3f ms (±%.0f%%)", c.what, c.got, c.want, 100*c.tol)
		}
	}
}

// TestViTSeqFirstCopies: torchvision's ViT keeps its residual stream
// seq-first after the first attention, so 23 of ViT-B/16's LayerNorms
// and the final one copy their float32 input contiguous, forward and
// backward. The ViT-B/16 b128 bf16 profile (testdata/profile) runs 62
// float32 direct_copy elementwise_kernel<128, 2> launches per step, 3.646
// ms: 58.8 µs apiece, what each of the walk's 48 copies of the 155 MB
// stream should take. At the contiguous copy rate they took 38 µs.
func TestViTSeqFirstCopies(t *testing.T) {
	m := "vit_b_16"
	s := DefaultSpec()
	s.Model, s.Batch, s.Image, s.Precision = &m, 128, 224, "bf16-amp"
	_, g, _, tm, _ := walkOf(t, s)
	var n int
	var sec float64
	for i := range g.ops {
		if o := &g.ops[i]; o.contigIn {
			n += 2
			sec += 2 * tm.r.contigInCopy(o, g)
		}
	}
	if n != 48 {
		t.Errorf("%d seq-first LayerNorm copies, want 48", n)
	}
	if per, want := 1e6*sec/float64(n), 58.8; math.Abs(per/want-1) > 0.1 {
		t.Errorf("a seq-first copy takes %.1f µs, the profile's %.1f (±10%%)", per, want)
	}
}
