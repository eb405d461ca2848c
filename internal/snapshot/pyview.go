package snapshot

import "strings"

// PythonView is s with its stacks read by their Python frames alone, when
// the snapshot was recorded with C++ frames too (_record_memory_history's
// default, stacks "all"): the unwinder, the allocator and ATen head every
// such stack, and the autograd engine's thread, which runs no Python, has
// C++ frames only. Read as they are, a C++ frame is an allocation's
// "library call" and every C++ frame after it "user code" (probe-default:
// 4,000-character sites of torch::unwind, ??:0 and
// CUDACachingAllocator.cpp), and backward's allocations have a stack, so
// nothing marks them as the engine's. A snapshot of Python frames only,
// or of C++ frames only, is returned as it is. The copy shares all but
// the stack list.
func PythonView(s *Snapshot) *Snapshot {
	py, cpp := false, false
	for _, st := range s.Stacks {
		for _, f := range st {
			if IsPythonFrame(f) {
				py = true
			} else {
				cpp = true
			}
		}
		if py && cpp {
			break
		}
	}
	if !py || !cpp {
		return s
	}
	v := *s
	v.Stacks = make([][]Frame, len(s.Stacks))
	for i, st := range s.Stacks {
		var out []Frame
		for _, f := range st {
			if IsPythonFrame(f) {
				out = append(out, f)
			}
		}
		v.Stacks[i] = out
	}
	return &v
}

// IsPythonFrame tells a Python frame (a .py source, or an interpreter
// pseudo-file: "<stdin>", "<frozen runpy>", a notebook's
// "<ipython-input-…>") from a C++ one (a .cpp or .h file, a shared
// library, "??").
func IsPythonFrame(f Frame) bool {
	return strings.HasSuffix(f.Filename, ".py") || strings.HasPrefix(f.Filename, "<")
}
