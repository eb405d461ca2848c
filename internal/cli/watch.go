package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/term"

	"github.com/vramkit/vramkit/internal/monitor"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/tui"
)

func watchCommand() *Command {
	c := &Command{
		Name:    "watch",
		Formats: "a live terminal view; with --once, text (default) or json on stdout",
		Usage:   "watch [--interval D] [--history N] [--once] [--fake-gpu] [--format text|json]",
		Short:   "live view of GPU memory per GPU and per process, with leak flags",
		Long: `Shows every GPU's memory (bar and history sparkline) and the processes holding
it (pid, user, GPU memory, share of the GPU, growth rate, command). A GPU or
process whose memory has grown steadily for a minute or more (at least
1 MiB/s, close to linear) is flagged LEAK? with its rate and the time until
the GPU is full at that rate. Keys: s cycle sort (memory, pid, gpu, user),
r reverse, / filter by text (enter keeps it, esc clears), q quit.

--once prints one sample and exits (text, or --format json for scripts).
--fake-gpu shows a demo machine instead of NVML. Inside a container without
the host PID namespace, NVML's PIDs are the host's and show as "?".`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		var interval *time.Duration
		var history *int
		var once, fake *bool
		format, err := noArgs(c, env, args, func(fs *flag.FlagSet) {
			interval = fs.Duration("interval", time.Second, "sampling interval")
			history = fs.Int("history", 3600, "samples kept for sparklines and trends")
			once = fs.Bool("once", false, "print one sample and exit")
			fake = fs.Bool("fake-gpu", false, "watch a demo machine of fake GPUs instead of NVML")
		})
		if err != nil {
			return err
		}
		if *interval <= 0 || *history < 1 {
			return usagef("--interval and --history must be positive")
		}
		if format == "json" && !*once {
			return usagef("--format json needs --once")
		}
		lib, procs := openGPU(*fake)
		s := monitor.NewSampler(lib, procs, time.Now)
		if err := s.Start(); err != nil {
			return demoHint(err)
		}
		defer s.Close()
		if *once {
			x := s.Sample()
			if format == "json" {
				return report.JSON(env.Stdout, x)
			}
			tui.WriteText(env.Stdout, x)
			return nil
		}
		out, ok := env.Stdout.(*os.File)
		if !ok || !term.IsTerminal(int(out.Fd())) {
			return fmt.Errorf("the live view needs a terminal; use --once for scripts")
		}
		p := tea.NewProgram(tui.New(*history, monitor.DefaultTrendOptions()), tea.WithAltScreen(),
			tea.WithInput(env.Stdin), tea.WithOutput(out), tea.WithContext(ctx))
		sctx, stop := context.WithCancel(ctx)
		defer stop()
		go s.Run(sctx, monitor.NewTicker(*interval), func(x monitor.Sample) { p.Send(tui.SampleMsg{Sample: x}) })
		if _, err := p.Run(); err != nil && ctx.Err() == nil {
			return err
		}
		return nil
	}
	return c
}
