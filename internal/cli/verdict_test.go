package cli

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// verdictJSON is the decision as every deciding output writes it.
type verdictJSON struct {
	Fits     bool   `json:"fits"`
	High     int64  `json:"high_bytes"`
	Limit    int64  `json:"limit_bytes"`
	Headroom int64  `json:"headroom_bytes"`
	Text     string `json:"text"`
}

// check fails when the verdict's words, fits flag and headroom disagree.
func (v verdictJSON) check(t *testing.T, what string) {
	t.Helper()
	if v.Headroom != v.Limit-v.High || (v.Headroom >= 0) != v.Fits ||
		strings.HasPrefix(v.Text, "fits with 95% confidence") != v.Fits || (!v.Fits && !strings.Contains(v.Text, "does NOT fit")) {
		t.Errorf("%s: verdict contradicts itself: %+v", what, v)
	}
}

var verdictLine = regexp.MustCompile(`(?m)^ *((fits with|does NOT fit)[^\n]*)$`)

// TestVerdictNeverContradicts plans random configurations on random GPUs
// through the CLI, as text and as JSON, for a single estimate, --fit,
// --sweep and --task generate (with --fit): in every output the verdict's
// words, its fits flag and its headroom (limit − band top) agree, and the
// text prints the same decision the JSON holds.
func TestVerdictNeverContradicts(t *testing.T) {
	if testing.Short() {
		t.Skip("plans many configurations")
	}
	rng := rand.New(rand.NewSource(18))
	models := []string{"gpt2", "gpt2-medium", "llama3.2-1b", "llama3-8b", "qwen2.5-0.5b", "bert-base", "t5-small", "mistral-7b"}
	gpus := []string{"h200", "rtx4090", "t4", "a100-40gb", "l4"}
	precs := []string{"bf16-amp", "fp16-amp", "fp32", "bf16"}
	seen := map[bool]int{}
	for i := 0; i < 24; i++ {
		m, g := models[rng.Intn(len(models))], gpus[rng.Intn(len(gpus))]
		args := []string{"plan", "--model", m, "--gpu", g, "--batch", fmt.Sprint(1 << rng.Intn(5)), "--seq", fmt.Sprint(128 << rng.Intn(4)),
			"--precision", precs[rng.Intn(len(precs))]}
		if rng.Intn(3) == 0 {
			args = append(args, "--checkpoint", "block")
		}
		if rng.Intn(3) == 0 && m != "bert-base" && m != "t5-small" {
			args = append(args, "--lora-rank", "16")
		}
		code, out, stderr := runCLI(t, append(args, "--format", "json")...)
		if code != 0 {
			if strings.Contains(stderr, "invalid spec") {
				continue
			}
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var r struct {
			Fits     bool        `json:"fits"`
			Headroom int64       `json:"headroom_bytes"`
			Verdict  verdictJSON `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		r.Verdict.check(t, strings.Join(args, " "))
		if r.Fits != r.Verdict.Fits || r.Headroom != r.Verdict.Headroom {
			t.Errorf("%v: result fits %v headroom %d, verdict %+v", args, r.Fits, r.Headroom, r.Verdict)
		}
		seen[r.Fits]++
		_, text, _ := runCLI(t, args...)
		if mm := verdictLine.FindStringSubmatch(text); mm == nil || !strings.HasPrefix(mm[1], r.Verdict.Text) {
			t.Errorf("%v: text verdict %q, JSON %q", args, mm, r.Verdict.Text)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("want both verdicts among the random plans, got %v", seen)
	}
	// --fit and --sweep decide on the band's top against the budget
	_, out, stderr := runCLI(t, "plan", "--model", "gpt2", "--gpu", "t4", "--seq", "512", "--fit", "--global-batch", "32", "--margin", "0.1", "--format", "json")
	var fit struct {
		Best     struct{ Verdict verdictJSON } `json:"best"`
		Feasible []struct{ Verdict verdictJSON }
		Rejected []struct{ Verdict verdictJSON } `json:"rejected_faster"`
	}
	if err := json.Unmarshal([]byte(out), &fit); err != nil {
		t.Fatalf("--fit: %v (%s)", err, stderr)
	}
	fit.Best.Verdict.check(t, "--fit best")
	for _, c := range append(fit.Feasible, fit.Rejected...) {
		c.Verdict.check(t, "--fit candidate")
	}
	_, out, _ = runCLI(t, "plan", "--model", "gpt2-medium", "--gpu", "rtx4090", "--seq", "1024", "--sweep", "batch=1..64", "--format", "json")
	var sw struct {
		Points []struct{ Verdict verdictJSON } `json:"points"`
		Last   verdictJSON                     `json:"largest_verdict"`
	}
	if err := json.Unmarshal([]byte(out), &sw); err != nil {
		t.Fatal(err)
	}
	for _, p := range sw.Points {
		p.Verdict.check(t, "--sweep point")
	}
	sw.Last.check(t, "--sweep largest")
	for _, gen := range [][]string{
		{"plan", "--task", "generate", "--model", "qwen2.5-0.5b", "--batch", "8", "--seq", "1024", "--new-tokens", "128", "--gpu", "t4"},
		{"plan", "--task", "generate", "--model", "mistral-7b", "--batch", "64", "--seq", "4096", "--new-tokens", "128", "--gpu", "rtx4090"},
		{"plan", "--task", "generate", "--model", "qwen2.5-0.5b", "--seq", "2048", "--new-tokens", "128", "--gpu", "l4", "--fit", "--margin", "0.1"},
	} {
		code, out, stderr := runCLI(t, append(gen, "--format", "json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", gen, code, stderr)
		}
		var r struct {
			Fits     bool        `json:"fits"`
			Headroom int64       `json:"headroom_bytes"`
			Verdict  verdictJSON `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		r.Verdict.check(t, strings.Join(gen, " "))
		_, text, _ := runCLI(t, gen...)
		if !strings.Contains(text, r.Verdict.Text) {
			t.Errorf("%v: text lacks the JSON verdict %q:\n%s", gen, r.Verdict.Text, text)
		}
	}
}
