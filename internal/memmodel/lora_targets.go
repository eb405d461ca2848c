package memmodel

import (
	"fmt"
	"sort"
	"strings"
)

// checkLoRATargets refuses LoRA targets that match no Linear of the model,
// as PEFT does (NoMatchingPeftModuleError: "Target modules {...} not found
// in the base model"). Planning on would price a run with no adapter and
// nothing trainable, one PEFT never starts: Phi-3 fuses q, k and v into
// qkv_proj, so the q_proj/v_proj most recipes name are not in it, and a
// plan with them came out 13% under the LoRA run it was meant to be.
func (c *config) checkLoRATargets(g *Graph) error {
	l := c.spec.LoRA
	if l == nil || g.adapted > 0 || len(g.linears) == 0 {
		return nil
	}
	names := make([]string, 0, len(g.linears))
	for n := range g.linears {
		names = append(names, n)
	}
	sort.Strings(names)
	return specErr("lora.targets", "%s match no linear layer of %s (PEFT refuses this too); its linear layers: %s",
		strings.Join(l.Targets, ", "), c.arch.Name, strings.Join(names, ", "))
}

// maxLoRARank is the largest adapter rank a plan takes: PEFT sets no
// limit, but past it the adapter's parameter counts could wrap, and an
// adapter of that rank on any catalog model outgrows every GPU.
const maxLoRARank = 1 << 20

// rankNote says what a LoRA rank past the hidden size buys: PEFT builds
// it (A is rank×in, B is out×rank), but the update B·A has rank at most
// min(in, out), so the extra rank adds parameters, optimizer state and
// time, which the plan counts, and no capacity.
func (c *config) rankNote() string {
	l := c.spec.LoRA
	if l == nil || c.arch.Hidden <= 0 || l.Rank <= c.arch.Hidden {
		return ""
	}
	return fmt.Sprintf("LoRA rank %d is past %s's hidden size %d: PEFT builds it and the plan counts it, but B·A has rank at most min(in, out), so the rank past %d adds memory and time and no capacity",
		l.Rank, c.arch.Name, c.arch.Hidden, c.arch.Hidden)
}
