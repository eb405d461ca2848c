package allocsim

import (
	"context"
	"runtime"
	"sync"

	"github.com/vramkit/vramkit/internal/snapshot"
)

// TuneSetup is what tune runs its grid of settings under (see
// TuneContext): an Ahead given one runs the grid beside its replay, each
// setting following the request stream as the replay produces it.
type TuneSetup struct {
	Capacity, Total int64
	Fraction        float64
}

// reqStream publishes the request stream of an Ahead's replay as it
// grows. Only requests the replay has settled on are published: a group
// of events it may still explain another way is published once it is
// done with it.
type reqStream struct {
	mu        sync.Mutex
	cond      sync.Cond
	reqs      []Request
	trace     []snapshot.TraceEvent
	ended, ok bool
}

// publishRequests is how many new requests the replay gathers before it
// publishes them.
const publishRequests = 1 << 15

func newReqStream() *reqStream {
	p := &reqStream{}
	p.cond.L = &p.mu
	return p
}

// publish makes reqs (and the trace read so far) visible (what lies past
// len(reqs) is the replay's, never to be read); end: they are
// all there are (ok: and the replay that made them finished without error
// or hazard).
func (p *reqStream) publish(reqs []Request, trace []snapshot.TraceEvent, end, ok bool) {
	p.mu.Lock()
	p.reqs = reqs // with its capacity: a bound on the stream's length that followers size by
	p.trace = trace
	p.ended, p.ok = end, ok
	p.mu.Unlock()
	p.cond.Broadcast()
}

// next blocks until more than have requests are published or the stream
// has ended; ok is false when it ended badly.
func (p *reqStream) next(have int) (reqs []Request, ended, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.reqs) <= have && !p.ended {
		p.cond.Wait()
	}
	return p.reqs, p.ended, !p.ended || p.ok
}

// aheadTune is the grid run beside an Ahead's replay.
type aheadTune struct {
	setup TuneSetup
	grid  []string
	rows  []TuneRow
	wg    sync.WaitGroup
	// bad: some setting did not see the whole stream.
	mu  sync.Mutex
	bad bool
}

// startTune starts the grid beside a's replay: goroutines that each take
// some settings of the grid and run each new piece of a's request stream
// through all of them, one per setting where the CPUs allow (two are left
// to the decode's sequential pass and the replay, which lead the way).
func (a *Ahead) startTune(ctx context.Context, t TuneSetup) {
	grid := TuneGrid(t.Fraction)
	cfgs, err := parseGrid(grid, t.Fraction)
	if err != nil {
		return
	}
	at := &aheadTune{setup: t, grid: grid, rows: make([]TuneRow, len(grid))}
	a.tune = at
	workers := min(len(grid), max(runtime.GOMAXPROCS(0)-2, 1))
	for w := range workers {
		at.wg.Add(1)
		go func() {
			defer at.wg.Done()
			var mine []int
			var runs []*reqRun
			for i := w; i < len(grid); i += workers {
				live := newGrowingTable()
				mine = append(mine, i)
				runs = append(runs, startRun(&live, cfgs[i], NewDevice(t.Capacity, t.Total)))
			}
			going := len(runs)
			running := make([]bool, len(runs))
			for k := range running {
				running[k] = true
			}
			for have := 0; going > 0; {
				reqs, ended, ok := a.pub.next(have)
				if !ok {
					at.mu.Lock()
					at.bad = true
					at.mu.Unlock()
					return
				}
				for k, q := range runs {
					if running[k] && !q.next(ctx, reqs, have) {
						running[k] = false
						going--
					}
				}
				have = len(reqs)
				if ended {
					break
				}
			}
			for k, i := range mine {
				at.rows[i] = tuneRow(grid[i], runs[k].result())
			}
		}()
	}
}

// TuneRows returns the ranked rows of the grid the Ahead ran beside its
// replay, when that replay was taken for device dev and the grid ran
// under t; ok is false when it was not (the caller then runs
// TuneContext on the request stream). It waits for the grid to finish,
// or for ctx.
func (a *Ahead) TuneRows(ctx context.Context, dev int, t TuneSetup) (rows []TuneRow, ok bool, err error) {
	if a == nil || a.tune == nil {
		return nil, false, nil
	}
	at := a.tune
	if !a.taken || a.feed.Device() != dev || at.setup != t {
		return nil, false, nil
	}
	done := make(chan struct{})
	go func() {
		at.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	if at.bad {
		return nil, false, nil
	}
	rows = append([]TuneRow(nil), at.rows...)
	rankRows(rows)
	return rows, true, nil
}

// startFollower calls fn on each new piece of a's request stream, on a
// goroutine of its own.
func (a *Ahead) startFollower(fn func(reqs []Request, from int, trace []snapshot.TraceEvent)) {
	a.followed = make(chan struct{})
	go func() {
		defer close(a.followed)
		for have := 0; ; {
			a.pub.mu.Lock()
			for len(a.pub.reqs) <= have && !a.pub.ended {
				a.pub.cond.Wait()
			}
			reqs, trace, ended, ok := a.pub.reqs, a.pub.trace, a.pub.ended, a.pub.ok
			a.pub.mu.Unlock()
			if ended && !ok {
				return
			}
			if len(reqs) > have {
				fn(reqs, have, trace)
				have = len(reqs)
			}
			if ended {
				a.followedOK = true
				return
			}
		}
	}()
}

// RequestsFollowed waits for the follower of AheadOptions.Requests and
// reports whether it was given the whole request stream of the replay
// ReplayDevice took from a for device dev (false when it was not that
// replay, or there is no follower).
func (a *Ahead) RequestsFollowed(ctx context.Context, dev int) bool {
	if a == nil || a.followed == nil || !a.taken || a.feed.Device() != dev {
		return false
	}
	select {
	case <-a.followed:
		return a.followedOK
	case <-ctx.Done():
		return false
	}
}
