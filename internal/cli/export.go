package cli

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/prometheus/exporter-toolkit/web"

	"github.com/vramkit/vramkit/internal/exporter"
	"github.com/vramkit/vramkit/internal/monitor"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func exportCommand() *Command {
	c := &Command{
		Name:    "export",
		Formats: "Prometheus metrics over HTTP; log lines on stderr as text (default) or json",
		Usage:   "export [--listen ADDR]... [--web.config.file FILE] [--no-process-metrics] [--fake-gpu] [--format text|json]",
		Short:   "serve GPU and per-process memory as Prometheus metrics (bytes)",
		Long: `Serves /metrics for Prometheus: per GPU vramkit_gpu_memory_{total,used,free,reserved}_bytes,
vramkit_gpu_utilization_ratio, vramkit_gpu_up and vramkit_gpu_info; per process
vramkit_process_gpu_memory_used_bytes{gpu,uuid,pid,command,user}; plus
vramkit_nvml_up and vramkit_scrape_duration_seconds. NVML is read on each scrape.

Listens on ` + exporter.DefaultListen + ` (localhost only) unless told otherwise; to
expose it, pass --listen :9947 together with --web.config.file, an
exporter-toolkit web configuration (TLS, client certificates, bcrypt basic-auth
users): https://github.com/prometheus/exporter-toolkit/blob/master/docs/web-configuration.md
Without a driver it keeps serving vramkit_nvml_up 0 and retries on each scrape.
--format picks the log format (text or json, on stderr).`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		var listen listFlag
		var webConfig *string
		var noProc, fake *bool
		format, err := noArgs(c, env, args, func(fs *flag.FlagSet) {
			fs.Var(&listen, "listen", "address to listen on, repeatable (default "+exporter.DefaultListen+")")
			webConfig = fs.String("web.config.file", "", "exporter-toolkit web config file for TLS and basic auth")
			noProc = fs.Bool("no-process-metrics", false, "do not export per-process series (limits cardinality)")
			fake = fs.Bool("fake-gpu", false, "serve a demo machine of fake GPUs instead of NVML")
		})
		if err != nil {
			return err
		}
		if len(listen) == 0 {
			listen = listFlag{exporter.DefaultListen}
		}
		if *webConfig != "" {
			if err := web.Validate(*webConfig); err != nil {
				return fmt.Errorf("web config %s: %w", *webConfig, err)
			}
		}
		var log *slog.Logger
		if format == "json" {
			log = slog.New(slog.NewJSONHandler(env.Stderr, nil))
		} else {
			log = slog.New(slog.NewTextHandler(env.Stderr, nil))
		}

		lib, procs := openGPU(*fake)
		sampler := monitor.NewSampler(lib, procs, time.Now)
		defer sampler.Close()
		opt := exporter.DefaultOptions()
		opt.ProcessMetrics = !*noProc
		col := exporter.NewCollector(sampler, opt, Version, log, time.Now)
		if err := sampler.Start(); err != nil {
			log.Warn("NVML not ready; serving vramkit_nvml_up 0 until it is", "err", demoHint(err))
		}
		h, err := exporter.Handler(exporter.Registry(col), Version)
		if err != nil {
			return err
		}
		ls, err := exporter.Listen(listen)
		if err != nil {
			return err
		}
		return exporter.Serve(ctx, ls, h, *webConfig, log)
	}
	return c
}
