package infer

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// probeRow is one line of scripts/warper_time.py's output.
type probeRow struct {
	Op    string  `json:"op"`
	Batch int64   `json:"b"`
	Vocab int64   `json:"vocab"`
	GPU   float64 `json:"gpu_s"`
}

// readWarperProbe reads testdata/SET/probe/warper_time.jsonl.
func readWarperProbe(t *testing.T, set string) []probeRow {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", set, "probe", "warper_time.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []probeRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r probeRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestSamplerCostsMatchProbe: each sampling operator's priced GPU time is
// within 30% of what the probe timed at every shape from 8 × 32000 to
// 160 × 151936, on dev103's H200 (4800 GB/s in the table) and dev104's
// H100 (3350 GB/s), each GPU's own fit (top_p, the one that matters,
// within 10%; temperature within 10 µs; min_p, timed on the H100 only,
// within 15% there), and Llama 3 Instruct's chain (temperature, top_k 50,
// top_p, then softmax and multinomial) timed as one call within 30% of the
// parts' sum, or at the smallest shape, where the chain's Python bounds
// it, of its allocations at the host's cost each (31 × 15 µs against
// 0.53 ms on the H200).
func TestSamplerCostsMatchProbe(t *testing.T) {
	l3 := sampleSpec(8, 64, 4)
	l3.DoSample, l3.TopP, l3.Temperature = true, 0.9, 0.6
	c, err := resolve(l3)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := replay(c, allocsim.DefaultConfig(), 0)
	chainHost := float64(m.samplerOps[1]) * defaultTimeModel().hostOp
	for _, g := range []struct {
		set, gpu string
		bw       float64
		rows     int
	}{{"dev103", "h200", 4800e9, 30}, {"dev104", "h100", 3350e9, 36}} {
		k, measured := samplerCostsOf(g.gpu)
		if !measured {
			t.Fatalf("%s: no measured sampler costs", g.gpu)
		}
		costs := map[string]opCost{"temperature": k.temperature, "top_k50": k.topK, "top_p0.9": k.topP,
			"softmax_multinomial": k.sample, "min_p0.1": k.minP}
		seen := 0
		for _, r := range readWarperProbe(t, g.set) {
			n := float64(r.Batch * r.Vocab)
			var want float64
			switch {
			case r.Op == "l3inst_chain_and_sample":
				for _, op := range []string{"temperature", "top_k50", "top_p0.9", "softmax_multinomial"} {
					want += costs[op].seconds(n, g.bw)
				}
				// as samplerTime prices it: at 8 × 32000 issuing the chain
				// (LogitsProcessorList's Python) takes longer than its kernels
				want = max(want, chainHost)
			case costs[r.Op] != opCost{}:
				want = costs[r.Op].seconds(n, g.bw)
			default:
				continue // argmax (greedy, unchanged), repetition_penalty (by allocations)
			}
			seen++
			tol := map[string]float64{"top_p0.9": 0.10, "min_p0.1": 0.15}[r.Op]
			if tol == 0 {
				tol = 0.30
			}
			e := want/r.GPU - 1
			if r.Op == "temperature" && math.Abs(want-r.GPU) < 10e-6 {
				e = 0 // a few microseconds, at the timer's resolution
			}
			if math.Abs(e) > tol {
				t.Errorf("%s: %s at %d × %d: priced %.3f ms, probe %.3f ms (%+.0f%%)", g.gpu, r.Op, r.Batch, r.Vocab, 1e3*want, 1e3*r.GPU, 100*e)
			}
		}
		if seen != g.rows {
			t.Errorf("%s: %d probe rows priced, want %d", g.gpu, seen, g.rows)
		}
	}
}

// TestMinPCostMatchesProbe: min_p was timed by dev104's probe on a lent
// H100 beside the operators dev103 timed on an H200. Its H200 time is the
// H100's scaled at each shape by how much faster the H200 ran top_k 50
// plus softmax and multinomial (0.63x at 8 × 32000, 0.81-0.89x from
// 32 × 50257 up); the H200's min_p cost is within 15% of that at all six
// shapes.
func TestMinPCostMatchesProbe(t *testing.T) {
	type key struct {
		op   string
		b, v int64
	}
	gpu := func(set string) map[key]float64 {
		m := map[key]float64{}
		for _, r := range readWarperProbe(t, set) {
			m[key{r.Op, r.Batch, r.Vocab}] = r.GPU
		}
		return m
	}
	h200, h100 := gpu("dev103"), gpu("dev104")
	minP := measuredSampler["h200"].minP
	seen := 0
	for k, t100 := range h100 {
		if k.op != "min_p0.1" {
			continue
		}
		seen++
		both := func(m map[key]float64) float64 {
			return m[key{"top_k50", k.b, k.v}] + m[key{"softmax_multinomial", k.b, k.v}]
		}
		n := float64(k.b * k.v)
		t200 := t100 * both(h200) / both(h100)
		if e := minP.seconds(n, 4800e9)/t200 - 1; math.Abs(e) > 0.15 || math.IsNaN(e) {
			t.Errorf("min_p at %d × %d on an H200: priced %.3f ms, probe scaled %.3f ms (%+.0f%%)", k.b, k.v,
				1e3*minP.seconds(n, 4800e9), 1e3*t200, 100*e)
		}
	}
	if seen != 6 {
		t.Errorf("%d min_p probe rows, want 6", seen)
	}
}

// twinRatio is the plan's and the measured sampled over greedy decode
// speed of a timed pair in testdata/SET/generate on gpu: measured by the
// median runs and by the fastest (decode_tok_s as gt_work computes it),
// since a lent host's three runs scatter.
func twinRatio(t *testing.T, set, gpu, greedy, sampled string) (planned, median, fast float64) {
	t.Helper()
	rows := map[string]captureRow{}
	for _, r := range rowsOf(t, func(r captureRow) bool { return r.Decode > 0 }, set) {
		rows[r.Name] = r
	}
	g, s := rows[greedy], rows[sampled]
	if g.Decode == 0 || s.Decode == 0 {
		t.Fatalf("%s: twins %s / %s not found", set, greedy, sampled)
	}
	speed := func(r captureRow) float64 {
		spec := r.spec()
		spec.GPU = gpu
		res, err := Estimate(spec)
		if err != nil {
			t.Fatal(err)
		}
		return res.DecodeTokensPerSec
	}
	fastest := func(r captureRow) float64 {
		return float64(r.Batch*(r.NewTokens-1)) / (slices.Min(r.GenerateAll) - r.Prefill)
	}
	planned, median, fast = speed(s)/speed(g), s.Decode/g.Decode, fastest(s)/fastest(g)
	t.Logf("%s: sampled/greedy decode speed planned %.3f, measured %.3f (median runs), %.3f (fastest)", sampled, planned, median, fast)
	return planned, median, fast
}

// TestSampledTwinsRatio: timed twins, greedy and sampled, on one host in
// one call: the plan's sampled over greedy decode speed within 5% of the
// measured ratios, of the median runs and of the fastest (dev102 on a
// lent H100: Llama 3.2 1B b32 with Llama 3 Instruct's warpers, GPT-2
// medium top_k 50; dev103 on a lent H200: Qwen2.5-0.5B b128 top_p 0.9,
// where top_p's sort of 19.4M scores takes 2.8 ms a step; its sampled
// runs took 2.44 to 3.71 s, so the ratio is 0.75 by the median runs and
// 0.82 by the fastest). Before the sampler was priced from the probe the
// plan said 0.98 there. dev104 on a lent H100: the same Qwen2.5-0.5B b128
// under min_p 0.1 alone ran 0.83x (median runs) to 0.90x (fastest) its
// greedy twin, planned 0.953 with min_p priced from its operators' bytes,
// 0.925 with the H200 probe's fit scaled by bandwidth and 0.939 with the
// H100's own fit (dev104's probe).
func TestSampledTwinsRatio(t *testing.T) {
	for _, tc := range []struct {
		set, gpu, greedy, sampled string
	}{
		{"dev102/timed", "h100", "dev102-tg-greedy-llama32-1b-b32-p512-n64", "dev102-tg-sample-l3inst-llama32-1b-b32-p512-n64"},
		{"dev102/timed", "h100", "dev102-tg-greedy-gpt2-medium-b32-p256-n64", "dev102-tg-sample-default-gpt2-medium-b32-p256-n64"},
		{"dev103/timed", "h200", "dev103-tg-greedy-qwen25-05b-rows128-b128-p64-n128", "dev103-tg-sample-topp-qwen25-05b-rows128-b128-p64-n128"},
		{"dev104/timed", "h100", "dev104-tg-greedy-qwen25-05b-rows128-b128-p64-n128", "dev104-tg-sample-minp-qwen25-05b-rows128-b128-p64-n128"},
	} {
		planned, median, fast := twinRatio(t, tc.set, tc.gpu, tc.greedy, tc.sampled)
		if planned < 0.95*min(median, fast) || planned > 1.05*max(median, fast) {
			t.Errorf("%s: sampled/greedy planned %.3f, measured %.3f (median runs) to %.3f (fastest)", tc.sampled, planned, median, fast)
		}
	}
}

// TestLate96SampledTwins holds late96's twins (call 189, a lent H100),
// blind until evaluated once at f2e68ed: the plan's sampled/greedy ratio
// within 10% of the median runs' at five of six shapes (Llama 3.2 1B b64
// Llama 3 Instruct -5.9%, Qwen2.5-1.5B b96 Qwen2.5 Instruct -3.0%, GPT-2
// medium b192 top_p -9.9%, TinyLlama b256 top_p -0.5%, Mistral 7B b16
// top_k +5.7%; before the probe's pricing +8.1%, +13.1%, +6.5%, +11.0%,
// +5.7%). BART-large b64's sampled twin ran 1.21x faster than its greedy
// one, prefill too (18.5 against 24.8 ms): the greedy process was slow on
// that host, which no sampler explains; it is logged, not held. With the
// H100's own sampler fits (dev104's probe, after the evaluation) the five
// come within 3.3%, 0.3%, 6.6%, 1.7% and 5.5%: held at 7%.
func TestLate96SampledTwins(t *testing.T) {
	for _, name := range []string{"l3inst-llama32-1b-b64-p128-n128", "q25inst-qwen25-15b-b96-p64-n128",
		"topp-gpt2-medium-rows192-b192-p32-n128", "topp-tinyllama-rows256-b256-p32-n64", "topp-bart-large-b64-p128-n64",
		"default-mistral-7b-b16-p256-n128"} {
		planned, median, _ := twinRatio(t, "late96", "h100", "late96-tg-greedy-"+name, "late96-tg-sample-"+name)
		if e := planned/median - 1; math.Abs(e) > 0.07 && !strings.Contains(name, "bart") {
			t.Errorf("%s: sampled/greedy planned %.3f, measured %.3f (%+.1f%%)", name, planned, median, 100*e)
		}
	}
}
