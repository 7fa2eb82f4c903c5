package srcview

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/internal/filestat"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/outline"
	"github.com/zumba-dev/zumba/search"
)

// Reader reads the files of one read_symbol answer, one at a time,
// into a buffer the answers share, as outline reads them
// (outline.ReadHead); it keeps the last file read, as matches come in path
// order.
type Reader struct {
	root *search.Root
	// parses is the server's parse cache (nil: none), which a file read
	// whole and unchanged while it was read is parsed through.
	parses *search.ParseCache
	// since is when the answer started: a file changed since shortly
	// before it may no longer be what the index located its definitions
	// in (see read).
	since int64
	buf   []byte
	path  string
	data  []byte
	whole outline.Size
	ok    bool
	// changed: the file was modified within filestat.RacyWindow of since,
	// or later, so the definitions are located in data itself.
	changed bool
	// st is the file's stat before it was read; steady: the same after.
	st     filestat.Stat
	steady bool
	// parsed: defs are the file's definitions; nc its parts that are not
	// code, when known.
	parsed bool
	defs   []outline.Definition
	nc     outline.NonCode
}

var fileReaders = sync.Pool{New: func() any { return &Reader{} }}

// GetReader returns a reader of the files of root for one answer that
// started at since; parses is the server's parse cache (nil: none).
// Release gives it back.
func GetReader(root *search.Root, parses *search.ParseCache, since time.Time) *Reader {
	rd := fileReaders.Get().(*Reader)
	rd.root, rd.parses, rd.since, rd.path, rd.data, rd.ok = root, parses, since.UnixNano(), "", nil, false
	return rd
}

// Release gives the reader back; its buffer is kept when it is no larger
// than the files the index covers.
func (rd *Reader) Release() {
	if cap(rd.buf) > project.MaxFileSize+1 {
		rd.buf = nil
	}
	rd.root, rd.parses, rd.data, rd.defs, rd.nc = nil, nil, nil, nil, nil
	fileReaders.Put(rd)
}

// read reads path (as the index names it) unless it holds it already.
// The file's stat is taken after its bytes are read: when it says the
// file was modified within filestat.RacyWindow before the answer started,
// or since, the index may have located its definitions in other bytes
// than those read (the file is being rewritten), and changed is set.
func (rd *Reader) read(ctx context.Context, path string) bool {
	if rd.path == path {
		return rd.ok
	}
	rd.path, rd.data, rd.ok, rd.changed, rd.parsed, rd.defs, rd.nc = path, nil, false, false, false, nil, nil
	f, _, err := rd.root.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	rd.st = filestat.Of(fi)
	data, whole, err := outline.ReadHead(ctx, f, path, rd.buf)
	if err != nil {
		return false
	}
	if cap(data) > cap(rd.buf) {
		rd.buf = data[:0]
	}
	if project.IsBinary(data) {
		return false
	}
	if fi, err = f.Stat(); err != nil {
		return false
	}
	st := filestat.Of(fi)
	rd.steady = st == rd.st
	rd.changed = st.RacyAt(rd.since) || st.CTime >= rd.since-int64(filestat.RacyWindow)
	rd.data, rd.whole, rd.ok = data, whole, true
	return true
}

// Data is the bytes of the file read last.
func (rd *Reader) Data() []byte { return rd.data }

// NonCode is the parts of the file read last that are not code, when
// known (see Definitions).
func (rd *Reader) NonCode() outline.NonCode { return rd.nc }

// Locate is d as found in the bytes read of its file: d itself when the
// file is unchanged since the index located it, else the definition of
// the same qualified name and kind in the bytes read nearest d's line; ok
// is false when there is none.
func (rd *Reader) Locate(ctx context.Context, d *outline.Definition) (*outline.Definition, bool) {
	if !rd.read(ctx, d.Path) {
		return nil, false
	}
	if !rd.changed {
		return d, true
	}
	var best *outline.Definition
	for _, c := range rd.Definitions(ctx, d.Path) {
		if c.Kind == d.Kind && c.QualifiedName() == d.QualifiedName() &&
			(best == nil || abs(c.Line-d.Line) < abs(best.Line-d.Line)) {
			best = &c
		}
	}
	return best, best != nil
}

func abs(n int) int { return max(n, -n) }

// Extent is lines start..end of path, as in the file, each with its line
// break; ok is false when the file cannot be read or is shorter.
func (rd *Reader) Extent(ctx context.Context, path string, start, end int) ([]byte, bool) {
	if !rd.read(ctx, path) || start < 1 || end < start {
		return nil, false
	}
	from, ok := lineOffset(rd.data, 0, 1, start)
	if !ok {
		return nil, false
	}
	last, ok := lineOffset(rd.data, from, start, end)
	if !ok {
		return nil, false
	}
	to := len(rd.data)
	if i := bytes.IndexByte(rd.data[last:], '\n'); i >= 0 {
		to = last + i + 1
	}
	return rd.data[from:to], true
}

// LinesOf is lines start..end of data, as far as data has them, each with
// its line break.
func LinesOf(data []byte, start, end int) []byte {
	from, ok := lineOffset(data, 0, 1, start)
	if !ok {
		return nil
	}
	last, _ := lineOffset(data, from, start, end)
	if i := bytes.IndexByte(data[min(last, len(data)):], '\n'); i >= 0 {
		return data[from : last+i+1]
	}
	return data[from:]
}

// lineOffset is the offset of line want in data, counting from offset off,
// where line at starts; ok is false when the file has no such line.
func lineOffset(data []byte, off, at, want int) (int, bool) {
	for ; at < want; at++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data), false
		}
		off += i + 1
	}
	return off, off < len(data)
}

// Definitions outlines the file the reader holds, once: through the
// parse cache when it was read whole and did not change while it was
// read, else under outline's large-file policy.
func (rd *Reader) Definitions(ctx context.Context, path string) []outline.Definition {
	if !rd.read(ctx, path) {
		return nil
	}
	if rd.parsed {
		return rd.defs
	}
	rd.parsed = true
	if rd.parses != nil && rd.steady && rd.whole.Bytes == int64(len(rd.data)) {
		if defs, nc, ok := rd.parses.Code(ctx, path, rd.st, rd.data); ok {
			rd.defs, rd.nc = defs, nc
			return defs
		}
	}
	if lang := grammar.ForPath(path, rd.data); lang != nil {
		_, rd.defs, _ = Definitions(ctx, path, lang, rd.data, rd.whole, nil)
	}
	return rd.defs
}

// Definitions outlines a file read under outline's large-file
// policy. enough, when not nil, says when the outline of a large file's
// start is all that is needed.
func Definitions(ctx context.Context, rel string, lang *grammar.Language, src []byte, whole outline.Size, enough func(*outline.Outline) bool) (*outline.File, []outline.Definition, string) {
	f, err := outline.OutlineFile(ctx, lang, src, whole, enough)
	if err != nil {
		return nil, nil, fmt.Sprintf("cannot read the definitions of %s: %v", project.Echo(rel), err)
	}
	return f, f.Definitions(rel), ""
}
