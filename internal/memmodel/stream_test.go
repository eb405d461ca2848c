package memmodel

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

func resnetStream(t *testing.T) (*Stream, *config) {
	t.Helper()
	m := "resnet50"
	s := DefaultSpec()
	s.Model, s.Batch = &m, 64
	c, err := resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	g := c.buildGraph()
	return generate(g, c.stepConfig(g, 3)), c
}

// The stream must be well formed: every free matches a live allocation,
// and after the last step only persistent memory remains (parameters,
// buffers, optimizer state, cuBLAS workspaces).
func TestStreamInvariants(t *testing.T) {
	st, c := resnetStream(t)
	live := map[int32]allocsim.Request{}
	for i, e := range st.Requests {
		if e.Kind == allocsim.ReqAlloc {
			if _, dup := live[e.ID]; dup {
				t.Fatalf("request %d: id %d allocated twice", i, e.ID)
			}
			live[e.ID] = e
			continue
		}
		if e.Kind != allocsim.ReqFree {
			t.Fatalf("request %d: kind %d, want only allocations and frees", i, e.Kind)
		}
		if _, ok := live[e.ID]; !ok {
			t.Fatalf("request %d: free of id %d that is not live", i, e.ID)
		}
		delete(live, e.ID)
	}
	var left [numCategories]int64
	for _, e := range live {
		left[st.Tags[e.ID].Cat] += e.Size
	}
	g := c.buildGraph()
	var params int64
	for _, p := range g.params {
		params += p.numel * 4
	}
	if left[CatActivations] != 0 || left[CatGradients] != 0 || left[CatInputs] != 0 {
		t.Errorf("activations/gradients/inputs left after the last step: %v", left)
	}
	if left[CatOptimizer] != 2*params {
		t.Errorf("optimizer state %d bytes, want 2×params = %d", left[CatOptimizer], 2*params)
	}
	// the forward and backward threads' cuBLAS workspaces, and the
	// forward thread's cuBLASLt one (the first biased linear)
	if want := 2*c.gpu.CublasWorkspaceBytes + CublasLtWorkspace; left[CatTemporaries] != want {
		t.Errorf("persistent temporaries %d, want two cuBLAS workspaces and a cuBLASLt one (%d)", left[CatTemporaries], want)
	}
}

// The generated step should look like the real one, allocation by
// allocation: testdata holds the allocation sizes of step 2 of the
// resnet50-b64-fp32 capture.
func TestStreamResemblesResNetTrace(t *testing.T) {
	data, err := os.ReadFile("testdata/resnet50-b64-fp32.step2.json")
	if err != nil {
		t.Fatal(err)
	}
	var real struct {
		Sizes []int64 `json:"alloc_sizes"`
	}
	if err := json.Unmarshal(data, &real); err != nil {
		t.Fatal(err)
	}
	st, _ := resnetStream(t)
	var ours []int64
	for _, e := range st.Requests[st.StepStart[1]:st.StepStart[2]] {
		if e.Kind == allocsim.ReqAlloc {
			ours = append(ours, e.Size)
		}
	}
	big := func(s []int64) (n int, total int64, hist map[int64]int) {
		hist = map[int64]int{}
		for _, v := range s {
			if v >= 1<<20 {
				n++
				total += v
				hist[v]++
			}
		}
		return
	}
	rn, rt, rh := big(real.Sizes)
	on, ot, oh := big(ours)
	within := func(a, b float64, tol float64) bool { return a >= b*(1-tol) && a <= b*(1+tol) }
	if !within(float64(on), float64(rn), 0.25) {
		t.Errorf("%d allocations ≥ 1 MiB per step, real trace has %d", on, rn)
	}
	if !within(float64(ot), float64(rt), 0.15) {
		t.Errorf("%d bytes allocated (≥ 1 MiB) per step, real trace %d", ot, rt)
	}
	match := 0
	for size, n := range rh {
		match += min(n, oh[size])
	}
	if frac := float64(match) / float64(rn); frac < 0.6 {
		t.Errorf("only %.0f%% of the real large allocations have an exact-size counterpart", 100*frac)
	} else {
		t.Logf("%d/%d real large allocations matched exactly; %d vs %d large, %d vs %d bytes", match, rn, on, rn, ot, rt)
	}
}

// PyTorch's pow_backward evaluates grad·(e·x^(e−1)) as written, so an
// RMSNorm's x² backward holds x^1 and 2·x^1 until grad·that exists: in
// the H200 trace of Qwen3 with LoRA (testdata/late/families, backward of
// every norm) four float32 blocks of the norm's input size are live at
// once, the incoming mean gradient and these three. The stream must show
// the three pow_backward blocks allocated back to back, before either
// temporary is freed.
func TestPowBackwardHoldsTemporaries(t *testing.T) {
	m := "llama-small"
	s := DefaultSpec()
	s.Model, s.Batch, s.Seq = &m, 2, 128
	c, err := resolve(s)
	if err != nil {
		t.Fatal(err)
	}
	g := c.buildGraph()
	st := generate(g, c.stepConfig(g, 1))
	var found int
	for i := 0; i+2 < len(st.Requests); i++ {
		r := st.Requests[i]
		if r.Kind != allocsim.ReqAlloc || st.Tags[r.ID].Op != "pow_backward" {
			continue
		}
		for j := i; j < i+3; j++ {
			q := st.Requests[j]
			if q.Kind != allocsim.ReqAlloc || st.Tags[q.ID].Op != "pow_backward" || q.Size != r.Size {
				t.Fatalf("request %d: pow_backward's three %d-byte blocks are not allocated together (request %d is %+v)", i, r.Size, j, q)
			}
		}
		found++
		i += 2
	}
	if found == 0 {
		t.Fatal("no pow_backward in llama-small's backward")
	}
}
