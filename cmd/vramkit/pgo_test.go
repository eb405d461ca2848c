package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// default.pgo is the CPU profile `go build` optimizes this command with
// (profile-guided optimization: hot calls inlined, hot code laid out
// together). It was taken on the issue-17 benchmark snapshot: `stats`
// (the parallel decode and the replay beside it) plus the replay alone
// (bench/load/PROFILE.md says how to take it again). The compiler matches
// its samples to functions by name, so a renamed hot function silently
// loses the optimization: this test names the functions the replay and
// the decode spend their time in, and fails when the profile no longer
// holds one of them.
func TestDefaultPGONamesHotFunctions(t *testing.T) {
	raw, err := os.ReadFile("default.pgo")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("default.pgo: not a gzipped pprof profile: %v", err)
	}
	prof, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("default.pgo: %v", err)
	}
	// The profile's string table holds each sampled function's name.
	for _, name := range []string{
		"internal/allocsim.(*replayer).run",
		"internal/allocsim.(*replayer).free",
		"internal/allocsim.(*replayer).mallocGroup",
		"internal/allocsim.(*Allocator).Malloc",
		"internal/allocsim.(*Allocator).freeBlock",
		"internal/allocsim.(*Allocator).allocFoundBlock",
		"internal/allocsim.(*blockSet).searchNear",
		"internal/allocsim.(*addrTable).put",
		"internal/snapshot.(*chunkDec).entry",
		"internal/snapshot.scanChunk",
	} {
		if !bytes.Contains(prof, []byte(module+name)) {
			t.Errorf("default.pgo has no samples of %s: take the profile again (bench/load/PROFILE.md)", name)
		}
	}
}
