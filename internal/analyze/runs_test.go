package analyze

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// row is a results.jsonl / measured.jsonl row: the spec a workload ran
// with and what PyTorch measured, written by the capture scripts.
type row struct {
	Name            string  `json:"name"`
	Params          int64   `json:"params"`
	TrainableParams int64   `json:"trainable_params"`
	Prec            string  `json:"prec"`
	Opt             string  `json:"opt"`
	Lora            int     `json:"lora"`
	Ckpt            string  `json:"ckpt"`
	Mode            *string `json:"mode"`
	MaxAllocated    int64   `json:"max_allocated"`
}

func readRows(t *testing.T, path string) []row {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// realRuns are the single-GPU training snapshots with their specs.
func realRuns(t *testing.T) map[string]row {
	out := map[string]row{}
	for _, p := range []string{"../../testdata/analyze/measured.jsonl", "../../testdata/unseen/results.jsonl",
		"../../testdata/blind/results.jsonl"} {
		for _, r := range readRows(t, p) {
			out[filepath.Join(filepath.Dir(p), r.Name+".pickle.gz")] = r
		}
	}
	return out
}

func analyzePath(t *testing.T, path string, o Options) Device {
	t.Helper()
	s, err := snapshot.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	o.Tune = false
	rep, err := Analyze(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Devices[0]
}

// TestWhatTheRunUsed checks the traits against each run's spec: the
// precision it trained in (fp32, bf16 autocast, fp16 autocast with
// GradScaler), frames recorded, the cuBLAS workspaces (33,554,432 B each,
// CUBLAS_WORKSPACE_CONFIG=:4096:8) kept apart from gradients, the
// gradients at the optimizer step equal to the trained parameters (4 B
// each, or the adapters' share for LoRA), and an optimizer description
// that agrees with the category table.
func TestWhatTheRunUsed(t *testing.T) {
	for path, r := range realRuns(t) {
		if r.Mode != nil && *r.Mode != "" {
			continue
		}
		t.Run(r.Name, func(t *testing.T) {
			d := analyzePath(t, path, DefaultOptions())
			if d.Categories.Total() != d.CategoriesBytes {
				t.Errorf("categories sum to %d, allocated %d then", d.Categories.Total(), d.CategoriesBytes)
			}
			tr := d.Traits
			frames := !strings.Contains(r.Name, "dyn")
			if d.HasFrames != frames {
				t.Errorf("has_frames %v", d.HasFrames)
			}
			want := map[string]string{"fp32": PrecisionFP32, "bf16": PrecisionAMP, "fp16": PrecisionAMPFP16}[r.Prec]
			if !frames && r.Prec == "fp32" {
				want = PrecisionUnknown
			}
			if tr.Precision != want || tr.AMP != (r.Prec != "fp32") {
				t.Errorf("precision %s (amp %v: %s), ran %s", tr.Precision, tr.AMP, tr.PrecisionEvidence, r.Prec)
			}
			if frames && d.Categories.LibraryWorkspace%(32<<20) != 0 || d.Categories.LibraryWorkspace == 0 {
				t.Errorf("library workspace %d, want whole cuBLAS workspaces of 32 MiB", d.Categories.LibraryWorkspace)
			}
			if !frames || r.Opt != "adamw" {
				return
			}
			trained := r.Params
			if r.Lora > 0 {
				trained = r.TrainableParams
				if trained == 0 {
					trained = 1572864 // rank 16 on q_proj and v_proj of 24 layers of width 1024 (spec)
				}
				if !tr.FrozenBase || !tr.Adapters {
					t.Errorf("LoRA run: frozen base %v, adapters %v", tr.FrozenBase, tr.Adapters)
				}
			}
			// fp16 runs may have every step skipped by GradScaler.
			if r.Prec != "fp16" {
				if e := relErr(int64(tr.TrainedShare*float64(d.Categories.Parameters)), 4*trained); e > 0.05 {
					t.Errorf("trained share %.4f of %d parameter bytes, want 4 × %d trained parameters (%.1f%% off)",
						tr.TrainedShare, d.Categories.Parameters, trained, 100*e)
				}
				if tr.StateBytesPerGradByte < 1.9 || tr.StateBytesPerGradByte > 2.1 {
					t.Errorf("AdamW keeps %.2f state bytes per gradient byte, want 2", tr.StateBytesPerGradByte)
				}
			}
			if strings.Contains(tr.Optimizer, "stateless") || strings.Contains(tr.Optimizer, "SGD") {
				t.Errorf("optimizer %q on an AdamW run", tr.Optimizer)
			}
		})
	}
}

// TestKVCacheKeptInTraining: Hugging Face models build a DynamicCache in
// training when use_cache is on. Where attention saves the same key and
// value tensors for backward, the cache costs nothing: the captured LoRA
// run with pure-bf16 weights peaked at exactly the same 6,525,448,192 B
// with use_cache on and off, so no saving may be claimed there. Under
// autocast, LLaMA's cache holds fp32 keys and values (the rotary
// embedding upcasts) that attention does not save — 2 × 24 layers × batch
// 4 × 1024 tokens × width 1024 × 4 B by the config — alive until the
// outputs are dropped: that is cache-only memory, and turning it off saves
// at most all of it.
func TestKVCacheKeptInTraining(t *testing.T) {
	const measured = 6525448192
	for _, name := range []string{"cache-on", "cache-off"} {
		d := analyzePath(t, "../../testdata/captures/optim/llama-small-s1024-b4-bf16w-lora16-"+name+".pickle.gz", DefaultOptions())
		if d.PeakAllocated != measured {
			t.Errorf("%s: peak %d, PyTorch %d", name, d.PeakAllocated, measured)
		}
		if d.Categories.KVCache != 0 || hasAdvice(d, "use_cache") {
			t.Errorf("%s: kv cache %d at the peak, advice %+v: use_cache=False saved nothing here", name, d.Categories.KVCache, d.Advice)
		}
	}
	for _, name := range []string{"llama-small-s1024-b4-bf16", "llama-small-s1024-b4-bf16-lora16"} {
		d := analyzePath(t, "../../testdata/unseen/"+name+".pickle.gz", DefaultOptions())
		const kv = 2 * 24 * 4 * 1024 * 1024 * 4
		if d.Categories.KVCache != kv {
			t.Errorf("%s: kv cache %d, config says %d", name, d.Categories.KVCache, kv)
		}
		var saving int64
		for _, a := range d.Advice {
			if strings.Contains(a.Action, "use_cache") {
				saving = a.Saving
			}
		}
		if saving <= 0 || saving > kv {
			t.Errorf("%s: use_cache=False advice saves %d, want (0, %d]", name, saving, kv)
		}
	}
}

// TestShardedTwoGPU reads the 2-GPU rank-0 snapshots (GPT-2, bf16, seq
// 1024, batch 4; testdata/unseen/dist): FSDP2 with a bf16
// MixedPrecisionPolicy over fp32 shards, and DDP under autocast.
func TestShardedTwoGPU(t *testing.T) {
	const params = 124439808
	fsdp := analyzePath(t, "../../testdata/unseen/dist/gpt2-s1024-b4-bf16-fsdp2.pickle.gz", DefaultOptions())
	tr := fsdp.Traits
	if tr.Precision != PrecisionFSDPMixed || !tr.AMP || tr.WorldSize != 2 || !contains(strings.Join(tr.Sharding, ","), "fsdp2") {
		t.Errorf("fsdp2: precision %s, amp %v, world %d, sharding %v", tr.Precision, tr.AMP, tr.WorldSize, tr.Sharding)
	}
	if fsdp.PeakAllocated != 5756068352 {
		t.Errorf("fsdp2: peak %d, PyTorch's max_memory_allocated 5756068352", fsdp.PeakAllocated)
	}
	if ph := fsdp.PeakAllocatedAt.Phase; ph != "forward" && ph != "backward" {
		t.Errorf("fsdp2: peak in %s, want forward or backward", ph)
	}
	c := fsdp.Categories
	// Each rank keeps half of the fp32 parameters (padded per tensor) and
	// AdamW's two moments of that half.
	if e := relErr(c.Parameters, 2*params); e > 0.03 {
		t.Errorf("fsdp2: sharded parameters %d, want about 4 B × %d / 2 (%.1f%%)", c.Parameters, params, 100*e)
	}
	if e := relErr(c.OptimizerState, 2*c.Parameters); e > 0.03 {
		t.Errorf("fsdp2: optimizer state %d, want 2 × the shards %d", c.OptimizerState, c.Parameters)
	}
	if c.Activations < 1<<30 || c.UnshardedParameters == 0 || c.Gradients > 1<<20 {
		t.Errorf("fsdp2: activations %d, unsharded %d, gradients %d", c.Activations, c.UnshardedParameters, c.Gradients)
	}
	if !strings.Contains(tr.Optimizer, "sharded by FSDP") {
		t.Errorf("fsdp2: optimizer %q", tr.Optimizer)
	}
	if !hasAdvice(fsdp, "checkpoint") {
		t.Errorf("fsdp2: no checkpointing advice for %d of activations: %+v", c.Activations, fsdp.Advice)
	}

	ddp := analyzePath(t, "../../testdata/unseen/dist/gpt2-s1024-b4-bf16-ddp2.pickle.gz", DefaultOptions())
	if ddp.Traits.Precision != PrecisionAMP || !contains(strings.Join(ddp.Traits.Sharding, ","), "ddp") {
		t.Errorf("ddp: precision %s, sharding %v", ddp.Traits.Precision, ddp.Traits.Sharding)
	}
	// DDP's gradient buckets hold every fp32 gradient; activations stay
	// activations although DDP's forward wraps the model's.
	if c := ddp.Categories; c.Communication < 4*params || c.Activations < 2<<30 {
		t.Errorf("ddp: communication %d (want ≥ the fp32 gradients %d), activations %d", c.Communication, 4*params, c.Activations)
	}
}

func hasAdvice(d Device, sub string) bool {
	for _, a := range d.Advice {
		if strings.Contains(a.Action, sub) {
			return true
		}
	}
	return false
}

// TestCompiledTraining reads torch.compile'd training steps (testdata/dev9,
// dev25, dev26: GPT-2, Qwen3-0.6B, EfficientNet-B0 under bf16 AMP). The
// compiled backward runs from the autograd engine's thread through
// AOTAutograd's runtime wrapper, with no torch/autograd frame; read as user
// code, the whole step was "setup" and its saved tensors temporaries
// (activations 0 B). The peak of a training step is early in backward,
// when the forward's saved tensors are all alive: they are most of it.
func TestCompiledTraining(t *testing.T) {
	for _, p := range []string{
		"../../testdata/dev9/compile/dev9-gpt2-s512-b32-bf16-compile-snap.pickle.gz",
		"../../testdata/dev25/dev25-qwen3-06b-s1024-b8-bf16-compile-snap.pickle.gz",
		"../../testdata/dev26/dev26-efficientnet-b0-b256-bf16-compile-snap.pickle.gz",
	} {
		d := analyzePath(t, p, DefaultOptions())
		c := d.Categories
		if d.CategoriesAt.Phase != "backward" {
			t.Errorf("%s: steady-state peak in %q, want backward", p, d.CategoriesAt.Phase)
		}
		if c.Activations < d.CategoriesBytes*4/10 || c.Activations <= c.Temporaries {
			t.Errorf("%s: activations %d of %d at the peak (temporaries %d): want the largest share", p, c.Activations,
				d.CategoriesBytes, c.Temporaries)
		}
		if c.KVCache != 0 {
			t.Errorf("%s: kv cache %d in a training step whose backward frees it", p, c.KVCache)
		}
	}
}

// TestAutogradFunctionBackward: bitsandbytes' 4-bit matmul is a Python
// autograd.Function; the engine calls its backward with Function.apply as
// the thread's outermost frame. QLoRA on Llama 3.2 1B (testdata/dev6): the
// tensors forward saved for it are activations, and the optimizer is seen
// to hold state for a sliver of the weights (adapters).
func TestAutogradFunctionBackward(t *testing.T) {
	d := analyzePath(t, "../../testdata/dev6/snapshots/dev6-qlora-llama32-1b-s512-b2-r16-snap.pickle.gz", DefaultOptions())
	if c := d.Categories; c.Activations < c.Temporaries {
		t.Errorf("activations %d < temporaries %d: the 4-bit layers' saved inputs read as temporaries", c.Activations, c.Temporaries)
	}
	if !d.Traits.Adapters && !strings.Contains(d.Traits.Optimizer, "adapters") {
		t.Errorf("optimizer %q: want a frozen base with adapters", d.Traits.Optimizer)
	}
}
