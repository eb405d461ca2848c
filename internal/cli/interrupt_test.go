package cli

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptedCommandsSaySoAndExit128PlusN: a snapshot command whose
// context a signal cancelled prints one line and exits as a shell reports
// a command that signal killed, with nothing on stdout.
func TestInterruptedCommandsSaySoAndExit128PlusN(t *testing.T) {
	snap := filepath.Join(testdata, "h200", "bert-base-s128-b16-fp32.pickle.gz")
	html := filepath.Join(t.TempDir(), "r.html")
	cmds := [][]string{
		{"stats", snap}, {"analyze", snap}, {"tune", snap}, {"simulate", snap},
		{"report", "-o", html, snap}, {"export-pprof", "-o", html + ".pb.gz", snap},
		{"export-perfetto", "-o", html + ".json", snap},
	}
	for _, sig := range []struct {
		s    syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		for _, args := range cmds {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(&Interrupted{Signal: sig.s})
			var out, errb bytes.Buffer
			code := Main(ctx, args, strings.NewReader(""), &out, &errb)
			want := "vramkit " + args[0] + ": interrupted\n"
			if code != sig.code || errb.String() != want || out.Len() != 0 {
				t.Errorf("%v under %v: exit %d, stderr %q, stdout %d bytes; want %d, %q, none",
					args, sig.s, code, errb.String(), out.Len(), sig.code, want)
			}
		}
	}
	// A cancellation that no signal caused reads as a Ctrl-C.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	if code := Main(ctx, []string{"stats", snap}, strings.NewReader(""), &out, &errb); code != 130 {
		t.Errorf("plain cancel: exit %d (%q), want 130", code, errb.String())
	}
	// Uncancelled, the same command still succeeds.
	if code, _, errs := runCLI(t, "stats", snap); code != 0 {
		t.Errorf("stats: exit %d: %s", code, errs)
	}
}

// TestNotifyContextCarriesTheSignal sends this process SIGTERM: the
// context is cancelled with the signal as its cause, which is what picks
// exit status 143.
func TestNotifyContextCarriesTheSignal(t *testing.T) {
	ctx, stop := NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGTERM did not cancel the context")
	}
	var in *Interrupted
	if !errors.As(context.Cause(ctx), &in) || in.Signal != syscall.SIGTERM {
		t.Fatalf("cause = %v, want SIGTERM", context.Cause(ctx))
	}
	if code, ok := interruptCode(ctx, context.Canceled); !ok || code != 143 {
		t.Errorf("interruptCode = %d, %v; want 143", code, ok)
	}
	if _, ok := interruptCode(ctx, errors.New("disk full")); ok {
		t.Error("an error other than the cancellation was taken for an interruption")
	}
}
