package infer

import "testing"

// TestLate90Generate holds late90's blind encoder-decoder generate
// points, each alone on the lent H100, evaluated once (memory at
// e5558e9+; see testdata/late90/RESULTS.md).
func TestLate90Generate(t *testing.T) { checkGenerateSet(t, "late90", 6, 0.008, 0.0005, 1) }

// TestLate90Timing compares the points' prefill (generate's first token:
// the encoder pass and one decoder step) and decode tokens/s with plan's,
// priced for the H100 they ran on. First sight (e5558e9, an
// encoder-decoder priced as a decoder-only call): prefill -25, +6, -36,
// -37, -44, -49% (Whisper small, large-v3, BART, T5, mBART, Marian),
// decode tokens/s +20, +32, +20, +6, +18, +11% (median +19%). With
// encDecTimes (session 48, fitted on dev98, another lent H100; these
// points not used): prefill +22, +8, +5, +2, +8, +19%, decode -7, -1, -7,
// -20, -8, -10% (median 7.5%).
func TestLate90Timing(t *testing.T) { checkTimedSet(t, "late90", 6, 0.08) }
