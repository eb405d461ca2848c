package memmodel_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// dev6Dir holds session 6's development captures (testdata/dev6/README.md),
// among them the first captures of the diffusion families.
const dev6Dir = "../../testdata/dev6"

// TestDiffusionCaptures holds the first captures of the UNet (SD 1.5 with
// its CLIP text encoder and VAE frozen) and DiT families, diffusers 0.40
// on an H200, to what the models predict since issue 13's fixes: peak
// allocated within 0.11% on seven rows and +1.17% on the pure-bf16 LoRA
// row (first predicted +55.7%: float32 time embeddings and frozen convs
// that saved nothing), peak reserved within 2.6% (DiT-XL/2 checkpointed:
// +8.2% before the bf16 residual stream). The row that encodes its images
// in the step (vae_encode) is -3.6% reserved, and the encoding must add
// most of the +2.64 GiB the capture measured over the same step on cached
// latents.
func TestDiffusionCaptures(t *testing.T) {
	if testing.Short() {
		t.Skip("replays ten diffusion workloads")
	}
	rows, err := measured.ReadGTRows(filepath.Join(dev6Dir, "families", "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	type lim struct{ alloc, resvLow, resvHigh float64 }
	limits := map[string]lim{
		"late8-sd15-unet-b4-bf16":         {0.005, -0.01, 0.03},
		"late8-sd15-unet-b8-bf16w-lora16": {0.015, -0.01, 0.03},
		"late8-sd15-unet-b8-bf16-ckpt":    {0.005, -0.01, 0.03},
		"late8-sd15-unet-r256-b16-fp32":   {0.005, -0.01, 0.03},
		"late8-dit-xl-2-b32-bf16":         {0.005, -0.01, 0.03},
		"late8-dit-xl-2-b64-bf16-ckpt":    {0.005, -0.01, 0.03},
		"late8-dit-b-2-b128-fp32":         {0.005, -0.01, 0.03},
		"dev6-sd15-unet-b4-bf16-vaeenc":   {0.005, -0.05, 0.03},
		// call 20's profiled runs, planned after these fixes had landed
		// (the UNet at b8 without checkpointing is a shape no fix saw):
		// -0.38% / -0.24% and -0.11% / +0.94%
		"dev6-prof-sd15-unet-b8-bf16": {0.005, -0.01, 0.03},
		"dev6-prof-dit-xl-2-b32-bf16": {0.005, -0.01, 0.03},
	}
	reserved := map[string][2]int64{} // predicted, measured
	for _, r := range rows {
		l, ok := limits[r.Name]
		if !ok {
			if strings.Contains(r.Name, "unet") || strings.Contains(r.Name, "dit") {
				t.Errorf("%s: a diffusion row without limits", r.Name)
			}
			continue
		}
		delete(limits, r.Name)
		res := planRow(t, r)
		ea, er := measured.Rel(res.PeakAllocated, r.MaxAllocated), measured.Rel(res.PeakReserved, r.MaxReserved)
		t.Logf("%-34s allocated %+6.2f%%  reserved %+6.2f%%", r.Name, 100*ea, 100*er)
		if math.Abs(ea) > l.alloc {
			t.Errorf("%s: peak allocated %+.2f%% of measured, want within %.1f%%", r.Name, 100*ea, 100*l.alloc)
		}
		if er < l.resvLow || er > l.resvHigh {
			t.Errorf("%s: peak reserved %+.2f%% of measured, want %+.0f%%..%+.0f%%", r.Name, 100*er, 100*l.resvLow, 100*l.resvHigh)
		}
		reserved[r.Name] = [2]int64{res.PeakReserved, r.MaxReserved}
	}
	for name := range limits {
		t.Errorf("%s: not in %s", name, dev6Dir)
	}
	enc, plain := reserved["dev6-sd15-unet-b4-bf16-vaeenc"], reserved["late8-sd15-unet-b4-bf16"]
	pred, meas := enc[0]-plain[0], enc[1]-plain[1]
	t.Logf("vae_encode adds %d bytes reserved, measured %d", pred, meas)
	if float64(pred) < 0.6*float64(meas) || pred > meas {
		t.Errorf("vae_encode adds %d bytes reserved, want 60-100%% of the measured %d", pred, meas)
	}
}

// TestVAEEncodeRefused: vae_encode is a key of the latent diffusion
// families only; elsewhere the refusal names the key and the families.
func TestVAEEncodeRefused(t *testing.T) {
	s := memmodel.DefaultSpec()
	m := "gpt2"
	s.Model, s.Seq, s.VAEEncode = &m, 128, true
	_, err := memmodel.Estimate(s, memmodel.DefaultOptions())
	if err == nil || !strings.Contains(err.Error(), "vae_encode") || !strings.Contains(err.Error(), "unet, dit") {
		t.Errorf("gpt2 with vae_encode: %v, want a refusal naming vae_encode and the diffusion families", err)
	}
}
