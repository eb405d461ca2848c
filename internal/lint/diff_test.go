package lint

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\nl\n"
	got := UnifiedDiff("x.py", []byte(old), []byte(new))
	// As GNU diff -u prints it: 7 equal lines split the hunks.
	want := `--- x.py
+++ x.py
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -7,5 +7,6 @@
 g
 h
 i
-j
+J
 k
+l
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if d := UnifiedDiff("x", []byte(old), []byte(old)); d != "" {
		t.Errorf("equal inputs gave %q", d)
	}
	// Far-apart changes make two hunks.
	long := strings.Repeat("x\n", 20)
	d := UnifiedDiff("x", []byte("a\n"+long+"b\n"), []byte("A\n"+long+"B\n"))
	if strings.Count(d, "@@ ") != 2 {
		t.Errorf("want two hunks:\n%s", d)
	}
	if !strings.Contains(d, "@@ -1,4 +1,4 @@\n-a\n+A\n x\n x\n x\n") || !strings.Contains(d, "@@ -19,4 +19,4 @@\n x\n x\n x\n-b\n+B\n") {
		t.Errorf("hunks:\n%s", d)
	}
}
