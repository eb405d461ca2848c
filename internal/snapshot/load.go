package snapshot

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/vramkit/vramkit/internal/pickle"
)

// ErrNotSnapshot reports input that is not a memory snapshot at all.
var ErrNotSnapshot = errors.New("not a PyTorch memory snapshot")

// LoadOptions tune how a snapshot is held in memory; the zero value (or
// DefaultLoadOptions) is plain Go allocation.
type LoadOptions struct {
	// MakeEvents, when set, makes the slice (length 0, capacity n) that a
	// device's trace events are decoded into: a large trace is hundreds
	// of megabytes written once, and the CLI passes a maker that asks the
	// kernel for huge pages, which this package does not touch itself.
	MakeEvents func(n int) []TraceEvent `json:"-"`
	// Follow, when set, is called with a Feed of the first device trace
	// that holds events, as soon as the parallel loader starts on it (a
	// small or compressed file is decoded sequentially and never fed).
	// It runs on the loader's goroutine and must return at once: it
	// starts the consumer, which reads the feed on its own goroutine.
	Follow func(f *Feed) `json:"-"`
}

// DefaultLoadOptions are plain Go allocation.
func DefaultLoadOptions() LoadOptions { return LoadOptions{} }

func (o *LoadOptions) makeEvents(n int) []TraceEvent {
	if o.MakeEvents != nil {
		if ev := o.MakeEvents(n); cap(ev) >= n {
			return ev[:0]
		}
	}
	return make([]TraceEvent, 0, n)
}

// LoadFile reads a snapshot from a .pickle or gzip-compressed file.
func LoadFile(path string) (*Snapshot, error) {
	return LoadFileWith(path, DefaultLoadOptions())
}

// LoadFileWith is LoadFile with options.
func LoadFileWith(path string, o LoadOptions) (*Snapshot, error) {
	return LoadFileContext(context.Background(), path, o)
}

// LoadFileContext is LoadFileWith that gives up, returning ctx's error,
// once ctx is done: decoding a large trace takes tens of seconds.
func LoadFileContext(ctx context.Context, path string, o LoadOptions) (*Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a snapshot", path)
	}
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	if size >= parallelFrom {
		s, err := loadParallel(ctx, f, size, o, parOptions{})
		if err == nil {
			return s, nil
		}
		if !errors.Is(err, errNoParallel) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
	}
	s, err := load(ctx, f, size, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Load reads a snapshot pickle, plain or gzip-compressed (detected by its
// magic bytes), from r.
func Load(r io.Reader) (*Snapshot, error) {
	return load(context.Background(), r, 0, DefaultLoadOptions())
}

// LoadWith is Load with options.
func LoadWith(r io.Reader, o LoadOptions) (*Snapshot, error) {
	return load(context.Background(), r, 0, o)
}

// LoadContext is LoadWith that gives up, returning ctx's error, once ctx
// is done.
func LoadContext(ctx context.Context, r io.Reader, o LoadOptions) (*Snapshot, error) {
	return load(ctx, r, 0, o)
}

// load is Load with the input's size when known (0 if not), from which
// the first device trace's capacity is guessed; see eventChunks.
func load(ctx context.Context, r io.Reader, size int64, o LoadOptions) (*Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(2)
	if len(head) == 0 {
		if err == nil || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: empty input", ErrNotSnapshot)
		}
		return nil, err
	}
	var src io.Reader = br
	gz := len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b
	if gz {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotSnapshot, gzipMsg(err))
		}
		zr.Multistream(false)
		inner := bufio.NewReaderSize(zr, 64<<10)
		h, err := inner.Peek(1)
		if len(h) == 0 {
			if err == nil || errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("%w: empty gzip stream", ErrNotSnapshot)
			}
			return nil, fmt.Errorf("gzip: %w", err)
		}
		head = h
		src = inner
	}
	if head[0] != 0x80 {
		if gz {
			return nil, fmt.Errorf("%w: gzip-compressed, but what it holds is not a pickle (protocol 2–5)", ErrNotSnapshot)
		}
		return nil, fmt.Errorf("%w: the data is neither a pickle (protocol 2–5) nor gzip", ErrNotSnapshot)
	}
	b := newBuilder()
	b.opts = o
	b.ctx = ctx
	if !gz {
		b.size = size
	}
	dec := pickle.NewDecoder(src)
	b.dec = dec
	dec.SetAppendHook(b.hook)
	v, err := dec.Decode()
	if err == nil && gz {
		// Read the gzip member to its end so that its CRC is checked:
		// damage that still decodes must not pass silently.
		_, err = io.Copy(io.Discard, src)
	}
	if err != nil && gz && errors.Is(err, pickle.ErrTruncated) {
		return nil, fmt.Errorf("gzip stream cut short: %w", err)
	}
	if err != nil {
		var corrupt flate.CorruptInputError
		if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) ||
			errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &corrupt) {
			if strings.HasPrefix(err.Error(), "gzip: ") { // gzip.ErrChecksum says so itself
				return nil, err
			}
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return nil, err
	}
	if b.err != nil {
		return nil, b.err
	}
	return b.finish(v)
}

// gzipMsg makes sure a gzip error says it is one, once.
func gzipMsg(err error) string {
	if m := err.Error(); strings.HasPrefix(m, "gzip: ") {
		return m
	}
	return "gzip: " + err.Error()
}

// eventChunks collects events in fixed-size chunks: appending to one huge
// slice would copy it again and again as it grows. The first chunk grows
// by append, so a short trace (or a forged input with thousands of device
// lists) does not cost a whole chunk per list.
//
// When the input's size is known, the first chunk is instead grown once,
// after estimateAfter events, to the number of events the rest of the
// file would hold at the bytes per event seen so far, plus a margin: in
// the usual case the whole trace then lands in one slice, and flat hands
// it over without the copy that would double a large snapshot's peak
// memory. An estimate that falls short only means more chunks.
type eventChunks struct {
	full  [][]TraceEvent
	cur   []TraceEvent
	n     int
	start int64 // input offset where the trace began
	// inBuf: the events are the parallel loader's, from first on in its
	// buffer.
	inBuf bool
	first int64
}

const (
	chunkEvents   = 1 << 16
	estimateAfter = 1 << 16
)

func (c *eventChunks) add(ev TraceEvent) {
	if len(c.cur) == cap(c.cur) && cap(c.cur) >= chunkEvents {
		c.full = append(c.full, c.cur)
		c.cur = make([]TraceEvent, 0, chunkEvents)
	}
	c.cur = append(c.cur, ev)
	c.n++
}

// reserve grows the current chunk to the events the input's remaining
// bytes would hold; at is the input offset after the n-th event.
func (c *eventChunks) reserve(at, size int64, o *LoadOptions) {
	if len(c.full) > 0 || at <= c.start || size <= at {
		return
	}
	perEvent := float64(at-c.start) / float64(c.n)
	more := float64(size-at) / perEvent
	want := c.n + int(min(more*1.05, 1<<31)) + chunkEvents
	if want <= cap(c.cur) {
		return
	}
	grown := o.makeEvents(want)[:len(c.cur)]
	copy(grown, c.cur)
	c.cur = grown
}

// flat returns c's events in one slice.
func (b *builder) flat(c *eventChunks) []TraceEvent {
	if c != nil && c.inBuf {
		end := c.first + int64(c.n)
		c.inBuf, c.n = false, 0 // as flat below: a list met twice has its events once
		return b.par.events[c.first:end:end]
	}
	return c.flat(&b.opts)
}

// flat returns all events in one slice, releasing the chunks as it goes.
func (c *eventChunks) flat(o *LoadOptions) []TraceEvent {
	if c == nil {
		return nil
	}
	if len(c.full) == 0 {
		out := c.cur
		c.cur = nil
		return out
	}
	out := o.makeEvents(c.n)
	for i, ch := range c.full {
		out = append(out, ch...)
		c.full[i] = nil
	}
	out = append(out, c.cur...)
	c.cur = nil
	return out
}
