package outline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/zumba-dev/zumba/grammar"
)

// The large-file policy: how much of a file is read and parsed, and in
// what time. Every caller that outlines a file a client named (the outline
// tool, read_symbol) goes through ReadHead and OutlineFile, so a 16 MB
// file costs each of them the same bounded work.
const (
	// MaxFileSize is the largest file that is outlined at all.
	MaxFileSize = 16 << 20
	// MaxParse bounds the part of a file that is parsed: tree-sitter reads
	// a few MB a second, so a larger file is outlined from its start up
	// to this size (see ParseHead), well within a client's timeout.
	MaxParse = 1 << 20
	// HeadSize is the part of a file larger than MaxParse that is parsed
	// first: when its outline alone is all the caller can use (a file of
	// thousands of one-line functions fills an answer), parsing more
	// would only be cut; and when the parse up to MaxParse cannot finish
	// by HeadDeadline, the outline is this part's.
	HeadSize = 256 << 10
	// HeadDeadline is how long after its start the parse of a large
	// file's first MaxParse bytes may run, when the caller set no
	// deadline, before the outline falls back to its first HeadSize
	// bytes: within a client's 5 s.
	HeadDeadline = 3 * time.Second
)

// Size is a file's size in bytes and lines.
type Size struct {
	Bytes int64
	Lines int
}

// SizeOf is the Size of data.
func SizeOf(data []byte) Size {
	lines := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines++
	}
	return Size{int64(len(data)), lines}
}

// TooLargeError is a file over MaxFileSize.
type TooLargeError struct {
	Name string
	// Size is the file's size when its stat said so; 0 when it grew past
	// the limit while it was read.
	Size int64
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("%s is too large (%d bytes; the limit is %d)", e.Name, e.Size, MaxFileSize)
	}
	return fmt.Sprintf("%s is too large (the limit is %d bytes)", e.Name, MaxFileSize)
}

// ReadHead reads what OutlineFile parses of the opened file f, named name
// in errors: the whole file up to MaxParse bytes; past it, its first
// MaxParse+1 bytes, and the size and line count of the whole, counted
// without holding the rest and stopped when ctx ends. A file over
// MaxFileSize is a *TooLargeError. The bytes are read into buf when it
// has room for them (nil: a new buffer).
func ReadHead(ctx context.Context, f *os.File, name string, buf []byte) ([]byte, Size, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, Size{}, fmt.Errorf("read %s: %w", name, err)
	}
	if fi.Size() > MaxFileSize {
		return nil, Size{}, &TooLargeError{Name: name, Size: fi.Size()}
	}
	head := buf[:0]
	if n := int(min(fi.Size(), MaxParse) + 1); cap(head) >= n {
		head = head[:n]
	} else {
		head = make([]byte, n)
	}
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, Size{}, fmt.Errorf("read %s: %w", name, err)
	}
	head = head[:n]
	if n <= MaxParse && err != nil {
		// The whole file, read in one go.
		return head, SizeOf(head), nil
	}
	if n <= MaxParse {
		// The file grew since its stat: read the rest as a larger one.
		head = append(head, make([]byte, MaxParse+1-n)...)[:MaxParse+1]
		k, err := io.ReadFull(f, head[n:])
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			return nil, Size{}, fmt.Errorf("read %s: %w", name, err)
		}
		head = head[:n+k]
		if len(head) <= MaxParse {
			return head, SizeOf(head), nil
		}
	}
	whole, err := countRest(ctx, f, name, head)
	if err != nil {
		return nil, Size{}, err
	}
	return head, whole, nil
}

// countRest is the Size of a file whose first bytes are head, counting
// the rest from f in small reads.
func countRest(ctx context.Context, f *os.File, name string, head []byte) (Size, error) {
	size := Size{Bytes: int64(len(head)), Lines: bytes.Count(head, []byte{'\n'})}
	last := head[len(head)-1]
	buf := make([]byte, 256<<10)
	for size.Bytes <= MaxFileSize {
		if err := ctx.Err(); err != nil {
			return Size{}, fmt.Errorf("cannot outline %s: %w", name, err)
		}
		k, err := f.Read(buf)
		size.Bytes += int64(k)
		size.Lines += bytes.Count(buf[:k], []byte{'\n'})
		if k > 0 {
			last = buf[k-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return Size{}, fmt.Errorf("read %s: %w", name, err)
		}
	}
	if size.Bytes > MaxFileSize {
		return Size{}, &TooLargeError{Name: name}
	}
	if last != '\n' {
		size.Lines++
	}
	return size, nil
}

// File is a file's outline under the large-file policy.
type File struct {
	*Outline
	// Parsed is how many of the file's first bytes the outline was
	// parsed from at most: all of them, MaxParse, or HeadSize (Outline's
	// CutLine says where the part parsed ended).
	Parsed int
	// Timed reports an outline cut short by the deadline (StopLine, or a
	// head's outline where more was wanted): not the file's, so it is not
	// to be cached.
	Timed bool
}

// OutlineFile outlines src, the start of a file of size whole read by
// ReadHead (all of it when it is no larger than MaxParse). A file up to
// MaxParse is parsed whole. A larger one is parsed up to HeadSize first;
// when that outline is all the caller can use (enough reports it; nil:
// never), it is the answer; else the file is parsed up to MaxParse by the
// caller's deadline, or HeadDeadline after the start when it set none,
// and when that cannot finish the head's outline stands (Timed).
func OutlineFile(ctx context.Context, lang *grammar.Language, src []byte, whole Size, enough func(*Outline) bool) (*File, error) {
	return outlineFile(ctx, lang, src, whole, enough, false)
}

// OutlineDecls is OutlineFile with each entry's signature and visibility
// (Entry.Sig, Entry.Exported), read from the same parse.
func OutlineDecls(ctx context.Context, lang *grammar.Language, src []byte, whole Size, enough func(*Outline) bool) (*File, error) {
	return outlineFile(ctx, lang, src, whole, enough, true)
}

func outlineFile(ctx context.Context, lang *grammar.Language, src []byte, whole Size, enough func(*Outline) bool, decls bool) (*File, error) {
	start := time.Now()
	first := MaxParse
	if len(src) > MaxParse {
		first = HeadSize
	}
	o, err := parseHead(ctx, lang, src, first, decls)
	if err != nil {
		return nil, err
	}
	f := &File{Outline: o, Parsed: first, Timed: o.StopLine > 0}
	if len(src) <= HeadSize || o.CutLine == 0 || f.Timed || enough != nil && enough(o) {
		return f, nil
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = start.Add(HeadDeadline)
	}
	more, cancel := context.WithDeadline(ctx, deadline)
	o2, err := parseHead(more, lang, src, MaxParse, decls)
	cancel()
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil || o2.StopLine > 0 && o2.StopLine <= o.CutLine:
		// Out of time before the head's end: the head's outline.
		f.Timed = true
		return f, nil
	}
	return &File{Outline: o2, Parsed: MaxParse, Timed: o2.StopLine > 0}, nil
}
