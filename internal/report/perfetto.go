package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// Marker is a point in time worth a flag: an OOM, a leak finding, an
// iteration boundary.
type Marker struct {
	TimeUS int64  `json:"t"` // trace time, µs
	Kind   string `json:"kind"`
	Label  string `json:"label"`
	Bytes  int64  `json:"bytes,omitempty"`
}

// CounterSeries is an extra counter track, such as one memory category,
// sampled where each timeline bucket's allocated memory peaks (Values[i]
// is bytes at bucket i's AllocMaxAt).
type CounterSeries struct {
	Name   string
	Values []int64
}

// OOMMarkers lists the trace's out-of-memory events.
func OOMMarkers(trace []snapshot.TraceEvent) []Marker {
	var out []Marker
	for i := range trace {
		if e := &trace[i]; e.Action == snapshot.ActionOOM {
			out = append(out, Marker{TimeUS: e.TimeUS, Kind: "oom", Bytes: int64(e.Size),
				Label: fmt.Sprintf("CUDA out of memory: %d bytes requested, %d bytes free on the device", e.Size, e.DeviceFree())})
		}
	}
	return out
}

// IterationMarkers finds iteration boundaries in the snapshot's external
// annotations: the end of each optimizer step, which torch.optim records
// when memory history is on.
func IterationMarkers(s *snapshot.Snapshot, dev int) []Marker {
	var out []Marker
	for _, a := range s.Annotations {
		if a.Device == dev && a.Stage == "END" && len(a.Name) >= 15 && a.Name[:15] == "Optimizer.step#" {
			out = append(out, Marker{TimeUS: a.TimeUS, Kind: "iteration", Label: fmt.Sprintf("end of step %d", len(out)+1)})
		}
	}
	return out
}

// WritePerfetto writes a Chrome trace-event JSON file (which Perfetto and
// chrome://tracing open, and which merges with a torch.profiler trace) with
// counter tracks for allocated and reserved bytes, extra counters, and
// instant events for markers. Timestamps are the trace's own µs, so the
// tracks line up with a profiler trace of the same run. Each bucket's
// extremes are written at the times they were reached, so the counters'
// maxima are the exact peaks.
func WritePerfetto(w io.Writer, tl *Timeline, extra []CounterSeries, markers []Marker) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	pid := tl.Device
	fmt.Fprintf(bw, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n")
	fmt.Fprintf(bw, `{"name":"process_name","ph":"M","pid":%d,"tid":0,"args":{"name":"CUDA device %d memory (vramkit)"}}`, pid, pid)
	counter := func(name string, ts, v int64) {
		fmt.Fprintf(bw, ",\n{\"name\":%s,\"ph\":\"C\",\"ts\":%d,\"pid\":%d,\"tid\":0,\"args\":{\"bytes\":%d}}", jsonString(name), ts, pid, v)
	}
	pair := func(name string, t1, v1, t2, v2 int64) {
		if t2 < t1 {
			t1, v1, t2, v2 = t2, v2, t1, v1
		}
		counter(name, t1, v1)
		if t2 != t1 || v2 != v1 {
			counter(name, t2, v2)
		}
	}
	for _, b := range tl.Buckets {
		pair("allocated", b.AllocMinUS, b.AllocMin, b.AllocMaxUS, b.AllocMax)
		pair("reserved", b.ResMinUS, b.ResMin, b.ResMaxUS, b.ResMax)
	}
	for _, c := range extra {
		for i, v := range c.Values {
			if i < len(tl.Buckets) {
				counter(c.Name, tl.Buckets[i].AllocMaxUS, v)
			}
		}
	}
	for _, m := range markers {
		args, _ := json.Marshal(map[string]any{"detail": m.Label, "bytes": m.Bytes})
		fmt.Fprintf(bw, ",\n{\"name\":%s,\"ph\":\"i\",\"s\":\"g\",\"ts\":%d,\"pid\":%d,\"tid\":0,\"args\":%s}",
			jsonString(m.Kind), m.TimeUS, pid, args)
	}
	fmt.Fprintf(bw, "\n]}\n")
	return bw.Flush()
}

// jsonString quotes s as a JSON string (Go's %q escapes differ from JSON's).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
