package cli

import (
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestNewRunDirUnique: runs started in the same second, even at once,
// each get a folder of their own.
func TestNewRunDirUnique(t *testing.T) {
	parent := t.TempDir()
	at := time.Date(2026, 12, 1, 15, 4, 5, 0, time.UTC)
	const n = 8
	dirs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { dirs[i], errs[i] = newRunDir(parent, at) })
	}
	wg.Wait()
	seen := map[string]bool{}
	for i, d := range dirs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if seen[d] {
			t.Errorf("two runs got %s", d)
		}
		seen[d] = true
	}
	for _, want := range []string{"vramkit-run-20261201-150405", "vramkit-run-20261201-150405-2", "vramkit-run-20261201-150405-8"} {
		if !seen[filepath.Join(parent, want)] {
			t.Errorf("no run got %s; got %v", want, dirs)
		}
	}
}
