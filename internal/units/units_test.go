package units

import "testing"

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"150110000000", 150110000000},
		{"24GiB", 24 << 30},
		{"24 GiB", 24 << 30},
		{"80GB", 80e9},
		{"1.5g", 3 << 29},
		{"512", 512},
		{"20MiB", 20 << 20},
	} {
		got, err := ParseBytes(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "abc", "-1", "1e400GiB", "NaN"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q): want error", bad)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		in   int64
		want string
	}{
		{0, "0 B"}, {512, "512 B"}, {1536, "1.50 KiB"}, {5961803776, "5.55 GiB"},
		{150110000000, "140 GiB"}, {-20 << 20, "-20.0 MiB"},
	} {
		if got := Bytes(tc.in); got != tc.want {
			t.Errorf("Bytes(%d) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBytesPair(t *testing.T) {
	for _, tc := range []struct {
		a, b   int64
		wa, wb string
	}{
		// printed apart already, or equal: as Bytes prints them
		{5961803776, 150110000000, "5.55 GiB", "140 GiB"},
		{1 << 30, 1 << 30, "1.00 GiB", "1.00 GiB"},
		// 10 MiB apart at 23.6 GiB: one more decimal tells them apart
		{25325000000, 25335485760, "23.59 GiB", "23.60 GiB"},
		// 9.8 MiB apart at 140 GiB: the band top under the capacity
		{150100000000, 150110000000, "139.79 GiB", "139.80 GiB"},
		// a byte apart: no number of decimals worth printing tells them
		// apart, so as Bytes prints them (the headroom says it)
		{25325000000, 25325000001, "23.6 GiB", "23.6 GiB"},
		{-20 << 20, -20<<20 - 1000, "-20.000 MiB", "-20.001 MiB"},
		{512, 513, "512 B", "513 B"},
	} {
		ga, gb := BytesPair(tc.a, tc.b)
		if ga != tc.wa || gb != tc.wb {
			t.Errorf("BytesPair(%d, %d) = %q, %q, want %q, %q", tc.a, tc.b, ga, gb, tc.wa, tc.wb)
		}
	}
}

func TestRate(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{110.51568, "110.5"}, {0.5, "0.5"}, {0.1, "0.1"}, {0.000406, "0.000406"}, {0.0123456, "0.0123"}, {0, "0.0"},
	} {
		if got := Rate(tc.in); got != tc.want {
			t.Errorf("Rate(%g) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
