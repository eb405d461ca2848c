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
		if n := aliasNote(m, a.Name); n != "" {
			notes = append(notes, n)
		}
	}
	gn, err := gpuNotes(spec.GPU)
	if err != nil {
		return nil, err
	}
	notes = append(notes, gn...)
	if spec.Precision == "fp16" {
		notes = append(notes, "precision fp16 is fp16-amp: float16 autocast with float32 weights and a GradScaler")
	}
	if p := spec.Parallel; p.Strategy != "none" && p.Strategy != "" && p.GPUs == 1 {
		// --parallel ddp without --gpus plans a world of one: valid, and
		// usually not what was meant
		notes = append(notes, fmt.Sprintf("parallel %s over 1 GPU (its buffers, no peers); give --gpus N to plan N", p.Strategy))
	}
	return notes, nil
}

// gpuNotes resolves a plan's --gpu (a table name or alias, or
// NAME:MEMORY) and says what the name picked when it is not plain: an
// alias that hides a variant, or memory given beside the table's.
func gpuNotes(name string) (notes []string, err error) {
	if name == "" {
		return nil, nil
	}
	g, err := gpu.Lookup(name)
	if base, _, ok := strings.Cut(name, ":"); err != nil && ok {
		if _, berr := gpu.Lookup(base); berr == nil {
			return nil, usagef("--gpu %v (NAME:MEMORY, e.g. h100:94GiB)", err)
		}
	}
	if err != nil {
		return nil, usagef("unknown GPU %q%s; known: %s (another variant: NAME:MEMORY, e.g. h100:94GiB)", name,
			didYouMean(name, gpu.Names()), strings.Join(gpu.Names(), ", "))
	}
	if g.TableMemoryBytes > 0 {
		notes = append(notes, fmt.Sprintf("GPU memory %s as given (the table's %s has %s); throughput, CUDA context and SMs are %s's",
			units.Bytes(g.MemoryBytes), g.Name, units.Bytes(g.TableMemoryBytes), g.Name))
	} else if n := strings.ToLower(strings.TrimSpace(name)); g.Name != n && variants(g.Name) > 1 {
		notes = append(notes, fmt.Sprintf("GPU %q is %s (%s); name another variant to plan for it", name, g.Name,
			units.Bytes(g.MemoryBytes)))
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

// aliasNote says which catalog model the name m resolved to (name), and
// what it differs in where its family says so; "" when m is that name.
func aliasNote(m, name string) string {
	if name == strings.ToLower(strings.TrimSpace(m)) {
		return ""
	}
	note := fmt.Sprintf("model %q is %s", m, name)
	if s := memmodel.AliasNote(m); s != "" {
		note += ": " + s
	}
	return note
}
