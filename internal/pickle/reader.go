package pickle

import (
	"errors"
	"io"
)

// reader is a small buffered reader that hands out slices of its buffer,
// so fixed-size fields cost no allocation and no copy.
type reader struct {
	r    io.Reader
	buf  []byte
	pos  int
	end  int
	base int64 // input offset of buf[0]
	err  error
	// readSize, when not 0, caps how much one fill reads: after a seek
	// (see skip) the bytes up to the next one are usually few, and it
	// doubles with each fill that follows.
	readSize int
}

// The buffer starts small, so that decoding a small pickle costs little,
// and doubles up to bufSize as input is consumed.
const (
	bufSize      = 256 << 10
	firstBufSize = 4 << 10
)

func newReader(r io.Reader) *reader {
	return &reader{r: r, buf: make([]byte, firstBufSize)}
}

// offset is the input offset of the next unread byte.
func (r *reader) offset() int64 { return r.base + int64(r.pos) }

// fill makes at least n bytes (n <= len(buf)) available, or fails with
// ErrTruncated at the end of input.
func (r *reader) fill(n int) error {
	if r.end-r.pos >= n {
		return nil
	}
	if r.pos > 0 {
		copy(r.buf, r.buf[r.pos:r.end])
		r.base += int64(r.pos)
		r.end -= r.pos
		r.pos = 0
	}
	if size := len(r.buf); size < bufSize && (n > size || r.base >= int64(size)) {
		size = min(max(2*size, n), bufSize)
		nb := make([]byte, size)
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	limit := len(r.buf)
	if r.readSize > 0 {
		limit = min(limit, max(n, r.end+r.readSize))
		r.readSize = min(2*r.readSize, bufSize)
	}
	for r.end < n {
		if r.err != nil {
			if errors.Is(r.err, io.EOF) || errors.Is(r.err, io.ErrUnexpectedEOF) {
				return ErrTruncated
			}
			return r.err
		}
		m, err := r.r.Read(r.buf[r.end:limit])
		r.end += m
		if err != nil {
			r.err = err
		}
	}
	return nil
}

// next returns the next n bytes (n <= bufSize); the slice is valid until the
// next read.
func (r *reader) next(n int) ([]byte, error) {
	if r.end-r.pos < n {
		if err := r.fill(n); err != nil {
			return nil, err
		}
	}
	b := r.buf[r.pos : r.pos+n]
	r.pos += n
	return b, nil
}

func (r *reader) byte() (byte, error) {
	if r.pos < r.end {
		c := r.buf[r.pos]
		r.pos++
		return c, nil
	}
	b, err := r.next(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// short reads a one-byte length and that many bytes (SHORT_BINUNICODE,
// LONG1); the slice is valid until the next read.
func (r *reader) short() ([]byte, error) {
	n, err := r.byte()
	if err != nil {
		return nil, err
	}
	return r.next(int(n))
}

// long reads n bytes into a fresh slice. n comes from the input and is not
// trusted: the copy grows in chunks as data actually arrives, so a forged
// length fails with ErrTruncated after allocating about what was read.
func (r *reader) long(n uint64) ([]byte, error) {
	if n <= bufSize {
		b, err := r.next(int(n))
		if err != nil {
			return nil, err
		}
		return append([]byte(nil), b...), nil
	}
	out := make([]byte, 0, bufSize)
	for uint64(len(out)) < n {
		if r.pos == r.end {
			if err := r.fill(1); err != nil {
				return nil, err
			}
		}
		take := r.end - r.pos
		if rem := n - uint64(len(out)); uint64(take) > rem {
			take = int(rem)
		}
		out = append(out, r.buf[r.pos:r.pos+take]...)
		r.pos += take
	}
	return out, nil
}
