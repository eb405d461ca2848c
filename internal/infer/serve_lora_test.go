package infer

import (
	"errors"
	"testing"
)

// vllmLoRALogs are start-up logs with --enable-lora, collected by someone
// else and all seen while the slots were written (docs/inference.md):
// "Model loading took" includes the adapter slots. L-B1's cache is 4.7%
// below the plan, inside only through the band's LoRA allowance.
var vllmLoRALogs = []quantLog{
	// Llama 3.1 8B, max_loras 2, rank 16, V1 0.8.2 on an A100 40GB
	// (base alone: 14.99-15.0 GiB in other logs)
	{src: "L-B1 A100", version: "0.8.2", model: "llama3-8b", gpu: "a100-40", context: 131072, tokensBatched: 2048, util: 0.9, weightsGiB: 15.1749, tokens: 148096},
	// Mistral 7B v0.2, one slot of rank 16, 0.14 (an L40S and an RTX PRO
	// 6000 logged the same)
	{src: "L-B2 L40S", version: "0.14.0", model: "mistral-7b", gpu: "l40s", context: 4096, util: 0.95, weightsGiB: 13.58},
	// Qwen2.5-7B bf16 under Unsloth on an MI300X (ROCm), rank 16, 0.19
	{src: "L-S2 MI300X", version: "0.19.1", model: "qwen2.5-7b", gpu: "mi300x", context: 3072, tokensBatched: 8192, util: 0.6488, eager: true, weightsGiB: 14.43},
}

// loraArgs are the logs' --max-lora-rank and --max-loras.
var loraArgs = map[string][2]int{"L-B1 A100": {16, 2}, "L-B2 L40S": {16, 1}, "L-S2 MI300X": {16, 1}}

func TestServeLoRASlots(t *testing.T) {
	for _, l := range vllmLoRALogs {
		s := serveSpec(l.model, l.gpu, "bf16")
		s.VLLM, s.Context, s.MaxNumBatchedTokens, s.GPUMemoryUtilization, s.EnforceEager = l.version, l.context, l.tokensBatched, l.util, l.eager
		s.MaxLoraRank, s.MaxLoras = loraArgs[l.src][0], loraArgs[l.src][1]
		r, err := Serve(s)
		if err != nil {
			t.Fatal(err)
		}
		if r.LoRASlots <= 0 {
			t.Fatalf("%s: no slots", l.src)
		}
		// the weights within 1.5% (the ROCm log is 1.1% above)
		if e := (float64(r.Weights)/(1<<30) - l.weightsGiB) / l.weightsGiB; e < -0.015 || e > 0.01 {
			t.Errorf("%s: weights %.4f GiB, vLLM %.4f (%+.1f%%)", l.src, float64(r.Weights)/(1<<30), l.weightsGiB, 100*e)
		}
		kv := l
		kv.weightsGiB = 0 // a 16-bit model's weights carry no band: checked above
		in, n := kv.score(t, r)
		if in != n && l.miss == "" {
			t.Errorf("%s: %d of %d figures inside", l.src, in, n)
		}
	}
	// Llama 3 8B's slots by hand: per layer and rank, qkv A 3×4096 and B
	// 4096+2×1024, o 4096+4096, gate_up 2×4096 and 2×14336, down 14336+4096
	// = 81920; the embedding and head 2×(128256+4096); 2 bytes, 2 slots
	c, err := resolve(serveSpec("llama3-8b", "h100", "bf16"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := loraSlots(c, 1, 2, 16), int64(2*2*16*(32*81920+2*(128256+4096))); got != want {
		t.Errorf("slots %d B, by hand %d", got, want)
	}
	for _, bad := range [][2]int{{0, 2}, {17, 1}, {16, -1}} {
		s := serveSpec("llama3-8b", "h100", "bf16")
		s.MaxLoraRank, s.MaxLoras = bad[0], bad[1]
		if _, err := Serve(s); !errors.Is(err, ErrSpec) {
			t.Errorf("rank %d, %d slots: %v, want a spec error", bad[0], bad[1], err)
		}
	}
}
