package memmodel_test

import (
	"math"
	"path/filepath"
	"sort"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// profiled reads the kernel profile named name from dir (a profile
// directory with its results.jsonl) and the walk's kernels by class for
// its workload.
func profiled(t *testing.T, dir, name string) (measured.Profiled, *memmodel.StepDetail) {
	t.Helper()
	ps, err := measured.ReadProfiles(filepath.Join("..", "..", "testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Name != name {
			continue
		}
		return p, estimateStep(t, p.Spec).StepDetail
	}
	t.Fatalf("%s: no profile %s", dir, name)
	return measured.Profiled{}, nil
}

// TestRecomputeKernelsAgainstProfiles: what checkpointing adds to a step's
// kernels (the checkpointed profile minus its plain twin, both from
// torch.profiler traces on an H200) is the recomputed forward, and the walk
// recomputes the same GEMMs, attention forwards and norms: Gemma 3 (e)
// s1024 b4 LoRA r16 under Hugging Face gradient checkpointing (dev12, both
// rows; eight GradientCheckpointingLayers, each re-run whole up to its last
// saved tensor, the post-feed-forward norm's weight product: 11 GEMMs, one
// SDPA and six RMSNorms a layer, and layer 0's five data-gradient GEMMs
// that enable_input_require_grads adds: 93 GEMMs, 88 without them; see
// TestLoRACheckpointFirstLayerBackward), ViT-B/16 b128 bf16 (plain: testdata/
// profile; checkpointed: dev12; torch.utils.checkpoint per encoder block,
// stopping at fc2's input: 3 GEMMs, one SDPA, two LayerNorms a block) and
// the SD 1.5 UNet b8 bf16 (plain: dev6; checkpointed: dev12; diffusers'
// units, each ResnetBlock2D but the mid block's first and each
// BasicTransformerBlock: 165 GEMMs, 32 SDPA forwards, two GroupNorms a
// resnet and three LayerNorms a transformer block). The rest differs and
// is logged, not held: the profiles' pointwise and copy deltas are larger
// (the UNet's cuDNN layout transforms count as conv kernels, 157
// against the walk's 35 recomputed convolutions).
func TestRecomputeKernelsAgainstProfiles(t *testing.T) {
	for _, c := range []struct {
		plainDir, plain, ckptDir, ckpt string
		held                           []string
	}{
		{"dev12/profile", "prof-gemma3-e-s1024-b4-bf16-lora16", "dev12/profile", "prof-gemma3-e-s1024-b4-bf16-lora16-ckpt",
			[]string{"gemm", "attention"}},
		{"profile", "prof-vitb16-b128-bf16", "dev12/profile", "prof-vitb16-b128-bf16-ckpt",
			[]string{"gemm", "attention", "norm"}},
		{"dev6", "dev6-prof-sd15-unet-b8-bf16", "dev12/profile", "prof-sd15-unet-b8-bf16-ckpt",
			[]string{"gemm", "attention"}},
	} {
		pp, pd := profiled(t, c.plainDir, c.plain)
		cp, cd := profiled(t, c.ckptDir, c.ckpt)
		var names []string
		for k := range cp.Classes {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			meas := cp.Classes[k].Kernels - pp.Classes[k].Kernels
			pred := cd.Classes[k].Kernels - pd.Classes[k].Kernels
			t.Logf("%s: %-9s recomputed kernels profiled %+5.0f, walk %+5.0f; GPU profiled %+6.2f ms, walk %+6.2f", c.ckpt, k,
				meas, pred, 1e3*(cp.Classes[k].S-pp.Classes[k].S), 1e3*(cd.Classes[k].GPUS-pd.Classes[k].GPUS))
		}
		for _, k := range c.held {
			meas := cp.Classes[k].Kernels - pp.Classes[k].Kernels
			pred := cd.Classes[k].Kernels - pd.Classes[k].Kernels
			if meas <= 0 || math.Abs(pred/meas-1) > 0.06 {
				t.Errorf("%s: %s kernels added by checkpointing: walk %+.0f, profile %+.0f (held within 6%%)", c.ckpt, k, pred, meas)
			}
		}
	}
}
