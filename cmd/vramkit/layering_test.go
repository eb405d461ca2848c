package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/vramkit/vramkit/"

// core are the pure packages of ARCHITECTURE.md's "Dependency direction"
// with their place in the pipeline: each may import the standard library
// and core packages of a lower rank only (units and names are leaves that
// every stage may use, gpu reads byte sizes with units; analyze and memmodel
// are parallel branches).
var core = map[string]int{
	"internal/units": 0, "internal/lint": 0, "internal/names": 0,
	"internal/pickle": 1, "internal/lint/rules": 1, "internal/gpu": 1,
	"internal/snapshot": 2,
	"internal/allocsim": 3,
	"internal/analyze":  4, "internal/memmodel": 4,
	"internal/plan": 5, "internal/infer": 5,
}

// thirdParty are the only packages that may import modules from outside
// the standard library: the device, socket and terminal edges, the
// renderers and the parser glue.
var thirdParty = map[string]bool{
	"internal/nvml": true, "internal/monitor": true, "internal/exporter": true, "internal/tui": true,
	"internal/report": true, "internal/report/html": true, "internal/lint/pyparse": true, "internal/cli": true,
}

// edges are standard-library packages that reach devices, processes or
// sockets, which the core never touches.
var edges = map[string]bool{"net": true, "net/http": true, "os/exec": true, "os/signal": true, "syscall": true, "unsafe": true}

// TestLayering reads the imports of every non-test Go file under
// internal/ (all build tags) and checks them against the rules above.
func TestLayering(t *testing.T) {
	imports := map[string]map[string]bool{} // package dir -> imported paths
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, string(filepath.Separator)+"testdata"+string(filepath.Separator)) {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, s := range f.Imports {
			p, _ := strconv.Unquote(s.Path.Value)
			imports[pkg][p] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"internal/snapshot", "internal/cli", "internal/report"} {
		if imports[want] == nil {
			t.Fatalf("found no Go files in %s: the walk is broken", want)
		}
	}
	for pkg, imps := range imports {
		for imp := range imps {
			if msg := check(pkg, imp); msg != "" {
				t.Errorf("%s imports %s: %s", pkg, imp, msg)
			}
		}
	}
}

// check returns why pkg may not import imp, or "".
func check(pkg, imp string) string {
	rank, isCore := core[pkg]
	own := strings.HasPrefix(imp, module)
	std := !own && !strings.Contains(strings.Split(imp, "/")[0], ".")
	switch {
	case std && isCore && edges[imp]:
		return "the pure core does not touch devices, processes or sockets"
	case std:
		return ""
	case !own && !thirdParty[pkg]:
		return "only the device, terminal and rendering edges (and cli) import third-party modules"
	case !own || !isCore:
		return ""
	}
	dep := strings.TrimPrefix(imp, module)
	r, ok := core[dep]
	if !ok {
		return "the core imports only the standard library and other core packages"
	}
	if r >= rank {
		return "against the pipeline order (" + strconv.Itoa(rank) + " may use only lower ranks, not " + strconv.Itoa(r) + ")"
	}
	return ""
}

// TestLayeringCatches checks that the rules reject what they should, so
// the test above cannot pass by checking nothing.
func TestLayeringCatches(t *testing.T) {
	for _, c := range []struct{ pkg, imp string }{
		{"internal/allocsim", module + "internal/analyze"},
		{"internal/snapshot", module + "internal/report"},
		{"internal/memmodel", "github.com/google/pprof/profile"},
		{"internal/analyze", "os/exec"},
		{"internal/capture", "github.com/charmbracelet/bubbletea"},
		{"internal/plan", module + "internal/plan"},
	} {
		if check(c.pkg, c.imp) == "" {
			t.Errorf("%s importing %s passes", c.pkg, c.imp)
		}
	}
	for _, c := range []struct{ pkg, imp string }{
		{"internal/analyze", module + "internal/allocsim"},
		{"internal/report", "github.com/google/pprof/profile"},
		{"internal/cli", module + "internal/analyze"},
		{"internal/units", "fmt"},
	} {
		if msg := check(c.pkg, c.imp); msg != "" {
			t.Errorf("%s importing %s rejected: %s", c.pkg, c.imp, msg)
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "go.mod")); err != nil {
		t.Fatal("the test must run from cmd/vramkit")
	}
}
