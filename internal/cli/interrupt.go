package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// Interrupted is the cause of a context that NotifyContext cancelled: the
// signal that arrived, from which Main picks the exit status 128+N, as
// shells and `vramkit run` do for a command a signal stopped.
type Interrupted struct{ Signal os.Signal }

// Error names the signal.
func (e *Interrupted) Error() string { return "interrupted by " + e.Signal.String() }

// code is 128 plus the signal's number (130 for SIGINT, 143 for SIGTERM).
func (e *Interrupted) code() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// NotifyContext returns a copy of parent that is cancelled, with an
// *Interrupted cause, when one of sigs arrives. After that first signal
// the signals' default action is back, so a second Ctrl-C kills vramkit at
// once should a step not look at the context. stop releases the signals.
func NotifyContext(parent context.Context, sigs ...os.Signal) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(&Interrupted{Signal: s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel(nil)
	}
}

// interruptCode says whether err is a command giving up because ctx was
// cancelled, and the exit status that reports it: 128+N for signal N,
// 130 (as for Ctrl-C) when the cancellation did not come from a signal.
func interruptCode(ctx context.Context, err error) (int, bool) {
	if ctx.Err() == nil || !errors.Is(err, context.Canceled) {
		return 0, false
	}
	var in *Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in.code(), true
	}
	return 128 + int(syscall.SIGINT), true
}
