package infer

// The time a sampled generate step spends choosing its token. The
// warpers' kernels run on the batch × vocab float32 scores after the
// forward, and generate reads unfinished_sequences.max() on the host every
// step (a synchronisation), so what they take is added to the step rather
// than hidden under the forward's: a host-bound step waits for the
// sampler's GPU work at its end, a memory-bound one queues it behind the
// forward's. Priced from dev103's probe (bench/gpu/gt/scripts/warper_time.py
// on an H200, torch 2.11, transformers 5.17): GPU time per call of each
// operator at six shapes, batch × vocab from 8 × 32000 to 160 × 151936,
// fitted (least maximum relative error) as a fixed part plus bytes per
// score element at the table's bandwidth:
//
//	temperature           8 µs + 8 B/el     (0.049 ms at 160 × 151936)
//	top_k 50              0.10 ms + 80 B/el (0.61 ms there; within 24%)
//	top_p 0.9             0.12 ms + 608 B/el (3.38 ms there: torch.sort; 9%)
//	softmax, multinomial  0.11 ms + 52 B/el (0.39 ms there; 3%)
//	min_p 0.1             0.12 ms + 130 B/el (0.78 ms there; dev104's
//	                      H100 probe scaled to the H200; 14%)
//
// Llama 3 Instruct's chain timed as one call came within 30% of the
// parts' sum; at 8 × 32000 issuing it (LogitsProcessorList's Python) is
// the bound, priced by its allocations at the host's cost each (31 × 15 µs
// against 0.53 ms). repetition_penalty (0.06 ms whatever the shape) stays
// priced by its allocations as before, greedy or sampled. Before, the plan
// priced the warpers by their allocations like the forward's operators,
// 0.3 ms a step where top_p alone takes 2.8 ms at 128 × 151936: dev103's
// timed Qwen2.5-0.5B at batch 128 ran 0.75-0.82x its greedy twin's speed
// (median and fastest runs), planned 0.98x then and 0.83x now. On a GPU
// other than the H200 the per-element part scales with the table's
// bandwidth; the fixed part is kept.

// samplerWork is the requests and traffic bytes a step's sampling wrote.
type samplerWork struct{ n, traffic int64 }

func (w *samplerWork) add(o samplerWork) { w.n += o.n; w.traffic += o.traffic }

// tally starts counting the stream's requests and traffic bytes; the
// function it returns gives what was written since.
func (s *stream) tally() func() samplerWork {
	n, t := s.n, s.trafficBytes
	return func() samplerWork { return samplerWork{s.n - n, s.trafficBytes - t} }
}

// opCost is one sampling operator's GPU time on batch × vocab scores: a
// fixed part plus bytes per element at the GPU's bandwidth.
type opCost struct{ fixed, perEl float64 }

func (o opCost) seconds(elems, bw float64) float64 { return o.fixed + elems*o.perEl/bw }

// samplerCosts is one GPU's fitted cost of each sampling operator.
type samplerCosts struct {
	temperature, topK, topP, sample, minP opCost
	// source says where the figures come from, for the plan's note.
	source string
}

// The warper probe's fits, per GPU it ran on. The H200's (dev103's probe;
// min_p from dev104's H100 probe, scaled to the H200 at each shape by how
// much faster dev103's H200 ran top_k plus softmax and multinomial, fitted
// there within 14%) serve every GPU without a probe, their per-element
// part at that GPU's bandwidth. The H100's are fitted on dev104's probe of
// the same operators at the same six shapes (top_p 7%, min_p 13%, softmax
// and multinomial 15%, top_k 29%; temperature within 10 µs): scaled from the
// H200 by bandwidth they came out 6-28% slow at the larger shapes, the
// H100 running these kernels 0.81-0.93x the H200's speed, not 0.70x.
var measuredSampler = map[string]samplerCosts{
	"h200": {temperature: opCost{fixed: 8e-6, perEl: 8}, topK: opCost{fixed: 100e-6, perEl: 80},
		topP: opCost{fixed: 120e-6, perEl: 608}, sample: opCost{fixed: 110e-6, perEl: 52}, minP: opCost{fixed: 118e-6, perEl: 130},
		source: "dev103's probe on an H200 (min_p's part from dev104's H100 probe, scaled by the operators both timed)"},
	"h100": {temperature: opCost{fixed: 8e-6, perEl: 8}, topK: opCost{fixed: 140e-6, perEl: 51},
		topP: opCost{fixed: 154e-6, perEl: 457}, sample: opCost{fixed: 152e-6, perEl: 37}, minP: opCost{fixed: 158e-6, perEl: 88},
		source: "dev104's probe on an H100"},
}

// samplerCostsOf is the costs measured on gpu, or the H200's (scaled by
// bandwidth in samplerGPU) on a GPU without a probe; measured says which.
func samplerCostsOf(gpu string) (c samplerCosts, measured bool) {
	if c, ok := measuredSampler[gpu]; ok {
		return c, true
	}
	return measuredSampler["h200"], false
}

// samplerGPU is the GPU seconds of one step's sampling: the warpers the
// spec runs, then softmax and multinomial; 0 under greedy search.
func (c *config) samplerGPU() float64 {
	p := c.samp
	if !p.on {
		return 0
	}
	k, _ := samplerCostsOf(c.gpu.Name)
	n, bw := float64(c.batch*c.vocab), c.gpu.BandwidthGBps*1e9
	t := k.sample.seconds(n, bw)
	if p.temp != 1 {
		t += k.temperature.seconds(n, bw)
	}
	if p.topK > 0 {
		t += k.topK.seconds(n, bw)
	}
	if p.topP < 1 {
		t += k.topP.seconds(n, bw)
	}
	if p.minP > 0 {
		t += k.minP.seconds(n, bw)
	}
	return t
}

// samplerTime is what step i's sampling adds to it (0: the prefill, 1: a
// decode step): the larger of its GPU time and issuing its allocations'
// operators at hostOp seconds each.
func (m *model) samplerTime(i int, hostOp float64) float64 {
	if !m.c.samp.on || i >= len(m.samplerOps) {
		return 0
	}
	return max(m.c.samplerGPU(), float64(m.samplerOps[i])*hostOp)
}
