package allocsim

// Device is the memory under the allocator: cudaMalloc/cudaFree for
// ordinary segments, and address reservation plus page mapping for
// expandable segments. Replay implements it with the recorded trace;
// NewDevice gives a synthetic GPU of a given capacity.
type Device interface {
	// Malloc is cudaMalloc; ok is false when the memory is not available.
	Malloc(size, stream int64) (ptr int64, ok bool)
	// Free is cudaFree of a whole segment.
	Free(ptr, size int64)
	// Reserve reserves address space for a new expandable segment.
	Reserve(size, stream int64, small bool) int64
	// Map backs [ptr, ptr+size) with physical pages; false when they are
	// not available.
	Map(ptr, size int64) bool
	// Unmap releases the physical pages of [ptr, ptr+size).
	Unmap(ptr, size int64)
	// FreeMemory is cudaMemGetInfo's free bytes, recorded with an OOM.
	FreeMemory() int64
	// Total is the device's totalGlobalMem.
	Total() int64
}

// SimDevice is a synthetic GPU: segments are carved from a flat address
// space and fail once the bytes in use would pass the capacity.
type SimDevice struct {
	// Capacity is the memory the process may use (device memory less the
	// CUDA context and other processes); 0 means unlimited.
	Capacity int64
	// TotalMem is totalGlobalMem, for memory fractions and expandable
	// address reservations.
	TotalMem int64
	// TopDown hands each new segment an address below the ones before, as
	// the CUDA driver did in the H200 traces (torch 2.11: a new segment of
	// 32 MiB or more lay below every live segment of its size in 95–99% of
	// cases). Best fit orders free blocks of one size by address, so its
	// ties go to the newest segment there and to the oldest with addresses
	// handed out upwards: replaying the fixtures' and testdata's own
	// request streams gives their recorded peak reserved on 122 of the 151
	// complete traces top-down, 88 upwards (session 8's count).
	TopDown bool
	used    int64
	next    int64
}

// NewDevice returns a synthetic device with the given capacity in bytes
// (0 = unlimited) and total memory (as cudaMemGetInfo reports it: what a
// memory fraction multiplies and expandable segments reserve against),
// handing addresses out top-down as the driver does (TopDown). Every
// replay without a trace's own addresses uses it: the planners and the
// what-ifs of simulate, analyze and tune (which handed them out upwards
// until session 46: dev92's GPT-J fp16 checkpointed trace replayed its own
// request stream +16.5% reserved that way, exactly top-down).
func NewDevice(capacity, total int64) *SimDevice {
	return &SimDevice{Capacity: capacity, TotalMem: total, next: 0x7f0000000000, TopDown: true}
}

func (d *SimDevice) fits(size int64) bool {
	return d.Capacity <= 0 || d.used+size <= d.Capacity
}

// Malloc implements Device.
func (d *SimDevice) Malloc(size, stream int64) (int64, bool) {
	if !d.fits(size) {
		return 0, false
	}
	d.used += size
	return d.reserve(size), true
}

func (d *SimDevice) reserve(size int64) int64 {
	// keep segments 2 MiB aligned like cudaMalloc's large allocations
	n := (size + RoundLarge - 1) / RoundLarge * RoundLarge
	if d.TopDown {
		d.next -= n
		return d.next
	}
	p := d.next
	d.next += n
	return p
}

// Free implements Device.
func (d *SimDevice) Free(ptr, size int64) { d.used -= size }

// Reserve implements Device.
func (d *SimDevice) Reserve(size, stream int64, small bool) int64 { return d.reserve(size) }

// Map implements Device.
func (d *SimDevice) Map(ptr, size int64) bool {
	if !d.fits(size) {
		return false
	}
	d.used += size
	return true
}

// Unmap implements Device.
func (d *SimDevice) Unmap(ptr, size int64) { d.used -= size }

// FreeMemory implements Device.
func (d *SimDevice) FreeMemory() int64 {
	if d.Capacity <= 0 {
		return d.TotalMem - d.used
	}
	return d.Capacity - d.used
}

// Total implements Device.
func (d *SimDevice) Total() int64 { return d.TotalMem }

// Used is the memory the device has handed out.
func (d *SimDevice) Used() int64 { return d.used }
