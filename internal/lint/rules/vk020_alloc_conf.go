package rules

import (
	"fmt"
	"github.com/vramkit/vramkit/internal/names"
	"regexp"
	"strings"

	"github.com/vramkit/vramkit/internal/lint"
)

// AllocConf validates PYTORCH_CUDA_ALLOC_CONF values wherever they are set.
var AllocConf = &lint.Rule{
	Code: "VK020", Name: "invalid-alloc-conf", Severity: lint.Error, Shell: true,
	Summary: "a PYTORCH_CUDA_ALLOC_CONF value that PyTorch rejects with ValueError at CUDA initialisation",
	Doc: `Checks PYTORCH_CUDA_ALLOC_CONF (and PYTORCH_HIP_ALLOC_CONF, PYTORCH_ALLOC_CONF)
values with the parser of vramkit's allocator simulator, which follows
PyTorch 2.11: known keys only, True/False spelled exactly, numbers,
roundup_power2_divisions as N or [B:N,...,>:N] with powers of two,
max_split_size_mb >= 20, garbage_collection_threshold in (0, 1). Values are
read from os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "...", os.environ.setdefault
and os.putenv calls, dict literals and keyword arguments (env={...},
dict(PYTORCH_CUDA_ALLOC_CONF=...)), torch.cuda.memory._set_allocator_settings
and torch._C._accelerator_setAllocatorSettings calls, "export" and inline
assignments in shell scripts (.sh, .bash) and notebook %env / ! lines.

Memory: an invalid value is not ignored: the first CUDA call raises
ValueError (for example "Unrecognized key 'cuda_memory_pool' in CUDA
allocator config."), so the job dies at start-up; values copied from blog
posts often use keys that never existed. The message quotes PyTorch's error.

Fix: correct the key or value; misspelled keys get a suggestion. The keys
PyTorch 2.11 accepts: backend, expandable_segments,
garbage_collection_threshold, graph_capture_record_stream_reuse,
large_segment_size_mb, max_non_split_rounding_mb, max_split_size_mb,
per_process_memory_fraction, pinned_num_register_threads,
pinned_reserve_segment_size_mb, pinned_use_background_threads,
pinned_use_cuda_host_register, release_lock_on_cudamalloc,
roundup_power2_divisions.

Blind spots: values built at run time (f-strings, concatenation with
variables, shell $VARS), values in other files (Dockerfiles, YAML job
specs), and text inside comments or docstrings.`,
	Run: runAllocConf,
}

var confVars = map[string]bool{"PYTORCH_CUDA_ALLOC_CONF": true, "PYTORCH_HIP_ALLOC_CONF": true, "PYTORCH_ALLOC_CONF": true}

// allocConfKeys are PyTorch 2.11's keys, for did-you-mean hints only.
var allocConfKeys = []string{
	"backend", "expandable_segments", "garbage_collection_threshold", "graph_capture_record_stream_reuse",
	"large_segment_size_mb", "max_non_split_rounding_mb", "max_split_size_mb", "per_process_memory_fraction",
	"pinned_num_register_threads", "pinned_reserve_segment_size_mb", "pinned_use_background_threads",
	"pinned_use_cuda_host_register", "release_lock_on_cudamalloc", "roundup_power2_divisions",
}

func runAllocConf(p *lint.Pass) {
	if p.AllocConf == nil {
		return
	}
	f := p.File
	check := func(variable string, value *lint.Node) {
		v, ok := f.StringValue(value)
		if !ok {
			return
		}
		checkConf(p, variable, v, value.Start, value.End)
	}
	if f.Root != nil {
		for _, a := range f.Nodes("assignment") {
			// os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "..."
			left := a.Child("left")
			if left.Is("subscript") {
				if k, ok := f.StringValue(left.Child("subscript")); ok && confVars[k] {
					check(k, a.Child("right"))
				}
			}
		}
		for _, call := range f.Nodes("call") {
			pos, _, _ := f.Args(call)
			switch name := f.CalleeName(call); {
			case (name == "_set_allocator_settings" || name == "_accelerator_setAllocatorSettings") && len(pos) > 0:
				check("allocator settings", pos[0])
			case len(pos) >= 2:
				// os.environ.setdefault(K, V), os.putenv(K, V), monkeypatch.setenv(K, V)
				if k, ok := f.StringValue(pos[0]); ok && confVars[k] {
					check(k, pos[1])
				}
			}
		}
		for _, pair := range f.Nodes("pair") {
			if k, ok := f.StringValue(pair.Child("key")); ok && confVars[k] {
				check(k, pair.Child("value"))
			}
		}
		for _, kw := range f.Nodes("keyword_argument") {
			if k := f.Text(kw.Child("name")); confVars[k] {
				check(k, kw.Child("value"))
			}
		}
	}
	for _, line := range f.Shell {
		text := shellCode(line.Text)
		for _, re := range shellAssigns {
			for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
				variable, raw := text[m[2]:m[3]], text[m[4]:m[5]]
				value := strings.Trim(raw, `"'`)
				if strings.ContainsAny(value, "$`") {
					continue
				}
				checkConf(p, variable, value, line.Start+m[4], line.Start+m[5])
			}
		}
	}
}

// shellAssigns find VAR=value (alone, after export or env, or inline before
// a command, also after a notebook's !) and IPython's "%env VAR value".
var shellAssigns = []*regexp.Regexp{
	regexp.MustCompile(`(?:^|[\s;&|(!])(PYTORCH_(?:CUDA_|HIP_)?ALLOC_CONF)=("[^"]*"|'[^']*'|[^\s;&|)"']*)`),
	regexp.MustCompile(`^\s*%(?:set_)?env\s+(PYTORCH_(?:CUDA_|HIP_)?ALLOC_CONF)\s+("[^"]*"|'[^']*'|[^\s"']+)`),
}

// shellCode drops a shell comment: a # at a word start outside quotes.
func shellCode(line string) string {
	var q byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

func checkConf(p *lint.Pass, variable, value string, start, end int) {
	if strings.TrimSpace(value) == "" {
		return
	}
	err := p.AllocConf(value)
	if err == nil {
		return
	}
	fix := "correct the value as PyTorch's message says"
	if m := unknownKey.FindStringSubmatch(err.Error()); m != nil {
		if s := closest(m[1]); s != "" {
			fix = fmt.Sprintf("did you mean %q?", s)
		} else {
			fix = fmt.Sprintf("remove %q: PyTorch has no such option (common ones: expandable_segments, max_split_size_mb, garbage_collection_threshold, roundup_power2_divisions)", m[1])
		}
	}
	p.ReportRange(start, end, fmt.Sprintf("%s %q is rejected by PyTorch at CUDA initialisation: ValueError: %s", variable, value, strings.TrimSpace(err.Error())), fix)
}

var unknownKey = regexp.MustCompile(`Unrecognized key '([^']*)'`)

// closest returns the known key nearest to k (names.Nearest), if near.
func closest(k string) string { return names.Nearest(k, allocConfKeys) }
