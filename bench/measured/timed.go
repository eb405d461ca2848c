package measured

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// Timed is one workload timed on the GPU without history recording: its
// plan spec and its steady step time.
type Timed struct {
	Name   string        `json:"name"`
	Source string        `json:"source"` // the file it came from: ratios pair rows of one file only
	Spec   memmodel.Spec `json:"spec"`
	StepS  float64       `json:"measured_step_s"`
}

// captureRow is a timing row as bench/gpu/gt/gt_work.py writes it (the
// testdata/captures/timing and heldout/timing files): the workload in the
// capture script's terms (a transformers class with its config, or a
// torchvision model as "tv:NAME"), and step_median_s, the median of the
// steps after the first two.
type captureRow struct {
	Name         string          `json:"name"`
	Model        string          `json:"model"`
	HFConfig     json.RawMessage `json:"hf_config"`
	IO           string          `json:"io"`
	B            int             `json:"b"`
	Seq          int             `json:"seq"`
	Accum        int             `json:"accum"`
	Prec         string          `json:"prec"`
	Ckpt         string          `json:"ckpt"`
	Opt          string          `json:"opt"`
	LoRA         int             `json:"lora"`
	LoRATargets  []string        `json:"lora_targets"`
	Attn         string          `json:"attn"`
	Compile      bool            `json:"compile"`
	ChannelsLast bool            `json:"channels_last"`
	Res          int             `json:"res"`
	Status       string          `json:"status"`
	StepMedianS  float64         `json:"step_median_s"`
	IterS        []float64       `json:"iter_s"`
	// HostProbe is the harness's machine probe; its gpu (NVML's device
	// name) says which GPU timed the row.
	HostProbe struct {
		GPU string `json:"gpu"`
	} `json:"host_probe"`
}

// ReadTimed reads a timing.jsonl of any of the three layouts in the
// repository: the fixtures' (capture.py rows, catalog model names), the
// unseen/blind sets' (the same rows, with plan specs in specs/NAME.json
// next to the file) and the gt_work.py captures'. Rows that did not
// complete, and workloads the planner does not model (eager attention), are
// returned in skipped with the reason.
func ReadTimed(path string) (ws []Timed, skipped []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	src := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	// gt_work.py's selective checkpointing patched SDPA for the rest of
	// its process until session 23: a workload timed after one in the same
	// process (job) ran selective too
	patched := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var probe struct {
			Timing *bool  `json:"timing"`
			Job    string `json:"job"`
			Ckpt   string `json:"ckpt"`
			// SDPARestored: the harness undid the selective workloads'
			// SDPA patch before this row (gt_work since session 27's
			// marker; the undo itself dates from 006bafa, but rows before
			// the marker cannot say so)
			SDPARestored bool `json:"sdpa_restored"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		after := probe.Job != "" && patched[probe.Job] && probe.Ckpt != "selective" && !probe.SDPARestored
		if probe.Ckpt == "selective" && probe.Job != "" {
			patched[probe.Job] = true
		}
		var w Timed
		var why string
		if probe.Timing != nil {
			w, why, err = fromCapture(line)
		} else {
			w, why, err = fromMeasured(line, filepath.Dir(path))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if why == "" && after {
			why = "timed after a selective-checkpointing workload in its process, whose SDPA patch it inherited"
		}
		if why != "" {
			skipped = append(skipped, w.Name+": "+why)
			continue
		}
		w.Source = src
		ws = append(ws, w)
	}
	return ws, skipped, sc.Err()
}

func fromMeasured(line []byte, dir string) (Timed, string, error) {
	var m MeasuredRow
	if err := json.Unmarshal(line, &m); err != nil {
		return Timed{}, "", err
	}
	w := Timed{Name: m.Name, StepS: m.StepTimeS()}
	switch {
	case m.Status != "ok" || w.StepS == 0:
		return w, "not completed", nil
	case m.Mode != nil:
		return w, "variable-length or eval mode", nil
	}
	if f, err := os.Open(filepath.Join(dir, "specs", m.Name+".json")); err == nil {
		defer f.Close()
		s, err := memmodel.ParseSpec(f)
		if err != nil {
			return w, "", fmt.Errorf("specs/%s.json: %w", m.Name, err)
		}
		w.Spec = s
		return w, "", nil
	}
	w.Spec = m.Spec()
	return w, "", nil
}

func fromCapture(line []byte) (Timed, string, error) {
	var c captureRow
	if err := json.Unmarshal(line, &c); err != nil {
		return Timed{}, "", err
	}
	return fromCaptureRow(c)
}

func fromCaptureRow(c captureRow) (Timed, string, error) {
	w := Timed{Name: c.Name, StepS: c.StepMedianS}
	switch {
	case c.Status != "ok" || w.StepS == 0:
		return w, "not completed", nil
	}
	s := memmodel.DefaultSpec()
	if tv, ok := strings.CutPrefix(c.Model, "tv:"); ok {
		s.Model, s.Image = &tv, c.Res
		if s.Image == 0 {
			s.Image = 224 // gt_work.py's input side unless the row sets res (not the catalog's native side)
		}
	} else if d, ok := strings.CutPrefix(c.Model, "df:"); ok { // diffusers models by catalog name
		s.Model, s.Image = &d, c.Res
	} else {
		if len(c.HFConfig) == 0 {
			return w, "", fmt.Errorf("%s: no hf_config", c.Name)
		}
		s.HFConfig = c.HFConfig
	}
	s.Batch, s.Seq, s.Accum = c.B, c.Seq, max(c.Accum, 1)
	s.Precision = planPrecision(c.Prec)
	s.Checkpoint = c.Ckpt
	if s.Checkpoint == "" {
		s.Checkpoint = "none"
	}
	s.Optimizer = PlanOptimizer(c.Opt)
	if c.LoRA > 0 {
		s.LoRA = &memmodel.LoRA{Rank: c.LoRA, Alpha: float64(2 * c.LoRA), Targets: harnessLoRATargets(c.Model, c.LoRATargets)}
	}
	s.Compile, s.ChannelsLast = c.Compile, c.ChannelsLast
	if c.HostProbe.GPU != "" {
		g, err := tableGPU(c.HostProbe.GPU)
		if err != nil {
			return w, "", fmt.Errorf("%s: %w", c.Name, err)
		}
		s.GPU = g
	}
	if c.Attn == "eager" {
		return w, "eager attention is not modelled", nil
	}
	w.Spec = s
	return w, "", nil
}

// sameModel reports whether two specs run the same network on the same GPU.
func sameModel(a, b memmodel.Spec) bool {
	if (a.Model == nil) != (b.Model == nil) || a.GPU != b.GPU || a.Optimizer != b.Optimizer ||
		a.Parallel != b.Parallel {
		return false
	}
	if a.Model != nil {
		return *a.Model == *b.Model && a.Image == b.Image
	}
	return bytes.Equal(a.HFConfig, b.HFConfig)
}

func sortedNames(ws []Timed) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Name
	}
	sort.Strings(out)
	return out
}

// tableGPU is the GPU table's name for an NVML device name ("NVIDIA H100
// 80GB HBM3" is h100): its first word after the vendor.
func tableGPU(device string) (string, error) {
	f := strings.Fields(strings.ToLower(strings.TrimPrefix(device, "NVIDIA ")))
	if len(f) == 0 {
		return "", fmt.Errorf("empty GPU name in the host probe")
	}
	g, err := gpu.Lookup(f[0])
	if err != nil {
		return "", fmt.Errorf("host probe GPU %q: %w", device, err)
	}
	return g.Name, nil
}
