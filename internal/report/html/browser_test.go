package html

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var (
	browser     = flag.Bool("browser", false, "run the headless Chromium test (scripts/browser-test.sh sets it)")
	screenshots = flag.String("screenshots", "", "directory to save one PNG per view (docs/ holds the committed ones)")
	shotPage    = flag.String("page", "", "report to screenshot instead of the first fixture's (e.g. one vramkit report wrote)")
)

// views are the page's tabs, as their URL fragments name them.
var views = []string{"overview", "timeline", "state", "sites", "tune"}

// chromium finds a headless-capable Chromium, or "".
func chromium() string {
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

func runChromium(t *testing.T, bin string, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, errb.String())
	}
	return out.String(), errb.String()
}

// TestBrowser loads each report in headless Chromium with every view
// built (#all), and fails on a script error or a console error. With
// -screenshots=DIR it also saves one screenshot per view of the first
// report. scripts/browser-test.sh installs Debian's chromium first.
func TestBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" {
		t.Skip("no chromium on PATH: run scripts/browser-test.sh (it installs Debian's chromium) to run this test")
	}
	if !*browser {
		// Each Chromium start takes seconds on a shared machine: opt in.
		t.Skip("browser test is opt-in: run scripts/browser-test.sh (or go test -args -browser)")
	}
	dir := t.TempDir()
	all := renderAll(t)
	var sweep bytes.Buffer
	if err := RenderSweep(&sweep, testSweep()); err != nil {
		t.Fatal(err)
	}
	all["sweep"] = sweep.Bytes()
	for i, name := range append(families, "sweep") {
		file := filepath.Join(dir, strings.NewReplacer("/", "-", ".pickle.gz", ".html").Replace(name)+".html")
		if err := os.WriteFile(file, all[name], 0o644); err != nil {
			t.Fatal(err)
		}
		dom, logs := runChromium(t, bin, "--dump-dom", "file://"+file+"#all")
		if !strings.Contains(dom, `data-ready="1"`) {
			t.Errorf("%s: the page's script did not finish", name)
		}
		if strings.Contains(dom, "data-errors=") {
			t.Errorf("%s: script errors: %s", name, between(dom, `data-errors="`, `"`))
		}
		// The page never writes to the console: any message is a fault.
		for _, l := range strings.Split(logs, "\n") {
			if strings.Contains(l, ":CONSOLE") {
				t.Errorf("%s: console: %s", name, l)
			}
		}
		if *screenshots != "" && name == "sweep" {
			png := filepath.Join(*screenshots, "plan-sweep.png")
			runChromium(t, bin, "--window-size=1400,700", "--screenshot="+png, "file://"+file)
		}
		if *screenshots != "" && i == 0 {
			if *shotPage != "" {
				file, _ = filepath.Abs(*shotPage)
			}
			for _, v := range views {
				png := filepath.Join(*screenshots, "report-"+v+".png")
				runChromium(t, bin, "--window-size=1400,1000", "--screenshot="+png, "file://"+file+"#"+v)
				if st, err := os.Stat(png); err != nil || st.Size() < 10000 {
					t.Errorf("%s: screenshot %s missing or blank", name, png)
				}
			}
		}
	}
}

func between(s, a, b string) string {
	i := strings.Index(s, a)
	if i < 0 {
		return ""
	}
	s = s[i+len(a):]
	if j := strings.Index(s, b); j >= 0 {
		return s[:j]
	}
	return s
}
