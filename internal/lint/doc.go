// Package lint is the engine of vramkit lint: it finds patterns in PyTorch
// training code that waste or leak GPU memory.
//
// A file is parsed (by a ParseFunc; package pyparse is the tree-sitter
// glue) into a tree of Node values and indexed as a File: nodes by kind,
// line starts, and an import table that resolves aliases such as
// "import torch as T" or "from torch.cuda.amp import GradScaler as GS".
// Each Rule (package rules holds them, one per file) runs on a Pass over
// the File and reports Diagnostics, some with Edits that --fix applies.
//
// Around that sit the pieces a command needs: Collect walks directories
// honouring .gitignore; Check handles .py files, notebooks (code cells
// joined, magics blanked, findings mapped back to cell:line) and shell
// scripts; "# vramkit: ignore[...]" comments and the [tool.vramkit] table
// of pyproject.toml switch rules off; WriteText, WriteJSON and WriteSARIF
// render findings; Fix applies edits and refuses results that no longer
// parse; UnifiedDiff shows them.
//
// PYTORCH_CUDA_ALLOC_CONF strings are checked by the function in
// Options.AllocConf: the CLI passes the simulator's own parser
// (allocsim.ParseConfig), so lint refuses exactly what PyTorch refuses.
package lint
