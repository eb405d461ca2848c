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
