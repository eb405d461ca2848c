package allocsim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Size constants of c10/core/AllocatorConfig.h (PyTorch 2.11).
const (
	MinBlockSize   = 512      // kMinBlockSize
	SmallSize      = 1 << 20  // kSmallSize: requests up to this go to the small pool
	SmallBuffer    = 2 << 20  // kSmallBuffer: small segment (and small expandable page)
	MinLargeAlloc  = 10 << 20 // kMinLargeAlloc
	RoundLarge     = 2 << 20  // kRoundLarge
	DefaultSegment = 20 << 20 // default large_segment_size (the old kLargeBuffer)
	mb             = 1 << 20
	numIntervals   = 16
)

// Unlimited is max_split_size when no limit is set (SIZE_MAX in C++).
const Unlimited = math.MaxInt64

// Config is a parsed PYTORCH_CUDA_ALLOC_CONF plus the runtime knobs that
// shape the native caching allocator.
type Config struct {
	// MaxSplitSize: blocks this large or larger are never split
	// (max_split_size_mb); Unlimited by default.
	MaxSplitSize int64 `json:"max_split_size"`
	// MaxNonSplitRounding: how much larger than the request an oversize
	// cached block may be and still be used (max_non_split_rounding_mb).
	MaxNonSplitRounding int64 `json:"max_non_split_rounding"`
	// LargeSegmentSize: segment size for 1–10 MiB requests and the large
	// expandable page (large_segment_size_mb).
	LargeSegmentSize int64 `json:"large_segment_size"`
	// RoundupDivisions per power-of-two interval from 1 MiB (index 0) to
	// 32 GiB and above (index 15); 0 or 1 means plain 512-byte rounding.
	RoundupDivisions [numIntervals]int `json:"roundup_power2_divisions"`
	// GCThreshold is garbage_collection_threshold; 0 = off. It only acts
	// when a memory fraction below 1 is set.
	GCThreshold float64 `json:"garbage_collection_threshold"`
	// Expandable is expandable_segments.
	Expandable bool `json:"expandable_segments"`
	// MemoryFraction is per_process_memory_fraction (or
	// torch.cuda.set_per_process_memory_fraction); 1 = no cap.
	MemoryFraction float64 `json:"per_process_memory_fraction"`
	// Backend is "native" or "cudaMallocAsync".
	Backend string `json:"backend"`
	// Source is the string the config was parsed from.
	Source string `json:"alloc_conf"`
}

// DefaultConfig is PyTorch's configuration with PYTORCH_CUDA_ALLOC_CONF unset.
func DefaultConfig() Config {
	return Config{
		MaxSplitSize:        Unlimited,
		MaxNonSplitRounding: DefaultSegment,
		LargeSegmentSize:    DefaultSegment,
		MemoryFraction:      1,
		Backend:             "native",
	}
}

// ParseConfig parses a PYTORCH_CUDA_ALLOC_CONF string with PyTorch 2.11's
// rules, refusing what PyTorch refuses with PyTorch's own message.
func ParseConfig(s string) (Config, error) {
	c := DefaultConfig()
	c.Source = s
	tok := tokenize(s)
	for i := 0; i < len(tok); i++ {
		key := tok[i]
		if key == "," {
			continue
		}
		if i+1 >= len(tok) || tok[i+1] != ":" {
			return c, fmt.Errorf("Expected ':' after key %q in ConfigTokenizer", key)
		}
		i += 2
		if i >= len(tok) {
			return c, fmt.Errorf("Expected value for key %q in ConfigTokenizer but reached end of config", key)
		}
		var err error
		switch key {
		case "max_split_size_mb":
			c.MaxSplitSize, err = mbOption(tok, i, key, c.LargeSegmentSize)
		case "max_non_split_rounding_mb":
			c.MaxNonSplitRounding, err = mbOption(tok, i, key, c.LargeSegmentSize)
		case "large_segment_size_mb":
			var v uint64
			v, err = number(tok, i)
			if err == nil && v <= 10 {
				err = fmt.Errorf("CachingAllocator option large_segment_size_mb must be > 10 MB")
			}
			if err == nil {
				c.LargeSegmentSize = clampMB(v)
			}
		case "garbage_collection_threshold":
			var f float64
			f, err = strconv.ParseFloat(tok[i], 64)
			if err != nil {
				err = fmt.Errorf("Expected a number at index %d in ConfigTokenizer but got '%s'", i, tok[i])
			} else if !(f > 0 && f < 1) {
				err = fmt.Errorf("garbage_collect_threshold is invalid, set it in (0.0, 1.0)")
			}
			c.GCThreshold = f
		case "roundup_power2_divisions":
			i, err = c.parseRoundup(tok, i)
		case "expandable_segments":
			c.Expandable, err = boolean(tok, i)
		case "backend":
			if tok[i] != "native" && tok[i] != "cudaMallocAsync" {
				err = fmt.Errorf("Unknown allocator backend, options are native and cudaMallocAsync")
			}
			c.Backend = tok[i]
		case "per_process_memory_fraction":
			var f float64
			f, err = strconv.ParseFloat(tok[i], 64)
			if err != nil || f < 0 || f > 1 {
				err = fmt.Errorf("per_process_memory_fraction is invalid, set it in [0.0, 1.0]")
			}
			c.MemoryFraction = f
		case "release_lock_on_cudamalloc", "release_lock_on_hipmalloc", "pinned_use_cuda_host_register",
			"pinned_use_hip_host_register", "graph_capture_record_stream_reuse", "pinned_use_background_threads":
			_, err = boolean(tok, i)
		case "pinned_num_register_threads":
			var v uint64
			v, err = number(tok, i)
			if err == nil && v&(v-1) != 0 {
				err = fmt.Errorf("Number of register threads has to be power of 2, got %d", v)
			} else if err == nil && v > 128 {
				err = fmt.Errorf("Number of register threads should be less than or equal to 128, got %d", v)
			}
		case "pinned_reserve_segment_size_mb":
			var v uint64
			v, err = number(tok, i)
			if err == nil && v == 0 {
				err = fmt.Errorf("Pinned reserve segment size has to be greater than 0")
			}
		default:
			return c, fmt.Errorf("Unrecognized key '%s' in CUDA allocator config.", key)
		}
		if err != nil {
			return c, err
		}
		if i+1 < len(tok) && tok[i+1] != "," {
			return c, fmt.Errorf("Expected ',' at index %d in ConfigTokenizer but got '%s'", i+1, tok[i+1])
		}
	}
	return c, nil
}

// tokenize splits like c10's ConfigTokenizer: ',', ':', '[' and ']' are
// tokens of their own and whitespace is dropped.
func tokenize(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == ',' || r == ':' || r == '[' || r == ']':
			flush()
			out = append(out, string(r))
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

func number(tok []string, i int) (uint64, error) {
	v, err := strconv.ParseUint(tok[i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("Expected a number at index %d in ConfigTokenizer but got '%s'", i, tok[i])
	}
	return v, nil
}

func boolean(tok []string, i int) (bool, error) {
	switch tok[i] {
	case "True":
		return true, nil
	case "False":
		return false, nil
	}
	return false, fmt.Errorf("Expected 'True' or 'False' at index %d in ConfigTokenizer but got '%s'", i, tok[i])
}

func clampMB(v uint64) int64 {
	if v > uint64(math.MaxInt64/mb) {
		return Unlimited
	}
	return int64(v) * mb
}

// mbOption parses max_split_size_mb / max_non_split_rounding_mb, which must
// be at least the current large segment size.
func mbOption(tok []string, i int, key string, segment int64) (int64, error) {
	v, err := number(tok, i)
	if err != nil {
		return 0, err
	}
	if min := uint64(segment / mb); v < min {
		return 0, fmt.Errorf("CachingAllocator option %s too small, must be >= %d", key, min)
	}
	return clampMB(v), nil
}

func isPow2(v uint64) bool { return v != 0 && v&(v-1) == 0 }

// parseRoundup parses "N" or "[B:N,...,>:N]" starting at tok[i] and returns
// the index of the value's last token.
func (c *Config) parseRoundup(tok []string, i int) (int, error) {
	if tok[i] != "[" {
		v, err := number(tok, i)
		if err != nil {
			return i, err
		}
		if !isPow2(v) {
			return i, fmt.Errorf("For roundups, the divisions has to be power of 2 ")
		}
		for k := range c.RoundupDivisions {
			c.RoundupDivisions[k] = int(v)
		}
		return i, nil
	}
	last := -1
	first := true
	for i++; ; i++ {
		if i >= len(tok) {
			return i, fmt.Errorf("Expected closing bracket ']' in ConfigTokenizer but reached end of config")
		}
		if tok[i] == "]" {
			return i, nil
		}
		if tok[i] == "," {
			continue
		}
		if i+2 >= len(tok) || tok[i+1] != ":" {
			return i, fmt.Errorf("Expected closing bracket ']' in ConfigTokenizer but reached end of config")
		}
		v, err := number(tok, i+2)
		if err != nil {
			return i, err
		}
		if v != 0 && !isPow2(v) {
			return i, fmt.Errorf("For roundups, the divisions has to be power of 2 or 0 to disable roundup ")
		}
		if tok[i] == ">" {
			for k := last + 1; k < numIntervals; k++ {
				c.RoundupDivisions[k] = int(v)
			}
		} else {
			b, err := number(tok, i)
			if err != nil {
				return i, err
			}
			if !isPow2(b) {
				return i, fmt.Errorf("For roundups, the intervals have to be power of 2 ")
			}
			idx := 0
			for b > 1 {
				b >>= 1
				idx++
			}
			if idx > numIntervals-1 {
				idx = numIntervals - 1
			}
			if first {
				for k := 0; k < idx; k++ {
					c.RoundupDivisions[k] = int(v)
				}
			}
			c.RoundupDivisions[idx] = int(v)
			last = idx
		}
		first = false
		i += 2
	}
}

// String renders the config as a PYTORCH_CUDA_ALLOC_CONF line, listing only
// what differs from the defaults.
func (c Config) String() string {
	d := DefaultConfig()
	var parts []string
	if c.Backend != d.Backend {
		parts = append(parts, "backend:"+c.Backend)
	}
	if c.Expandable {
		parts = append(parts, "expandable_segments:True")
	}
	if c.LargeSegmentSize != d.LargeSegmentSize {
		parts = append(parts, fmt.Sprintf("large_segment_size_mb:%d", c.LargeSegmentSize/mb))
	}
	if c.MaxSplitSize != Unlimited {
		parts = append(parts, fmt.Sprintf("max_split_size_mb:%d", c.MaxSplitSize/mb))
	}
	if c.MaxNonSplitRounding != c.LargeSegmentSize && c.MaxNonSplitRounding != d.MaxNonSplitRounding {
		parts = append(parts, fmt.Sprintf("max_non_split_rounding_mb:%d", c.MaxNonSplitRounding/mb))
	}
	if c.GCThreshold > 0 {
		parts = append(parts, "garbage_collection_threshold:"+strconv.FormatFloat(c.GCThreshold, 'g', -1, 64))
	}
	if r := roundupString(c.RoundupDivisions); r != "" {
		parts = append(parts, "roundup_power2_divisions:"+r)
	}
	if c.MemoryFraction < 1 {
		parts = append(parts, "per_process_memory_fraction:"+strconv.FormatFloat(c.MemoryFraction, 'g', -1, 64))
	}
	return strings.Join(parts, ",")
}

func roundupString(r [numIntervals]int) string {
	same := true
	for _, v := range r {
		if v != r[0] {
			same = false
		}
	}
	if same {
		if r[0] == 0 {
			return ""
		}
		return strconv.Itoa(r[0])
	}
	var parts []string
	for k := 0; k < numIntervals; k++ {
		if k == numIntervals-1 || r[k] != r[k+1] {
			if k == numIntervals-1 {
				parts = append(parts, ">:"+strconv.Itoa(r[k]))
			} else {
				parts = append(parts, fmt.Sprintf("%d:%d", 1<<k, r[k]))
			}
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}
