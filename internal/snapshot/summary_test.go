package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The JSON summaries next to each test snapshot are computed by CPython
// (testdata/snapshots/summarize.py) from the same pickle. summarize
// computes the same summary from what Load returned; the two must agree.

const fixtures = "../../testdata/snapshots"

func summarize(s *Snapshot) map[string]any {
	out := map[string]any{"legacy_list": s.LegacyList, "segments": len(s.Segments)}
	var nblocks int
	total, alloc, active, requested := new(big.Int), new(big.Int), new(big.Int), new(big.Int)
	states := map[string]int{}
	for _, g := range s.Segments {
		nblocks += len(g.Blocks)
		addU(total, g.TotalSize)
		addU(alloc, g.AllocatedSize)
		addU(active, g.ActiveSize)
		for _, b := range g.Blocks {
			states[b.State.String()]++
			addU(requested, b.RequestedSize)
		}
	}
	out["blocks"] = nblocks
	out["total_size"], out["allocated_size"], out["active_size"] = total, alloc, active
	out["block_states"], out["block_requested"] = states, requested
	out["first_segment"], out["last_segment"] = nil, nil
	if n := len(s.Segments); n > 0 {
		out["first_segment"] = segmentSummary(s, &s.Segments[0])
		out["last_segment"] = segmentSummary(s, &s.Segments[n-1])
	}
	devices := []any{}
	var sample []Frame
	for _, d := range s.Devices {
		actions, sums := map[string]int{}, map[string]*big.Int{}
		for i := range d.Events {
			e := &d.Events[i]
			a := e.Action.String()
			actions[a]++
			if sums[a] == nil {
				sums[a] = new(big.Int)
			}
			addU(sums[a], e.Size)
			if sample == nil && e.Stack != 0 {
				sample = s.Frames(e.Stack)
			}
		}
		dev := map[string]any{"device": d.Device, "events": len(d.Events), "actions": actions,
			"size_sums": sums, "first": nil, "last": nil}
		if n := len(d.Events); n > 0 {
			dev["first"] = eventSummary(s, &d.Events[0])
			dev["last"] = eventSummary(s, &d.Events[n-1])
		}
		devices = append(devices, dev)
	}
	out["devices"] = devices
	if len(sample) > 3 {
		sample = sample[:3]
	}
	out["frames_sample"] = append([]Frame{}, sample...)
	out["settings"] = nil
	if st := s.Settings; st.Present {
		out["settings"] = map[string]any{"alloc_conf": st.AllocConf, "max_split": st.MaxSplit,
			"gc_threshold": st.GCThreshold, "expandable": st.Expandable,
			"release_lock": st.ReleaseLock, "roundup_divisions": st.RoundupDivisions}
	}
	out["annotations"] = len(s.Annotations)
	out["first_annotation"] = nil
	if len(s.Annotations) > 0 {
		a := s.Annotations[0]
		extra := map[string]string{}
		for k, v := range a.Extra {
			extra[k] = v
		}
		out["first_annotation"] = map[string]any{"device": a.Device, "time_us": a.TimeUS,
			"name": a.Name, "stage": a.Stage, "extra": extra}
	}
	out["stacks"] = len(s.Stacks) - 1
	return out
}

func addU(sum *big.Int, v uint64) { sum.Add(sum, new(big.Int).SetUint64(v)) }

func topFrame(s *Snapshot, id StackID) any {
	if fs := s.Frames(id); len(fs) > 0 {
		return fs[0]
	}
	return nil
}

func segmentSummary(s *Snapshot, g *Segment) map[string]any {
	out := map[string]any{"device": g.Device, "address": g.Address, "total_size": g.TotalSize,
		"allocated_size": g.AllocatedSize, "active_size": g.ActiveSize,
		"requested_size": g.RequestedSize, "stream": g.Stream, "large": g.Large,
		"pool_id": g.PoolID, "expandable": g.Expandable, "frames": len(s.Frames(g.Stack)),
		"blocks": len(g.Blocks), "first_block": nil, "last_block": nil}
	if n := len(g.Blocks); n > 0 {
		out["first_block"] = blockSummary(s, &g.Blocks[0])
		out["last_block"] = blockSummary(s, &g.Blocks[n-1])
	}
	return out
}

func blockSummary(s *Snapshot, b *Block) map[string]any {
	return map[string]any{"address": b.Address, "size": b.Size, "requested_size": b.RequestedSize,
		"state": b.State.String(), "frames": len(s.Frames(b.Stack)), "top_frame": topFrame(s, b.Stack)}
}

func eventSummary(s *Snapshot, e *TraceEvent) map[string]any {
	return map[string]any{"action": e.Action.String(), "addr": e.Addr, "size": e.Size,
		"stream": s.Stream(e), "time_us": e.TimeUS, "frames": len(s.Frames(e.Stack)),
		"top_frame": topFrame(s, e.Stack), "compile_context": s.ContextOf(e).CompileContext,
		"user_metadata": s.ContextOf(e).UserMetadata}
}

// canonical re-encodes JSON with sorted keys, one value per line, numbers
// kept exact (addresses and sizes exceed 2^53).
func canonical(t *testing.T, raw []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(normNumbers(v), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// normNumbers writes 0.8 and 0.80 alike: Python prints floats shortest.
func normNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			f, _ := x.Float64()
			return json.Number(fmt.Sprint(f))
		}
	case map[string]any:
		for k, e := range x {
			x[k] = normNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normNumbers(e)
		}
	}
	return v
}

func checkSummary(t *testing.T, pickle string) {
	t.Helper()
	want, err := os.ReadFile(strings.SplitN(pickle, ".pickle", 2)[0] + ".json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadFile(pickle)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(summarize(s))
	if err != nil {
		t.Fatal(err)
	}
	g, w := canonical(t, got), canonical(t, want)
	if g == w {
		return
	}
	gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			lo := max(0, i-6)
			t.Fatalf("summary differs from CPython's at line %d:\n got: %s\nwant: %s\ncontext (want):\n%s",
				i+1, gl[i], wl[i], strings.Join(wl[lo:min(len(wl), i+3)], "\n"))
		}
	}
	t.Fatalf("summary lengths differ: got %d lines, want %d", len(gl), len(wl))
}

func TestFixturesMatchCPython(t *testing.T) {
	paths, _ := filepath.Glob(fixtures + "/*.pickle*")
	if len(paths) < 4 {
		t.Fatalf("only %d fixtures under %s", len(paths), fixtures)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) { checkSummary(t, p) })
	}
}

func TestSyntheticMatchCPython(t *testing.T) {
	paths, _ := filepath.Glob("testdata/synthetic/*.pickle")
	if len(paths) < 10 {
		t.Fatalf("only %d synthetic snapshots", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) { checkSummary(t, p) })
	}
}
