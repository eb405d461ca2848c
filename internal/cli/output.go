package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// loadSnapshot reads a snapshot file, with errors that name the file once.
func loadSnapshot(path string) (*snapshot.Snapshot, error) {
	if path == "-" {
		return snapshot.Load(os.Stdin)
	}
	return snapshot.LoadFile(path)
}

// oneArg checks that exactly one positional argument was given.
func oneArg(args []string, what string) (string, error) {
	switch len(args) {
	case 0:
		return "", usagef("missing %s", what)
	case 1:
		return args[0], nil
	}
	return "", usagef("want one %s, got %d arguments", what, len(args))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
