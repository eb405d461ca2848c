package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/big"
	"os"

	"github.com/vramkit/vramkit/internal/pickle"
)

// generate writes the benchmark pickle and returns the repetitions and
// events written.
func generate(fixture, out string, target int64) (int, int, error) {
	raw, err := os.ReadFile(fixture)
	if err != nil {
		return 0, 0, err
	}
	if len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return 0, 0, err
		}
		if raw, err = io.ReadAll(zr); err != nil {
			return 0, 0, err
		}
	}
	v, err := pickle.NewDecoder(bytes.NewReader(raw)).Decode()
	if err != nil {
		return 0, 0, err
	}
	top, ok := v.(*pickle.Dict)
	if !ok {
		return 0, 0, fmt.Errorf("%s: not a snapshot dict", fixture)
	}
	f, err := os.Create(out)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	e := newEmitter(bufio.NewWriterSize(f, 1<<20))
	reps, events := 0, 0
	e.op('}')
	e.memoize(top)
	e.op('(')
	// device_traces goes first (key order does not matter to either
	// reader) so that the segments can be written for the last repetition.
	for _, it := range top.Items {
		if k, _ := it.Key.(string); k != "device_traces" {
			continue
		}
		e.value(it.Key)
		devs := it.Value.(*pickle.List)
		e.op(']')
		e.memoize(devs)
		e.batch(len(devs.Items), 'a', 'e', func(i int) {
			r, n := e.trace(devs.Items[i].(*pickle.List), target)
			reps, events = max(reps, r), events+n
		})
	}
	for _, it := range top.Items {
		k, _ := it.Key.(string)
		if k == "device_traces" {
			continue
		}
		e.value(it.Key)
		if k == "segments" && reps > 1 {
			e.value(shiftSegments(it.Value, int64(reps-1)<<40))
			continue
		}
		e.value(it.Value)
	}
	e.op('u')
	if err := e.finish(); err != nil {
		return 0, 0, err
	}
	return reps, events, f.Close()
}

// trace writes one device's trace list, repeated with addresses shifted
// by 1 TiB and times by the trace's span each time, until the file
// reaches target bytes. Entries stream out in APPENDS batches of 1000
// that run across repetitions, as one long list would.
func (e *emitter) trace(l *pickle.List, target int64) (reps, events int) {
	e.op(']')
	e.memoize(l)
	if len(l.Items) == 0 {
		return 0, 0
	}
	var t0, t1 int64
	for i, it := range l.Items {
		t, _ := it.(*pickle.Dict).Get("time_us")
		ti, _ := pickle.Int(t)
		if i == 0 || ti < t0 {
			t0 = ti
		}
		t1 = max(t1, ti)
	}
	span := t1 - t0 + 1000
	closing := closingEntries(l, t1+1)
	inBatch := 0
	emit := func(d *pickle.Dict, rep int) {
		if inBatch == 0 {
			e.op('(')
		}
		e.entry(d, rep, span)
		events++
		if inBatch++; inBatch == 1000 {
			e.op('e')
			inBatch = 0
		}
	}
	for reps = 0; reps == 0 || e.written+int64(len(e.frame)) < target; reps++ {
		e.newRepetition()
		e.inTrace = true
		for _, it := range l.Items {
			emit(it.(*pickle.Dict), reps)
		}
		if e.written+int64(len(e.frame)) < target {
			// Not the last repetition: free what is still live and empty
			// the cache, so the next one starts from an empty allocator
			// and the whole file replays as one run.
			for _, d := range closing {
				emit(d, reps)
			}
		}
		e.inTrace = false
	}
	if inBatch > 0 {
		e.op('e') // CPython writes a last batch of one as item, APPEND: same value
	}
	return reps, events
}

func (e *emitter) entry(d *pickle.Dict, rep int, span int64) {
	items := make([]pickle.Item, len(d.Items))
	copy(items, d.Items)
	for i := range items {
		k, _ := items[i].Key.(string)
		switch k {
		case "addr":
			items[i].Value = shift(items[i].Value, int64(rep)<<40)
		case "time_us":
			items[i].Value = shift(items[i].Value, int64(rep)*span)
		}
	}
	e.dict(nil, items)
	e.boundary()
}

func shift(v any, by int64) any {
	switch x := v.(type) {
	case int64:
		if x != 0 { // addr 0 (snapshot entries) stays 0
			return x + by
		}
	case *big.Int:
		return new(big.Int).Add(x, big.NewInt(by))
	}
	return v
}
