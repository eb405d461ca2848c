// Command vramkit sees, predicts and cuts the GPU memory of PyTorch training.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/vramkit/vramkit/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
