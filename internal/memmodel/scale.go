package memmodel

import (
	"fmt"

	"github.com/vramkit/vramkit/internal/units"
)

// MaxStepBytes is the most memory a configuration's step may reach for
// vramkit to plan it: 4 EiB. Byte counts are 64-bit integers (8 EiB at
// most); a configuration past this bound (a batch of 10⁸ sequences, a
// context of 10¹¹ tokens) would wrap them into figures that look like
// answers, so it is refused instead.
const MaxStepBytes = 1 << 62

// StepBound is an upper bound, in bytes, on what one step of arch holds
// at once for rows rows (tokens of a batch, or pixels of its images) of
// which seqs sequences of seq positions attend over one another: every
// layer's tensors counted as 16 float32 copies of the widest per-row
// tensor (hidden state, MLP, vocabulary, a CNN stage's expanded
// channels), plus, whatever the attention implementation, every layer's
// score matrices kept four times over. It is only ever compared with
// MaxStepBytes; the model's own figures are far below it.
func StepBound(a *Arch, rows, seqs, seq float64) float64 {
	width := float64(max(a.Hidden, a.FFN, a.Vocab, a.Classes, a.MoE.FFN*max(a.MoE.TopK, 1), a.MoE.SharedFFN))
	for _, w := range a.Widths {
		width = max(width, float64(w)*8) // expansion inside a block (EfficientNet's ×6, ConvNeXt's ×4)
	}
	layers := float64(a.Layers + a.DecLayers + 2)
	for _, b := range a.Blocks {
		layers += float64(b) * 3
	}
	heads := float64(max(a.Heads, 1))
	return rows*max(width, 1)*layers*64 + seqs*heads*seq*seq*layers*16
}

// MaxLayers is the deepest model vramkit plans: every layer is a run of
// operations replayed through the allocator, whose cost grows faster
// than the layer count (a thousand layers take under a second, ten
// thousand over a minute), and no trained transformer comes near it.
const MaxLayers = 1024

// CheckScale is "" when a step of StepBound(a, rows, seqs, seq) bytes
// is within MaxStepBytes, else the one line that refuses it.
func CheckScale(a *Arch, rows, seqs, seq float64) string {
	b := StepBound(a, rows, seqs, seq)
	if b <= MaxStepBytes {
		return ""
	}
	return fmt.Sprintf("too large to plan: one step could hold up to %s, past the %s vramkit computes in (no GPU holds a step near it)",
		scaleBytes(b), units.Bytes(MaxStepBytes))
}

// scaleBytes prints a bound that may be past what int64 holds.
func scaleBytes(b float64) string {
	if b < 1<<62 {
		return units.Bytes(int64(b))
	}
	return fmt.Sprintf("%.3g EiB", b/(1<<60))
}

// scaleCheck is CheckScale on a training configuration: a batch of
// sequences (Whisper's encoder frames where they are more) or of images,
// a ViT's attending over its patches.
func (c *config) scaleCheck() error {
	b := float64(c.batch)
	rows, seq := b*float64(max(c.seq, int64(2*c.arch.SourcePos))), float64(max(c.seq, int64(2*c.arch.SourcePos)))
	if c.arch.Vision() {
		px := float64(c.image) * float64(c.image)
		rows, seq = b*px, 0
		if p := float64(c.arch.Patch); p > 0 {
			seq = px / (p * p)
		}
	}
	if msg := CheckScale(&c.arch, rows, b, seq); msg != "" {
		return specErr("batch", "%s", msg)
	}
	return nil
}
