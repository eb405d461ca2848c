package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/analyze"
	"github.com/vramkit/vramkit/internal/hugepage"
	"github.com/vramkit/vramkit/internal/report"
	"github.com/vramkit/vramkit/internal/units"
)

func analyzeCommand() *Command {
	c := &Command{
		Name:    "analyze",
		Formats: "text (default) or json, on stdout",
		Usage:   "analyze [--format text|json] [--top N] [--capacity BYTES] [--memory-fraction F] [--batch N] [--tune=false] SNAPSHOT...",
		Short:   "explain the peak, find leaks, explain OOMs and say what to change",
		Long: `Replays each snapshot's allocation trace and explains it: peak allocated and reserved
memory and when they happen, the training iterations found in the trace, what the memory at
the peak is (parameters, gradients, optimizer state, activations, temporaries) and which
lines allocated it, how much the allocator's cache wastes, memory that leaks from one
iteration to the next, the cause of an out-of-memory error, and the changes that would save
the most, each with its estimated saving. Snapshots recorded without stack frames are
analyzed from allocation lifetimes alone, with lower confidence.`,
	}
	c.Run = func(ctx context.Context, env *Env, args []string) error {
		fs := newFlagSet(c, env.Stderr)
		format := addFormat(fs, "text", "json")
		o := analyze.DefaultOptions()
		o.MakeRequests, o.AdviseHugePages = hugeRequests, hugepage.AdviseAny
		fs.IntVar(&o.Top, "top", o.Top, "allocation sites to list")
		capS := fs.String("capacity", "", "the GPU's memory (e.g. 80GiB): the replay takes --memory-fraction of it and "+
			"leaks count iterations until it is full; default: measured at an OOM record, else an H200's (assumed)")
		fs.Float64Var(&o.MemoryFraction, "memory-fraction", 1, "the per-process memory fraction the run set "+
			"(snapshots do not record it; it caps reserved memory and garbage_collection_threshold only acts under one)")
		fs.IntVar(&o.Batch, "batch", 0, "the run's batch size, when known: a first-step OOM is then explained per sample "+
			"and in batch sizes")
		fs.BoolVar(&o.Tune, "tune", o.Tune, "replay the trace under tune's grid of allocator settings when the cache wastes memory")
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		if err := checkFormat(*format, "text", "json"); err != nil {
			return err
		}
		if o.MemoryFraction <= 0 || o.MemoryFraction > 1 {
			return usagef("--memory-fraction must be in (0, 1], not %v", o.MemoryFraction)
		}
		if o.Top < 1 {
			return usagef("--top must be at least 1")
		}
		if *capS != "" {
			n, err := units.ParseBytes(*capS)
			if err != nil {
				return usagef("--capacity: %v", err)
			}
			o.CapacityBytes = n
		}
		if len(fs.Args()) == 0 {
			return usagef("missing SNAPSHOT")
		}
		var out struct {
			Files []report.AnalysisFile `json:"files"`
		}
		failed := 0
		for _, path := range fs.Args() {
			if err := ctx.Err(); err != nil {
				return err
			}
			rep, err := analyzeFile(ctx, path, o)
			if err != nil && ctx.Err() != nil {
				return err // interrupted: no more files, no partial report
			}
			if err != nil {
				// One bad file must not hide the others' reports.
				fmt.Fprintf(env.Stderr, "vramkit analyze: %s\n", oneLine(err))
				failed++
				continue
			}
			out.Files = append(out.Files, report.AnalysisFile{Path: path, Devices: rep.Devices})
		}
		if failed > 0 && len(out.Files) == 0 {
			return &ExitError{Code: 1}
		}
		if err := report.Write(env.Stdout, *format, out, func(w io.Writer) error { report.AnalysisText(w, out.Files); return nil }); err != nil {
			return err
		}
		if failed > 0 {
			return &ExitError{Code: 1}
		}
		return nil
	}
	return c
}

// analyzeFile loads and analyzes one snapshot; errors name the file.
func analyzeFile(ctx context.Context, path string, o analyze.Options) (*analyze.Report, error) {
	ro := allocsim.DefaultReplayOptions()
	ro.MakeRequests = o.MakeRequests
	tl := analyze.NewTimelineAhead(o.AdviseHugePages)
	s, ahead, err := loadReplaying(ctx, path, ro, allocsim.AheadOptions{Requests: tl.Add})
	if err != nil {
		return nil, err
	}
	o.Ahead, o.Timeline = ahead, tl
	rep, err := analyze.AnalyzeContext(ctx, s, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}
