package main

import (
	"math"
	"testing"

	"github.com/vramkit/vramkit/bench/measured"
)

// Two capture sets whose files are both "timing/results.jsonl" are two
// hosts: -fit-within centres each on its own median, and a row's error
// within its file is what is left.
func TestRowLogErrsWithinFile(t *testing.T) {
	row := func(name string, err float64) measured.StepRow {
		return measured.StepRow{Name: name, Source: "timing/results.jsonl", Err: err}
	}
	rows := []measured.StepRow{
		row("late60-t-a", -0.20), row("late60-t-b", 0.0), row("late60-t-c", 0.10),
		row("late61-t-a", 0.30), row("late61-t-b", 0.50),
	}
	if fileKey(rows[0]) == fileKey(rows[3]) || fileKey(rows[0]) != fileKey(rows[2]) {
		t.Fatalf("file keys %q %q %q", fileKey(rows[0]), fileKey(rows[2]), fileKey(rows[3]))
	}
	plain := rowLogErrs(rows, false)
	within := rowLogErrs(rows, true)
	for i, r := range rows {
		if math.Abs(plain[i]-math.Log1p(r.Err)) > 1e-12 {
			t.Errorf("%s: plain %v, want log1p(%v)", r.Name, plain[i], r.Err)
		}
	}
	// late60's median is row b's, late61's the mean of its two
	want := []float64{math.Log(0.8), 0, math.Log(1.1), (math.Log(1.3) - math.Log(1.5)) / 2, (math.Log(1.5) - math.Log(1.3)) / 2}
	for i := range rows {
		if math.Abs(within[i]-want[i]) > 1e-12 {
			t.Errorf("%s: within %v, want %v", rows[i].Name, within[i], want[i])
		}
	}
}

func TestStepBound(t *testing.T) {
	cases := []struct {
		host, gpu float64
		want      string
	}{{0.030, 0.020, "host-bound"}, {0.029, 0.020, "balanced"}, {0.020, 0.030, "GPU-bound"}, {0.020, 0.020, "balanced"}}
	for _, c := range cases {
		if got := stepBound(measured.StepRow{HostS: c.host, GPUS: c.gpu}); got != c.want {
			t.Errorf("host %v gpu %v: %s, want %s", c.host, c.gpu, got, c.want)
		}
	}
}
