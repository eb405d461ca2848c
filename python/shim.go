// Package python holds the capture shim that `vramkit run` injects into
// Python programs: a sitecustomize.py that loads _vramkit_shim.py and then
// chains to whatever sitecustomize would otherwise have run. The files are
// embedded in the binary and written to a temporary directory that is put
// first on PYTHONPATH.
package python

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
)

//go:embed sitecustomize.py _vramkit_shim.py
var files embed.FS

// Files are the shim's file names.
var Files = []string{"sitecustomize.py", "_vramkit_shim.py"}

// Install writes the shim into dir, which must exist.
func Install(dir string) error {
	for _, name := range Files {
		b, err := files.ReadFile(name)
		if err != nil {
			return fmt.Errorf("python: embedded %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("python: install shim: %w", err)
		}
	}
	return nil
}
