package tui

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/nvml"
)

var update = flag.Bool("update", false, "rewrite golden frames")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create)", err)
	}
	if got != string(want) {
		t.Errorf("frame %s differs; got:\n%s\nwant:\n%s", name, got, want)
	}
}

func demoProcs() monitor.StaticProcs {
	p := monitor.StaticProcs{}
	for _, d := range nvml.DemoProcesses() {
		p[d.PID] = monitor.ProcInfo{User: d.User, Name: "python3", Command: d.Command}
	}
	return p
}

// feed runs the demo machine for n seconds at 1 Hz into the model.
func feed(t *testing.T, m *Model, n int) {
	t.Helper()
	now := time.Date(2026, 1, 2, 12, 0, 0, 0, time.Local)
	clock := func() time.Time { return now }
	s := monitor.NewSampler(nvml.NewDemo(clock), demoProcs(), clock)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		m.Update(SampleMsg{s.Sample()})
		now = now.Add(time.Second)
	}
}

func keys(m *Model, ks ...tea.KeyMsg) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range ks {
		_, cmd = m.Update(k)
	}
	return cmd
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func TestFrames(t *testing.T) {
	m := New(600, monitor.DefaultTrendOptions())
	if got := m.View(); got != "vramkit watch: waiting for the first sample…\n" {
		t.Errorf("empty frame = %q", got)
	}
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	feed(t, m, 120)
	golden(t, "demo-120s.txt", m.View())

	keys(m, runes("s"), runes("/"), runes("e"), runes("v"), runes("a"), runes("l"), tea.KeyMsg{Type: tea.KeyEnter})
	golden(t, "demo-sort-pid-filter-eval.txt", m.View())

	keys(m, tea.KeyMsg{Type: tea.KeyEsc}, runes("r"))
	golden(t, "demo-sort-pid-reverse.txt", m.View())

	if cmd := keys(m, runes("q")); cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit")
	}
}

func TestNarrowTerminal(t *testing.T) {
	m := New(60, monitor.DefaultTrendOptions())
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
	feed(t, m, 5)
	got := m.View()
	lines := bytes.Split(bytes.TrimRight([]byte(got), "\n"), []byte("\n"))
	if len(lines) > 12 {
		t.Errorf("%d lines in a 12-line terminal", len(lines))
	}
	for _, l := range lines {
		if n := len([]rune(string(l))); n > 50 {
			t.Errorf("line of %d cells in a 50-cell terminal: %q", n, l)
		}
	}
}

func TestWriteText(t *testing.T) {
	now := time.Date(2026, 1, 2, 12, 0, 0, 0, time.Local)
	clock := func() time.Time { return now }
	s := monitor.NewSampler(nvml.NewDemo(clock), demoProcs(), clock)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteText(&b, s.Sample())
	golden(t, "once.txt", b.String())
}
