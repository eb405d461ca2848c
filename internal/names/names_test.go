package names

import "testing"

func TestNearest(t *testing.T) {
	known := []string{"gpt2", "gpt2-medium", "llama3-8b", "t5-small", "adamw", "adamw-8bit", "expandable_segments", "h200", "a100-80"}
	for _, c := range []struct{ got, want string }{
		{"gtp2", "gpt2"},            // a swap is one edit
		{"GPT2", "gpt2"},            // case does not count
		{"llama3", "llama3-8b"},     // a prefix of a longer name
		{"adamw8bit", "adamw-8bit"}, // one letter missing
		{"expandable_segment", "expandable_segments"},
		{"h20", "h200"},
		{"foo", ""}, // nothing within a third of the name
		{"t", ""},   // too short for a prefix match, too far otherwise
		{"resnet50", ""},
	} {
		if got := Nearest(c.got, known); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.got, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"gpt2", "gtp2", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}} {
		if d := Distance(c.a, c.b); d != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}
