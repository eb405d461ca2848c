package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/capture"
	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/nvml"
	"github.com/vramkit/vramkit/internal/report/html"
)

// runCommand is `vramkit run`. summarize, when not nil, adds the snapshot
// analysis to the end-of-run summary (wired to the snapshot reader by the
// command table).
func runCommand(summarize capture.Summarizer) *Command {
	c := &Command{
		Name:    "run",
		Formats: "the command's own output; vramkit's summary on stderr as text (default) or json, and summary.json in --out",
		Usage:   "run [--out DIR] [--interval D] [--context alloc|all|none] [--stacks python|all] [--max-entries N] [--format text|json] [--] CMD [ARGS...]",
		Short:   "run a training command and capture its GPU memory: snapshots at exit/OOM/SIGTERM + NVML timeline",
		Long: `Runs CMD with a small Python shim on PYTHONPATH (your own sitecustomize still
runs). When the program initialises CUDA through PyTorch, the shim turns on
torch.cuda.memory._record_memory_history and writes a snapshot pickle into
--out at exit (also after Ctrl-C), at the moment of an out-of-memory error, and
on SIGTERM; under torchrun one snapshot per rank (snapshot-rankN.pickle).
Meanwhile vramkit samples NVML for CMD's process tree (nvml-timeline.csv/json).
CMD need not be Python; then only the NVML timeline is recorded.

CMD's stdin, stdout and stderr are its own; vramkit prints its summary on
stderr when CMD ends and exits with CMD's status (128+N if signal N killed
it). Signals sent to vramkit are forwarded to CMD (SIGINT/SIGQUIT only when
they did not already come from the terminal). python -I or -E ignores
PYTHONPATH and so the shim.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		fs := newFlagSet(c, env.Stderr)
		opt := capture.DefaultOptions()
		fs.StringVar(&opt.Out, "out", "", "output directory (default: a new vramkit-run-YYYYMMDD-HHMMSS, with -2, -3… when that is taken)")
		fs.DurationVar(&opt.Interval, "interval", opt.Interval, "NVML sampling interval")
		fs.StringVar(&opt.Context, "context", opt.Context, "stack traces PyTorch records: alloc|all|none")
		fs.StringVar(&opt.Stacks, "stacks", opt.Stacks, "frames in those traces: python|all (all adds C++, much slower)")
		fs.IntVar(&opt.MaxEntries, "max-entries", opt.MaxEntries, "alloc/free events PyTorch keeps per device")
		htmlOut := fs.Bool("html", false, "also write an HTML report (vramkit report) next to each snapshot")
		format := addFormat(fs, "text", "json")
		// Flags stop at CMD: everything after it is CMD's own.
		if err := parseFlagsUntilArg(fs, args); err != nil {
			return err
		}
		if err := checkFormat(*format, "text", "json"); err != nil {
			return err
		}
		argv := fs.Args()
		if len(argv) == 0 {
			return usagef("no command to run")
		}
		// Check the flags before creating the default folder, so a usage
		// error leaves nothing behind.
		check := opt
		if check.Out == "" {
			check.Out = "."
		}
		if err := check.Validate(); err != nil {
			return usagef("%v", err)
		}
		if opt.Out == "" {
			dir, err := newRunDir(".", time.Now())
			if err != nil {
				return err
			}
			opt.Out = dir
		}

		sigs := make(chan os.Signal, 8)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2)
		defer signal.Stop(sigs)

		procs := monitor.NewProcFS("/proc")
		s := &capture.Session{
			Opt: opt, Argv: argv, Lib: nvml.Open(), Procs: procs, Now: time.Now, NewTicker: monitor.NewTicker,
			Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr, Log: env.Stderr,
			Signals: sigs, ForwardTerminalSignals: !inForeground(env.Stdin),
		}
		res, err := s.Run(ctx)
		if errors.Is(err, capture.ErrStart) {
			fmt.Fprintf(env.Stderr, "vramkit run: %v\n", err)
			return &ExitError{Code: 127}
		}
		if err != nil {
			return err
		}
		js, _ := json.MarshalIndent(res, "", "  ")
		if werr := os.WriteFile(filepath.Join(res.Out, "summary.json"), append(js, '\n'), 0o644); werr != nil {
			fmt.Fprintf(env.Stderr, "vramkit run: %v\n", werr)
		}
		if *format == "json" {
			fmt.Fprintf(env.Stderr, "%s\n", js)
		} else {
			capture.WriteSummary(env.Stderr, res, summarize)
		}
		if *htmlOut {
			writeRunReports(ctx, env, res.Snapshots())
		}
		if res.ExitCode != 0 {
			return &ExitError{Code: res.ExitCode}
		}
		return nil
	}
	return c
}

// inForeground reports whether vramkit shares the terminal's foreground
// process group, in which case the terminal delivers Ctrl-C and Ctrl-\ to
// the command itself.
func inForeground(stdin any) bool {
	f, ok := stdin.(*os.File)
	if !ok {
		return false
	}
	pgrp, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	return err == nil && pgrp == syscall.Getpgrp()
}

// writeRunReports writes vramkit report's page beside each snapshot. A
// failure is a line on stderr, not the run's exit status, which stays the
// command's own.
func writeRunReports(ctx context.Context, env *Env, snaps []string) {
	for _, p := range snaps {
		page, err := buildReport(ctx, p, -1, "auto", analyze.Flags{})
		if err == nil {
			out := defaultHTMLName(p)
			if err = writeFile(env, out, func(w io.Writer) error { return html.Render(w, page) }); err == nil {
				fmt.Fprintf(env.Stderr, "vramkit run: report %s\n", out)
				continue
			}
		}
		fmt.Fprintf(env.Stderr, "vramkit run: no report for %s: %s\n", p, oneLine(err))
	}
}

// newRunDir creates a fresh output directory under parent named for the
// moment t, adding -2, -3… when another run took the name in the same
// second. Mkdir is atomic, so two runs never share a directory.
func newRunDir(parent string, t time.Time) (string, error) {
	base := filepath.Join(parent, "vramkit-run-"+t.Format("20060102-150405"))
	for i := 1; i < 1000; i++ {
		dir := base
		if i > 1 {
			dir = fmt.Sprintf("%s-%d", base, i)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("output directory: %w", err)
		}
	}
	return "", fmt.Errorf("output directory: %s-2 to -999 are all taken", base)
}
