package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"

	"github.com/vramkit/vramkit/internal/cli"
)

// profileCommand runs one vramkit command in this process under the CPU
// profiler, for the "top functions" the issue asks for:
//
//	benchload -profile cpu.pprof stats FILE --format json
//	go tool pprof -top cpu.pprof
//
// With an OUT ending in ".mem" it writes an allocation profile instead
// (go tool pprof -sample_index=alloc_space -top), and with one ending in
// ".trace" an execution trace (go tool trace OUT): the load's and the
// replay's phases are regions in it ("load: first pass", "load: decode
// chunk", "load: sequential pass", "replay ahead", ...), which show what
// waits on what. Output of the command is discarded; its exit code is
// returned.
func profileCommand(out string, args []string) int {
	f, err := os.Create(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/load:", err)
		return 1
	}
	defer f.Close()
	if strings.HasSuffix(out, ".mem") {
		// An allocation profile instead: every allocation sampled.
		runtime.MemProfileRate = 64 << 10
		code := cli.Main(context.Background(), args, os.Stdin, io.Discard, os.Stderr)
		runtime.GC() // the profile holds what the last collection saw
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			fmt.Fprintln(os.Stderr, "bench/load:", err)
			return 1
		}
		return code
	}
	if strings.HasSuffix(out, ".trace") {
		if err := trace.Start(f); err != nil {
			fmt.Fprintln(os.Stderr, "bench/load:", err)
			return 1
		}
		code := cli.Main(context.Background(), args, os.Stdin, io.Discard, os.Stderr)
		trace.Stop()
		return code
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "bench/load:", err)
		return 1
	}
	code := cli.Main(context.Background(), args, os.Stdin, io.Discard, os.Stderr)
	pprof.StopCPUProfile()
	return code
}
