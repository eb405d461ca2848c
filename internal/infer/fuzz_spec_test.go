package infer_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/vramkit/vramkit/internal/infer"
	"github.com/vramkit/vramkit/internal/memmodel"
)

// FuzzSpec: whatever a spec file says, planning it answers or refuses; it
// never panics and never takes minutes (a spec is a user's input).
func FuzzSpec(f *testing.F) {
	for _, s := range []string{
		`{"model":"gpt2","batch":8,"seq":1024,"precision":"bf16-amp"}`,
		`{"model":"resnet50","batch":128,"precision":"bf16-amp","compile":true}`,
		`{"model":"llama3-8b","batch":1,"seq":2048,"precision":"bf16","lora":{"rank":16},"checkpoint":"block","gpu":"rtx4090"}`,
		`{"model":"llama-small","batch":4,"seq":1024,"precision":"bf16-amp","parallel":{"strategy":"pp","gpus":2,"pp":2,"micro_batches":8}}`,
		`{"model":"qwen3-0.6b","task":"generate","batch":4,"seq":512,"new_tokens":64,"precision":"bf16"}`,
		`{"model":"llama3-8b","task":"serve","precision":"bf16","gpu":"h100:94GiB","context":8192,"parallel":{"tp":2}}`,
		`{"model":"mixtral-8x7b","precision":"bf16","lora":{"rank":16},"quant":"nf4","batch":2,"seq":512}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := memmodel.ParseSpec(strings.NewReader(spec))
		if err != nil {
			return
		}
		if s.Batch > 1<<12 || s.Seq > 1<<17 || s.Accum > 64 || s.NewTokens > 1<<14 || s.Parallel.GPUs > 64 || s.Parallel.MicroBatches > 64 {
			return // sizes a fuzzer reaches that would only take long
		}
		start := time.Now()
		if s.Task != nil && (*s.Task == "serve" || *s.Task == "generate") {
			if *s.Task == "serve" {
				_, _ = infer.Serve(s)
			} else {
				_, _ = infer.Estimate(s)
			}
		} else {
			_, _ = memmodel.Estimate(s, memmodel.DefaultOptions())
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("took %v: %s", d, spec)
		}
	})
}

// FuzzSpecFields: FuzzSpec over valid-looking specs, a catalog model, GPU,
// precision, technique and size picked by number, so the fuzzer spends its
// time in the planners rather than in the JSON parser.
func FuzzSpecFields(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(1), uint8(0), uint16(8), uint16(1024), uint8(0), uint8(1), uint8(1), uint8(0))
	f.Add(uint8(5), uint8(3), uint8(2), uint8(1), uint16(1), uint16(2048), uint8(16), uint8(2), uint8(2), uint8(2))
	models, gpus := memmodel.Names(), []string{"h200", "h100", "a100-40", "rtx4090", "t4", "mi300x", "rtx-pro-6000", "h100:94GiB"}
	precs := []string{"fp32", "fp16-amp", "bf16-amp", "bf16"}
	ckpts := []string{"none", "block", "every:2", "selective"}
	tasks := []string{"", "generate", "serve"}
	f.Fuzz(func(t *testing.T, m, g, p, c uint8, batch, seq uint16, rank, tp, pp, task uint8) {
		s := memmodel.DefaultSpec()
		name := models[int(m)%len(models)]
		s.Model, s.GPU, s.Precision, s.Checkpoint = &name, gpus[int(g)%len(gpus)], precs[int(p)%len(precs)], ckpts[int(c)%len(ckpts)]
		s.Batch, s.Seq = 1+int(batch)%256, 1+int(seq)%8192
		if rank%4 == 1 {
			s.LoRA = &memmodel.LoRA{Rank: 1 + int(rank)%64}
		}
		s.Parallel.TP, s.Parallel.PP = 1+int(tp)%4, 1+int(pp)%3
		if s.Parallel.TP*s.Parallel.PP > 1 {
			s.Parallel.Strategy, s.Parallel.GPUs, s.Parallel.MicroBatches = "tp", s.Parallel.TP*s.Parallel.PP, 4
			if s.Parallel.PP > 1 {
				s.Parallel.Strategy = "pp"
			}
		}
		start := time.Now()
		switch tk := tasks[int(task)%len(tasks)]; tk {
		case "serve", "generate":
			s.Task = &tk
			if tk == "serve" {
				s.Precision = "bf16"
				if r, err := infer.Serve(s); err == nil {
					if r.TokensLow > r.Tokens || r.Tokens > r.TokensHigh || r.KVCacheLow > r.KVCache || r.KVCache > r.KVCacheHigh || r.Weights <= 0 {
						t.Errorf("%s serve: tokens %d (%d-%d), KV %d (%d-%d), weights %d", name, r.Tokens, r.TokensLow, r.TokensHigh, r.KVCache, r.KVCacheLow, r.KVCacheHigh, r.Weights)
					}
				}
			} else {
				s.Precision, s.NewTokens = "bf16", 1+int(seq)%512
				if r, err := infer.Estimate(s); err == nil && (r.PeakAllocated <= 0 || r.PeakReserved < r.PeakAllocated) {
					t.Errorf("%s generate: allocated %d, reserved %d", name, r.PeakAllocated, r.PeakReserved)
				}
			}
		default:
			if r, err := memmodel.Estimate(s, memmodel.DefaultOptions()); err == nil {
				st, b := r.StepTime, r.StepTimeBand
				if r.PeakAllocated <= 0 || r.PeakReserved < r.PeakAllocated || !(st > 0) || math.IsInf(st, 0) || b[0] > st || st > b[1] {
					t.Errorf("%s %+v: allocated %d, reserved %d, step %g s (%g-%g)", name, s, r.PeakAllocated, r.PeakReserved, st, b[0], b[1])
				}
			}
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("took %v: %s %+v", d, name, s)
		}
	})
}
