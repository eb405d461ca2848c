package infer

import "testing"

// TestGenerateOlmoGraniteDev71 holds generate for OLMo, OLMo 2 and
// Granite to dev71, their first generate captures (development data,
// testdata/dev71: a DynamicCache under inference_mode at three points,
// a StaticCache under no_grad at one, and the short traced call, per model).
// Their traces showed the float32 rotary of OLMo and OLMo 2 (castBack);
// with it, reserved median 0.3%, max 1.4% (Granite's StaticCache point),
// allocated within 0.05%, every point inside the bands (in-sample since
// dev71 joined the band table): held at 1.5%, 0.1% and all inside.
func TestGenerateOlmoGraniteDev71(t *testing.T) { checkGenerateSet(t, "dev71", 15, 0.015, 0.001, 1) }

// TestLate70Blind evaluates generate for the OLMo, OLMo 2 and Granite
// families on late70 (testdata/late70): OLMo-2-7B-like and Granite-8B-like
// bf16 calls under inference_mode and no_grad, and OLMo 1B at batch 48,
// captured with dev71 and kept out of the repository until the families'
// generate replay was final, then evaluated once: reserved median 0.6%,
// max 1.5% (OLMo 2 7B b2 p3000, over), allocated within 0.05%, all six
// inside both bands. Held at 1.6%, 0.1% and every point inside.
func TestLate70Blind(t *testing.T) { checkGenerateSet(t, "late70", 6, 0.016, 0.001, 1) }
