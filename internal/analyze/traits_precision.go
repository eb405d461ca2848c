package analyze

import (
	"fmt"
	"strings"
)

// precision tells autocast from FSDP's mixed precision from half-precision
// weights from fp32:
//   - GradScaler frames: fp16 autocast;
//   - autocast casts each fp32 weight once per forward pass and caches the
//     copy: the forward allocates, for most of the weight bytes, as many
//     tensors of half a weight's size as there are weights of that size;
//   - FSDP's all-gather casts each shard first when a MixedPrecisionPolicy
//     sets param_dtype (without one it gathers the shard in place);
//   - a model computing in half precision gets half-precision logits, which
//     Hugging Face's causal-LM loss copies to fp32 (a no-op on fp32
//     logits): with no autocast seen, the weights themselves are half.
func (d *dev) precision(tr *Traits, c Categories, fsdp bool) {
	if tr.GradScaler {
		tr.AMP, tr.Precision = true, PrecisionAMPFP16
		tr.AMPEvidence = "GradScaler calls, which fp16 autocast needs"
		tr.PrecisionEvidence = tr.AMPEvidence
		return
	}
	lo, hi := d.refIter()
	a, b := d.t.lifeRange(lo, hi)
	var agIn, upcast int64
	for k := a; k < b; k++ {
		l := &d.t.lives[k]
		f := d.facts[l.stack].lib
		if d.ph[k] == phForward && f.agIn {
			agIn += l.size
		}
		if d.ph[k] == phForward && f.role == roleLoss && l.size >= 1<<20 && len(d.s.Frames(l.stack)) > 0 &&
			strings.Contains(d.s.Frames(l.stack)[0].Filename, "transformers/loss/") {
			upcast = max(upcast, l.size)
		}
	}
	// FSDP's cast comes first: its half-size copies of the shards would
	// otherwise read as autocast's weight copies.
	if fsdp && agIn > 0 && c.Parameters > 0 && agIn*4 <= c.Parameters*3 {
		tr.AMP, tr.Precision = true, PrecisionFSDPMixed
		tr.AMPEvidence = fmt.Sprintf("FSDP casts each shard before its all-gather (%s per forward pass, %.2f× the sharded "+
			"parameters): a MixedPrecisionPolicy with a half-precision param_dtype over fp32 shards",
			bytesStr(agIn), float64(agIn)/float64(c.Parameters))
		tr.PrecisionEvidence = tr.AMPEvidence
		return
	}
	if copied, shapes, share := d.autocastCopies(); share >= 0.5 {
		tr.AMP, tr.Precision = true, PrecisionAMP
		tr.AMPEvidence = fmt.Sprintf("the forward pass copies %d of %d weight shapes (%.0f%% of the weight bytes) "+
			"at half their size, once per weight, as autocast to bf16/fp16 does", copied, shapes, 100*share)
		tr.PrecisionEvidence = tr.AMPEvidence
		return
	}
	if half, ok := d.generateLogits(); ok {
		if half {
			tr.Precision = PrecisionHalf
			tr.PrecisionEvidence = "generate copies each step's last-token logits to fp32 from logits half that size: " +
				"the model computes in bf16/fp16, and no autocast is seen"
		} else {
			tr.Precision = PrecisionFP32
			tr.PrecisionEvidence = "generate copies each step's last-token logits to fp32 from fp32 logits of the same size"
		}
		return
	}
	switch {
	case upcast > 0:
		tr.Precision = PrecisionHalf
		tr.PrecisionEvidence = fmt.Sprintf("no autocast seen, yet the loss copies %s of half-precision logits to fp32: "+
			"the weights themselves are bf16/fp16 (no fp32 master copy)", bytesStr(upcast))
	case !d.frames:
		tr.PrecisionEvidence = "no autocast seen; without frames fp32 weights cannot be told from half-precision ones"
	default:
		tr.Precision = PrecisionFP32
		tr.PrecisionEvidence = "no autocast, GradScaler, FSDP cast or half-precision logits seen"
		if !tr.IsTraining() {
			tr.Precision = PrecisionUnknown
			tr.PrecisionEvidence = "no autocast seen; fp32 weights cannot be told from half-precision ones without a loss"
		}
	}
}

// autocastCopies counts the weight shapes (sizes of at least 64 KiB among
// the parameters) whose half-size copies the reference iteration's forward
// pass makes at least once per weight, and the share of weight bytes they
// cover.
func (d *dev) autocastCopies() (copied, shapes int, share float64) {
	n := map[int64]int{}
	var total int64
	for k := range d.t.lives {
		l := &d.t.lives[k]
		if int(l.alloc) >= d.starts[0] {
			break
		}
		if l.free == never && l.size >= 64<<10 {
			n[l.size]++
			total += l.size
		}
	}
	if total == 0 {
		return 0, 0, 0
	}
	lo, hi := d.refIter()
	if d.oomAt >= 0 {
		hi = min(hi, d.oomAt)
	}
	a, b := d.t.lifeRange(lo, hi)
	half := map[int64]int{}
	for k := a; k < b; k++ {
		if l := &d.t.lives[k]; d.ph[k] == phForward && l.size%2 == 0 {
			half[l.size]++
		}
	}
	// Autocast casts the weights of the ops on its list (linear, conv,
	// matmul), not embeddings or norms: a size shared by an embedding and
	// a linear layer (an untied LM head) gets fewer copies than weights,
	// so each shape is credited with the copies seen, up to its weights.
	var bytes int64
	for size, cnt := range n {
		h := half[size/2]
		if size%2 != 0 || h == 0 {
			continue
		}
		if h >= cnt {
			copied++
		}
		bytes += size * int64(min(h, cnt))
	}
	share = float64(bytes) / float64(total)
	if 3*copied < 2*len(n) {
		// Two thirds of the weight shapes must be cast once per weight:
		// a shape or two is too easily matched by chance (BERT-large in
		// fp32 has as many 8 MiB dropout masks as 16 MiB weights).
		share = 0
	}
	return copied, len(n), share
}

// optimizerStates names known optimizers by module: what their state is
// per trained parameter.
var optimizerStates = []struct{ module, name, state string }{
	{"torch/optim/adamw.py", "AdamW", "two moments per trained parameter"},
	{"torch/optim/adam.py", "Adam/AdamW", "two moments per trained parameter"},
	{"torch/optim/_adafactor.py", "Adafactor", "factored second moments: a row and a column vector per matrix"},
	{"transformers/optimization.py", "Adafactor (transformers)", "factored second moments: a row and a column vector per matrix"},
	{"torch/optim/sgd.py", "SGD", "one momentum buffer per trained parameter, when momentum is on"},
	{"bitsandbytes/optim/", "8-bit optimizer (bitsandbytes)", "quantised states, about 2 bytes per trained parameter"},
	{"torchao/", "low-bit optimizer (torchao)", "quantised states"},
	{"torch/optim/", "", "state per trained parameter"},
}
