package memmodel

import (
	"testing"

	"github.com/vramkit/vramkit/internal/allocsim"
)

// The rule against the workspace requests of the ResNet-50 H200 traces
// (/work/shared fixtures, torch 2.11, cudnn.benchmark off), in bytes as
// the traces record them; the rule leaves out the 16–431 byte tail, so a
// request within 512 bytes matches, and the weight gradient's split-K
// part is an estimate held to 2.5 MiB.
func TestConvWorkspaceRequests(t *testing.T) {
	const mib = 1 << 20
	f32 := func(n, cin, cout, k, stride, h int64) convWork {
		ho := (h+2*(k/2)-k)/stride + 1
		return convWork{n: n, cin: cin, cout: cout, k: k, stride: stride, h: h, ho: ho,
			in: n * cin * h * h * 4, out: n * cout * ho * ho * 4, weight: cout * cin * k * k * 4}
	}
	f16 := func(n, cin, cout, k, stride, h int64) convWork {
		c := f32(n, cin, cout, k, stride, h)
		c.in, c.out, c.weight, c.half = c.in/2, c.out/2, c.weight/2, true
		return c
	}
	for _, c := range []struct {
		name              string
		c                 convWork
		fwd, dgrad, wgrad int64
	}{
		// b64 float32: 3×3 stride 1 and 2, the downsamples, 1×1 at 56, 28, 14 and 7
		{"b64 3x3 64 @56", f32(64, 64, 64, 3, 1, 56), 102908051, 102908051, 104972967},
		{"b64 3x3/2 128 @56", f32(64, 128, 128, 3, 2, 56), 129040531, 129040531, 137298003},
		{"b64 1x1/2 256-512 @56", f32(64, 256, 512, 1, 2, 56), 206045200, 308281491, 316670607},
		{"b64 1x1/2 512-1024 @28", f32(64, 512, 1024, 1, 2, 28), 154140819, 154140819, 162529839},
		{"b64 1x1 256-64 @56", f32(64, 256, 64, 1, 1, 56), 0, 0, 4 * mib},
		{"b64 1x1 512-256 @28", f32(64, 512, 256, 1, 1, 28), 0, 0, 32 * mib},
		{"b64 1x1 256-1024 @14", f32(64, 256, 1024, 1, 1, 14), 0, 0, 64 * mib},
		{"b64 1x1 1024-512 @14", f32(64, 1024, 512, 1, 1, 14), 0, 0, 85459503},
		// the trace's layer4 backward: each 512→2048 weight gradient asks
		// 30.625 MiB (no partials), each 2048→512 one 38.625 (session 26;
		// this case expected 38.625 for the expansion until then)
		{"b64 1x1 512-2048 @7", f32(64, 512, 2048, 1, 1, 7), 32112656, 32112656, 32112656},
		{"b64 1x1 2048-512 @7", f32(64, 2048, 512, 1, 1, 7), 32112656, 32112656, 32112656 + 8*mib},
		// b256 float32: the per-image partials outgrow the general workspace
		{"b256 1x1 256-1024 @14", f32(256, 256, 1024, 1, 1, 14), 0, 0, 253*mib + 1024},
		{"b256 1x1/2 256-512 @56", f32(256, 256, 512, 1, 2, 56), 784*mib + 512*1024, 1176 * mib, 1184 * mib},
		// b64 fp16 AMP: the same sizes in half bytes, fewer partials
		{"fp16 3x3 64 @56", f16(64, 64, 64, 3, 1, 56), 51454025, 51454025, 53371765},
		{"fp16 1x1/2 256-512 @56", f16(64, 256, 512, 1, 2, 56), 147 * mib, 147 * mib, 155713536},
		{"fp16 1x1/2 512-1024 @28", f16(64, 512, 1024, 1, 2, 28), 73.5 * mib, 73.5 * mib, 73.5 * mib},
		{"fp16 1x1 256-64 @56", f16(64, 256, 64, 1, 1, 56), 0, 0, 4 * mib},
		// b64 bf16 EfficientNet-B3 (testdata/dev10 trace): the 7×7 1×1
		// convs with channels off powers of two take per-image partials
		// for the weight gradient and no data-gradient workspace
		{"bf16 1x1 2304-384 @7", f16(64, 2304, 384, 1, 1, 7), 16859152, 0, 216 * mib},
		{"bf16 1x1 232-1392 @7", f16(64, 232, 1392, 1, 1, 7), 10185728, 0, 82673664},
		{"bf16 1x1 384-1536 @7", f16(64, 384, 1536, 1, 1, 7), 12042240, 0, 144 * mib},
		// b96 bf16 EfficientNet-B0 (testdata/dev12 trace): the expansions
		// and the head keep the partials but ask the general data-gradient
		// workspace too; the 1152→320 projection takes the general
		// workspace in all three passes (no partials, no split-K)
		{"b96 bf16 1x1 192-1152 @7", f16(96, 192, 1152, 1, 1, 7), 12644368, 12644368, 81 * mib},
		{"b96 bf16 1x1 320-1280 @7", f16(96, 320, 1280, 1, 1, 7), 15052947, 15052816, 150 * mib},
		{"b96 bf16 1x1 1152-320 @7", f16(96, 1152, 320, 1, 1, 7), 13848592, 13848723, 13848592},
	} {
		fwd, dgrad, wgrad := convWorkspace(c.c)
		near := func(got, want, tol int64) bool { return got >= want-tol && got <= want+tol }
		if !near(fwd, c.fwd, 512) || !near(dgrad, c.dgrad, 512) || !near(wgrad, c.wgrad, 5*mib/2) {
			t.Errorf("%s: workspaces %.3f, %.3f, %.3f MiB; the trace asks %.3f, %.3f, %.3f", c.name,
				float64(fwd)/mib, float64(dgrad)/mib, float64(wgrad)/mib,
				float64(c.fwd)/mib, float64(c.dgrad)/mib, float64(c.wgrad)/mib)
		}
	}
}

// workspaceRequests lists the sizes of the requests of at least min bytes
// that are freed before any other allocation: scratch such as cuDNN's
// workspaces.
func workspaceRequests(reqs []allocsim.Request, min int64) []int64 {
	var out []int64
	for i := 0; i+1 < len(reqs); i++ {
		r := reqs[i]
		if r.Kind != allocsim.ReqAlloc || r.Size < min {
			continue
		}
		for j := i + 1; j < len(reqs); j++ {
			if reqs[j].Kind == allocsim.ReqFree && reqs[j].ID == r.ID {
				out = append(out, r.Size)
				break
			}
			if reqs[j].Kind == allocsim.ReqAlloc {
				break
			}
		}
	}
	return out
}

// The first bottleneck of ResNet-50's second stage at batch 64, float32
// (the snapshot of testdata/snapshots): its workspace requests in the
// order the step makes them, forward (the strided 3×3, then the strided
// 1×1 downsample with input and weight only) and backward (downsample data
// and weight gradients, the 1×1 expansion's per-image partials, the 3×3's
// two, the 1×1 reduction's). Before both passes were modelled the generator
// asked 184.6 and 245 MiB forward and one 245, 98 and 24.5 MiB request
// backward; PyTorch asks the downsample's 294 MiB and 302 MiB one after the
// other, two segments.
func TestResNetBlockWorkspaceRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a snapshot")
	}
	d := replaySnapshot(t, "../../testdata/snapshots/resnet50-b64-fp32.pickle.gz")
	real := workspaceRequests(d.Result.Requests, 2<<20)
	model := "resnet50"
	spec := DefaultSpec()
	spec.Model, spec.Batch, spec.Image, spec.Precision, spec.Optimizer = &model, 64, 224, "fp32", "adamw"
	c, err := resolve(spec)
	if err != nil {
		t.Fatal(err)
	}
	g := c.buildGraph()
	st := generate(g, c.stepConfig(g, 3))
	gen := workspaceRequests(st.Requests, 2<<20)
	// forward: stem, three 3×3s of stage 1, then the block; backward: the
	// block's requests come once stages 4 and 3 are done
	const mib = 1 << 20
	fwdAt := func(ws []int64) int {
		for i, n := range ws {
			if n > 120*mib && n < 125*mib {
				return i
			}
		}
		return -1
	}
	bwdAt := func(ws []int64) int {
		for i, n := range ws {
			if n > 290*mib && n < 300*mib {
				return i
			}
		}
		return -1
	}
	fr, fg, br, bg := fwdAt(real), fwdAt(gen), bwdAt(real), bwdAt(gen)
	if fr < 0 || fg < 0 || br < 0 || bg < 0 || fr+2 > len(real) || fg+2 > len(gen) || br+6 > len(real) || bg+6 > len(gen) {
		t.Fatalf("block not found: real at %d/%d, generated at %d/%d", fr, br, fg, bg)
	}
	want := append(append([]int64{}, real[fr:fr+2]...), real[br:br+6]...)
	got := append(append([]int64{}, gen[fg:fg+2]...), gen[bg:bg+6]...)
	for i := range want {
		if d := got[i] - want[i]; d < -3*mib/2 || d > 3*mib/2 {
			t.Errorf("request %d of the block: %.3f MiB generated, the snapshot asks %.3f", i, float64(got[i])/mib, float64(want[i])/mib)
		}
	}
	if fr != fg {
		t.Errorf("the block's forward workspaces come after %d others, the snapshot's after %d", fg, fr)
	}
}
