package memmodel

import "testing"

// TestHostIssueDefaultsToSmall: host costs written before HostCosts.Issue
// existed (no issue_s) price the dispatcher-only calls at Small, as they
// did then; a dearer Issue moves the step (the optimizer's kernels and the
// gradient sums ride on it).
func TestHostIssueDefaultsToSmall(t *testing.T) {
	s := llamaSpec()
	s.Batch, s.Seq = 1, 128
	step := func(h HostCosts) float64 {
		opts := DefaultOptions()
		opts.SkipReserved, opts.Host = true, h
		r, err := Estimate(s, opts)
		if err != nil {
			t.Fatal(err)
		}
		return r.StepTime
	}
	h := DefaultHostCosts()
	old := h
	old.Issue = 0
	if a, b := step(h), step(old); a != b {
		t.Errorf("without issue_s the step is %g s, with Issue = Small %g s", b, a)
	}
	dear := h
	dear.Issue *= 4
	if a, b := step(h), step(dear); b <= a {
		t.Errorf("Issue x4 gives %g s, not more than %g s", b, a)
	}
}
