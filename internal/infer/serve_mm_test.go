package infer

import (
	"math"
	"testing"
)

// TestServeGemma3Multimodal: vLLM serves gemma-3-4b/12b/27b as
// Gemma3ForConditionalGeneration, SigLIP and its projector beside the
// text model. The checkpoints' parameters are Hugging Face's published
// counts (4,300,079,472 and 27,432,406,640); "Model loading took" adds the
// rotary tables (Gemma 3's global layers scaled ×8 to 131,072 positions:
// 0.5625 GiB at head_dim 256, 0.28125 at 128). Three start-up logs (the
// MI300X one and B10 from the hybrid-KV sets, S6 from the multimodal one):
// before the tower and tables were counted the plan was 16.1%, 2.2% and
// 2.9% low; now within 1%. Blind, first seen after this was written (the
// multimodal set's B13 and B14: Gemma 3 27B at TP 4 on vLLM 0.8, GPU not
// logged, 13.1665 and 13.1664 GiB a rank): -0.8% each (-4% before).
func TestServeGemma3Multimodal(t *testing.T) {
	for _, l := range []struct {
		src, model, gpu, vllm string
		context, tp           int
		params                int64
		weightsGiB            float64
	}{
		{"S3 hybrid (ROCm)", "gemma-3-4b", "mi300x", "0.23.0", 8192, 1, 4300079472, 8.58},
		{"S6 multimodal", "gemma-3-27b", "a100-80", "0.19.0", 32768, 1, 27432406640, 51.45},
		{"B10 hybrid (ROCm)", "gemma-3-27b", "mi300x", "0.11.0", 4096, 1, 27432406640, 51.7891},
		{"B13 multimodal", "gemma-3-27b", "h100", "0.8.2", 4096, 4, 27432406640, 13.1665},
		{"B14 multimodal (V0)", "gemma-3-27b", "h100", "0.8.0", 65536, 4, 27432406640, 13.1664},
	} {
		s := serveSpec(l.model, l.gpu, "")
		s.VLLM, s.Context, s.Parallel.TP = l.vllm, l.context, l.tp
		r, err := Serve(s)
		if err != nil {
			t.Fatalf("%s: %v", l.src, err)
		}
		if r.Params != l.params {
			t.Errorf("%s: %d parameters, the checkpoint has %d", l.src, r.Params, l.params)
		}
		got := float64(r.Weights) / (1 << 30)
		if e := (got - l.weightsGiB) / l.weightsGiB; math.Abs(e) > 0.01 {
			t.Errorf("%s: weights %.3f GiB, vLLM logged %.3f (%+.1f%%), want within 1%%", l.src, got, l.weightsGiB, 100*e)
		}
	}
}

// TestServeImagesOff: images_per_prompt 0 takes the encoder's pass out of
// the profile in every version, and the tower out of the weights from
// vLLM 0.15 (vllm#32605); before, it still loads.
func TestServeImagesOff(t *testing.T) {
	plan := func(vllm string, images *int) *ServeResult {
		s := serveSpec("gemma-3-27b", "h100", "")
		s.VLLM, s.ImagesPerPrompt = vllm, images
		r, err := Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	zero := 0
	const tower = 423060336 * 2 // SigLIP and the projector in bf16
	if on, off := plan("0.16", nil), plan("0.16", &zero); on.Weights-off.Weights != tower {
		t.Errorf("0.16: images off saves %d B of weights, want the tower's %d", on.Weights-off.Weights, tower)
	}
	if on, off := plan("0.11", nil), plan("0.11", &zero); on.Weights != off.Weights || off.Activation >= on.Activation {
		t.Errorf("0.11: weights %d/%d (want equal), activation %d/%d (want lower with images off)", on.Weights, off.Weights, on.Activation, off.Activation)
	}
	s := serveSpec("llama3-8b", "h100", "")
	s.ImagesPerPrompt = &zero
	if _, err := Serve(s); err == nil {
		t.Error("images_per_prompt on a text model: planned, want refused")
	}
}

// TestEncoderItems: the dummy images of the profile, as vLLM counts them
// for Gemma 3 (258 prompt tokens an image): ⌈N/T⌉ before 0.10, ⌊N/T⌋
// after, at most max_num_seqs × the image limit.
func TestEncoderItems(t *testing.T) {
	c, err := resolve(serveSpec("gemma-3-4b", "h100", ""))
	if err != nil {
		t.Fatal(err)
	}
	three := 3
	for _, k := range []struct {
		minor           int
		mnbt, seqs, ctx int64
		images          *int
		want            int64
	}{
		{31, 8192, 1024, 8192, nil, 31}, {31, 2048, 256, 4096, nil, 7}, {31, 16384, 256, 4096, nil, 63},
		{9, 8192, 256, 8192, nil, 32}, {8, 8192, 4, 16384, &three, 12}, {31, 100, 256, 4096, nil, 1},
	} {
		got, _, _ := encoderPass(c, engine{minor: k.minor}, k.mnbt, k.seqs, k.ctx, k.images, 1)
		if got != k.want {
			t.Errorf("0.%d mnbt %d seqs %d: %d images, want %d", k.minor, k.mnbt, k.seqs, got, k.want)
		}
	}
}
