package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/gpu"
	"github.com/vramkit/vramkit/internal/memmodel"
	"github.com/vramkit/vramkit/internal/units"
)

// checkNames resolves the names a plan spec gives for its model, GPU and
// precision before the estimate runs. An unknown name is a usage error
// with the nearest known one; an alias that silently picks one of
// several variants (a100 → a100-80, fp16 → fp16-amp) is said in a note.
func checkNames(spec memmodel.Spec) (notes []string, err error) {
	if spec.Model != nil && *spec.Model != "" {
		m := *spec.Model
		a, err := memmodel.Lookup(m)
		if err != nil {
			hint := didYouMean(m, memmodel.Names())
			if near, close := memmodel.NearestModel(m); hint == "" && close {
				hint = fmt.Sprintf(" (did you mean %q?)", near)
			} else if hint == "" {
				hint = fmt.Sprintf(" (nearest: %q, or pass its config.json with --hf-config)", near)
			}
			return nil, usagef("unknown model %q%s; known: %s", m, hint, strings.Join(memmodel.Names(), ", "))
		}
		if a.Name != strings.ToLower(strings.TrimSpace(m)) {
			notes = append(notes, fmt.Sprintf("model %q is %s", m, a.Name))
		}
	}
	if spec.GPU != "" {
		g, err := gpu.Lookup(spec.GPU)
		if err != nil {
			return nil, usagef("unknown GPU %q%s; known: %s", spec.GPU, didYouMean(spec.GPU, gpu.Names()),
				strings.Join(gpu.Names(), ", "))
		}
		if n := strings.ToLower(strings.TrimSpace(spec.GPU)); g.Name != n && variants(g.Name) > 1 {
			notes = append(notes, fmt.Sprintf("GPU %q is %s (%s); name another variant to plan for it", spec.GPU, g.Name,
				units.Bytes(g.MemoryBytes)))
		}
	}
	if spec.Precision == "fp16" {
		notes = append(notes, "precision fp16 is fp16-amp: float16 autocast with float32 weights and a GradScaler")
	}
	return notes, nil
}

// variants counts the catalog GPUs that share name's family prefix
// (a100-40 and a100-80), the case where an alias hides a choice.
func variants(name string) int {
	fam, _, _ := strings.Cut(name, "-")
	n := 0
	for _, g := range gpu.Names() {
		if f, _, _ := strings.Cut(g, "-"); f == fam {
			n++
		}
	}
	return n
}

// specError makes an invalid spec (a field out of range or unknown) a
// usage error, exit 2; other estimate failures stay failures.
func specError(err error) error {
	if errors.Is(err, memmodel.ErrSpec) {
		return &UsageError{err}
	}
	return err
}
