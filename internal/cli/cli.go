// Package cli is vramkit's command table and flag wiring. It is the only
// package that picks exit codes: 0 ok, 1 failure (or a check that failed),
// 2 usage, 128+N when signal N interrupted the command.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Env carries the streams a command reads and writes, so tests can run
// commands in-process.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Command is one vramkit subcommand.
type Command struct {
	Name  string
	Usage string // e.g. "stats [--format text|json] SNAPSHOT"
	Short string
	Long  string
	// Formats says what the command writes, where and in which formats;
	// help prints it and the README's table repeats it word for word.
	Formats string
	// Run executes the command with its own arguments (after the name).
	Run func(ctx context.Context, env *Env, args []string) error
}

// UsageError marks an error caused by wrong flags or arguments (exit 2).
type UsageError struct{ Err error }

// Error is the wrapped error's message.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *UsageError) Unwrap() error { return e.Err }

// usagef builds a UsageError.
func usagef(format string, a ...any) error { return &UsageError{fmt.Errorf(format, a...)} }

// ExitError lets a command choose a non-zero exit status without printing
// an error line (e.g. lint found problems, a budget was exceeded).
type ExitError struct{ Code int }

// Error says the exit status.
func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Main runs vramkit with args (without the program name) and returns the
// process exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	env := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			c := find(cmds, args[1])
			if c == nil {
				fmt.Fprintf(stderr, "vramkit help: unknown command %q%s (run 'vramkit help')\n", args[1], didYouMean(args[1], commandNames(cmds)))
				return 2
			}
			fmt.Fprintf(stdout, "usage: vramkit %s\n\n%s\n\noutput: %s\n", c.Usage, strings.TrimSpace(c.Long), c.Formats)
			return 0
		}
		printUsage(stdout, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "vramkit", Version)
		return 0
	}
	c := find(cmds, args[0])
	if c == nil {
		fmt.Fprintf(stderr, "vramkit: unknown command %q%s (run 'vramkit help')\n", args[0], didYouMean(args[0], commandNames(cmds)))
		return 2
	}
	err := c.Run(ctx, env, args[1:])
	if code, ok := interruptCode(ctx, err); ok {
		fmt.Fprintf(stderr, "vramkit %s: interrupted\n", c.Name)
		return code
	}
	return exitCode(err, c, stderr)
}

// Version is the vramkit version string.
const Version = "0.1.0-dev"

func exitCode(err error, c *Command, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var ue *UsageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "vramkit %s: %v\nusage: vramkit %s\n", c.Name, oneLine(ue.Err), c.Usage)
		return 2
	}
	fmt.Fprintf(stderr, "vramkit %s: %v\n", c.Name, oneLine(err))
	return 1
}

// oneLine keeps error output to a single line whatever the error holds.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

func find(cmds []*Command, name string) *Command {
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func printUsage(w io.Writer, cmds []*Command) {
	fmt.Fprintln(w, "vramkit — see, predict and cut the GPU memory of PyTorch training")
	fmt.Fprintln(w, "\nusage: vramkit COMMAND [flags] [args]\n\ncommands:")
	sorted := append([]*Command(nil), cmds...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, c := range sorted {
		fmt.Fprintf(w, "  %-16s %s\n", c.Name, c.Short)
	}
	fmt.Fprintln(w, "\nRun 'vramkit help COMMAND' for a command's flags.")
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// writes its help (-h) to w. The flag package's own error output is
// discarded: parseFlags returns the error and Main prints it once, with
// the usage line, instead of the message plus the whole help.
func newFlagSet(c *Command, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(w, "usage: vramkit %s\n\n%s\n\noutput: %s\n\nflags:\n", c.Usage, strings.TrimSpace(c.Long), c.Formats)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parseFlags parses args into fs, turning flag errors into usage errors. It
// allows flags after positional arguments ("stats FILE --format json").
func parseFlags(fs *flag.FlagSet, args []string) error {
	help := fs.Usage
	fs.Usage = func() {} // the flag package calls it on every error too
	defer func() { fs.Usage = help }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help()
				return err
			}
			return &UsageError{flagError(fs, err)}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			pos = append(pos, rest[1:]...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// parseFlagsUntilArg parses flags up to the first positional argument,
// leaving it and everything after it (a command line to run) in fs.Args().
func parseFlagsUntilArg(fs *flag.FlagSet, args []string) error {
	help := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = help }()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			help()
			return err
		}
		return &UsageError{flagError(fs, err)}
	}
	return nil
}

func addFormat(fs *flag.FlagSet, allowed ...string) *string {
	return fs.String("format", "text", "output format: "+strings.Join(allowed, "|"))
}

func checkFormat(got string, allowed ...string) error {
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return usagef("--format must be one of %s, not %q", strings.Join(allowed, "|"), got)
}
