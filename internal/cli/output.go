package cli

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/vramkit/vramkit/internal/allocsim"
	"github.com/vramkit/vramkit/internal/snapshot"
)

// loadReplaying is loadSnapshot that also replays the first device trace
// under o while the file is decoding (allocsim.Ahead): the command passes
// the Ahead it returns (nil when none started) in its ReplayOptions, and
// the replay after the load takes its result when it is the same replay.
// ao says what else runs beside it.
func loadReplaying(ctx context.Context, path string, o allocsim.ReplayOptions, ao allocsim.AheadOptions) (*snapshot.Snapshot, *allocsim.Ahead, error) {
	var ahead *allocsim.Ahead
	lo := snapshot.LoadOptions{MakeEvents: hugeEvents, Follow: func(f *snapshot.Feed) {
		ahead = allocsim.ReplayAhead(ctx, f, o, ao)
	}}
	var s *snapshot.Snapshot
	var err error
	if path == "-" {
		s, err = snapshot.LoadContext(ctx, os.Stdin, lo)
	} else {
		s, err = snapshot.LoadFileContext(ctx, path, lo)
	}
	return s, ahead, err
}

// loadSnapshot reads a snapshot file, with errors that name the file once;
// it stops, with ctx's error, when ctx is done.
func loadSnapshot(ctx context.Context, path string) (*snapshot.Snapshot, error) {
	o := snapshot.LoadOptions{MakeEvents: hugeEvents}
	if path == "-" {
		return snapshot.LoadContext(ctx, os.Stdin, o)
	}
	return snapshot.LoadFileContext(ctx, path, o)
}

// oneArg checks that exactly one positional argument was given.
func oneArg(args []string, what string) (string, error) {
	switch len(args) {
	case 0:
		return "", usagef("missing %s", what)
	case 1:
		return args[0], nil
	}
	return "", usagef("want one %s, got %d arguments", what, len(args))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// formatFlags parses a command's flags (declared by setup) plus --format
// text|json, leaving positional arguments in fs.Args().
func formatFlags(c *Command, env *Env, args []string, setup func(fs *flag.FlagSet)) (format string, fs *flag.FlagSet, err error) {
	fs = newFlagSet(c, env.Stderr)
	f := addFormat(fs, "text", "json")
	if setup != nil {
		setup(fs)
	}
	if err = parseFlags(fs, args); err != nil {
		return "", fs, err
	}
	return *f, fs, checkFormat(*f, "text", "json")
}

// noArgs is formatFlags for commands that take no positional argument.
func noArgs(c *Command, env *Env, args []string, setup func(fs *flag.FlagSet)) (format string, err error) {
	format, fs, err := formatFlags(c, env, args, setup)
	if err == nil && fs.NArg() > 0 {
		err = usagef("unexpected argument %q", fs.Arg(0))
	}
	return format, err
}

// snapshotArgs parses the flags of a command that reads one snapshot:
// --format text|json, whatever setup declares, and the SNAPSHOT argument.
func snapshotArgs(c *Command, env *Env, args []string, setup func(fs *flag.FlagSet)) (path, format string, fs *flag.FlagSet, err error) {
	if format, fs, err = formatFlags(c, env, args, setup); err != nil {
		return "", "", fs, err
	}
	path, err = oneArg(fs.Args(), "SNAPSHOT")
	return path, format, fs, err
}
