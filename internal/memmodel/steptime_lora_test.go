package memmodel

import (
	"strings"
	"testing"
)

// profiledGEMMs is how many matrix-multiply kernels one step of a kernel
// profile (testdata/profile) launched: cuBLAS's nvjet kernels and the
// CUTLASS/xmma GEMMs, without the split-K reduction cuBLAS appends to some
// of them (an elementwise pass, not a product).
func profiledGEMMs(t *testing.T, name string) float64 {
	t.Helper()
	var n float64
	for _, k := range profileKernels(t, name) {
		if (strings.HasPrefix(k.Name, "nvjet") || strings.Contains(k.Name, "gemm")) && !strings.Contains(k.Name, "splitKreduce") {
			n += k.Count
		}
	}
	return n
}

// TestLoRAGEMMsAgainstProfiles: what LoRA does to a step's matrix
// products, against the two profiled Llama-small steps (24 layers, bf16
// autocast, the same 8,192 tokens): PEFT's LoraLayer adds per adapted
// projection lora_A and lora_B forward and, backward, lora_B's data and
// weight gradients and lora_A's weight and data gradients (six GEMMs);
// the frozen base model skips the weight gradient of all seven
// projections per layer and of the LM head, and in the first layer, whose
// input (the frozen embedding) needs no gradient, the data gradients of
// q/k/v and of both lora_A: 48·6 − 24·7 − 1 − 3 − 2 = 114 more. The
// profiles count 622 and 508 GEMM kernels; the walk must add what the
// profiles add (its absolute counts miss the float32 rotary-frequency
// product, one kernel).
func TestLoRAGEMMsAgainstProfiles(t *testing.T) {
	full := llamaSpec()
	full.Batch, full.Seq = 8, 1024
	lora := llamaSpec()
	lora.Batch, lora.Seq = 2, 2048
	lora.LoRA = &LoRA{Rank: 16, Targets: []string{"q_proj", "v_proj"}}
	_, _, _, _, pf := walkOf(t, full)
	_, _, _, _, pl := walkOf(t, lora)
	mf, ml := pf.kernels[kGEMM], pl.kernels[kGEMM]
	rf := profiledGEMMs(t, "prof-llama-small-s1024-b8-bf16")
	rl := profiledGEMMs(t, "prof-llama-small-s2048-b2-bf16-lora16")
	t.Logf("GEMM kernels: full %g (profiled %g), LoRA %g (profiled %g)", mf, rf, ml, rl)
	if rf == 0 || rl == 0 {
		t.Fatal("no GEMM kernels in the profiles")
	}
	if got, want := ml-mf, rl-rf; got != want {
		t.Errorf("LoRA adds %g GEMM kernels to the step, the profiles %g", got, want)
	}
	for _, c := range []struct{ model, profiled float64 }{{mf, rf}, {ml, rl}} {
		if c.model < c.profiled-1 || c.model > c.profiled {
			t.Errorf("%g GEMM kernels per step, profiled %g", c.model, c.profiled)
		}
	}
}

// TestLoRACheckpointFirstLayerBackward: under gradient checkpointing a
// LoRA step makes the input embeddings' output require grad
// (enable_input_require_grads), so layer 0 computes the data gradients a
// plain LoRA step skips there: the frozen q/k/v projections' and the two
// adapters' A (five GEMMs), and nothing changes in the other layers,
// whose input already requires grad through layer 0's adapters. dev12's
// Gemma 3 profiles count 65 dgrad-layout GEMMs (nvjet NNN) with
// checkpointing against 60 without. The memory model keeps the plain
// graph (Estimate walks this one for time only).
func TestLoRACheckpointFirstLayerBackward(t *testing.T) {
	s := llamaSpec()
	s.LoRA = &LoRA{Rank: 16, Targets: []string{"q_proj", "v_proj"}}
	s.Checkpoint = "block"
	s.fillDefaults()
	c, err := resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	if !c.inputGradUnderCkpt() {
		t.Fatal("LoRA under block checkpointing on Llama: want the input-grad time graph")
	}
	plain, withGrad := c.buildGraph(), c.buildGraphWith(true)
	if len(plain.ops) != len(withGrad.ops) {
		t.Fatalf("ops %d vs %d: the input's grad flag must not change the forward", len(plain.ops), len(withGrad.ops))
	}
	dgrads := map[int]int{}
	for i := range plain.ops {
		a, b := plain.ops[i].gemm, withGrad.ops[i].gemm
		if a == nil || b == nil {
			continue
		}
		if b.dgrad && !a.dgrad {
			dgrads[plain.ops[i].block]++
		}
		if a.dgrad && !b.dgrad {
			t.Errorf("op %d loses its data gradient", i)
		}
	}
	if len(dgrads) != 1 || dgrads[0] != 5 {
		t.Errorf("data-gradient GEMMs added by block: %v; want 5 in block 0 (q/k/v bases, q/v adapters' A)", dgrads)
	}
	s.Checkpoint = "none"
	s.fillDefaults()
	if c, err = resolve(s); err != nil {
		t.Fatal(err)
	}
	if c.inputGradUnderCkpt() {
		t.Error("plain LoRA: PEFT leaves the input embeddings' output without grad")
	}
}
