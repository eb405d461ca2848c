package allocsim

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

const root = "../../testdata"

type measuredRow struct {
	Name         string            `json:"name"`
	AllocConf    string            `json:"alloc_conf"`
	MaxReserved  int64             `json:"max_reserved"`
	MaxAllocated int64             `json:"max_allocated"`
	Stats        map[string]*int64 `json:"stats"`
}

func measured(t testing.TB) map[string]measuredRow {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "h200", "measured.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := map[string]measuredRow{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r measuredRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows[r.Name] = r
	}
	return rows
}

// h200Total is the fixtures' H200 total memory as CUDA reports it
// (torch.cuda.get_device_properties().total_memory, recorded by every
// probe in testdata/probes/*.json).
const h200Total = 150109880320

// mustReplay is ReplayDevice of device 0, failing the test on an error.
func mustReplay(t testing.TB, s *snapshot.Snapshot, o ReplayOptions) DeviceReplay {
	t.Helper()
	d, err := ReplayDevice(s, 0, o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func load(t testing.TB, rel string) *snapshot.Snapshot {
	t.Helper()
	s, err := snapshot.LoadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReplayMatchesPyTorch replays real H200 traces and compares the
// simulated memory_stats() with the values PyTorch itself reported.
func TestReplayMatchesPyTorch(t *testing.T) {
	rows := measured(t)
	files, _ := filepath.Glob(filepath.Join(root, "h200", "*.pickle.gz"))
	files = append(files, "../../examples/resnet50-b64-fp32.pickle.gz")
	if len(files) < 4 {
		t.Fatalf("fixtures missing: %v", files)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".pickle.gz")
		t.Run(name, func(t *testing.T) {
			row, ok := rows[name]
			if !ok {
				t.Fatalf("no measured row for %s", name)
			}
			s, err := snapshot.LoadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			d := mustReplay(t, s, DefaultReplayOptions())
			if !d.Result.Reproduced {
				t.Fatalf("not reproduced: %s", d.Result.FirstDivergence)
			}
			if !d.TraceComplete {
				t.Errorf("trace judged incomplete: %v", d.Notes)
			}
			if p := d.Result.AtPeakReserved; p.Reserved != d.Result.Stats.ReservedBytes.All.Peak || p.LargestFree > p.Reserved-p.Allocated {
				t.Errorf("state at peak reserved %+v, peak reserved %d", p, d.Result.Stats.ReservedBytes.All.Peak)
			}
			got := d.Result.Stats.Map()
			for k, v := range row.Stats {
				if v != nil && got[k] != *v {
					t.Errorf("%s = %d, PyTorch reported %d", k, got[k], *v)
				}
			}
		})
	}
}

// probeLog returns the memory_stats() dump and the config probes of
// probe-log.txt.
func probeLog(t *testing.T) (map[string]int64, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "unit", "probe-log.txt"))
	if err != nil {
		t.Fatal(err)
	}
	txt := string(b)
	i := strings.Index(txt, "STATS ")
	j := strings.Index(txt[i:], "}")
	var st map[string]int64
	if err := json.Unmarshal([]byte(txt[i+6:i+j+1]), &st); err != nil {
		t.Fatal(err)
	}
	return st, txt
}

// TestProbeDefault checks all of PyTorch's counters for the scripted probe:
// rounding edge cases, a side stream, record_stream, an OOM with a retry,
// and empty_cache.
func TestProbeDefault(t *testing.T) {
	want, _ := probeLog(t)
	s := load(t, "unit/probe-default.pickle")
	d := mustReplay(t, s, DefaultReplayOptions())
	if !d.Result.Reproduced || !d.TraceComplete {
		t.Fatalf("reproduced=%v complete=%v %s %v", d.Result.Reproduced, d.TraceComplete, d.Result.FirstDivergence, d.Notes)
	}
	got := d.Result.Stats.Map()
	if len(want) < 100 {
		t.Fatalf("only %d stats parsed from the log", len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, PyTorch reported %d", k, got[k], v)
		}
	}
	if d.Result.EmptyCacheCalls != 1 {
		t.Errorf("inferred %d empty_cache calls, the probe made 1", d.Result.EmptyCacheCalls)
	}
}

// TestProbeExpandable: the expandable probe reuses a process whose
// allocator already held a segment, so the replay must reproduce the trace
// yet flag it as not starting with the allocator.
func TestProbeExpandable(t *testing.T) {
	s := load(t, "unit/probe-expandable.pickle")
	d := mustReplay(t, s, DefaultReplayOptions())
	if !d.Result.Reproduced {
		t.Fatalf("not reproduced: %s", d.Result.FirstDivergence)
	}
	if d.TraceComplete || d.StateMismatch == "" {
		t.Errorf("the probe's earlier segment should make the trace incomplete")
	}
	st := d.Result.Stats
	// 2 MiB small page + 20 + 20 + 300 MiB large pages, then 340 MiB + 2 MiB unmapped.
	if st.ReservedBytes.All.Peak != 342<<20 || st.NumDeviceAlloc != 4 || st.NumDeviceFree != 2 {
		t.Errorf("peak reserved %d, device alloc %d, free %d", st.ReservedBytes.All.Peak, st.NumDeviceAlloc, st.NumDeviceFree)
	}
}

// TestConfigErrorsMatchPyTorch parses every PYTORCH_CUDA_ALLOC_CONF the
// probe tried and compares acceptance and error text with PyTorch's.
func TestConfigErrorsMatchPyTorch(t *testing.T) {
	_, txt := probeLog(t)
	re := regexp.MustCompile(`(?m)^CONF (\S+) (\d) `)
	ms := re.FindAllStringSubmatchIndex(txt, -1)
	if len(ms) < 8 {
		t.Fatalf("found %d config probes", len(ms))
	}
	for n, m := range ms {
		conf, rc := txt[m[2]:m[3]], txt[m[4]:m[5]]
		end := len(txt)
		if n+1 < len(ms) {
			end = ms[n+1][0]
		}
		block := txt[m[1]:end]
		_, err := ParseConfig(conf)
		if rc == "0" {
			if err != nil {
				t.Errorf("%s: PyTorch accepts it, got %v", conf, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: PyTorch refuses it, we accepted", conf)
			continue
		}
		if !strings.Contains(block, "ValueError: "+err.Error()) {
			t.Errorf("%s: error %q not PyTorch's:\n%s", conf, err, block)
		}
	}
}

// TestWhatIfFromOneTrace predicts other allocator settings' peaks from the
// default run's request stream and compares with the runs actually made.
func TestWhatIfFromOneTrace(t *testing.T) {
	rows := measured(t)
	s := load(t, "h200/gpt2-dyn-pad-batch-default.pickle.gz")
	d := mustReplay(t, s, DefaultReplayOptions())
	capacity := int64(h200Total - 800<<20)
	for _, tc := range []struct{ name, conf string }{
		{"expandable", "expandable_segments:True"},
		{"split128", "max_split_size_mb:128"},
		{"pow2div4", "roundup_power2_divisions:4"},
	} {
		row := rows["gpt2-dyn-pad-batch-"+tc.name]
		cfg, err := ParseConfig(tc.conf)
		if err != nil {
			t.Fatal(err)
		}
		r := Simulate(d.Result.Requests, cfg, NewDevice(capacity, h200Total))
		got, want := r.Stats.ReservedBytes.All.Peak, row.MaxReserved
		if diff := float64(got-want) / float64(want); diff > 0.02 || diff < -0.02 {
			t.Errorf("%s: predicted peak reserved %d, measured %d (%+.2f%%)", tc.name, got, want, 100*diff)
		}
		if r.OOMAt >= 0 {
			t.Errorf("%s: predicted an OOM at event %d", tc.name, r.OOMAt)
		}
		if tc.name == "split128" {
			if wf := *row.Stats["num_device_free"]; r.Stats.NumDeviceFree != wf {
				t.Errorf("split128: %d cache releases, measured %d", r.Stats.NumDeviceFree, wf)
			}
		}
	}
}
