package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"os"
	"path/filepath"
	"sync"
)

// Spilled records. A kind whose records only a few calls read (a
// resolver's facts: only a resolved find_references, depth or changes
// reads them, never the index's own lookups) says so (SpillKind), and
// the index keeps its records out of memory: each is written to the
// process's spill file as it is made or loaded, and the file's records
// keep only where it is (its slot). A call reads a record back on
// demand (Index.Record: one pread, served by the OS's page cache while
// the file is warm). The store's entries and the image hold the records
// themselves, as before: a save reads them back.
//
// The spill file is the process's own (Shared: the indexes of one
// process share it, and with other indexes a record is written once
// however many roots have it, so that their files' records stay the
// same bytes, held once), made in the disk cache's folder (else the
// temporary folder) and removed at once, so that nothing is left
// behind however the process ends. It only grows: a record replaced
// (an edited file) leaves its bytes there. Where the file cannot be
// made or written (a read-only folder, a full disk) the records stay in
// memory, in the slot itself; a record read back damaged (the file
// truncated, its bytes changed) is an error, and the caller falls back
// as for a record it does not have (the resolvers parse the file).

// A SpillKind is a record kind whose records the index keeps in its
// spill file instead of memory. Its records are read back (one pread
// each) when the index asks for their keys or counts them, and when a
// search asks for them: a kind whose records every call reads is not
// one.
type SpillKind interface {
	RecordKind
	// Spill reports whether the kind's records are spilled.
	Spill() bool
}

// A slot is a spilled kind's record as a file's records keep it: a tag
// byte, then for slotMem the record itself (kept in memory: the spill
// file could not be written), for slotFile where it is in the spill
// file: its offset and length (uvarints) and its CRC-32C (4 bytes, little
// endian).
const (
	slotMem  = 0
	slotFile = 1
)

var (
	errBadSlot = errors.New("bad spilled record slot")
	// ErrSpillDamaged is a spilled record read back that is not the one
	// written (the file truncated or changed).
	ErrSpillDamaged = errors.New("spilled record damaged")
	spillTable      = crc32.MakeTable(crc32.Castagnoli)
)

// spillFile is the process's spill file (see above).
type spillFile struct {
	mu     sync.Mutex
	f      *os.File
	name   string // "" once removed
	size   int64
	failed bool // it could not be made or written: records stay in memory
	closed bool
	// seen maps a record's content to its slot, when indexes share the
	// file (Shared given): a record held by many roots is written once.
	seen         map[spillKey][]byte
	seed1, seed2 maphash.Seed
}

type spillKey struct {
	h1, h2 uint64
	n      int
}

// put returns the slot of rec, written to the file made in dir ("": the
// temporary folder) when it is not yet, or rec in the slot itself when
// the file cannot be written.
func (s *spillFile) put(rec []byte, dir string) []byte {
	s.mu.Lock()
	var key spillKey
	if s.seen != nil {
		key = spillKey{maphash.Bytes(s.seed1, rec), maphash.Bytes(s.seed2, rec), len(rec)}
		if slot, ok := s.seen[key]; ok {
			s.mu.Unlock()
			return slot
		}
	}
	if s.f == nil && !s.failed && !s.closed {
		s.open(dir)
	}
	if s.f == nil || s.failed || s.closed {
		s.mu.Unlock()
		return memSlot(rec)
	}
	f, off := s.f, s.size
	s.size += int64(len(rec))
	s.mu.Unlock()
	if _, err := f.WriteAt(rec, off); err != nil {
		s.mu.Lock()
		s.failed = true
		s.mu.Unlock()
		return memSlot(rec)
	}
	slot := make([]byte, 1, 1+2*binary.MaxVarintLen64+4)
	slot[0] = slotFile
	slot = binary.AppendUvarint(slot, uint64(off))
	slot = binary.AppendUvarint(slot, uint64(len(rec)))
	slot = binary.LittleEndian.AppendUint32(slot, crc32.Checksum(rec, spillTable))
	slot = slot[:len(slot):len(slot)]
	if s.seen != nil {
		s.mu.Lock()
		s.seen[key] = slot
		s.mu.Unlock()
	}
	return slot
}

// open makes the file in dir, removed at once (where the system lets an
// open file be removed; else at close). The caller holds s.mu.
func (s *spillFile) open(dir string) {
	if dir != "" {
		// The cache's folder is made by its first save, which may come
		// after the first record.
		os.MkdirAll(dir, 0o700)
	}
	f, err := os.CreateTemp(dir, "zumba-spill-*")
	if err != nil && dir != "" {
		f, err = os.CreateTemp("", "zumba-spill-*")
	}
	if err != nil {
		s.failed = true
		return
	}
	s.f, s.name = f, f.Name()
	if os.Remove(s.name) == nil {
		s.name = ""
	}
}

func memSlot(rec []byte) []byte {
	slot := make([]byte, 1+len(rec))
	copy(slot[1:], rec)
	return slot
}

// slotRef decodes a slotFile slot.
func slotRef(slot []byte) (off, n int64, sum uint32, err error) {
	b := slot[1:]
	o, w := binary.Uvarint(b)
	if w <= 0 {
		return 0, 0, 0, errBadSlot
	}
	b = b[w:]
	l, w := binary.Uvarint(b)
	if w <= 0 || len(b)-w != 4 || o > 1<<62 || l > 1<<40 {
		return 0, 0, 0, errBadSlot
	}
	return int64(o), int64(l), binary.LittleEndian.Uint32(b[w:]), nil
}

// recordLen is the length of the record in slot.
func recordLen(slot []byte) (int, error) {
	if len(slot) == 0 {
		return 0, nil
	}
	switch slot[0] {
	case slotMem:
		return len(slot) - 1, nil
	case slotFile:
		_, n, _, err := slotRef(slot)
		return int(n), err
	}
	return 0, errBadSlot
}

// read appends to dst the record in slot (nil slot: none).
func (s *spillFile) read(dst, slot []byte) ([]byte, error) {
	if len(slot) == 0 {
		return dst, nil
	}
	switch slot[0] {
	case slotMem:
		return append(dst, slot[1:]...), nil
	case slotFile:
	default:
		return dst, errBadSlot
	}
	off, n, sum, err := slotRef(slot)
	if err != nil {
		return dst, err
	}
	s.mu.Lock()
	f, closed := s.f, s.closed
	s.mu.Unlock()
	if f == nil || closed {
		return dst, fmt.Errorf("%w: the spill file is closed", ErrSpillDamaged)
	}
	at := len(dst)
	dst = append(dst, make([]byte, n)...)
	if _, err := f.ReadAt(dst[at:], off); err != nil {
		return dst[:at], fmt.Errorf("%w: %v", ErrSpillDamaged, err)
	}
	if crc32.Checksum(dst[at:], spillTable) != sum {
		return dst[:at], ErrSpillDamaged
	}
	return dst, nil
}

// close closes and removes the file: the records spilled to it are
// gone (read as damaged).
func (s *spillFile) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.f != nil {
		s.f.Close()
		if s.name != "" {
			os.Remove(s.name)
		}
	}
}

// Size is how many bytes were written to the spill file.
func (s *spillFile) Size() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size
}

// newSpillFile returns a spill file, not made yet; with dedup, a record
// is written once however many times it is put.
func newSpillFile(dedup bool) *spillFile {
	s := &spillFile{}
	if dedup {
		s.seen, s.seed1, s.seed2 = map[spillKey][]byte{}, maphash.MakeSeed(), maphash.MakeSeed()
	}
	return s
}

// spillDir is the folder the spill file is made in: the disk cache's.
func (ix *Index) spillDir() string {
	if ix.cacheFile == "" {
		return ""
	}
	return filepath.Dir(ix.cacheFile)
}

// spilled reports whether kind k's records are spilled.
func (ix *Index) spilled(k int) bool { return k < len(ix.spills) && ix.spills[k] }

// spillRecs replaces the records of the spilled kinds in recs (one per
// kind) by their slots.
func (ix *Index) spillRecs(recs [][]byte) {
	for k, rec := range recs {
		if ix.spilled(k) && len(rec) > 0 {
			recs[k] = ix.spill.put(rec, ix.spillDir())
		}
	}
}

// Record returns the record of kind k whose raw bytes a file's records
// hold (records.Get): the record itself, read back from the spill file
// for a spilled kind. An error for a spilled record read back damaged:
// the caller does as for a file without the record (parses it).
func (ix *Index) Record(k int, raw []byte) ([]byte, error) {
	rec, err := ix.AppendRecord(nil, k, raw)
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// AppendRecord is Record into dst's memory: for a spilled kind the
// record read back is appended to dst[:0] (a caller reading many
// records, find_code's scorer, reuses one buffer); otherwise raw itself.
func (ix *Index) AppendRecord(dst []byte, k int, raw []byte) ([]byte, error) {
	if !ix.spilled(k) || len(raw) == 0 {
		return raw, nil
	}
	return ix.spill.read(dst[:0], raw)
}

// hasSpilled reports whether recs hold a slot of a spilled kind.
func (ix *Index) hasSpilled(recs records) bool {
	for k := range ix.spills {
		if ix.spilled(k) && len(recs.Get(k)) > 0 {
			return true
		}
	}
	return false
}

// unspilledLen is the length of recs with the spilled kinds' records in
// place of their slots (as the image keeps them).
func (ix *Index) unspilledLen(recs records) (int, error) {
	if !ix.hasSpilled(recs) {
		return len(recs), nil
	}
	size := 0
	for k := range ix.kinds {
		raw := recs.Get(k)
		n := len(raw)
		if ix.spilled(k) {
			var err error
			if n, err = recordLen(raw); err != nil {
				return 0, err
			}
		}
		size += uvarintLen(uint64(n)) + n
	}
	return size, nil
}

// unspill appends to dst recs with the spilled kinds' records read back
// in place of their slots.
func (ix *Index) unspill(dst []byte, recs records) ([]byte, error) {
	if !ix.hasSpilled(recs) {
		return append(dst, recs...), nil
	}
	for k := range ix.kinds {
		raw := recs.Get(k)
		if !ix.spilled(k) {
			dst = binary.AppendUvarint(dst, uint64(len(raw)))
			dst = append(dst, raw...)
			continue
		}
		n, err := recordLen(raw)
		if err != nil {
			return dst, err
		}
		dst = binary.AppendUvarint(dst, uint64(n))
		if dst, err = ix.spill.read(dst, raw); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// spillPacked returns recs (laid out as records, with the spilled kinds'
// records in them: the image's) with those records spilled, in scratch
// memory (buf, returned for reuse); recs itself when it holds none.
func (ix *Index) spillPacked(recs records, buf [][]byte) (records, [][]byte) {
	if !ix.hasSpilled(recs) {
		return recs, buf
	}
	buf = buf[:0]
	for k := range ix.kinds {
		buf = append(buf, recs.Get(k))
	}
	ix.spillRecs(buf)
	return PackRecords(buf), buf
}
