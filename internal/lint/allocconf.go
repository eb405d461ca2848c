package lint

// This file is a stand-in for allocsim.ParseConfig: the CLI passes
// ValidateAllocConf to the alloc-conf rule as its AllocConfValidator until
// the simulator's parser is on this branch; then the CLI wires
//
//	func(s string) error { _, err := allocsim.ParseConfig(s); return err }
//
// instead and this file goes. It follows ../shared/design/allocator.md §3
// (PyTorch 2.11's c10 AllocatorConfig and CUDAAllocatorConfig). The error
// texts marked [V] there are PyTorch's own, verbatim; the rest are close
// paraphrases.

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// ValidateAllocConf checks a PYTORCH_CUDA_ALLOC_CONF value and returns the
// error PyTorch 2.11 would raise at CUDA initialisation, or nil.
func ValidateAllocConf(conf string) error {
	t := newConfTokens(conf)
	largeSegmentMB := uint64(20)
	for i := 0; i < len(t); i++ {
		key := t[i]
		var err error
		switch key {
		case "max_split_size_mb", "max_non_split_rounding_mb":
			var v uint64
			if v, i, err = t.number(i); err == nil && v < largeSegmentMB {
				err = fmt.Errorf("CachingAllocator option %s too small, must be >= %d", key, largeSegmentMB)
			}
		case "large_segment_size_mb":
			var v uint64
			if v, i, err = t.number(i); err == nil {
				if v <= 10 {
					err = fmt.Errorf("CachingAllocator option large_segment_size_mb must be > 10 MB")
				}
				largeSegmentMB = v
			}
		case "garbage_collection_threshold":
			var v float64
			if v, i, err = t.float(i); err == nil && !(v > 0 && v < 1) {
				err = fmt.Errorf("garbage_collect_threshold is invalid, set it in (0.0, 1.0)")
			}
		case "per_process_memory_fraction":
			var v float64
			if v, i, err = t.float(i); err == nil && !(v >= 0 && v <= 1) {
				err = fmt.Errorf("per_process_memory_fraction is invalid, set it in [0.0, 1.0]")
			}
		case "roundup_power2_divisions":
			i, err = t.roundup(i)
		case "expandable_segments", "pinned_use_background_threads",
			"release_lock_on_cudamalloc", "release_lock_on_hipmalloc",
			"pinned_use_cuda_host_register", "pinned_use_hip_host_register",
			"graph_capture_record_stream_reuse":
			i, err = t.boolean(i)
		case "backend":
			if i, err = t.colon(i); err == nil && t[i] != "native" && t[i] != "cudaMallocAsync" {
				err = fmt.Errorf("Unknown allocator backend, options are native and cudaMallocAsync")
			}
		case "pinned_num_register_threads":
			var v uint64
			if v, i, err = t.number(i); err == nil {
				switch {
				case v == 0 || v&(v-1) != 0:
					err = fmt.Errorf("Number of register threads has to be power of 2, got %d", v)
				case v > 128:
					err = fmt.Errorf("Number of register threads should be less than or equal to 128, got %d", v)
				}
			}
		case "pinned_reserve_segment_size_mb":
			var v uint64
			if v, i, err = t.number(i); err == nil && v == 0 {
				err = fmt.Errorf("Pinned reserve segment size has to be greater than 0")
			}
		default:
			err = fmt.Errorf("Unrecognized key '%s' in CUDA allocator config.", key)
		}
		if err != nil {
			return err
		}
		if i+1 < len(t) {
			i++
			if t[i] != "," {
				return fmt.Errorf("Expected ',' at index %d in ConfigTokenizer but got '%s'", i, t[i])
			}
		}
	}
	return nil
}

// confTokens is PyTorch's ConfigTokenizer: ',', ':', '[' and ']' are
// tokens of their own, whitespace is dropped everywhere.
type confTokens []string

func newConfTokens(s string) confTokens {
	var t confTokens
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			t = append(t, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == ',' || r == ':' || r == '[' || r == ']':
			flush()
			t = append(t, string(r))
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return t
}

// colon consumes "key :" and returns the index of the value token.
func (t confTokens) colon(i int) (int, error) {
	if err := t.expect(i+1, ":"); err != nil {
		return i, err
	}
	if i+2 >= len(t) {
		return i, fmt.Errorf("Expected a value for '%s' in ConfigTokenizer but reached end of config", t[i])
	}
	return i + 2, nil
}

func (t confTokens) expect(i int, tok string) error {
	if i >= len(t) {
		return fmt.Errorf("Expected '%s' in ConfigTokenizer but reached end of config", tok)
	}
	if t[i] != tok {
		return fmt.Errorf("Expected '%s' at index %d in ConfigTokenizer but got '%s'", tok, i, t[i])
	}
	return nil
}

func (t confTokens) boolean(i int) (int, error) {
	i, err := t.colon(i)
	if err != nil {
		return i, err
	}
	if t[i] != "True" && t[i] != "False" {
		return i, fmt.Errorf("Expected 'True' or 'False' at index %d in ConfigTokenizer but got '%s'", i, t[i])
	}
	return i, nil
}

func (t confTokens) number(i int) (uint64, int, error) {
	key := t[i]
	i, err := t.colon(i)
	if err != nil {
		return 0, i, err
	}
	v, ok := stoull(t[i])
	if !ok {
		return 0, i, fmt.Errorf("invalid number '%s' for %s (std::stoull failed)", t[i], key)
	}
	return v, i, nil
}

func (t confTokens) float(i int) (float64, int, error) {
	key := t[i]
	i, err := t.colon(i)
	if err != nil {
		return 0, i, err
	}
	v, ok := stod(t[i])
	if !ok {
		return 0, i, fmt.Errorf("invalid number '%s' for %s (std::stod failed)", t[i], key)
	}
	return v, i, nil
}

// roundup parses roundup_power2_divisions: "N" or "[B:N,...,>:N]".
func (t confTokens) roundup(i int) (int, error) {
	i, err := t.colon(i)
	if err != nil {
		return i, err
	}
	if t[i] != "[" {
		v, ok := stoull(t[i])
		if !ok {
			return i, fmt.Errorf("invalid number '%s' for roundup_power2_divisions (std::stoull failed)", t[i])
		}
		if v == 0 || v&(v-1) != 0 {
			return i, fmt.Errorf("For roundups, the divisions has to be power of 2 ")
		}
		return i, nil
	}
	for i++; ; i++ {
		if i >= len(t) {
			return i, fmt.Errorf("Expected closing bracket ']' in ConfigTokenizer but reached end of config")
		}
		if t[i] == "]" {
			return i, nil
		}
		if t[i] == "," {
			continue
		}
		if t[i] != ">" {
			b, ok := stoull(t[i])
			if !ok {
				return i, fmt.Errorf("invalid number '%s' in roundup_power2_divisions (std::stoull failed)", t[i])
			}
			if b == 0 || b&(b-1) != 0 {
				return i, fmt.Errorf("For roundups, the intervals have to be power of 2 ")
			}
		}
		if err := t.expect(i+1, ":"); err != nil {
			return i, err
		}
		i += 2
		if i >= len(t) {
			return i, fmt.Errorf("Expected closing bracket ']' in ConfigTokenizer but reached end of config")
		}
		n, ok := stoull(t[i])
		if !ok {
			return i, fmt.Errorf("invalid number '%s' in roundup_power2_divisions (std::stoull failed)", t[i])
		}
		if n != 0 && n&(n-1) != 0 {
			return i, fmt.Errorf("For roundups, the divisions has to be power of 2 or 0 to disable roundup ")
		}
	}
}

var (
	leadingInt   = regexp.MustCompile(`^[+-]?[0-9]+`)
	leadingFloat = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|^[+-]?(?i:inf(?:inity)?|nan)`)
)

// stoull mimics std::stoull: a decimal prefix (the rest is ignored), and a
// minus sign wraps around.
func stoull(s string) (uint64, bool) {
	m := leadingInt.FindString(s)
	if m == "" {
		return 0, false
	}
	neg := m[0] == '-'
	v, err := strconv.ParseUint(strings.TrimLeft(m, "+-"), 10, 64)
	if err != nil {
		return 0, false // out of range: std::out_of_range
	}
	if neg {
		v = -v
	}
	return v, true
}

// stod mimics std::stod on its decimal forms.
func stod(s string) (float64, bool) {
	m := leadingFloat.FindString(s)
	if m == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(m, 64)
	if err != nil && !math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}
