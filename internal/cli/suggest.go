package cli

import (
	"flag"
	"fmt"
	"github.com/vramkit/vramkit/internal/names"
	"strings"
)

// didYouMean returns ` (did you mean "x"?)` when one of known is close to
// got (names.Nearest), else "".
func didYouMean(got string, known []string) string {
	if s := names.Nearest(got, known); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// names lists the commands' names.
func commandNames(cmds []*Command) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Name
	}
	return out
}

// flagError adds a "did you mean" to the flag package's error for an
// unknown flag, naming the flag with the two dashes the help text uses.
func flagError(fs *flag.FlagSet, err error) error {
	const prefix = "flag provided but not defined: -"
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return err
	}
	name := strings.TrimPrefix(msg, prefix)
	var known []string
	fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
	hint := ""
	if s := names.Nearest(name, known); s != "" {
		hint = fmt.Sprintf(" (did you mean --%s?)", s)
	}
	return fmt.Errorf("unknown flag --%s%s", name, hint)
}
