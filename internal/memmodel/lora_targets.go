package memmodel

import (
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
