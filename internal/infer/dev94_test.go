package infer

import "testing"

// TestDev94BARTGenerate holds BART's generate plan (encdec.go) to dev94's
// two points (testdata/dev94/bart: bart-base's sizes, bf16 b4 prompt 512
// 64 new tokens under inference_mode, float32 b2 prompt 256 32 new tokens
// under no_grad, with snapshots). First sight, the planner as written from
// the traces: allocated -0.28% and -0.17%, reserved +0.25% and -0.07%.
func TestDev94BARTGenerate(t *testing.T) { checkGenerateSet(t, "dev94/bart", 2, 0.004, 0.0035, 1) }

// TestLate86Generate holds late86's blind encoder-decoder points, each
// evaluated once: BART-large bf16 b8 prompt 1024 (at 7603317: allocated
// -0.08%, reserved +0.10%), T5-large b4 p768 and flan-T5-base b16 p384 (at
// 58cf6b4: allocated -0.00% and -0.01%, reserved -0.36% and +0.25%); all
// inside both bands.
func TestLate86Generate(t *testing.T) { checkGenerateSet(t, "late86", 3, 0.004, 0.0012, 1) }

// TestDev94T5Generate holds T5's generate plan (encdec_t5.go) to dev94's
// two points (testdata/dev94/t5: t5-base's sizes bf16 b4 prompt 512 64 new
// tokens, flan-t5-base's (gated GELU; transformers 5.17 saved its head
// tied) bf16 b8 prompt 256 32 new tokens, with snapshots). First sight:
// allocated -0.00% both, reserved +0.55% and +0.58%.
func TestDev94T5Generate(t *testing.T) { checkGenerateSet(t, "dev94/t5", 2, 0.0065, 0.0005, 1) }
