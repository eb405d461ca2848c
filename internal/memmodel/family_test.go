package memmodel

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// toyMLP is a family defined entirely here, as a new family_<name>.go file
// would define it: a token-embedding MLP language model with an untied LM
// head. TestNewFamilyIsOneFile registers it and plans it through every
// path a real family goes through.
var toyMLP = &Family{
	Name: "toymlp", Task: "causal-lm", ModelTypes: []string{"toy-mlp"},
	LoRATargets: []string{"up"},
	Models: []Arch{{Name: "toymlp-small", Family: "toymlp", Hidden: 256, Layers: 3, FFN: 1024, Vocab: 1024,
		DefaultSeq: 128}},
	Aliases: map[string]string{"acme/toymlp-small": "toymlp-small"},
	Build: func(b *builder, a *Arch, in Input) {
		ids := b.textInput(in.Batch, in.Seq, in.Batch*in.Seq)
		d, ff, v := int64(a.Hidden), int64(a.FFN), int64(a.Vocab)
		h := b.embedding(ids, b.param(v*d), v, d)
		for l := 0; l < a.Layers; l++ {
			b.block = l
			y := b.gelu(b.linear(h, d, ff, true, "up"))
			h = b.add(h, b.linear(y, ff, d, true, "down"))
		}
		b.block = -1
		b.g.blocks = a.Layers
		b.lmLoss(b.linear(h, d, v, false, "lm_head"), in.Batch, in.Seq, v)
	},
	FromHF: func(_ string, data []byte) (Arch, error) {
		var h struct {
			D  int `json:"d"`
			FF int `json:"ff"`
		}
		if err := decodeHF(data, &h); err != nil {
			return Arch{}, err
		}
		return Arch{Name: "toymlp", Family: "toymlp", Hidden: h.D, Layers: 1, FFN: h.FF, Vocab: 1024, DefaultSeq: 64}, nil
	},
}

// unregister undoes register(f), so that a test family does not leak into
// other tests' catalogs.
func unregister(f *Family) {
	r := &registry
	delete(r.families, f.Name)
	for _, t := range f.ModelTypes {
		delete(r.modelType, t)
	}
	for _, a := range f.Models {
		delete(r.models, a.Name)
	}
	for k := range f.Aliases {
		delete(r.aliases, k)
	}
}

// TestNewFamilyIsOneFile: a family registered from one place is found by
// name, alias and config.json model_type, gets its LoRA targets and task,
// and is planned end to end; its parameter count is nn.Module's and AdamW
// holds exp_avg and exp_avg_sq of every parameter (torch.optim.AdamW).
func TestNewFamilyIsOneFile(t *testing.T) {
	register(toyMLP)
	defer unregister(toyMLP)

	a, err := Lookup("ACME/toymlp-small")
	if err != nil || a.Name != "toymlp-small" || a.Vision() || a.Attention() {
		t.Fatalf("Lookup alias: %+v, %v", a, err)
	}
	if hf, err := ParseHFConfig([]byte(`{"model_type": "toy-mlp", "d": 128, "ff": 512}`)); err != nil || hf.Hidden != 128 {
		t.Fatalf("ParseHFConfig: %+v, %v", hf, err)
	}
	m := "toymlp-small"
	s := DefaultSpec()
	s.Model, s.Batch, s.Seq = &m, 4, 128
	r, err := Estimate(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// embedding + 3 × (up W,b + down W,b) + lm_head, as nn.Module counts
	const d, ff, v = 256, 1024, 1024
	want := int64(v*d + 3*(d*ff+ff+ff*d+d) + d*v)
	if r.Params != want || r.TrainableParams != want {
		t.Errorf("params %d (trainable %d), want %d", r.Params, r.TrainableParams, want)
	}
	// every tensor is a multiple of 512 bytes, so no rounding
	if got := r.Breakdown["optimizer_state"]; got != 2*4*want {
		t.Errorf("AdamW state %d bytes at the peak, want 2 × 4 × %d params = %d", got, want, 2*4*want)
	}
	task := "seq2seq"
	s.Task = &task
	if _, err := Estimate(s, DefaultOptions()); err == nil || !strings.Contains(err.Error(), "causal-lm") {
		t.Errorf("wrong task: %v", err)
	}
	s.Task = nil
	s.LoRA = &LoRA{Rank: 8}
	r, err = Estimate(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// adapters on the three "up" projections only: A (d×8) and B (8×ff)
	if wantLoRA := int64(3 * (d*8 + 8*ff)); r.TrainableParams != wantLoRA {
		t.Errorf("LoRA trainable %d, want %d on the family's default targets %v", r.TrainableParams, wantLoRA, s.LoRA.Targets)
	}
}

// TestEveryFamilyPlans builds and plans the smallest catalog model of
// every registered family, so a family cannot register without a working
// builder, and checks that each declares what the planners read.
func TestEveryFamilyPlans(t *testing.T) {
	for _, name := range FamilyNames() {
		f, _ := LookupFamily(name)
		if len(f.Models) == 0 || len(f.LoRATargets) == 0 {
			t.Errorf("%s: no catalog model or no LoRA targets", name)
			continue
		}
		if !f.Vision && f.FromHF == nil {
			t.Errorf("%s: a text family should parse its Hugging Face config.json", name)
		}
		m := f.Models[0].Name
		s := DefaultSpec()
		s.Model, s.Batch = &m, 1
		switch {
		case f.Audio:
			s.AudioSeconds = 1
		case f.Vision:
			s.Image = 64
		default:
			s.Seq = 64
		}
		r, err := Estimate(s, Options{Steps: 1, Warm: true, SkipReserved: true})
		if err != nil {
			t.Errorf("%s: %v", m, err)
			continue
		}
		if r.Params <= 0 || r.PeakAllocated <= r.Params*4 {
			t.Errorf("%s: %d params, peak allocated %d", m, r.Params, r.PeakAllocated)
		}
	}
}

// TestOptimizerState checks the state each optimizer keeps against
// torch.optim: plain SGD none, SGD with momentum one buffer and Adam two,
// each of the parameter's size in float32 (GPT-2's tensors are multiples
// of 512 bytes except the biases, which round up).
func TestOptimizerState(t *testing.T) {
	m := "gpt2"
	s := DefaultSpec()
	s.Model, s.Batch, s.Seq = &m, 1, 128
	c, err := resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	var oneCopy int64 // float32 copy of every parameter, 512-byte blocks
	for _, p := range c.buildGraph().params {
		oneCopy += (p.numel*4 + 511) / 512 * 512
	}
	for opt, copies := range map[string]int64{"sgd": 0, "sgd-momentum": 1, "adamw": 2, "adam": 2} {
		s.Optimizer = opt
		r, err := Estimate(s, Options{Steps: 1, Warm: true, SkipReserved: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Breakdown["optimizer_state"]; got != copies*oneCopy {
			t.Errorf("%s: optimizer state %d bytes, want %d × %d", opt, got, copies, oneCopy)
		}
		o, _ := LookupOptimizer(opt)
		if o.Stateful() != (copies > 0) {
			t.Errorf("%s: Stateful() = %v", opt, o.Stateful())
		}
	}
}

// TestDidYouMean: unknown models, optimizers and model_types name the
// nearest supported value, and only when it is a plausible typo.
func TestDidYouMean(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{lookupErr("gtp2"), `did you mean "gpt2"?`},
		{lookupErr("resnet-18"), `did you mean "resnet18"?`},
		{lookupErr("mistral7b"), `did you mean "mistral-7b"?`},
		{optErr("adamw8bit"), `did you mean "adamw-8bit"?`},
		{optErr("SGD"), `did you mean "sgd"?`},
		{hfErr(`{"model_type": "lama"}`), `did you mean "llama"?`},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("got %v, want %s", tc.err, tc.want)
		}
	}
	for _, err := range []error{lookupErr("foo"), optErr("lion"), hfErr(`{"model_type": "whisper"}`)} {
		if err == nil || strings.Contains(err.Error(), "did you mean") {
			t.Errorf("%v: a suggestion for a name that is no typo", err)
		}
	}
}

func lookupErr(name string) error { _, err := Lookup(name); return err }
func optErr(name string) error    { _, err := LookupOptimizer(name); return err }
func hfErr(cfg string) error      { _, err := ParseHFConfig([]byte(cfg)); return err }

// TestNoNameSwitches keeps family and optimizer names out of the code that
// is not their own file: a `case "gpt2"` or `== "adamw"` elsewhere in
// memmodel or plan would bring back the spread-out dispatch the registry
// replaced.
func TestNoNameSwitches(t *testing.T) {
	names := append(FamilyNames(), OptimizerNames()...)
	for _, f := range registry.families {
		names = append(names, f.ModelTypes...)
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	re := regexp.MustCompile(`(case\s+|[=!]=\s*)"(` + strings.Join(quoted, "|") + `)"`)
	files, _ := filepath.Glob("*.go")
	more, _ := filepath.Glob("../plan/*.go")
	for _, path := range append(files, more...) {
		base := filepath.Base(path)
		if strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "family_") || strings.HasPrefix(base, "optimizer_") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllString(string(data), -1) {
			t.Errorf("%s: %s: dispatch on a registered name outside its own file", path, m)
		}
	}
}

// TestCatalogNotMutated: planning a pipeline stage of a CNN splits its
// blocks on a copy; the catalog entry (and so the next plan in the same
// process, as in --fit or --sweep) keeps the full depth.
func TestCatalogNotMutated(t *testing.T) {
	m := "resnet50"
	s := DefaultSpec()
	s.Model, s.Batch = &m, 2
	s.Parallel = Parallel{Strategy: "pp", GPUs: 2, TP: 1, PP: 1, MicroBatches: 2}
	first, err := Estimate(s, Options{Steps: 1, SkipReserved: true})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Estimate(s, Options{Steps: 1, SkipReserved: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := Lookup(m); a.Blocks[2] != 6 || first.PeakAllocated != second.PeakAllocated {
		t.Errorf("catalog blocks %v after two plans; peaks %d then %d", a.Blocks, first.PeakAllocated, second.PeakAllocated)
	}
}

// TestSmallGainPooled: the count a compile note quotes for a family with
// fewer than compiledFamilyPairs pairs of its own is the families' sum,
// which compile_gain.go and README.md state (36 of 59), and no family's
// count has more slower pairs than pairs.
func TestSmallGainPooled(t *testing.T) {
	if got := smallGainPooled(); got != (SmallGainCount{Pairs: 59, Slower: 36}) {
		t.Errorf("pooled small-gain count %+v, the docs say 36 of 59", got)
	}
	for name, f := range registry.families {
		if c := f.CompiledSmallGain; c.Slower > c.Pairs || c.Slower < 0 {
			t.Errorf("%s: %+v", name, c)
		}
	}
}
