package diskcache

import (
	"encoding/binary"
	"errors"
)

// Reader reads a record defensively: the checksum makes damage unlikely
// but not impossible, and a bad count must not allocate memory or index
// out of range. After the first error every read returns zero. The index
// reads its encoded definitions with it too.
type Reader struct {
	b   []byte
	off int
	err error
}

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

var errTruncated = errors.New("truncated record")

// Err is the first error met, if any.
func (r *Reader) Err() error { return r.err }

// Done reports whether every byte was read.
func (r *Reader) Done() bool { return r.off == len(r.b) }

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = errTruncated
		return 0
	}
	r.off += n
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.err = errTruncated
		return 0
	}
	r.off += n
	return v
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.err = errTruncated
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// Count reads a number of items, each at least one byte long, so that a
// damaged count is caught before anything is allocated for it.
func (r *Reader) Count() int {
	n := r.Uvarint()
	if r.err == nil && n > uint64(len(r.b)-r.off) {
		r.err = errTruncated
		return 0
	}
	return int(n)
}

// Bytes reads a length and that many bytes, a slice of the input.
func (r *Reader) Bytes() []byte {
	n := r.Uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)-r.off) {
		r.err = errTruncated
		return nil
	}
	b := r.b[r.off : r.off+int(n) : r.off+int(n)]
	r.off += int(n)
	return b
}

// Skip passes over n bytes.
func (r *Reader) Skip(n int) {
	if r.err != nil {
		return
	}
	if n < 0 || n > len(r.b)-r.off {
		r.err = errTruncated
		return
	}
	r.off += n
}

// Rest is what is left to read (nothing after an error).
func (r *Reader) Rest() []byte {
	if r.err != nil {
		return nil
	}
	return r.b[r.off:]
}

// Offset is how many bytes were read.
func (r *Reader) Offset() int { return r.off }

// UvarintAt reads the unsigned varint at b[i:]: its value and the offset
// after it; ok is false when b ends first or it is too long.
func UvarintAt(b []byte, i int) (v uint64, next int, ok bool) {
	if i < len(b) && b[i] < 0x80 {
		return uint64(b[i]), i + 1, true
	}
	if i > len(b) {
		return 0, i, false
	}
	v, n := binary.Uvarint(b[i:])
	if n <= 0 {
		return 0, i, false
	}
	return v, i + n, true
}
