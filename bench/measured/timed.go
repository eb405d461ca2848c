package measured

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	// PhaseS is the median host wall time of forward, backward and
	// optimizer over the steps StepS is the median of (gt_work.py rows
	// from session 35 on; zero before).
	PhaseS [3]float64 `json:"measured_phase_s"`
	// Rounds is an alternated row's timed steps in round order, and
	// Alternated the configurations of its process (gt_alternate.py;
	// both empty otherwise): a technique pair of one process takes its
	// measured ratio round by round (PairedRatio).
	Rounds     []float64 `json:"rounds,omitempty"`
	Alternated []string  `json:"alternated,omitempty"`
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
	var c GTRow
	if err := json.Unmarshal(line, &c); err != nil {
		return Timed{}, "", err
	}
	return fromCaptureRow(c)
}

// fromCaptureRow is a gt_work.py timing row (the workload in the capture
// script's terms, step_median_s the median of the steps after the first
// two) as a timed workload, its spec translated as every capture row is
// (gtSpec).
func fromCaptureRow(c GTRow) (Timed, string, error) {
	w := Timed{Name: c.Name, StepS: c.StepMedianS}
	if len(c.Alternated) > 0 && c.Warm < len(c.IterS) {
		w.Rounds, w.Alternated = c.IterS[c.Warm:], c.Alternated
	}
	if len(c.PhaseS) > 2 {
		for k := range w.PhaseS {
			var v []float64
			for _, ph := range c.PhaseS[2:] {
				v = append(v, ph[k])
			}
			w.PhaseS[k] = Median(v)
		}
	}
	if c.Status != "ok" || w.StepS == 0 {
		return w, "not completed", nil
	}
	if c.Attn == "eager" {
		return w, "eager attention is not modelled", nil
	}
	s, why, err := gtSpec(c)
	if err != nil {
		return w, "", fmt.Errorf("%s: %w", c.Name, err)
	}
	w.Spec = s
	return w, why, nil
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
