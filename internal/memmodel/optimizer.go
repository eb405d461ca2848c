package memmodel

import (
	"fmt"
	"strings"
)

// Optimizer is one torch.optim (or bitsandbytes/transformers) optimizer as
// the memory and step-time models see it. Each lives in its own
// optimizer_<name>.go file and registers itself from init; nothing else
// compares optimizer names.
type Optimizer struct {
	// Name is the spec's optimizer value.
	Name string
	// State lists the state tensors the first step creates for one
	// trainable parameter of numel elements, with state kept in stateDT.
	// Nil (or empty) for a stateless optimizer.
	State func(numel int64, stateDT DType) []StateTensor
	// Scratch lists the temporaries step() allocates per parameter; with
	// Foreach they are all alive at once (multi-tensor kernels), otherwise
	// one parameter's at a time.
	Scratch func(stateDT DType) []StateTensor
	Foreach bool
	// Traffic is the bytes per parameter element step() reads and writes
	// (parameter, gradient, state), for the step-time model.
	Traffic float64
	// Calibrated and Impl name the optimizer and implementation
	// ("foreach", "fused") whose measured steps in the GPU's calibration
	// time it; empty when the calibration has none (Traffic is used).
	Calibrated, Impl string
	// Kernels is how many kernels one calibrated step launches over elems
	// elements in tensors tensors (required with Calibrated).
	Kernels func(elems, tensors float64) float64
	// Formula marks optimizers modelled from formulas without a ground-
	// truth capture: they widen the uncertainty band.
	Formula bool
	// Source, when set, says which library source the state layout was
	// modelled from (printed as a note: not measured).
	Source string
	// Quantised names the registered optimizer that makes the same update
	// with its state in 8 bits, which plan --fit offers when nothing fits.
	Quantised string
	// TensorHost is what step() costs the calibration host per parameter
	// tensor beyond HostCosts.Param, for an uncalibrated optimizer whose
	// per-tensor update is Python around a library call (bitsandbytes').
	TensorHost float64
}

// StateTensor is one per-parameter tensor of an optimizer: PerElem bytes
// per (sharded) parameter element, or Fixed bytes when not proportional.
type StateTensor struct {
	Name    string
	PerElem float64
	Fixed   int64
}

// Stateful reports whether the optimizer keeps state between steps.
func (o *Optimizer) Stateful() bool { return o.State != nil }

// optimizers holds the registered optimizers; filled by init functions only.
var optimizers = map[string]*Optimizer{}

func registerOptimizer(o *Optimizer) {
	if _, dup := optimizers[o.Name]; dup || o.Name == "" {
		panic("memmodel: optimizer " + o.Name + " registered twice or unnamed")
	}
	optimizers[o.Name] = o
}

// LookupOptimizer finds a registered optimizer by name.
func LookupOptimizer(name string) (*Optimizer, error) {
	if o, ok := optimizers[name]; ok {
		return o, nil
	}
	names := OptimizerNames()
	return nil, fmt.Errorf("unknown optimizer %q%s (known: %s)", name, suggest(name, names), strings.Join(names, ", "))
}

// OptimizerNames lists the registered optimizers, sorted.
func OptimizerNames() []string { return sortedKeys(optimizers) }
