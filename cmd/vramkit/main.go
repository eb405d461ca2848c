// Command vramkit sees, predicts and cuts the GPU memory of PyTorch training.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/vramkit/vramkit/internal/cli"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// A large snapshot is mostly pointer-free trace events, which the
		// collector never scans, so collecting often is cheap; the default
		// (GOGC=100) would let garbage grow to the size of those events
		// before the first collection, doubling peak memory.
		debug.SetGCPercent(25)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
