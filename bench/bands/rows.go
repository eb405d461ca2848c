package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// row is one measured workload with the plan spec that describes it.
type row struct {
	Name   string
	Source string
	Spec   memmodel.Spec
	// measured figures; Process is NVML's process memory (0 if not
	// recorded), StepS the median step time (0 if not timed)
	Allocated, Reserved, Process int64
	StepS                        float64
}

// skipped is a row that has no plan spec, and why.
type skipped struct{ Name, Why string }

// gtRow is the subset of a row written by bench/gpu (capture.py's
// results.jsonl and gt_work.py's rows; see testdata/captures/README.md).
type gtRow struct {
	Name         string          `json:"name"`
	Kind         string          `json:"kind"`
	Model        string          `json:"model"`
	HFConfig     json.RawMessage `json:"hf_config"`
	Prec         *string         `json:"prec"`
	B            int             `json:"b"`
	Seq          int             `json:"seq"`
	Accum        int             `json:"accum"`
	Ckpt         any             `json:"ckpt"`
	LoRA         int             `json:"lora"`
	Opt          string          `json:"opt"`
	Strategy     string          `json:"strategy"`
	Reshard      *bool           `json:"reshard"`
	Compile      bool            `json:"compile"`
	UseCache     *bool           `json:"use_cache"`
	Script       string          `json:"script"`
	Fraction     float64         `json:"fraction"`
	Status       string          `json:"status"`
	MaxAllocated int64           `json:"max_allocated"`
	MaxReserved  int64           `json:"max_reserved"`
	NVMLUsed     int64           `json:"nvml_used"`
	IterS        []float64       `json:"iter_s"`
	StepMedianS  float64         `json:"step_median_s"`
	Timing       bool            `json:"timing"`
}

func readJSONL(path string) ([]gtRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []gtRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var r gtRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// loadSpecDir reads an unseen/blind-style set: results.jsonl rows whose
// plan specs are specs/NAME.json, and dist/*-r0.json rank-0 rows of
// multi-GPU runs (spec specs/dist-NAME.json).
func loadSpecDir(dir string) ([]row, []skipped, error) {
	rs, err := readJSONL(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	dist, _ := filepath.Glob(filepath.Join(dir, "dist", "*-r0.json"))
	for _, f := range dist {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		var r gtRow
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		r.Name = "dist-" + r.Name
		rs = append(rs, r)
	}
	var out []row
	var skip []skipped
	for _, r := range rs {
		f, err := os.Open(filepath.Join(dir, "specs", r.Name+".json"))
		if err != nil {
			skip = append(skip, skipped{r.Name, "no spec file"})
			continue
		}
		s, err := memmodel.ParseSpec(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", r.Name, err)
		}
		out = append(out, row{Name: r.Name, Source: dir, Spec: s, Allocated: r.MaxAllocated, Reserved: r.MaxReserved, Process: r.NVMLUsed})
	}
	if tr, err := readJSONL(filepath.Join(dir, "timing.jsonl")); err == nil {
		attachTiming(out, tr)
	}
	return out, skip, nil
}

// attachTiming sets StepS from timing rows of the same name: the median of
// the steps after the first two (warm-up).
func attachTiming(rows []row, timing []gtRow) {
	by := map[string]float64{}
	for _, t := range timing {
		if t.Status != "ok" {
			continue
		}
		if s := stepMedian(t); s > 0 {
			by[strings.TrimPrefix(t.Name, "t-")] = s
		}
	}
	for i := range rows {
		rows[i].StepS = by[rows[i].Name]
	}
}

func stepMedian(t gtRow) float64 {
	if t.StepMedianS > 0 {
		return t.StepMedianS
	}
	if len(t.IterS) < 4 {
		return 0
	}
	s := append([]float64(nil), t.IterS[2:]...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// loadGTDir reads a capture group of bench/gpu/gt (results.jsonl, and
// timing.jsonl for timing/), translating each row into a plan spec.
func loadGTDir(dir string) ([]row, []skipped, error) {
	path := filepath.Join(dir, "results.jsonl")
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(dir, "timing.jsonl")
	}
	rs, err := readJSONL(path)
	if err != nil {
		return nil, nil, err
	}
	var out []row
	var skip []skipped
	for _, r := range rs {
		s, why := gtSpec(r)
		if why != "" {
			skip = append(skip, skipped{r.Name, why})
			continue
		}
		rw := row{Name: r.Name, Source: dir, Spec: s, Allocated: r.MaxAllocated, Reserved: r.MaxReserved, Process: r.NVMLUsed}
		if r.Timing || r.StepMedianS > 0 {
			rw.StepS = stepMedian(r)
			rw.Allocated, rw.Reserved, rw.Process = 0, 0, 0 // timed alone, memory from other rows
		}
		out = append(out, rw)
	}
	return out, skip, nil
}

// gtSpec translates a gt_work.py row; a non-empty reason means the row
// has no plan spec.
func gtSpec(r gtRow) (memmodel.Spec, string) {
	s := memmodel.DefaultSpec()
	switch {
	case r.Status != "ok":
		return s, "status " + r.Status
	case r.Compile:
		return s, "torch.compile is not modelled"
	case r.Fraction > 0:
		return s, "per-process memory fraction: the allocator frees its cache near the limit"
	case r.Script == "nanogpt_train.py":
		return s, "own nanoGPT module: no catalog model"
	case r.Kind == "gen":
		return s, "inference (generate) rows are the inference planner's"
	}
	switch {
	case len(r.HFConfig) > 0 && string(r.HFConfig) != "null":
		s.HFConfig = r.HFConfig
	case strings.HasPrefix(r.Model, "tv:"):
		m := tvName(strings.TrimPrefix(r.Model, "tv:"))
		s.Model = &m
	case r.Script == "vit_train.py":
		m := strings.ReplaceAll(r.Model, "_", "") // vit_l_16 -> vitl16
		m = strings.Replace(m, "vit", "vit-", 1)  // vit-l16
		s.Model = &m
	default:
		return s, "no model config"
	}
	s.Batch, s.Seq, s.Accum = r.B, r.Seq, max(r.Accum, 1)
	prec := "bf16"
	if r.Prec != nil {
		prec = *r.Prec
	}
	s.Precision = map[string]string{"fp32": "fp32", "bf16": "bf16-amp", "fp16": "fp16-amp", "bf16w": "bf16"}[prec]
	if s.Precision == "" {
		return s, "precision " + prec
	}
	switch c := r.Ckpt.(type) {
	case string:
		s.Checkpoint = c
	case bool:
		if c {
			s.Checkpoint = "block"
		}
	}
	if s.Checkpoint == "" {
		s.Checkpoint = "none"
	}
	if r.LoRA > 0 {
		s.LoRA = &memmodel.LoRA{Rank: r.LoRA, Alpha: float64(2 * r.LoRA), Targets: []string{"q_proj", "v_proj"}}
	}
	if r.Opt != "" {
		s.Optimizer = r.Opt
	}
	s.UseCache = r.UseCache
	if r.Kind == "sharded" {
		off := false
		s.UseCache = &off // gt_work.py's sharded() sets model.config.use_cache = False
	}
	if r.Strategy != "" {
		st := map[string]string{"fsdp2": "fsdp", "tp": "tp", "zero1": "zero1", "ddp": "ddp"}[r.Strategy]
		if st == "" {
			return s, "strategy " + r.Strategy
		}
		s.Parallel.Strategy = st
		if r.Reshard != nil && !*r.Reshard {
			s.Parallel.ReshardAfterForward = r.Reshard
		}
	}
	return s, ""
}

// tvName maps a torchvision model name to the catalog's: vit_b_16 →
// vit-b16, convnext_tiny → convnext-tiny.
func tvName(n string) string {
	if rest, ok := strings.CutPrefix(n, "vit_"); ok {
		return "vit-" + strings.ReplaceAll(rest, "_", "")
	}
	return strings.ReplaceAll(n, "_", "-")
}
