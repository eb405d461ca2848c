package memmodel

import "github.com/vramkit/vramkit/internal/allocsim"

// Phase is the part of a training step an allocation belongs to.
type Phase uint8

// Phases of a training step.
const (
	PhaseLoad Phase = iota
	PhaseForward
	PhaseBackward
	PhaseOptimizer
)

var phaseNames = [...]string{"load", "forward", "backward", "optimizer"}

// String is the phase's name in reports.
func (p Phase) String() string { return phaseNames[p] }

// Tag is what the model knows of one allocation beyond its request: the
// memory category, the step phase and the op (or step stage) that made it.
type Tag struct {
	Cat   Category
	Phase Phase
	Op    string
}

// Stream is the allocation/free sequence of whole training steps, in
// allocsim's request type so that allocsim replays it as it replays a
// snapshot's trace.
type Stream struct {
	Requests []allocsim.Request
	// Tags[id] describes allocation id (ids start at 1).
	Tags []Tag
	// StepStart[i] is the index of the first request of step i.
	StepStart []int
}

// LivePeak counts the stream without an allocator and returns the peak of
// allocated bytes (each request rounded by cfg as the allocator rounds it),
// the index of the request that reached it and the bytes per category then.
func (s *Stream) LivePeak(cfg allocsim.Config) (peak int64, at int, cats [numCategories]int64) {
	live := make(map[int32]int64, 1024)
	var cur int64
	var byCat [numCategories]int64
	for i, r := range s.Requests {
		switch r.Kind {
		case allocsim.ReqAlloc:
			if r.Size == 0 {
				continue
			}
			n := cfg.RoundSize(r.Size)
			live[r.ID] = n
			cur += n
			byCat[s.Tags[r.ID].Cat] += n
			if cur > peak {
				peak, at, cats = cur, i, byCat
			}
		case allocsim.ReqFree:
			n, ok := live[r.ID]
			if !ok {
				continue
			}
			delete(live, r.ID)
			cur -= n
			byCat[s.Tags[r.ID].Cat] -= n
		}
	}
	return peak, at, cats
}

// replay runs the stream through the caching-allocator simulator on a
// device of the GPU's memory less the CUDA context, so that, as on the
// real GPU, a cache that outgrows the device is released and retried
// rather than growing without bound. A stream that does not fit even then
// is replayed on an unlimited device, to say by how much it misses.
func (c *config) replay(st *Stream) (allocated, reserved int64) {
	res := allocsim.Simulate(st.Requests, c.allocConf, c.device(c.gpu.MemoryBytes-c.gpu.ContextBytes))
	if res.OOMAt >= 0 {
		res = allocsim.Simulate(st.Requests, c.allocConf, c.device(0))
	}
	return res.Stats.AllocatedBytes.All.Peak, res.Stats.ReservedBytes.All.Peak
}

// device is a simulated device of capacity bytes (0: unlimited) reporting
// the GPU's total memory, which memory fractions apply to. NewDevice hands
// out addresses top-down as the CUDA driver does (allocsim.SimDevice.TopDown):
// best fit's ties between equal free blocks then go to the newest segment
// as on the GPU, which decides where the backward thread's cuBLAS
// workspace lands (a freed fp32 logits block, split for good, on the Gemma
// 2 LoRA and checkpointed runs: 14–18% under with addresses handed out
// upwards, ~1% over top-down).
func (c *config) device(capacity int64) allocsim.Device {
	return allocsim.NewDevice(capacity, c.gpu.MemoryBytes)
}

// logitsWorkspaceReserved is peak reserved when the backward thread's
// cuBLAS workspace lands in a freed fp32 logits block instead of a free
// 32 MiB one. Since the replay runs top-down (device) it reproduces the
// split on every measured run that made it (Gemma 2 LoRA and
// checkpointed, Qwen3 LoRA), so this variant, which holds the whole block
// besides, only widens the band's top (Gemma 2 checkpointed: +15%). The workspace is allocated once, in step 1's lm_head
// backward, just after the logits gradient is freed; on measured runs
// (Qwen3 LoRA, Gemma 2 checkpointed, torch 2.11 on H200) best fit put it
// in that block, splitting it for good, so the next step needed a fresh
// logits segment. Which block it takes depends on fragmentation the
// generated stream cannot match, so this variant holds the whole logits
// block for the workspace and the result widens the reserved band's top.
// It returns 0 where that is no alternative to the replay of st (the
// stream as generated): no cuBLAS workspace, fp32 logits no larger than
// it, or no smaller free block the replay put the workspace in instead
// (wsCompetitor).
func (c *config) logitsWorkspaceReserved(g *Graph, cfg stepConfig, st *Stream) int64 {
	a := c.rankArch()
	if c.spec.Parallel.PP > 1 || a.Vocab <= 0 || cfg.cublasWorkspace <= 0 {
		return 0
	}
	logits := c.batch * c.seq * int64(a.Vocab) * 4
	if logits <= cfg.cublasWorkspace || !c.wsCompetitor(st, logits, cfg.cublasWorkspace) {
		return 0
	}
	cfg.bwdWorkspace = logits
	_, reserved := c.replay(generate(g, cfg))
	return reserved
}

// PlanStream is the request stream of steps training steps of s as the
// planner generates it, with the allocator settings and the simulated
// device (unlimited, addresses top-down) its replay uses: for tools that
// compare the replay with a snapshot's trace request by request
// (bench/placediff).
func PlanStream(s Spec, steps int) (*Stream, allocsim.Config, allocsim.Device, error) {
	c, err := resolve(s)
	if err != nil {
		return nil, allocsim.Config{}, nil, err
	}
	g := c.buildGraph()
	return generate(g, c.stepConfig(g, steps)), c.allocConf, c.device(0), nil
}
