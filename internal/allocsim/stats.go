package allocsim

import "sort"

// Stat is one counter of memory_stats(): current value, peak, and the
// cumulative increases (allocated) and decreases (freed).
type Stat struct {
	Current   int64 `json:"current"`
	Peak      int64 `json:"peak"`
	Allocated int64 `json:"allocated"`
	Freed     int64 `json:"freed"`
}

func (s *Stat) increase(n int64) {
	s.Current += n
	if s.Current > s.Peak {
		s.Peak = s.Current
	}
	s.Allocated += n
}

func (s *Stat) decrease(n int64) {
	s.Current -= n
	s.Freed += n
}

// StatArray is a Stat for all pools together and for each pool kind, as
// StatType in CachingDeviceAllocator.h.
type StatArray struct {
	All   Stat `json:"all"`
	Large Stat `json:"large_pool"`
	Small Stat `json:"small_pool"`
}

func (a *StatArray) increase(small bool, n int64) {
	a.All.increase(n)
	if small {
		a.Small.increase(n)
	} else {
		a.Large.increase(n)
	}
}

func (a *StatArray) decrease(small bool, n int64) {
	a.All.decrease(n)
	if small {
		a.Small.decrease(n)
	} else {
		a.Large.decrease(n)
	}
}

// Stats mirrors DeviceStats, the source of torch.cuda.memory_stats().
type Stats struct {
	Allocation         StatArray
	Segment            StatArray
	Active             StatArray
	InactiveSplit      StatArray
	AllocatedBytes     StatArray
	ReservedBytes      StatArray
	ActiveBytes        StatArray
	InactiveSplitBytes StatArray
	RequestedBytes     StatArray

	OversizeAllocations Stat
	OversizeSegments    Stat

	NumAllocRetries   int64
	NumOOMs           int64
	NumSyncAllStreams int64
	NumDeviceAlloc    int64
	NumDeviceFree     int64
	MaxSplitSize      int64 // -1 when unlimited
}

// Map flattens the stats into torch.cuda.memory_stats()'s keys.
func (s *Stats) Map() map[string]int64 {
	m := make(map[string]int64, 160)
	arrays := []struct {
		name string
		a    *StatArray
	}{
		{"allocation", &s.Allocation}, {"segment", &s.Segment}, {"active", &s.Active},
		{"inactive_split", &s.InactiveSplit}, {"allocated_bytes", &s.AllocatedBytes},
		{"reserved_bytes", &s.ReservedBytes}, {"active_bytes", &s.ActiveBytes},
		{"inactive_split_bytes", &s.InactiveSplitBytes}, {"requested_bytes", &s.RequestedBytes},
	}
	for _, ar := range arrays {
		putStat(m, ar.name+".all", &ar.a.All)
		putStat(m, ar.name+".large_pool", &ar.a.Large)
		putStat(m, ar.name+".small_pool", &ar.a.Small)
	}
	putStat(m, "oversize_allocations", &s.OversizeAllocations)
	putStat(m, "oversize_segments", &s.OversizeSegments)
	m["num_alloc_retries"] = s.NumAllocRetries
	m["num_ooms"] = s.NumOOMs
	m["num_sync_all_streams"] = s.NumSyncAllStreams
	m["num_device_alloc"] = s.NumDeviceAlloc
	m["num_device_free"] = s.NumDeviceFree
	m["max_split_size"] = s.MaxSplitSize
	return m
}

func putStat(m map[string]int64, prefix string, s *Stat) {
	m[prefix+".current"] = s.Current
	m[prefix+".peak"] = s.Peak
	m[prefix+".allocated"] = s.Allocated
	m[prefix+".freed"] = s.Freed
}

// SortedKeys returns m's keys in the sorted order memory_stats() uses.
func SortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
