package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TestNewSegmentsMatchTrace: the list's new segments for dev42's ViT-B/16
// b128 fp16 checkpointed step are the large segments PyTorch made in its
// trace, in its order (testdata/dev42; the model reproduces them since
// session 22), so a list line marked as a new segment is one and carries
// its size.
func TestNewSegmentsMatchTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a snapshot")
	}
	root := "../../testdata/dev42/dev42/"
	spec := filepath.Join(t.TempDir(), "spec.json")
	js := `{"model": "vit-b16", "batch": 128, "image": 224, "precision": "fp16-amp", "checkpoint": "block"}`
	if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(spec, 3, &out); err != nil {
		t.Fatal(err)
	}
	var got []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 4 && strings.HasPrefix(f[1], "A") && f[2] == "-1.00" && f[3] != "2.0" {
			got = append(got, f[3])
		}
	}
	snap, err := snapshot.LoadFile(root + "dev42-vitb16-b128-fp16-ckpt.pickle.gz")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range snap.Trace(0) {
		if e.Action == snapshot.ActionSegmentAlloc && e.Size > 2<<20 {
			want = append(want, fmt.Sprintf("%.1f", float64(e.Size)/(1<<20)))
		}
	}
	if len(want) != 45 || !slices.Equal(got, want) {
		t.Errorf("new segments %v, trace %v", got, want)
	}
}

// TestRunNeedsSpec: no spec is one clear error.
func TestRunNeedsSpec(t *testing.T) {
	if err := run("", 3, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "-spec") {
		t.Errorf("err %v, want one naming -spec", err)
	}
}
