// Package tui is `vramkit watch`'s terminal UI, a Bubble Tea model.
// Samples arrive as messages (SampleMsg) from a sampling loop the caller
// runs, so the model itself does no I/O and tests drive Update and compare
// View frames.
package tui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vramkit/vramkit/internal/monitor"
)

// SampleMsg carries a new sample into the model.
type SampleMsg struct{ Sample monitor.Sample }

type sortKey int

const (
	byMemory sortKey = iota
	byPID
	byGPU
	byUser
)

var sortNames = []string{"memory", "pid", "gpu", "user"}

type procKey struct {
	gpu int
	pid uint32
}

// Model is the watch screen.
type Model struct {
	hist     *monitor.History
	opt      monitor.TrendOptions
	width    int
	height   int
	sort     sortKey
	reverse  bool
	filter   string
	editing  bool
	gpuTrend map[int]monitor.Trend
	pTrend   map[procKey]monitor.Trend
	judged   time.Time
}

// New returns a model keeping historySize samples and judging trends with
// opt.
func New(historySize int, opt monitor.TrendOptions) *Model {
	return &Model{hist: monitor.NewHistory(historySize), opt: opt, gpuTrend: map[int]monitor.Trend{}, pTrend: map[procKey]monitor.Trend{}}
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case SampleMsg:
		m.hist.Add(msg.Sample)
		// Trends move over minutes: judging them once a second of sample
		// time is plenty and keeps 10 Hz sampling cheap.
		if msg.Sample.Time.Sub(m.judged) >= time.Second {
			m.judge(msg.Sample)
		}
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	if m.editing {
		switch k.Type {
		case tea.KeyEnter:
			m.editing = false
		case tea.KeyEsc:
			m.editing, m.filter = false, ""
		case tea.KeyBackspace:
			if r := []rune(m.filter); len(r) > 0 {
				m.filter = string(r[:len(r)-1])
			}
		case tea.KeyRunes, tea.KeySpace:
			m.filter += string(k.Runes)
		case tea.KeyCtrlC:
			return tea.Quit
		}
		return nil
	}
	switch k.String() {
	case "q", "ctrl+c":
		return tea.Quit
	case "s":
		m.sort = (m.sort + 1) % sortKey(len(sortNames))
	case "r":
		m.reverse = !m.reverse
	case "/":
		m.editing = true
	case "esc":
		m.filter = ""
	}
	return nil
}

func (m *Model) judge(s monitor.Sample) {
	m.judged = s.Time
	since := s.Time.Add(-m.opt.Window)
	for _, g := range s.GPUs {
		if !g.Up {
			continue
		}
		m.gpuTrend[g.Index] = monitor.Analyze(m.hist.GPUSeries(g.Index, since), g.Memory.Free, m.opt)
		for _, p := range g.Procs {
			m.pTrend[procKey{g.Index, p.PID}] = monitor.Analyze(m.hist.ProcSeries(g.Index, p.PID, since), g.Memory.Free, m.opt)
		}
	}
}

// View implements tea.Model.
func (m *Model) View() string {
	s, ok := m.hist.Last()
	if !ok {
		return "vramkit watch: waiting for the first sample…\n"
	}
	var b strings.Builder
	dir := "↓"
	if m.reverse {
		dir = "↑"
	}
	filter := m.filter
	if m.editing {
		filter += "▌"
	} else if filter == "" {
		filter = "none"
	}
	fmt.Fprintf(&b, "vramkit watch  %s  driver %s  %d GPUs  sort: %s %s  filter: %s\n", s.Time.Format("15:04:05"), s.Driver, len(s.GPUs), sortNames[m.sort], dir, filter)
	fmt.Fprintln(&b, "keys: s sort  r reverse  / filter  esc clear  q quit")
	for _, g := range s.GPUs {
		fmt.Fprintln(&b)
		fmt.Fprintln(&b, gpuLine(g))
		if !g.Up {
			continue
		}
		barW := 40
		if m.width > 0 {
			barW = max(10, min(50, m.width-60))
		}
		fmt.Fprintf(&b, "  %s\n", bar(g.Memory.Used, g.Memory.Total, barW))
		fmt.Fprintf(&b, "  %s%s\n", m.spark(g, barW), leakNote(m.gpuTrend[g.Index]))
		if g.ProcError != "" {
			fmt.Fprintf(&b, "  processes unavailable: %s\n", g.ProcError)
		}
	}
	m.table(&b, s)
	return m.fit(b.String())
}

func (m *Model) spark(g monitor.GPUSample, n int) string {
	pts := m.hist.GPUSeries(g.Index, time.Time{})
	if len(pts) > n {
		pts = pts[len(pts)-n:]
	}
	if len(pts) == 0 {
		return ""
	}
	vs := make([]float64, len(pts))
	lo, hi := pts[0].V, pts[0].V
	for i, p := range pts {
		vs[i] = p.V
		lo, hi = min(lo, p.V), max(hi, p.V)
	}
	return fmt.Sprintf("%s %s–%s", sparkline(vs, float64(g.Memory.Total)/100), bytesStr(uint64(lo)), bytesStr(uint64(hi)))
}

// leakNote is the leak / growth note after a sparkline or in the table.
func leakNote(t monitor.Trend) string {
	switch {
	case t.Leak && t.TimeToFull > 0:
		return fmt.Sprintf("  LEAK? +%s/s, full in %s", bytesStr(uint64(t.Rate)), t.TimeToFull.Round(time.Second))
	case t.Leak:
		return fmt.Sprintf("  LEAK? +%s/s", bytesStr(uint64(t.Rate)))
	}
	return ""
}

func (m *Model) table(b *strings.Builder, s monitor.Sample) {
	rs := rows(s)
	kept := rs[:0]
	f := strings.ToLower(m.filter)
	for _, r := range rs {
		if f == "" || strings.Contains(strings.ToLower(r.p.Command+" "+r.p.User+" "+strconv.Itoa(int(r.p.PID))), f) {
			kept = append(kept, r)
		}
	}
	less := func(i, j int) bool {
		a, c := kept[i], kept[j]
		switch m.sort {
		case byPID:
			return a.p.PID < c.p.PID
		case byGPU:
			return a.gpu < c.gpu
		case byUser:
			return a.p.User < c.p.User
		}
		return a.p.Used > c.p.Used
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if m.reverse {
			return less(j, i)
		}
		return less(i, j)
	})
	fmt.Fprintf(b, "\n%-4s %-8s %-10s %-11s %-6s %-19s %s\n", "GPU", "PID", "USER", "GPU MEMORY", "SHARE", "TREND", "COMMAND")
	if len(kept) == 0 {
		fmt.Fprintln(b, "(no processes)")
	}
	for _, r := range kept {
		t := m.pTrend[procKey{r.gpu, r.p.PID}]
		trend := ""
		if t.Rate >= m.opt.MinRate || t.Rate <= -m.opt.MinRate {
			trend = fmt.Sprintf("%+.1f MiB/s", t.Rate/(1<<20))
		}
		if t.Leak {
			trend += " LEAK?"
		}
		fmt.Fprintf(b, "%-4d %-8d %-10s %-11s %-6s %-19s %s\n", r.gpu, r.p.PID, clip(r.p.User, 10), r.used(), r.share(), trend, r.p.Command)
	}
}

// fit trims lines to the terminal width and the frame to its height.
func (m *Model) fit(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if m.height > 0 && len(lines) > m.height {
		lines = lines[:m.height]
	}
	if m.width > 0 {
		for i, l := range lines {
			lines[i] = clip(l, m.width)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
