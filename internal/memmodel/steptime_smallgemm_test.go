package memmodel

import (
	"encoding/json"
	"os"
	"testing"
)

// smallGEMMRow is a row of testdata/dev16's small-GEMM timings.
type smallGEMMRow struct {
	Dtype   string  `json:"dtype"`
	M       int64   `json:"M"`
	N       int64   `json:"N"`
	K       int64   `json:"K"`
	Role    string  `json:"role"`
	Seconds float64 `json:"s"`
}

// readSmallGEMM reads the rows of a dev16 file: the eager calibration run
// (field gemm_small) or the CUDA-graph replay of its shapes (rows).
func readSmallGEMM(t *testing.T, name, field string) []smallGEMMRow {
	t.Helper()
	data, err := os.ReadFile("../../testdata/dev16/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var rows []smallGEMMRow
	if err := json.Unmarshal(f[field], &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 240 {
		t.Fatalf("%s: %d rows, want 240", name, len(rows))
	}
	return rows
}

// TestMMHostBoundAgainstGraphReplay: the small-GEMM shapes replayed from a
// CUDA graph (no host in the time) say which eager timings measured the
// host. Above mmIssue×enqueue every eager time but one (fp32 256×1024×1024
// forward: 27.7 µs eager, 19.6 replayed) is within 25% of its replay; at
// hostBound's 2× margin 17 would not be.
func TestMMHostBoundAgainstGraphReplay(t *testing.T) {
	r := h200Rates(t)
	type key struct {
		dtype   string
		m, n, k int64
	}
	replay := map[key]float64{}
	for _, row := range readSmallGEMM(t, "dev16-graph-small-gemm.json", "rows") {
		replay[key{row.Dtype, row.M, row.N, row.K}] = row.Seconds
	}
	var keptOff, marginOff int
	for _, row := range readSmallGEMM(t, "dev16-calibration-small-gemm.json", "gemm_small") {
		g, ok := replay[key{row.Dtype, row.M, row.N, row.K}]
		if !ok {
			t.Fatalf("%+v: no replay", row)
		}
		off := row.Seconds/g > 1.25
		if off && !r.mmHostBound(row.Seconds) {
			keptOff++
			if row.Dtype != "fp32" || row.M != 256 || row.N != 1024 || row.K != 1024 {
				t.Errorf("%s %s %d×%d×%d: eager %.1f µs kept, replay %.1f µs", row.Dtype, row.Role, row.M, row.N, row.K,
					row.Seconds*1e6, g*1e6)
			}
		}
		if off && !r.hostBound(row.Seconds) {
			marginOff++
		}
	}
	if keptOff > 1 || marginOff != 17 {
		t.Errorf("host-timed rows kept: %d above mmIssue (want 1), %d above hostBound (want 17)", keptOff, marginOff)
	}
}
