package cli

import (
	"io"

	"github.com/vramkit/vramkit/internal/analyze"
)

func printAnalysis(w io.Writer, path string, d *analyze.Device) {}
