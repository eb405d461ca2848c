package rules

import (
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// DeprecatedAMP is M6: the torch.cuda.amp / torch.cpu.amp aliases.
var DeprecatedAMP = &lint.Rule{
	Code: "VK006", Name: "deprecated-cuda-amp", Severity: lint.Warning, Fixable: true,
	// Policy (bench/lint): a use that runs the old API was right 32/33
	// times; a type annotation (2 debatable in unseen6) warns nothing at
	// run time, so it is a hint.
	Patterns: map[string]lint.Level{"api": {Severity: lint.Warning}, "import": {Severity: lint.Warning}, "annotation": {Severity: lint.Info, Hint: true}},
	Summary:  "torch.cuda.amp.* and torch.cpu.amp.* are deprecated aliases of torch.amp.* (FutureWarning since PyTorch 2.4)",
	Doc: `Flags uses of torch.cuda.amp.autocast, torch.cuda.amp.GradScaler,
torch.cuda.amp.custom_fwd, torch.cuda.amp.custom_bwd, torch.cpu.amp.autocast
and torch.cpu.amp.GradScaler, however imported (import torch as T,
from torch.cuda import amp, from torch.cuda.amp import GradScaler as GS).
TorchFix covers only autocast; GradScaler prints
"FutureWarning: torch.cuda.amp.GradScaler(args...) is deprecated. Please use
torch.amp.GradScaler('cuda', args...) instead." on every run.

Memory: none by itself; the mixed-precision behaviour is the same. The rule is
here because the warning buries the allocator messages that matter, and the
old names will be removed.

Fix (--fix): torch.cuda.amp.autocast(...) → torch.amp.autocast("cuda", ...),
GradScaler likewise, @torch.cuda.amp.custom_fwd → @torch.amp.custom_fwd(device_type="cuda").
A from-import is rewritten to "from torch.amp import ..." together with every
use of the names it binds, only when each use is such a call or decorator.
Calls with positional arguments are not rewritten: torch.cuda.amp.autocast(True)
would become torch.amp.autocast("cuda", True), where True lands on dtype.
Nor are the calls of a class the file also uses as a value
(isinstance(s, torch.cuda.amp.GradScaler), a subclass, an alias): the new
object would not be an instance of the old class those checks name.
A fallback import inside "except ImportError:" is not flagged.

Blind spots: star imports (from torch.cuda.amp import *), names re-exported by
another module, and the apex amp package (not torch's).`,
	Run: runDeprecatedAMP,
}

type ampAPI struct{ device, name string }

var deprecatedAMP = map[string]ampAPI{
	"torch.cuda.amp.autocast":   {"cuda", "autocast"},
	"torch.cuda.amp.GradScaler": {"cuda", "GradScaler"},
	"torch.cuda.amp.custom_fwd": {"cuda", "custom_fwd"},
	"torch.cuda.amp.custom_bwd": {"cuda", "custom_bwd"},
	"torch.cpu.amp.autocast":    {"cpu", "autocast"},
	"torch.cpu.amp.GradScaler":  {"cpu", "GradScaler"},
}

func runDeprecatedAMP(p *lint.Pass) {
	f := p.File
	torch := torchAlias(f)
	// A class used as a value (isinstance(s, torch.cuda.amp.GradScaler), a
	// subclass, an alias) keeps its old name, so rewriting the constructor
	// calls of that class could make those checks fail: leave them alone.
	pinned := map[string]bool{}
	for _, n := range f.Nodes("attribute") {
		if q := f.QualifiedName(n); deprecatedAMP[q].name != "" && n.Field != "function" && n.Parent.Kind != "decorator" && n.Parent.Kind != "attribute" {
			pinned[q] = true
		}
	}
	for _, n := range f.Nodes("attribute") {
		q := f.QualifiedName(n)
		api, ok := deprecatedAMP[q]
		if !ok || oldTorchFallback(f, n) {
			continue
		}
		var edits []lint.Edit
		torch := torch
		root := n
		for root.Kind == "attribute" {
			root = root.Child("object")
		}
		if f.ImportedAs(f.Text(root)) == "torch" {
			torch = f.Text(root) // keep the file's own spelling: T.amp...
		}
		if torch != "" && !pinned[q] {
			if use, ok := ampUseEdits(f, n, api); ok {
				edits = append([]lint.Edit{{Start: n.Start, End: n.End, New: torch + ".amp." + api.name}}, use...)
			}
		}
		pattern := "api"
		if n.Ancestor("type", "call", "function_definition") != nil && n.Ancestor("type", "call", "function_definition").Kind == "type" {
			// scaler: amp.GradScaler runs nothing: no FutureWarning, though
			// the name should change with the constructor.
			pattern = "annotation"
		}
		p.ReportPattern(pattern, n, fmt.Sprintf("%s is deprecated (FutureWarning since PyTorch 2.4); use torch.amp.%s with device %q", q, api.name, api.device),
			ampFixText(api), edits...)
	}
	for _, st := range f.Nodes("import_from_statement") {
		checkAMPImport(p, st)
	}
}

func ampFixText(api ampAPI) string {
	if api.name == "custom_fwd" || api.name == "custom_bwd" {
		return fmt.Sprintf("use torch.amp.%s(device_type=%q, ...)", api.name, api.device)
	}
	return fmt.Sprintf("use torch.amp.%s(%q, ...)", api.name, api.device)
}

// torchAlias is a local name bound to the torch package, or "".
func torchAlias(f *lint.File) string {
	if f.ImportedAs("torch") == "torch" {
		return "torch"
	}
	for _, st := range f.Nodes("import_statement") {
		for _, c := range st.Children {
			if c.Kind == "aliased_import" && f.TextIs(c.Child("name"), "torch") {
				alias := f.Text(c.Child("alias"))
				if f.ImportedAs(alias) == "torch" {
					return alias
				}
			}
		}
	}
	return ""
}

// ampUseEdits returns the argument edits that make a use of the old API a
// use of torch.amp's: the device goes first. ok is false when the use
// cannot be rewritten safely.
func ampUseEdits(f *lint.File, n *lint.Node, api ampAPI) ([]lint.Edit, bool) {
	custom := api.name == "custom_fwd" || api.name == "custom_bwd"
	if custom && n.Parent.Kind == "decorator" {
		// @torch.cuda.amp.custom_fwd → @torch.amp.custom_fwd(device_type="cuda")
		return []lint.Edit{{Start: n.End, End: n.End, New: fmt.Sprintf("(device_type=%q)", api.device)}}, true
	}
	call := n.Parent
	if n.Field != "function" || call.Kind != "call" {
		return nil, false
	}
	pos, _, star := f.Args(call)
	al := call.Child("arguments")
	if len(pos) > 0 || star || al.Kind != "argument_list" {
		return nil, false
	}
	arg := fmt.Sprintf("%q", api.device)
	if custom {
		arg = fmt.Sprintf("device_type=%q", api.device)
	}
	if len(al.NamedChildren()) > 0 {
		arg += ", "
	}
	return []lint.Edit{{Start: al.Start + 1, End: al.Start + 1, New: arg}}, true
}

// checkAMPImport handles "from torch.cuda.amp import autocast, GradScaler".
func checkAMPImport(p *lint.Pass, st *lint.Node) {
	f := p.File
	mod := st.Child("module_name")
	module := f.Text(mod)
	if module != "torch.cuda.amp" && module != "torch.cpu.amp" {
		return
	}
	if ex := st.Ancestor("except_clause"); ex != nil {
		return // the fallback of a try: from torch.amp import ...
	}
	type binding struct {
		node  *lint.Node
		local string
		api   ampAPI
	}
	var names []binding
	fixable := true
	for _, c := range st.Children {
		if c.Field != "name" {
			continue
		}
		name, local := c, c
		if c.Kind == "aliased_import" {
			name, local = c.Child("name"), c.Child("alias")
		}
		api, ok := deprecatedAMP[module+"."+f.Text(name)]
		if !ok {
			fixable = false // something torch.amp may not have
			continue
		}
		names = append(names, binding{c, f.Text(local), api})
	}
	if len(names) == 0 {
		return
	}
	edits := []lint.Edit{{Start: mod.Start, End: mod.End, New: "torch.amp"}}
	for _, b := range names {
		use, ok := localUseEdits(f, b.local, b.api)
		fixable = fixable && ok
		edits = append(edits, use...)
	}
	for i, b := range names {
		var e []lint.Edit
		if i == 0 && fixable {
			e = edits
		}
		p.ReportPattern("import", b.node, fmt.Sprintf("%s.%s is deprecated (FutureWarning since PyTorch 2.4); import it from torch.amp and pass the device %q", module, b.api.name, b.api.device),
			ampFixText(b.api), e...)
	}
}

// localUseEdits rewrites every use of a name imported from the old module.
func localUseEdits(f *lint.File, local string, api ampAPI) ([]lint.Edit, bool) {
	var edits []lint.Edit
	for _, id := range f.Nodes("identifier") {
		if !f.TextIs(id, local) {
			continue
		}
		switch par := id.Parent; {
		case par.Is("dotted_name", "aliased_import", "import_from_statement"):
		case id.Field == "attribute" || id.Field == "name" && par.Kind == "keyword_argument":
		default:
			use, ok := ampUseEdits(f, id, api)
			if !ok {
				return nil, false
			}
			edits = append(edits, use...)
		}
	}
	return edits, true
}

// oldTorchFallback reports whether n sits in the except clause of a try
// whose body uses torch.amp: try: torch.amp.GradScaler(device=d) except
// (AttributeError, TypeError): torch.cuda.amp.GradScaler() (timm's
// NativeScaler) is the fallback for a PyTorch without the new API, and
// runs only there.
func oldTorchFallback(f *lint.File, n *lint.Node) bool {
	ex := n.Ancestor("except_clause", "function_definition", "class_definition")
	if !ex.Is("except_clause") || !ex.Parent.Is("try_statement") {
		return false
	}
	found := false
	ex.Parent.Child("body").Walk(func(m *lint.Node) bool {
		if m.Kind == "attribute" && strings.HasPrefix(f.QualifiedName(m), "torch.amp.") {
			found = true
		}
		return !found
	})
	return found
}
