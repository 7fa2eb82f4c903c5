package diskcache

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// A project's image is its whole index as a save found it (the strings,
// every file's records, the postings), so that a restart loads it in a
// few reads instead of decoding each file's entry of the store. Beside
// the snapshot, in a file of its own ([ImageName]); the index lays out
// its sections (see package internal/index), this file only the
// container:
//
//	header        magic "zumbaIM\x00", version (uint32)
//	sections      each section's bytes, end to end
//	table         root, producer (strings), written at (varint, Unix
//	              ns), uvarint count, then per section its length
//	              (uvarint) and CRC-32C (uint32)
//	trailer       the table's offset (uint64), its CRC-32C (uint32),
//	              "zim\x00"
//
// A section is read whole, its checksum checked before it is used. An
// image that fails a check, or was written for another project or by
// another producer, is discarded (the index loads file by file instead).
const (
	imageMagic = "zumbaIM\x00"
	// imageVersion changes with the layout of the index's sections as
	// well as the container's: 2, postings blocks with 2-byte offsets.
	imageVersion = 2
	imageTag     = "zim\x00"
	// maxImage keeps a damaged length from asking for memory.
	maxImage = 1 << 34
)

// ImageName is the image's file name in the project's cache folder.
const ImageName = "image"

// ImageWriter writes an image, one section at a time, to a temporary
// file renamed into place by Commit.
type ImageWriter struct {
	file     string
	f        *os.File
	w        *bufio.Writer
	crc      hash.Hash32
	off, at  uint64 // bytes written; where the open section started
	lens     []uint64
	sums     []uint32
	err      error
	root     string
	producer string
	written  int64
}

// NewImage starts the image file of the project at root, written by
// producer at written (Unix ns).
func NewImage(file, root, producer string, written int64) (*ImageWriter, error) {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("save image: %w", err)
	}
	removeStaleTemps(dir, filepath.Base(file))
	f, err := os.CreateTemp(dir, filepath.Base(file)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("save image: %w", err)
	}
	w := &ImageWriter{file: file, f: f, w: bufio.NewWriterSize(f, 1<<20), crc: crc32.New(castagnoli), root: root, producer: producer, written: written}
	head := binary.LittleEndian.AppendUint32([]byte(imageMagic), imageVersion)
	w.raw(head)
	w.at = w.off
	return w, nil
}

func (w *ImageWriter) raw(b []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.w.Write(b)
	w.off += uint64(len(b))
	if w.err == nil && w.off > maxImage {
		w.err = errors.New("image too large")
	}
}

// Write adds b to the open section.
func (w *ImageWriter) Write(b []byte) (int, error) {
	w.raw(b)
	if w.err != nil {
		return 0, w.err
	}
	w.crc.Write(b)
	return len(b), nil
}

// End ends the open section; the next Write starts the next one.
func (w *ImageWriter) End() {
	w.lens = append(w.lens, w.off-w.at)
	w.sums = append(w.sums, w.crc.Sum32())
	w.crc.Reset()
	w.at = w.off
}

// Abort drops the image.
func (w *ImageWriter) Abort() {
	w.f.Close()
	os.Remove(w.f.Name())
}

// Commit writes the table and renames the file into place.
func (w *ImageWriter) Commit() error {
	at := w.off
	t := appendString(nil, w.root)
	t = appendString(t, w.producer)
	t = binary.AppendVarint(t, w.written)
	t = binary.AppendUvarint(t, uint64(len(w.lens)))
	for i, l := range w.lens {
		t = binary.AppendUvarint(t, l)
		t = binary.LittleEndian.AppendUint32(t, w.sums[i])
	}
	w.raw(t)
	tr := binary.LittleEndian.AppendUint64(nil, at)
	tr = binary.LittleEndian.AppendUint32(tr, crc32.Checksum(t, castagnoli))
	w.raw(append(tr, imageTag...))
	if w.err == nil {
		w.err = w.w.Flush()
	}
	if cerr := w.f.Close(); w.err == nil {
		w.err = cerr
	}
	if w.err == nil {
		w.err = os.Rename(w.f.Name(), w.file)
	}
	if w.err != nil {
		os.Remove(w.f.Name())
		return fmt.Errorf("save image %s: %w", w.file, w.err)
	}
	return nil
}

// Image is an image file open for reading its sections.
type Image struct {
	f *os.File
	// Written is when the image was taken (Unix ns).
	Written int64
	offs    []int64 // each section's start, and the table's
	sums    []uint32
}

// OpenImage opens the image file, accepting it only if it was written
// for the project at root by producer. No file gives no image and no
// error; one it cannot use gives an error saying why it was discarded.
func OpenImage(file, root, producer string) (*Image, error) {
	f, err := os.Open(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	im, err := readImageTable(f, root, producer)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("image %s discarded: %w", file, err)
	}
	return im, nil
}

func readImageTable(f *os.File, root, producer string) (*Image, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() || size < int64(len(imageMagic)+4+trailerSize) || size > maxImage {
		return nil, fmt.Errorf("bad size %d", size)
	}
	var head [len(imageMagic) + 4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return nil, err
	}
	if string(head[:len(imageMagic)]) != imageMagic {
		return nil, errors.New("not a zumba image")
	}
	if v := binary.LittleEndian.Uint32(head[len(imageMagic):]); v != imageVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, imageVersion)
	}
	var tr [trailerSize]byte
	if _, err := f.ReadAt(tr[:], size-trailerSize); err != nil {
		return nil, err
	}
	at := binary.LittleEndian.Uint64(tr[:])
	if string(tr[12:]) != imageTag || at < uint64(len(head)) || at > uint64(size-trailerSize) {
		return nil, errors.New("bad trailer")
	}
	t := make([]byte, uint64(size-trailerSize)-at)
	if _, err := f.ReadAt(t, int64(at)); err != nil {
		return nil, err
	}
	if crc32.Checksum(t, castagnoli) != binary.LittleEndian.Uint32(tr[8:]) {
		return nil, errors.New("table checksum mismatch")
	}
	r := NewReader(t)
	gotRoot, gotProducer := r.Bytes(), r.Bytes()
	im := &Image{f: f, Written: r.Varint()}
	n := r.Count()
	if r.Err() != nil {
		return nil, r.Err()
	}
	if string(gotRoot) != root {
		return nil, fmt.Errorf("written for %s, not %s", gotRoot, root)
	}
	if string(gotProducer) != producer {
		return nil, fmt.Errorf("written by %q, not %q", gotProducer, producer)
	}
	off := int64(len(head))
	for range n {
		im.offs = append(im.offs, off)
		l := r.Uvarint()
		if r.Err() == nil && len(r.Rest()) < 4 {
			return nil, errTruncated
		}
		if r.Err() != nil {
			return nil, r.Err()
		}
		im.sums = append(im.sums, binary.LittleEndian.Uint32(r.Rest()))
		r.Skip(4)
		if l > at-uint64(off) {
			return nil, errors.New("bad section length")
		}
		off += int64(l)
	}
	if !r.Done() || off != int64(at) {
		return nil, errors.New("bad table")
	}
	im.offs = append(im.offs, off)
	return im, nil
}

// Sections is how many sections the image holds.
func (im *Image) Sections() int { return len(im.sums) }

// Len is section i's length in bytes.
func (im *Image) Len(i int) int { return int(im.offs[i+1] - im.offs[i]) }

// Read reads section i into dst, which must be Len(i) long, and checks
// its checksum.
func (im *Image) Read(i int, dst []byte) error {
	if i >= len(im.sums) || len(dst) != im.Len(i) {
		return fmt.Errorf("image section %d: bad length", i)
	}
	if _, err := im.f.ReadAt(dst, im.offs[i]); err != nil {
		return fmt.Errorf("image section %d: %w", i, err)
	}
	if crc32.Checksum(dst, castagnoli) != im.sums[i] {
		return fmt.Errorf("image section %d: %w", i, ErrDamaged)
	}
	return nil
}

// Section reads section i whole, in memory of its own.
func (im *Image) Section(i int) ([]byte, error) {
	if i >= len(im.sums) {
		return nil, fmt.Errorf("image section %d: missing", i)
	}
	b := make([]byte, im.Len(i))
	return b, im.Read(i, b)
}

// Close closes the file.
func (im *Image) Close() { im.f.Close() }

// SectionReader reads a section in parts, into memory of the caller's
// choosing; Check tells whether the whole section was read and its
// checksum holds. What was read is not to be trusted before Check.
type SectionReader struct {
	im  *Image
	i   int
	off int64
	crc uint32
	err error
}

// Reader returns a reader of section i.
func (im *Image) Reader(i int) *SectionReader {
	r := &SectionReader{im: im, i: i}
	if i >= len(im.sums) {
		r.err = fmt.Errorf("image section %d: missing", i)
		return r
	}
	r.off = im.offs[i]
	return r
}

// ReadFull fills dst with the section's next bytes.
func (r *SectionReader) ReadFull(dst []byte) error {
	if r.err != nil {
		return r.err
	}
	if r.off+int64(len(dst)) > r.im.offs[r.i+1] {
		r.err = fmt.Errorf("image section %d: %w", r.i, errTruncated)
		return r.err
	}
	if _, err := r.im.f.ReadAt(dst, r.off); err != nil {
		r.err = fmt.Errorf("image section %d: %w", r.i, err)
		return r.err
	}
	r.off += int64(len(dst))
	r.crc = crc32.Update(r.crc, castagnoli, dst)
	return nil
}

// Left is how many of the section's bytes are still to be read.
func (r *SectionReader) Left() int {
	if r.err != nil {
		return 0
	}
	return int(r.im.offs[r.i+1] - r.off)
}

// Check reports the first error met, or that the section was not read
// to its end, or that its checksum fails.
func (r *SectionReader) Check() error {
	switch {
	case r.err != nil:
		return r.err
	case r.off != r.im.offs[r.i+1]:
		return fmt.Errorf("image section %d: not read to its end", r.i)
	case r.crc != r.im.sums[r.i]:
		return fmt.Errorf("image section %d: %w", r.i, ErrDamaged)
	}
	return nil
}

// MaxImages is how many projects keep an image in one cache folder. An
// image is as large as much of its project's store entries together (the
// Linux kernel's: 285 MB), and each checkout of a project is a project of
// its own: without a bound, every worktree a task makes would leave one
// behind. A project whose image was dropped restarts from the store.
const MaxImages = 4

// PruneImages removes the images of other projects in the cache folder
// that holds the image file keep, the least recently written first,
// until at most max remain with keep among them. An image being read
// elsewhere stays readable where the system lets an open file be
// removed; where it does not, it is left for a later prune. A removal
// only makes that project's next restart load from the store.
func PruneImages(keep string, max int) {
	// The projects' folders are listed, not globbed: the user's cache
	// folder's path may hold a glob's special characters.
	cache := filepath.Dir(filepath.Dir(keep))
	dirs, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	type image struct {
		file string
		mod  time.Time
	}
	var others []image
	for _, d := range dirs {
		f := filepath.Join(cache, d.Name(), ImageName)
		if !d.IsDir() || f == keep {
			continue
		}
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			others = append(others, image{f, fi.ModTime()})
		}
	}
	sort.Slice(others, func(i, j int) bool { return others[i].mod.After(others[j].mod) })
	for i, im := range others {
		if i+1 >= max {
			os.Remove(im.file)
		}
	}
}
