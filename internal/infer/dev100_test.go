package infer

import "testing"

// TestDev100PegasusGenerate holds Pegasus' generate plan (encdec_bart.go
// on the layout memmodel's Pegasus family gives: mBART's pre-norm layers
// and final norms on Marian's sinusoidal positions, no embedding norm) to
// dev100's point (pegasus-large's sizes bf16 b4 prompt 512, 64 new
// tokens, with its trace): at first sight allocated -0.00%, reserved
// -0.06%.
func TestDev100PegasusGenerate(t *testing.T) {
	checkGenerateSet(t, "dev100/pegasus", 1, 0.002, 0.0005, 1)
}
