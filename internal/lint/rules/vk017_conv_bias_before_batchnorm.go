package rules

import (
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// ConvBiasBeforeBatchNorm is M17 (tuning guide; the profiler's
// Conv2dBiasFollowedByBatchNorm2dPattern).
var ConvBiasBeforeBatchNorm = &lint.Rule{
	Code: "VK017", Name: "conv-bias-before-batchnorm", Severity: lint.Info,
	Summary: "a convolution with bias right before batch norm has a bias the normalisation cancels",
	Doc: `Flags nn.Conv1d/2d/3d and nn.ConvTranspose1d/2d/3d without bias=False that are
immediately followed by nn.BatchNorm1d/2d/3d or nn.SyncBatchNorm, as
neighbouring arguments of nn.Sequential(...) or neighbouring items of a list
literal (layers = [conv, bn, relu]), also inside (name, module) pairs.

Memory: batch norm subtracts the per-channel mean, which removes any constant
the convolution added, so the bias is a parameter that cannot change the
output. It still costs its memory, a gradient, optimizer state (two more
copies with Adam) and a kernel per step (tuning guide: "disable bias for
convolutions directly followed by a batch norm").

Fix: nn.Conv2d(..., bias=False). There is no --fix: it changes the
state_dict, so existing checkpoints would not load.

Blind spots: layers assigned to attributes (self.conv1, self.bn1) whose order
only forward() shows, and blocks built in loops or helper functions.

Not flagged: an nn.Sequential handed to a class of the file that runs its
layers one at a time (a for loop over it: a masking wrapper may change
what reaches the BatchNorm).`,
	Run: runConvBias,
}

func runConvBias(p *lint.Pass) {
	f := p.File
	check := func(items []*lint.Node) {
		for i := 0; i+1 < len(items); i++ {
			conv, bn := moduleOf(items[i]), moduleOf(items[i+1])
			convName, ok := layer(f, conv, "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")
			if !ok {
				continue
			}
			bnName, ok := layer(f, bn, "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm")
			if !ok {
				continue
			}
			pos, kw, star := f.Args(conv)
			if star || len(pos) >= 8 || kw["bias"] != nil {
				continue // bias=False, or passed in a way we do not judge
			}
			p.Report(conv, fmt.Sprintf("%s has a bias that the %s right after it cancels (it subtracts the channel mean): a parameter, its gradient and optimizer state that do nothing", convName, bnName),
				fmt.Sprintf("pass bias=False to %s", convName))
		}
	}
	for _, call := range f.Nodes("call") {
		if _, ok := f.CallTo(call, "torch.nn.Sequential"); ok && !steppedThrough(f, call) {
			pos, _, _ := f.Args(call)
			check(pos)
		}
	}
	for _, l := range f.Nodes("list") {
		check(l.NamedChildren())
	}
}

// moduleOf unwraps ("name", module) pairs of OrderedDict-style lists.
func moduleOf(n *lint.Node) *lint.Node {
	n = lint.Unparen(n)
	if n.Is("tuple") {
		if items := n.NamedChildren(); len(items) == 2 {
			return lint.Unparen(items[1])
		}
	}
	return n
}

// layer reports whether n is a call of torch.nn.<one of names>.
func layer(f *lint.File, n *lint.Node, names ...string) (string, bool) {
	if !n.Is("call") {
		return "", false
	}
	q := f.QualifiedName(n.Child("function"))
	for _, name := range names {
		if q == "torch.nn."+name || q == "torch.nn.modules."+strings.ToLower(name[:len(name)-2])+"."+name {
			return "nn." + name, true
		}
	}
	return "", false
}

// steppedThrough reports whether seq, an nn.Sequential(...) call, is
// handed to a class of the file that runs its layers one at a time (a
// for loop over a self attribute in one of its methods): deepspeech's
// MaskConv masks padded steps after every layer, so what reaches the
// BatchNorm is not the conv's output, and the bias does not cancel.
func steppedThrough(f *lint.File, seq *lint.Node) bool {
	par := seq.Parent
	if !par.Is("argument_list") {
		return false
	}
	name := f.CalleeName(par.Parent)
	for _, cls := range f.Nodes("class_definition") {
		if name == "" || !f.TextIs(cls.Child("name"), name) {
			continue
		}
		for _, loop := range f.Nodes("for_statement") {
			it := lint.Unparen(loop.Child("right"))
			if loop.Ancestor("class_definition") == cls && it.Is("attribute") && f.TextIs(it.Child("object"), "self") {
				return true
			}
		}
	}
	return false
}
