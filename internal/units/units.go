// Package units parses and prints byte quantities: "24GiB", "1.5 GB",
// "5.55 GiB"; and prints the rates and ratios reports put beside them. Binary prefixes (KiB, MiB, GiB, TiB) are powers of 1024;
// decimal ones (KB, MB, GB, TB) powers of 1000, as on GPU spec sheets.
package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

var suffixes = []struct {
	name string
	mult float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40}, {"pib", 1 << 50},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"pb", 1e15},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// ParseBytes parses a byte quantity such as "150110000000", "24GiB",
// "80 GB" or "1.5g" (a bare letter means a binary prefix).
func ParseBytes(s string) (int64, error) {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	t = strings.ReplaceAll(t, "_", "")
	if t == "" {
		return 0, fmt.Errorf("empty byte quantity")
	}
	mult := 1.0
	for _, suf := range suffixes {
		if strings.HasSuffix(t, suf.name) {
			mult = suf.mult
			t = strings.TrimSuffix(t, suf.name)
			break
		}
	}
	if n, err := strconv.ParseInt(t, 10, 64); err == nil && mult == 1 {
		if n < 0 {
			return 0, fmt.Errorf("negative byte quantity %q", s)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("not a byte quantity: %q (want e.g. 24GiB, 80GB, 1073741824)", s)
	}
	v := f * mult
	if v < 0 || v > math.MaxInt64 {
		return 0, fmt.Errorf("byte quantity out of range: %q", s)
	}
	return int64(math.Round(v)), nil
}

// Bytes prints n with a binary prefix and three significant decimals,
// e.g. "5.55 GiB", "512 B", "-20.0 MiB".
func Bytes(n int64) string {
	neg := n < 0
	v := float64(n)
	if neg {
		v = -v
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	sign := ""
	if neg {
		sign = "-"
	}
	switch {
	case i == 0:
		return fmt.Sprintf("%s%d B", sign, int64(v))
	case v >= 100:
		return fmt.Sprintf("%s%.0f %s", sign, v, units[i])
	case v >= 10:
		return fmt.Sprintf("%s%.1f %s", sign, v, units[i])
	default:
		return fmt.Sprintf("%s%.2f %s", sign, v, units[i])
	}
}

// BytesPair prints a and b as Bytes does, unless the two differ but
// would print alike ("at most 23.6 GiB, of 23.6 GiB" for a process that
// fits by 10 MiB): then both are printed in the larger one's unit with as
// many more decimals as tell them apart (up to four more, beyond which
// the difference is under a ten-thousandth of a unit and a headroom in
// its own unit says it better).
func BytesPair(a, b int64) (string, string) {
	sa, sb := Bytes(a), Bytes(b)
	if a == b || sa != sb {
		return sa, sb
	}
	big := max(abs(a), abs(b))
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i, div := 0, 1.0
	for v := float64(big); v >= 1024 && i < len(units)-1; v /= 1024 {
		i++
		div *= 1024
	}
	if i == 0 {
		return sa, sb
	}
	va, vb := float64(a)/div, float64(b)/div
	decimals := 2
	switch v := float64(big) / div; {
	case v >= 100:
		decimals = 0
	case v >= 10:
		decimals = 1
	}
	for d := decimals + 1; d <= decimals+4; d++ {
		if fa, fb := fmt.Sprintf("%.*f %s", d, va, units[i]), fmt.Sprintf("%.*f %s", d, vb, units[i]); fa != fb {
			return fa, fb
		}
	}
	return sa, sb
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// Rate prints a throughput such as samples per second with one decimal,
// or three significant digits below 0.1, where one decimal would print a
// slow step's 0.0004 samples/s as 0.0.
func Rate(v float64) string {
	if v != 0 && math.Abs(v) < 0.1 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// Percent formats a ratio as a percentage with one decimal.
func Percent(num, den float64) string {
	if den == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*num/den)
}
