package rules

import (
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// CreatedThenMoved is M9 (tuning guide; the profiler's
// ExtraCUDACopyPattern).
var CreatedThenMoved = &lint.Rule{
	Code: "VK009", Name: "tensor-created-then-moved", Severity: lint.Warning, Fixable: true,
	Summary: "a tensor created on the CPU and then moved with .cuda()/.to(device) at every step costs a host buffer, a copy and a sync",
	Doc: `Flags, where it runs once per step, torch.zeros/ones/empty/full/rand/randn/
randint/randperm/arange/linspace/logspace/eye(...) immediately followed by
.cuda() or .to(device) (device a "cuda..." string, torch.device(...), or a
name such as device, self.device, args.device), and the GAN idiom
Tensor(np.random.normal(...)) where Tensor is torch.cuda.FloatTensor (often
through Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor).

"Once per step" means inside a loop that runs a model, backward or an
optimizer step (not an epoch loop, not a loop over files), in a forward
method, or in a function that such code calls (calls are followed inside the
file). One-off setup is not flagged: it costs one copy; nor is code under
"if step % N == 0" inside the loop (sample grids, logging), which pays it
rarely. Neither is
torch.tensor(data).to(device): torch.tensor(data, device=...) also builds
on the host and copies, so there is nothing to gain.

Memory: the tensor is first allocated and filled in host memory, then a
second buffer of the same size is allocated on the GPU and filled by a
host-to-device copy that synchronises with the host; the CPU tensor is garbage
right after. Created with device=, it is allocated once, on the GPU, and
filled by a kernel (tuning guide: "create tensors directly on the target
device").

Fix (--fix): torch.zeros(n).to(device) → torch.zeros(n, device=device); .cuda()
becomes device="cuda". Not rewritten: rand, randn, randint and randperm (on the
GPU they draw from the CUDA generator, so a seeded run would get other
numbers), the NumPy idiom (same reason), requires_grad=True (the moved copy is
a non-leaf whose .grad stays None; built on the device it would be a leaf),
out= and pin_memory=, .cuda(i), .to() with more than a device (a dtype,
copy=), and creation calls that pass **kwargs.

Blind spots: the tensor created in one statement and moved in the next
(x = torch.zeros(n); x = x.cuda()), devices held in names without "device" in
them (.to(rank)), torch.from_numpy (which has no device argument), and
per-step code reached only from other files.`,
	Run: runCreatedThenMoved,
}

// randomCreators draw from the CPU generator when built on the CPU and
// from the CUDA generator with device=: the rewrite would change the
// numbers a seeded run produces, so it is not offered.
var randomCreators = map[string]bool{"rand": true, "randn": true, "randint": true, "randperm": true}

var creators = map[string]bool{
	"zeros": true, "ones": true, "empty": true, "full": true, "rand": true, "randn": true, "randint": true,
	"randperm": true, "arange": true, "linspace": true, "logspace": true, "eye": true,
}

func runCreatedThenMoved(p *lint.Pass) {
	f := p.File
	looper := stepLooper(f, modelNames(f))
	step := func(loop *lint.Node) bool { return looper(loop) }
	numpyToCUDA(p, step)
	for _, call := range f.Nodes("call") {
		name, recv := f.Method(call)
		recv = lint.Unparen(recv)
		if name != "cuda" && name != "to" || !recv.Is("call") {
			continue
		}
		q := f.QualifiedName(recv.Child("function"))
		if !strings.HasPrefix(q, "torch.") || !creators[q[len("torch."):]] || !f.PerStep(call, step) || periodic(f, call) {
			continue
		}
		cpos, ckw, cstar := f.Args(recv)
		if ckw["device"] != nil || len(cpos) > 0 && f.TextIs(cpos[0], "0") {
			continue // an empty(0) placeholder copies nothing
		}
		pos, kw, star := f.Args(call)
		device, simple := "", !star
		switch name {
		case "cuda":
			if len(pos) > 0 || kw["device"] != nil {
				simple = false
				device = "cuda"
			} else {
				device = `"cuda"`
			}
			for k := range kw {
				simple = simple && k == "non_blocking"
			}
		case "to":
			d := kw["device"]
			if len(pos) > 0 {
				d = pos[0]
			}
			if d == nil || !isDevice(f, d) {
				continue
			}
			simple = simple && len(pos) <= 1
			device = f.Text(d)
			for k := range kw {
				simple = simple && (k == "non_blocking" || k == "device")
			}
		}
		var edits []lint.Edit
		// requires_grad=True on the CPU tensor makes the moved copy a
		// non-leaf whose .grad stays None; built on the device it would be
		// a leaf that gets gradients. out= and pin_memory= do not combine
		// with device=. Rewriting those would change the program.
		keeps := ckw["requires_grad"] != nil || ckw["out"] != nil || ckw["pin_memory"] != nil
		if simple && !cstar && !keeps && !randomCreators[q[len("torch."):]] {
			if ins, ok := insertKeyword(f, recv, "device="+device); ok {
				edits = []lint.Edit{ins, {Start: recv.End, End: call.End}}
			}
		}
		fn := f.Text(recv.Child("function"))
		p.ReportPattern("built-then-moved", call, fmt.Sprintf("%s(...) is built in host memory and then copied to the GPU: an extra CPU buffer, a host-to-device copy and a sync; create it on the device", fn),
			fmt.Sprintf("pass device=%s to %s(...)", strings.Trim(device, " "), fn), edits...)
	}
}

// isDevice reports whether e certainly names a CUDA device (not a dtype or
// a tensor): a "cuda..." string, torch.device(...), or a name containing
// "device".
func isDevice(f *lint.File, e *lint.Node) bool {
	e = lint.Unparen(e)
	if s, ok := f.StringValue(e); ok {
		return strings.HasPrefix(s, "cuda")
	}
	if e.Kind == "call" {
		_, ok := f.CallTo(e, "torch.device")
		return ok
	}
	if e.Is("identifier", "attribute") {
		t := f.Text(e)
		return strings.Contains(strings.ToLower(t[strings.LastIndexByte(t, '.')+1:]), "device")
	}
	return false
}

// cudaTensorTypes are the legacy constructors that copy their argument to
// the GPU.
var cudaTensorTypes = map[string]bool{
	"torch.cuda.FloatTensor": true, "torch.cuda.LongTensor": true, "torch.cuda.DoubleTensor": true,
	"torch.cuda.HalfTensor": true, "torch.cuda.IntTensor": true, "torch.cuda.ByteTensor": true,
	"torch.cuda.BoolTensor": true,
}

// numpyToCUDA flags Tensor(np.random.normal(...)) once per step, where
// Tensor is torch.cuda.FloatTensor (often through the alias
// Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor): the
// numbers are drawn into a NumPy array, wrapped, and copied to the GPU.
func numpyToCUDA(p *lint.Pass, step func(*lint.Node) bool) {
	f := p.File
	aliases := map[string]bool{}
	for _, a := range f.Nodes("assignment") {
		left, right := a.Child("left"), lint.Unparen(a.Child("right"))
		if !left.Is("identifier") || right == nil {
			continue
		}
		cand := []*lint.Node{right}
		if right.Kind == "conditional_expression" {
			cand = right.NamedChildren()[:1]
		}
		for _, c := range cand {
			if cudaTensorTypes[f.QualifiedName(c)] {
				aliases[f.Text(left)] = true
			}
		}
	}
	for _, call := range f.Nodes("call") {
		fn := call.Child("function")
		if !(fn.Is("identifier") && aliases[f.Text(fn)] || cudaTensorTypes[f.QualifiedName(fn)]) {
			continue
		}
		pos, kw, _ := f.Args(call)
		if len(pos) != 1 || len(kw) > 0 {
			continue
		}
		arg := lint.Unparen(pos[0])
		if !arg.Is("call") {
			continue
		}
		q := f.QualifiedName(arg.Child("function"))
		if !strings.HasPrefix(q, "numpy.random.") || !f.PerStep(call, step) || periodic(f, call) {
			continue
		}
		p.ReportPattern("numpy-per-step", call, fmt.Sprintf("%s(%s(...)) draws the numbers into a NumPy array in host memory and copies them to the GPU at every step: a host buffer, a copy and a sync each time",
			f.Text(fn), f.Text(arg.Child("function"))),
			"draw them on the device: torch.randn(shape, device=...) for normal(0, 1), torch.randint(low, high, shape, device=...) for randint")
	}
}

// periodic reports whether n sits, inside its loop, under a test like
// "if step % 1000 == 0": logging and sample grids that run every N steps
// pay the copy rarely.
func periodic(f *lint.File, n *lint.Node) bool {
	loop := lint.Loop(n)
	for p := n.Parent; p != nil && p != loop; p = p.Parent {
		if !p.Is("if_statement") {
			continue
		}
		found := false
		p.Child("condition").Walk(func(c *lint.Node) bool {
			if c.Kind == "binary_operator" && f.TextIs(c.Child("operator"), "%") {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
