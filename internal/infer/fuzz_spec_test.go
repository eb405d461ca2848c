package infer_test

import (
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
