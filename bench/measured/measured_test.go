package measured

import "testing"

func TestSummarize(t *testing.T) {
	st := Summarize([]float64{-0.1, 0.02, 0.04, -0.03})
	if st.MaxAbs != 0.1 || st.UnderRate != 0.5 || st.MedianAbs < 0.0349 || st.MedianAbs > 0.0351 {
		t.Errorf("Summarize = %+v", st)
	}
}

// TestCarryStaticCache checks the StaticCache length carried between the
// points of one process: only to a later static point that needs less,
// in point order whatever the file order, never across jobs, and not
// from points that failed before generate sized a cache. The real case
// is testdata/late2 (infer's TestLate2StaticCacheReuse).
func TestCarryStaticCache(t *testing.T) {
	g := func(job string, point, prompt, newTok int, cache, status string) GTRow {
		return GTRow{Kind: "gen", Job: job, PointIndex: point, Prompt: prompt, NewTokens: newTok, Cache: cache, Status: status}
	}
	rows := []GTRow{
		g("a", 1, 768, 192, "static", "ok"), // needs 959; point 0 left 1631
		g("a", 0, 1536, 96, "static", "ok"), // 1631
		g("a", 2, 2048, 64, "static", "ok"), // 2111 > 1631: sized to itself
		g("a", 3, 512, 128, "static", "ok"), // 639 after 2111
		g("b", 0, 256, 64, "static", "ok"),  // another process
		g("c", 0, 4096, 64, "static", "error"),
		g("c", 1, 256, 64, "static", "ok"),
		g("d", 0, 4096, 64, "static", "oom"), // sized before its forward failed
		g("d", 1, 256, 64, "dynamic", "ok"),
		g("d", 2, 256, 64, "static", "ok"),
	}
	CarryStaticCache(rows)
	want := []int{1631, 0, 0, 2111, 0, 0, 0, 0, 0, 4159}
	for i, r := range rows {
		if r.MaxCacheLen != want[i] {
			t.Errorf("row %d (job %s point %d): carried %d, want %d", i, r.Job, r.PointIndex, r.MaxCacheLen, want[i])
		}
		if s := GenSpec(r); s.MaxCacheLen != want[i] {
			t.Errorf("row %d: spec max_cache_len %d, want %d", i, s.MaxCacheLen, want[i])
		}
	}
}
