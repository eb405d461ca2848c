// Package gpu is vramkit's catalog of GPUs: memory as CUDA reports it, an
// estimate of the CUDA context, dtype support, peak matrix throughput and
// memory bandwidth. The data is embedded (gpus.json) so the binary needs
// no network.
package gpu

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/vramkit/vramkit/internal/units"
)

// GPU is one catalog entry. Throughputs are dense peak figures from the
// vendor's data sheet; bandwidth is device memory bandwidth.
type GPU struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases,omitempty"`
	// MemoryBytes is totalGlobalMem as CUDA reports it.
	MemoryBytes int64 `json:"memory_bytes"`
	// TableMemoryBytes is the table's memory when a NAME:MEMORY lookup
	// replaced it (0 otherwise).
	TableMemoryBytes int64 `json:"table_memory_bytes,omitempty"`
	// ContextBytes is the CUDA context plus loaded kernels (cuBLAS/cuDNN)
	// that NVML shows on top of PyTorch's reserved memory; an estimate.
	ContextBytes  int64   `json:"context_bytes"`
	BF16          bool    `json:"bf16"`
	FP16TFLOPs    float64 `json:"fp16_tflops"`
	BF16TFLOPs    float64 `json:"bf16_tflops"`
	FP32TFLOPs    float64 `json:"fp32_tflops"`
	TF32TFLOPs    float64 `json:"tf32_tflops"`
	BandwidthGBps float64 `json:"bandwidth_gbps"`
	// CublasWorkspaceBytes is the cuBLAS workspace PyTorch allocates
	// through the caching allocator, once per thread that runs matmuls
	// (the forward thread and autograd's device thread): 32 MiB from
	// Hopper on, 4096 KiB×2 + 16 KiB×8 before.
	CublasWorkspaceBytes int64 `json:"cublas_workspace_bytes"`
	// SMs is the number of streaming multiprocessors (compute units on
	// AMD), which bounds how many CTAs a reduction kernel launches.
	SMs int `json:"sms"`
	// InterconnectGBps is the per-GPU bandwidth to its peers (NVLink or PCIe).
	InterconnectGBps float64 `json:"interconnect_gbps"`
	// NVLS: the SXM boards' NVSwitch supports NVLink SHARP, for which
	// NCCL allocates buffers in every communicator (Hopper and later).
	NVLS bool `json:"nvls,omitempty"`
	// ComputeCapability is CUDA's major·10+minor (89 for sm_89), which
	// decides the kernels quantised layers run (Marlin from 80, FP8
	// activations from 89); 0 on AMD GPUs.
	ComputeCapability int `json:"compute_capability,omitempty"`
}

//go:embed gpus.json
var data []byte

// Catalog returns all known GPUs.
func Catalog() []GPU {
	var gs []GPU
	if err := json.Unmarshal(data, &gs); err != nil {
		panic("gpu: embedded catalog is broken: " + err.Error())
	}
	return gs
}

// Lookup finds a GPU by name or alias, case-insensitively. NAME:MEMORY
// (h100:94GiB for an H100 NVL) is NAME with its memory replaced: a
// variant the table does not list, planned with NAME's throughput, CUDA
// context and SMs (TableMemoryBytes keeps the table's memory).
func Lookup(name string) (GPU, error) {
	base, mem, given := strings.Cut(name, ":")
	g, err := lookup(base)
	if err != nil || !given {
		return g, err
	}
	b, err := units.ParseBytes(mem)
	if err != nil {
		return GPU{}, fmt.Errorf("%s: memory %q: %v", name, mem, err)
	}
	if b < minMemory || b > maxMemory {
		return GPU{}, fmt.Errorf("%s: memory %s is outside %s-%s", name, units.Bytes(b), units.Bytes(minMemory), units.Bytes(maxMemory))
	}
	g.TableMemoryBytes, g.MemoryBytes = g.MemoryBytes, b
	return g, nil
}

// The memory a NAME:MEMORY lookup accepts.
const (
	minMemory = 1 << 30
	maxMemory = 4 << 40
)

func lookup(name string) (GPU, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(strings.TrimPrefix(n, "nvidia "), "nvidia-")
	for _, g := range Catalog() {
		if g.Name == n {
			return g, nil
		}
		for _, a := range g.Aliases {
			if a == n {
				return g, nil
			}
		}
	}
	return GPU{}, fmt.Errorf("unknown GPU %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists catalog names.
func Names() []string {
	var out []string
	for _, g := range Catalog() {
		out = append(out, g.Name)
	}
	sort.Strings(out)
	return out
}
