package rules

import (
	"fmt"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// OOMRetryInExcept is M4, the FAQ's "My out of memory exception handler
// can't allocate memory".
var OOMRetryInExcept = &lint.Rule{
	Code: "VK004", Name: "oom-retry-in-except", Severity: lint.Error,
	Summary: "retrying the work inside the except that caught a CUDA out-of-memory error runs with the failed attempt's memory still held",
	Doc: `Flags a call inside an except clause that catches the CUDA out-of-memory
error and that repeats work from the try block: the same function or model is
called again (out = model(x[:half])), or the enclosing function calls itself.
The handler counts as catching OOM when it names torch.OutOfMemoryError or
torch.cuda.OutOfMemoryError, or when it catches RuntimeError, Exception or
everything and its body tests for "out of memory".

Memory: while the except block runs, the exception object holds its
traceback, and the traceback holds the frames of the failed attempt with every
tensor they referenced. The retry therefore runs with that memory still
allocated and often fails again (PyTorch FAQ: "move the recovery code outside
of the except clause").

Fix: only record the failure in the except (oom = True), and retry after the
try/except statement; call torch.cuda.empty_cache() there if needed.

Blind spots: retries through a different function than the one that failed
(a halved-batch helper), loops that retry by continuing to the next iteration
(which is the recommended shape and is not flagged), and handlers that
re-raise after a cleanup.`,
	Run: runOOMRetry,
}

// notRetry are calls that cleanup or logging code repeats harmlessly.
var notRetry = map[string]bool{
	"print": true, "len": true, "str": true, "repr": true, "int": true, "float": true, "isinstance": true,
	"range": true, "format": true, "getattr": true, "hasattr": true, "setattr": true, "sleep": true,
	"collect": true, "empty_cache": true, "synchronize": true, "zero_grad": true, "item": true,
	"info": true, "debug": true, "warning": true, "warn": true, "error": true, "exception": true,
	"log": true, "append": true, "clear": true, "reset_peak_memory_stats": true, "memory_summary": true,
	"to": true, "cuda": true, "cpu": true, "size": true, "numel": true,
}

func runOOMRetry(p *lint.Pass) {
	f := p.File
	models := modelNames(f)
	for _, ex := range f.Nodes("except_clause") {
		if !catchesOOM(f, ex) {
			continue
		}
		try := ex.Parent
		var tried []string
		for _, c := range lint.Calls(try.Child("body")) {
			tried = append(tried, f.Text(c.Child("function")))
		}
		fnName := ""
		if fn := lint.Scope(ex); fn.Is("function_definition") {
			fnName = f.Text(fn.Child("name"))
		}
		for _, blk := range ex.Children {
			if blk.Kind != "block" {
				continue
			}
			for _, c := range lint.Calls(blk) {
				callee := f.Text(c.Child("function"))
				if notRetry[f.CalleeName(c)] {
					continue
				}
				again := false
				for _, t := range tried {
					again = again || t == callee
				}
				recursive := fnName != "" && (callee == fnName || callee == "self."+fnName)
				if !again && !recursive && !(modelCall(f, c, models) && len(tried) > 0) {
					continue
				}
				p.Report(c, fmt.Sprintf("%s is called again inside the except that caught the CUDA out-of-memory error: the exception's traceback keeps the failed attempt's tensors alive, so the retry runs with that memory still allocated", callee),
					"only set a flag in the except (oom = True) and retry after the try/except statement")
				break
			}
		}
	}
}

// catchesOOM reports whether an except clause handles CUDA out-of-memory.
func catchesOOM(f *lint.File, ex *lint.Node) bool {
	v := lint.Unparen(ex.Child("value"))
	if v.Is("as_pattern") {
		v = lint.Unparen(v.NamedChildren()[0])
	}
	var types []*lint.Node
	switch {
	case v == nil:
	case v.Is("tuple"):
		types = v.NamedChildren()
	default:
		types = []*lint.Node{v}
	}
	generic := v == nil // bare except:
	for _, t := range types {
		q := f.QualifiedName(t)
		name := f.Text(t)
		switch {
		case q == "torch.OutOfMemoryError" || q == "torch.cuda.OutOfMemoryError" || strings.HasSuffix(name, "OutOfMemoryError"):
			return true
		case name == "RuntimeError" || name == "Exception" || name == "BaseException":
			generic = true
		}
	}
	if !generic {
		return false
	}
	mentions := false
	ex.Walk(func(n *lint.Node) bool {
		if n.Kind == "string_content" && strings.Contains(strings.ToLower(f.Text(n)), "out of memory") {
			mentions = true
		}
		return !mentions
	})
	return mentions
}
