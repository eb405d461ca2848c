package html

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// families are the repository's snapshots, one per workload family; the
// OOM one exercises the OOM marker, the probe an expandable segment.
var families = []string{
	"h200/bert-base-s128-b16-fp32.pickle.gz",
	"h200/gpt2-dyn-pad-batch-default.pickle.gz",
	"h200/oom-vitl16-b96-fp32.pickle.gz",
	"h200/resnet50-b16x4-fp32-accum.pickle.gz",
	"probes/expandable-churn.pickle.gz",
}

var (
	pagesOnce sync.Once
	pages     map[string][]byte
)

// renderAll renders each family's report once for all tests.
func renderAll(t testing.TB) map[string][]byte {
	pagesOnce.Do(func() {
		pages = map[string][]byte{}
		for _, f := range families {
			s, err := snapshot.LoadFile(filepath.Join("..", "..", "..", "testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := Render(&buf, Build(input(s, f))); err != nil {
				t.Fatal(err)
			}
			pages[f] = buf.Bytes()
		}
	})
	return pages
}

// input is what the report command assembles, minus the what-if grid,
// with analyze's sites and categories.
func input(s *snapshot.Snapshot, name string) Input {
	d, err := allocsim.ReplayDevice(s, 0, report.TimelineOptions(allocsim.DefaultReplayOptions(), 2000))
	if err != nil {
		panic(err)
	}
	tl := report.NewTimeline(s, &d)
	tr := s.Trace(0)
	o := analyze.DefaultOptions()
	o.Tune = false
	for _, b := range tl.Buckets {
		o.CurveAt = append(o.CurveAt, b.AllocMaxAt)
	}
	rep, err := analyze.Analyze(s, o)
	if err != nil {
		panic(err)
	}
	ad := rep.Devices[0]
	a := &Analysis{Text: "</script><script>alert(1)</script>", Advice: []AdviceItem{{Action: "a & b", Saving: 1 << 30}}}
	cats := Series{Name: "parameters"}
	other := Series{Name: "everything else"}
	for _, c := range ad.CategoryCurve {
		cats.Values = append(cats.Values, c.Parameters)
		other.Values = append(other.Values, c.Total()-c.Parameters)
	}
	a.Categories = []Series{cats, other}
	return Input{Title: "report — " + name, Source: name, Snapshot: s, Timeline: tl,
		Live: report.LiveAt(tr, tl.PeakAllocatedAt), Sites: ad.TopSites, Notes: d.Notes, Stats: d.Result.Stats,
		Markers: append(report.OOMMarkers(tr), report.IterationMarkers(s, 0)...), Analysis: a,
		Tune: &Tune{RecordedReserved: d.Result.Stats.ReservedBytes.All.Peak, Rows: []TuneRow{{Conf: "", PeakReserved: 1, OOMAt: -1, Feasible: true}}}}
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="vramkit-data">(.*?)</script>`)

// TestStructure: each page is self-contained (no URL in src or href but
// in-page anchors, no network API), carries its data as parseable JSON
// whose peaks are the replay's, and stays small.
func TestStructure(t *testing.T) {
	ext := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?([^"'\s>]*)`)
	for name, page := range renderAll(t) {
		for _, m := range ext.FindAllStringSubmatch(string(page), -1) {
			if !strings.HasPrefix(m[2], "#") {
				t.Errorf("%s: external reference %s=%q", name, m[1], m[2])
			}
		}
		for _, bad := range []string{"http://", "https://", "//cdn", "fetch(", "XMLHttpRequest", "import("} {
			if bytes.Contains(page, []byte(bad)) {
				t.Errorf("%s: page contains %q", name, bad)
			}
		}
		m := dataRE.FindSubmatch(page)
		if m == nil {
			t.Fatalf("%s: no embedded data", name)
		}
		var d Data
		if err := json.Unmarshal(m[1], &d); err != nil {
			t.Fatalf("%s: embedded data: %v", name, err)
		}
		if d.Timeline == nil || len(d.Timeline.T) == 0 || d.State == nil || len(d.State.Segments) == 0 {
			t.Errorf("%s: timeline or state missing", name)
		}
		var amax int64
		for _, v := range d.Timeline.AMax {
			amax = max(amax, v)
		}
		if amax != d.Timeline.Peaks["allocated"] {
			t.Errorf("%s: drawn peak %d, peak allocated %d", name, amax, d.Timeline.Peaks["allocated"])
		}
		if d.Analysis.Text != "</script><script>alert(1)</script>" {
			t.Errorf("%s: analysis text changed on the way: %q", name, d.Analysis.Text)
		}
		// The stacked categories top out at the allocated curve.
		for i := range d.Timeline.AMax {
			if sum := d.Timeline.Categories[0].Values[i] + d.Timeline.Categories[1].Values[i]; sum != d.Timeline.AMax[i] {
				t.Errorf("%s: bucket %d: categories sum to %d, allocated %d", name, i, sum, d.Timeline.AMax[i])
				break
			}
		}
		if strings.Contains(name, "oom") && !hasMarker(d.Timeline.Markers, "oom") {
			t.Errorf("%s: no OOM marker", name)
		}
		if len(page) > 20<<20 {
			t.Errorf("%s: %d bytes, over 20 MiB", name, len(page))
		}
		t.Logf("%s: %d KiB", name, len(page)>>10)
	}
}

func hasMarker(ms []report.Marker, kind string) bool {
	for _, m := range ms {
		if m.Kind == kind {
			return true
		}
	}
	return false
}

func TestFlamePrunes(t *testing.T) {
	s := &snapshot.Snapshot{Stacks: [][]snapshot.Frame{nil, {{Name: "a"}, {Name: "main"}}, {{Name: "b"}, {Name: "main"}}}}
	d := &Data{}
	root := newInterner(s, d).flame([]report.Live{{Size: 1000, Stack: 1}, {Size: 1, Stack: 2}, {Size: 5}}, 0.01)
	// The stackless 5 bytes and b's 1 byte are under 1% of their parents.
	if root.Bytes != 1006 || len(root.Children) != 2 || root.Children[1].Frame != -2 || len(root.Children[0].Children) != 2 {
		t.Fatalf("tree: %+v", root)
	}
	if other := root.Children[0].Children[1]; other.Frame != -2 || other.Bytes != 1 {
		t.Errorf("small stack not folded: %+v", other)
	}
}

// testSweep is a small plan --sweep curve crossing its limit.
func testSweep() *Sweep {
	s := &Sweep{Title: "Predicted peak memory against batch size on h200", XLabel: "batch size", Limit: 40 << 30, Largest: 128}
	for _, x := range []int{1, 2, 4, 8, 16, 32, 64, 128, 256} {
		b := int64(x) << 28
		s.Points = append(s.Points, SweepPoint{X: x, Allocated: 1<<30 + b, Reserved: 1<<30 + b*11/10, Process: 2<<30 + b*11/10,
			Fits: 2<<30+b*11/10 <= 40<<30})
	}
	return s
}

func TestSweepPage(t *testing.T) {
	var buf bytes.Buffer
	if err := RenderSweep(&buf, testSweep()); err != nil {
		t.Fatal(err)
	}
	m := dataRE.FindSubmatch(buf.Bytes())
	var d Data
	if m == nil || json.Unmarshal(m[1], &d) != nil || d.Sweep == nil || len(d.Sweep.Points) != 9 || d.Timeline != nil {
		t.Fatalf("sweep page data: %s", m)
	}
}

// TestNoScript: with JavaScript off the page is not blank; it says why
// nothing is drawn and where to get the findings instead.
func TestNoScript(t *testing.T) {
	scripts := regexp.MustCompile(`(?s)<script.*?</script>`)
	noscript := regexp.MustCompile(`(?s)<noscript>(.*?)</noscript>`)
	for name, page := range renderAll(t) {
		m := noscript.FindSubmatch(scripts.ReplaceAll(page, nil))
		if m == nil {
			t.Fatalf("%s: no <noscript>", name)
		}
		for _, want := range []string{"JavaScript", "vramkit analyze"} {
			if !bytes.Contains(m[1], []byte(want)) {
				t.Errorf("%s: <noscript> does not mention %q: %s", name, want, m[1])
			}
		}
	}
}

// TestStacksAllReadAsPython: the report of dev76's GPT-2 run recorded with
// PyTorch's default stacks="all" carries the Python frames of its stacks
// only (the C++ unwinder, allocator and ATen frames that head every such
// stack made the hover stacks and icicle hundreds of frames deep), the
// same frames as the run recorded with stacks="python".
func TestStacksAllReadAsPython(t *testing.T) {
	const dir = "../../../testdata/dev76/dev76-gpt2-s256-b4-bf16-"
	files := map[string]int{}
	for _, rec := range []string{"py", "all"} {
		s, err := snapshot.LoadFile(dir + rec + ".pickle.gz")
		if err != nil {
			t.Fatal(err)
		}
		d := Build(input(s, rec))
		for _, f := range d.Frames {
			if f.File != "" && !snapshot.IsPythonFrame(snapshot.Frame{Filename: f.File}) { // "" is "(no stack recorded)"
				t.Errorf("%s: the report carries C++ frame %s (%s)", rec, f.Name, f.File)
				break
			}
		}
		files[rec] = len(d.Frames)
	}
	if files["py"] != files["all"] {
		t.Errorf("%d frames from the stacks='python' run, %d from the stacks='all' one", files["py"], files["all"])
	}
}
