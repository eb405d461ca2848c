package measured

import "sort"

// StepTimeS is the row's steady step time in seconds: the median of its
// iterations after the first (which pays for cuDNN/cuBLAS warm-up and
// allocator growth), 0 when it has none.
func (m MeasuredRow) StepTimeS() float64 {
	if len(m.IterS) < 2 {
		return 0
	}
	it := append([]float64(nil), m.IterS[1:]...)
	sort.Float64s(it)
	n := len(it)
	if n%2 == 1 {
		return it[n/2]
	}
	return (it[n/2-1] + it[n/2]) / 2
}
