package memmodel

import "fmt"

// DType is a tensor element type.
type DType uint8

// Element types used by the model graphs.
const (
	F32 DType = iota
	F16
	BF16
	I64
	U8 // bool masks
	I8 // 8-bit optimizer state
)

// Size is the element size in bytes.
func (d DType) Size() int64 {
	switch d {
	case F32:
		return 4
	case F16, BF16:
		return 2
	case I64:
		return 8
	default:
		return 1
	}
}

// String is the dtype as PyTorch names it.
func (d DType) String() string {
	return [...]string{"float32", "float16", "bfloat16", "int64", "bool", "int8"}[d]
}

// floating reports whether autocast treats d as a floating type.
func (d DType) floating() bool { return d == F32 || d == F16 || d == BF16 }

// promote is PyTorch's type promotion for two floating operands.
func promote(a, b DType) DType {
	if a == F32 || b == F32 {
		return F32
	}
	if a != b && a.floating() && b.floating() {
		return F32
	}
	return a
}

// Category is what a byte of GPU memory is for, in the vocabulary of
// vramkit reports.
type Category uint8

// Memory categories.
const (
	CatParameters Category = iota
	CatGradients
	CatOptimizer
	CatActivations
	CatTemporaries
	CatInputs
	numCategories
)

var categoryNames = [...]string{"parameters", "gradients", "optimizer_state", "activations", "temporaries", "inputs"}

// String is the category's name in breakdowns.
func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("category(%d)", c)
}
