package infer

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// captureRow is one Hugging Face generate point measured on the H200
// (bench/gpu: gt_work.py gen): the model's config, the point, and
// torch.cuda.max_memory_* after reset_peak_memory_stats (weights included).
type captureRow struct {
	Name      string          `json:"name"`
	Status    string          `json:"status"`
	Kind      string          `json:"kind"`
	DType     string          `json:"dtype"`
	Cache     string          `json:"cache"`
	GradMode  string          `json:"grad_mode"`
	HFConfig  json.RawMessage `json:"hf_config"`
	GenModel  string          `json:"gen_model"`
	Batch     int             `json:"b"`
	Prompt    int             `json:"prompt"`
	NewTokens int             `json:"new_tokens"`
	Weights   int64           `json:"weights_bytes"`
	Allocated int64           `json:"max_allocated"`
	Reserved  int64           `json:"max_reserved"`
	Decode    float64         `json:"decode_tok_s"`
	Prefill   float64         `json:"prefill_s"`
	// GenerateAll is the timed runs' whole-call seconds
	GenerateAll []float64 `json:"generate_s_all"`
	Job         string    `json:"job"`
	Point       int       `json:"point_index"`
	AllocConf   string    `json:"alloc_conf"`
	Fraction    float64   `json:"fraction"`
	// MaxCacheLen is the StaticCache length an earlier point of the same
	// process left on the model (measured.CarryStaticCache)
	MaxCacheLen int `json:"-"`
	// the decoding options (measured.GTRow's)
	memmodel.Decoding
}

// loadCaptures reads the generate rows of a results.jsonl that ran.
func loadCaptures(t *testing.T, path string) []captureRow {
	t.Helper()
	return readGenRows(t, path, false)
}

// loadCapturesAll reads every generate row, those that ran out of memory
// too.
func loadCapturesAll(t *testing.T, path string) []captureRow {
	t.Helper()
	return readGenRows(t, path, true)
}

func readGenRows(t *testing.T, path string, oom bool) []captureRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var all []captureRow
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r captureRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		all = append(all, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// the StaticCache length each point inherits from its process's
	// earlier points, as bench/measured reads rows
	gt := make([]measured.GTRow, len(all))
	for i, r := range all {
		gt[i] = measured.GTRow{Kind: r.Kind, Job: r.Job, PointIndex: r.Point, Cache: r.Cache,
			Status: r.Status, Prompt: r.Prompt, NewTokens: r.NewTokens}
	}
	measured.CarryStaticCache(gt)
	var rows []captureRow
	for i, r := range all {
		r.MaxCacheLen = gt[i].MaxCacheLen
		if r.Kind == "gen" && (r.Status == "ok" || oom && r.Status == "oom") && r.Batch > 0 && len(r.HFConfig) > 0 {
			rows = append(rows, r)
		}
	}
	return rows
}

// spec turns a capture row into the inference spec that describes it.
// It is measured.GenSpec's translation, the one bench/late prints.
func (r captureRow) spec() memmodel.Spec {
	return measured.GenSpec(measured.GTRow{Kind: r.Kind, HFConfig: r.HFConfig, B: r.Batch, Prompt: r.Prompt,
		NewTokens: r.NewTokens, DType: r.DType, Cache: r.Cache, GradMode: r.GradMode, MaxCacheLen: r.MaxCacheLen,
		AllocConf: r.AllocConf, Decoding: r.Decoding})
}

type evalRow struct {
	row                     captureRow
	res                     *Result
	alloc, resv, decode     float64 // signed relative errors
	inAllocBand, inResvBand bool
}

func evaluate(t *testing.T, rows []captureRow) []evalRow {
	t.Helper()
	var out []evalRow
	for _, r := range rows {
		res, err := Estimate(r.spec())
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		e := evalRow{row: r, res: res,
			alloc: rel(res.PeakAllocated, r.Allocated), resv: rel(res.PeakReserved, r.Reserved),
			inAllocBand: res.AllocatedBand.Low <= r.Allocated && r.Allocated <= res.AllocatedBand.High,
			inResvBand:  res.ReservedBand.Low <= r.Reserved && r.Reserved <= res.ReservedBand.High}
		if r.Decode > 0 {
			e.decode = (res.DecodeTokensPerSec - r.Decode) / r.Decode
		}
		out = append(out, e)
	}
	return out
}

func rel(pred, meas int64) float64 { return float64(pred-meas) / float64(meas) }

func medianAbs(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	a := make([]float64, len(v))
	for i, x := range v {
		a[i] = math.Abs(x)
	}
	sort.Float64s(a)
	if len(a)%2 == 1 {
		return a[len(a)/2]
	}
	return (a[len(a)/2-1] + a[len(a)/2]) / 2
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// summarize logs every row and returns the reserved and decode errors.
func summarize(t *testing.T, ev []evalRow) (resv, alloc, decode []float64) {
	t.Helper()
	for _, e := range ev {
		t.Logf("%-48s alloc %+6.1f%%  reserved %+6.1f%% (pred %.2f GiB, meas %.2f GiB)  decode %+6.1f%%",
			e.row.Name, 100*e.alloc, 100*e.resv, float64(e.res.PeakReserved)/(1<<30), float64(e.row.Reserved)/(1<<30), 100*e.decode)
		resv = append(resv, e.resv)
		alloc = append(alloc, e.alloc)
		if e.row.Decode > 0 {
			decode = append(decode, e.decode)
		}
	}
	t.Logf("%d points: reserved median |err| %.1f%% max %.1f%%; allocated median %.1f%% max %.1f%%; decode tokens/s median %.1f%% over %d",
		len(ev), 100*medianAbs(resv), 100*maxAbs(resv), 100*medianAbs(alloc), 100*maxAbs(alloc), 100*medianAbs(decode), len(decode))
	return resv, alloc, decode
}

var capturesDir = filepath.Join("..", "..", "testdata", "captures")

// TestGenerateCapturesDev holds the model to the 46 generate points
// measured on the H200 (testdata/captures/generate): allocated peaks
// within 1%, reserved with a median error at most 3% and at least 90% of
// measurements inside the printed 95% bands. The reserved maximum is 8.5%
// (GPT-2 medium at batch 32, under): just above the 8%, reported
// in docs/inference.md, and held here so it cannot grow unseen.
func TestGenerateCapturesDev(t *testing.T) {
	rows := loadCaptures(t, filepath.Join(capturesDir, "generate", "results.jsonl"))
	if len(rows) < 40 {
		t.Fatalf("%d generate rows, want the 46 captured", len(rows))
	}
	ev := evaluate(t, rows)
	resv, alloc, _ := summarize(t, ev)
	if m := maxAbs(alloc); m > 0.01 {
		t.Errorf("allocated: max |error| %.1f%%, want ≤ 1%%", 100*m)
	}
	if m := medianAbs(resv); m > 0.03 {
		t.Errorf("reserved: median |error| %.1f%%, want ≤ 3%%", 100*m)
	}
	if m := maxAbs(resv); m > 0.09 {
		t.Errorf("reserved: max |error| %.1f%%, want ≤ 9%%", 100*m)
	}
	// 95% bands from measured error (bench/bands, these points among its
	// rows): issue 18 asks at least 90% inside
	checkCoverage(t, ev, 0.9)
}

// TestGenerateTimingDev compares prefill time and decode tokens/s with the
// points timed alone on the H200 (testdata/captures/timing).
func TestGenerateTimingDev(t *testing.T) {
	rows := loadCaptures(t, filepath.Join(capturesDir, "timing", "generate_timing.jsonl"))
	if len(rows) == 0 {
		t.Fatal("no timed generate rows")
	}
	dec := checkGenerateTiming(t, rows, "", nil)
	if m := medianAbs(dec); m > 0.15 {
		t.Errorf("decode tokens/s: median |error| %.0f%%, want ≤ 15%%", 100*m)
	}
}

// checkGenerateTiming logs each timed point's prefill and decode tokens/s
// against the plan's for gpu (the GPU they were timed on; "" the default
// H200), fails a point measured outside either band unless known names
// why it is, and returns the decode errors (predicted − measured) /
// measured.
func checkGenerateTiming(t *testing.T, rows []captureRow, gpu string, known map[string]string) []float64 {
	t.Helper()
	var dec []float64
	for _, r := range rows {
		spec := r.spec()
		if gpu != "" {
			spec.GPU = gpu
		}
		res, err := Estimate(spec)
		if err != nil {
			t.Fatal(err)
		}
		d := (res.DecodeTokensPerSec - r.Decode) / r.Decode
		p := (res.PrefillTime - r.Prefill) / r.Prefill
		t.Logf("%s: prefill %.1f ms (measured %.1f, %+.0f%%), decode %.0f tokens/s (measured %.0f, %+.0f%%), %s-bound",
			r.Name, 1e3*res.PrefillTime, 1e3*r.Prefill, 100*p, res.DecodeTokensPerSec, r.Decode, 100*d, res.DecodeBound)
		dec = append(dec, d)
		decIn := r.Decode >= res.DecodeBand[0] && r.Decode <= res.DecodeBand[1]
		preIn := r.Prefill >= res.PrefillBand[0] && r.Prefill <= res.PrefillBand[1]
		if why, ok := known[r.Name]; ok {
			t.Logf("%s: a known miss (%s)", r.Name, why)
			if decIn && preIn {
				t.Errorf("%s is inside both bands now: drop it from the known misses", r.Name)
			}
			continue
		}
		if !decIn {
			t.Errorf("%s: measured %.0f tokens/s outside the band %.0f–%.0f", r.Name, r.Decode, res.DecodeBand[0], res.DecodeBand[1])
		}
		if !preIn {
			t.Errorf("%s: measured prefill %.4f s outside the band %.4f–%.4f", r.Name, r.Prefill, res.PrefillBand[0], res.PrefillBand[1])
		}
	}
	return dec
}

// checkTimedSet checks testdata/SET/generate's want timed points, timed on
// lent H100s, with checkGenerateTiming and holds their decode tokens/s
// median |error| at most medianMax.
func checkTimedSet(t *testing.T, set string, want int, medianMax float64) {
	t.Helper()
	rows := loadCaptures(t, filepath.Join("..", "..", "testdata", set, "generate", "results.jsonl"))
	if len(rows) != want {
		t.Fatalf("%d timed points, want %d", len(rows), want)
	}
	dec := checkGenerateTiming(t, rows, "h100", nil)
	if m := medianAbs(dec); m > medianMax {
		t.Errorf("decode tokens/s: median |error| %.1f%%, held at %.0f%%", 100*m, 100*medianMax)
	}
}

// rowsOf reads the generate rows of testdata/SET/generate for each set
// that keep says to keep.
func rowsOf(t *testing.T, keep func(captureRow) bool, sets ...string) []captureRow {
	t.Helper()
	var rows []captureRow
	for _, set := range sets {
		for _, r := range loadCaptures(t, filepath.Join("..", "..", "testdata", set, "generate", "results.jsonl")) {
			if keep(r) {
				rows = append(rows, r)
			}
		}
	}
	return rows
}
