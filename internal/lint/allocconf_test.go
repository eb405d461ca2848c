package lint

import "testing"

func TestValidateAllocConf(t *testing.T) {
	for _, c := range []struct{ conf, err string }{
		{"", ""},
		{"expandable_segments:True", ""},
		{" expandable_segments : True , max_split_size_mb:128 ,", ""},
		{"roundup_power2_divisions:[256:1,>:4]", ""},
		{"roundup_power2_divisions:[64:8,256:4,1024:4,>:1]", ""},
		{"roundup_power2_divisions:4", ""},
		{"garbage_collection_threshold:0.6,max_split_size_mb:64", ""},
		{"backend:cudaMallocAsync", ""},
		{"per_process_memory_fraction:0.5", ""},
		{"large_segment_size_mb:64,max_split_size_mb:64", ""},
		{"pinned_num_register_threads:8,pinned_use_cuda_host_register:True", ""},
		// Texts verified against PyTorch 2.11 (shared/fixtures/unit/probe-log.txt).
		{"foo:1", "Unrecognized key 'foo' in CUDA allocator config."},
		{"max_split_size_mb:1", "CachingAllocator option max_split_size_mb too small, must be >= 20"},
		{"roundup_power2_divisions:3", "For roundups, the divisions has to be power of 2 "},
		{"garbage_collection_threshold:1.5", "garbage_collect_threshold is invalid, set it in (0.0, 1.0)"},
		{"expandable_segments:yes", "Expected 'True' or 'False' at index 2 in ConfigTokenizer but got 'yes'"},
		{"backend:bar", "Unknown allocator backend, options are native and cudaMallocAsync"},
		{"cuda_memory_pool:x", "Unrecognized key 'cuda_memory_pool' in CUDA allocator config."},
		{"max_non_split_rounding_mb:10", "CachingAllocator option max_non_split_rounding_mb too small, must be >= 20"},
		// From allocator.md §3's tables.
		{"expandable_segments:true", "Expected 'True' or 'False' at index 2 in ConfigTokenizer but got 'true'"},
		{"roundup_power2_divisions:0", "For roundups, the divisions has to be power of 2 "},
		{"roundup_power2_divisions:[300:1]", "For roundups, the intervals have to be power of 2 "},
		{"roundup_power2_divisions:[256:3]", "For roundups, the divisions has to be power of 2 or 0 to disable roundup "},
		{"roundup_power2_divisions:[256:0,>:4]", ""},
		{"roundup_power2_divisions:[256:1", "Expected closing bracket ']' in ConfigTokenizer but reached end of config"},
		{"large_segment_size_mb:10", "CachingAllocator option large_segment_size_mb must be > 10 MB"},
		{"large_segment_size_mb:64,max_split_size_mb:32", "CachingAllocator option max_split_size_mb too small, must be >= 64"},
		{"max_split_size_mb:32,large_segment_size_mb:64", ""}, // order matters
		{"garbage_collection_threshold:0", "garbage_collect_threshold is invalid, set it in (0.0, 1.0)"},
		{"per_process_memory_fraction:1.5", "per_process_memory_fraction is invalid, set it in [0.0, 1.0]"},
		{"pinned_num_register_threads:3", "Number of register threads has to be power of 2, got 3"},
		{"pinned_num_register_threads:256", "Number of register threads should be less than or equal to 128, got 256"},
		{"pinned_reserve_segment_size_mb:0", "Pinned reserve segment size has to be greater than 0"},
		{"throw_on_cudamalloc_oom:True", "Unrecognized key 'throw_on_cudamalloc_oom' in CUDA allocator config."},
		{"expandable_segments:True;max_split_size_mb:128", "Expected 'True' or 'False' at index 2 in ConfigTokenizer but got 'True;max_split_size_mb'"},
		{"expandable_segments=True", "Unrecognized key 'expandable_segments=True' in CUDA allocator config."},
		{"max_split_size_mb:128MB", ""}, // stoull reads the digits and stops
		{"max_split_size_mb:big", "invalid number 'big' for max_split_size_mb (std::stoull failed)"},
		{"expandable_segments", "Expected ':' in ConfigTokenizer but reached end of config"},
		{"expandable_segments:True max_split_size_mb:128", "Expected 'True' or 'False' at index 2 in ConfigTokenizer but got 'Truemax_split_size_mb'"},
	} {
		err := ValidateAllocConf(c.conf)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.err {
			t.Errorf("%q: got %q, want %q", c.conf, got, c.err)
		}
	}
}
