package analyze

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vramkit/vramkit/internal/gpu"
	"github.com/vramkit/vramkit/internal/snapshot"
)

func loadSnap(t *testing.T, name string) *snapshot.Snapshot {
	t.Helper()
	s, err := snapshot.LoadFile(filepath.Join(dataDir, name+".pickle.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestResolveSources: each setting comes from the first of flag,
// snapshot, GPU table and default that has it, and says so.
func TestResolveSources(t *testing.T) {
	h200, _ := gpu.Lookup(DefaultGPU)
	bert := loadSnap(t, "bert-base-s512-b32-fp32")
	oom := loadSnap(t, "oom-vitl16-b96-fp32")

	st, err := Resolve(bert, 0, Flags{})
	if err != nil {
		t.Fatal(err)
	}
	if st.MemoryFraction != 1 || st.FractionSource != FromDefault || st.TotalBytes != h200.MemoryBytes ||
		st.TotalSource != FromGPUTable || st.CapacityBytes != h200.MemoryBytes-h200.ContextBytes || st.CapacitySource != FromGPUTable {
		t.Errorf("no flags, no OOM: %+v", st)
	}

	// The OOM record measures the capacity: the run died under a fraction
	// of 0.05 with the device otherwise free, so what it measured is far
	// above 5% of the device and below the device itself.
	st, err = Resolve(oom, 0, Flags{})
	if err != nil {
		t.Fatal(err)
	}
	if st.CapacitySource != FromSnapshot || st.CapacityBytes <= h200.MemoryBytes/20 || st.CapacityBytes >= h200.MemoryBytes {
		t.Errorf("OOM record: %+v", st)
	}
	st, _ = Resolve(oom, 0, Flags{MemoryFraction: 0.05})
	if want := int64(0.05 * float64(h200.MemoryBytes)); st.Usable() != want || st.FractionSource != FromFlag {
		t.Errorf("fraction 0.05: usable %d, want %d (%+v)", st.Usable(), want, st)
	}

	st, err = Resolve(bert, 0, Flags{TotalBytes: 80 << 30})
	if err != nil || st.TotalSource != FromFlag || st.CapacityBytes != 80<<30-h200.ContextBytes || st.CapacitySource != FromFlag {
		t.Errorf("--capacity 80GiB on analyze: %+v %v", st, err)
	}
	st, err = Resolve(bert, 0, Flags{CapacityBytes: 40 << 30})
	if err != nil || st.CapacityBytes != 40<<30 || st.CapacitySource != FromFlag || st.TotalSource != FromGPUTable {
		t.Errorf("--capacity 40GiB on simulate: %+v %v", st, err)
	}
}

// TestResolveFractionSpellings: per_process_memory_fraction in an alloc
// conf and --memory-fraction are one setting; they must agree.
func TestResolveFractionSpellings(t *testing.T) {
	bert := loadSnap(t, "bert-base-s512-b32-fp32")
	conf := Flags{AllocConf: "per_process_memory_fraction:0.01", AllocConfSet: true}
	a, err := Resolve(bert, 0, conf)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Resolve(bert, 0, Flags{MemoryFraction: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if a.MemoryFraction != 0.01 || b.MemoryFraction != 0.01 || a.Config.MemoryFraction != 0.01 || b.Config.MemoryFraction != 0.01 {
		t.Errorf("fractions: conf %v/%v, flag %v/%v", a.MemoryFraction, a.Config.MemoryFraction, b.MemoryFraction, b.Config.MemoryFraction)
	}
	if a.FractionSource != FromFlag || b.FractionSource != FromFlag {
		t.Errorf("sources %s, %s", a.FractionSource, b.FractionSource)
	}
	both := conf
	both.MemoryFraction = 0.01
	if _, err := Resolve(bert, 0, both); err != nil {
		t.Errorf("agreeing spellings: %v", err)
	}
	both.MemoryFraction = 0.02
	if _, err := Resolve(bert, 0, both); !errors.Is(err, ErrConflict) {
		t.Errorf("conflicting spellings: err = %v", err)
	}
}

// TestResolveCudaMallocAsync: the async backend cannot be simulated, and
// asking for it says so instead of simulating the native allocator.
func TestResolveCudaMallocAsync(t *testing.T) {
	_, err := Resolve(loadSnap(t, "bert-base-s512-b32-fp32"), 0, Flags{AllocConf: "backend:cudaMallocAsync", AllocConfSet: true})
	if err == nil || !strings.Contains(err.Error(), "cudaMallocAsync") {
		t.Errorf("err = %v", err)
	}
}
