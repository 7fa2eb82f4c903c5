package index

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/diskcache"
	"github.com/zumba-dev/zumba/internal/project"
)

// spillKind is treeKind, spilled.
type spillKind struct{ treeKind }

func (*spillKind) Spill() bool { return true }

// TestSpillFile: a record put is read back the same from the file,
// which is gone from its folder; with dedup the same bytes are written
// once; once closed, a record reads as damaged.
func TestSpillFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := newSpillFile(true)
	var slots [][]byte
	for i := range 50 {
		slots = append(slots, s.put(fmt.Appendf(nil, "record %d %s", i, bytes.Repeat([]byte{'x'}, i)), dir))
	}
	again := s.put([]byte("record 7 xxxxxxx"), dir)
	if !bytes.Equal(again, slots[7]) {
		t.Errorf("the same record put twice: slots %x, %x; want one", slots[7], again)
	}
	for i, slot := range slots {
		if slot[0] != slotFile {
			t.Fatalf("record %d kept in memory (slot %x)", i, slot)
		}
		got, err := s.read([]byte("prefix"), slot)
		if want := fmt.Sprintf("prefixrecord %d %s", i, bytes.Repeat([]byte{'x'}, i)); err != nil || string(got) != want {
			t.Errorf("read back %q, %v; want %q", got, err, want)
		}
		if n, err := recordLen(slot); err != nil || n != len(got)-len("prefix") {
			t.Errorf("recordLen %d, %v; want %d", n, err, len(got)-len("prefix"))
		}
	}
	if runtime.GOOS != "windows" {
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("the spill file is left in its folder: %v", ents)
		}
	}
	// The cache's folder not made yet: made for the spill file.
	later := filepath.Join(t.TempDir(), "cache", "project")
	s2 := newSpillFile(false)
	defer s2.close()
	if slot := s2.put([]byte("x"), later); slot[0] != slotFile || !strings.HasPrefix(s2.f.Name(), later+string(filepath.Separator)) {
		t.Errorf("spill file %s, slot %x; want one in %s", s2.f.Name(), slot, later)
	}
	s.close()
	if _, err := s.read(nil, slots[0]); !errors.Is(err, ErrSpillDamaged) {
		t.Errorf("read after close: %v; want ErrSpillDamaged", err)
	}
	if slot := s.put([]byte("late"), dir); slot[0] != slotMem {
		t.Errorf("put after close: slot %x; want the record in memory", slot)
	}
}

// TestSpillUnwritable: where the spill file cannot be made (no folder)
// or written (a full disk: here a file open for reading only), the
// records stay in memory and read back the same.
func TestSpillUnwritable(t *testing.T) {
	// A folder under a file: not made, even by root.
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "")
	missing := filepath.Join(file, "no", "such")
	t.Setenv("TMPDIR", missing)
	s := newSpillFile(false)
	slot := s.put([]byte("facts"), missing)
	if slot[0] != slotMem || !s.failed {
		t.Fatalf("no folder: slot %x, failed %v; want the record in memory", slot, s.failed)
	}
	if got, err := s.read(nil, slot); err != nil || string(got) != "facts" {
		t.Errorf("read back %q, %v; want facts", got, err)
	}

	ro, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	s = newSpillFile(false)
	s.f = ro
	for range 2 {
		slot := s.put([]byte("facts"), "")
		if slot[0] != slotMem || !s.failed {
			t.Fatalf("write failed: slot %x, failed %v; want the record in memory", slot, s.failed)
		}
		if got, err := s.read(nil, slot); err != nil || string(got) != "facts" {
			t.Errorf("read back %q, %v; want facts", got, err)
		}
	}
}

// TestSpillDamaged: a record read back from a file truncated or changed
// is an error, not other bytes.
func TestSpillDamaged(t *testing.T) {
	t.Parallel()
	s := newSpillFile(false)
	defer s.close()
	a := s.put([]byte("first record"), t.TempDir())
	b := s.put([]byte("second record"), "")
	if _, err := s.f.WriteAt([]byte("F"), 0); err != nil {
		t.Fatal(err)
	}
	if got, err := s.read(nil, a); !errors.Is(err, ErrSpillDamaged) {
		t.Errorf("changed record: %q, %v; want ErrSpillDamaged", got, err)
	}
	if err := s.f.Truncate(int64(len("first record") + 3)); err != nil {
		t.Fatal(err)
	}
	if got, err := s.read(nil, b); !errors.Is(err, ErrSpillDamaged) {
		t.Errorf("truncated record: %q, %v; want ErrSpillDamaged", got, err)
	}
	for _, bad := range [][]byte{{slotFile}, {slotFile, 0, 5, 1}, {7, 1, 2}} {
		if _, err := s.read(nil, bad); err == nil {
			t.Errorf("slot %x read without error", bad)
		}
	}
}

// TestSpillIndex: an index keeps a spilled kind's records in its spill
// file; the index reads them back (Record), its store entries and its
// image hold the records themselves, byte for byte as an index keeping
// them in memory writes them, and a restart from the image spills them
// again: the image it writes is the image it read.
func TestSpillIndex(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 8 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("p%d/f.go", i)), fmt.Sprintf("package p%d\n\nfunc F%d() {}\n\ntype T%d struct{}\n", i, i, i))
	}
	writeFile(t, filepath.Join(dir, "README"), "no definitions\n")
	past := time.Now().Add(-time.Hour)
	for _, p := range []string{"README", "p0/f.go", "p1/f.go", "p2/f.go", "p3/f.go", "p4/f.go", "p5/f.go", "p6/f.go", "p7/f.go"} {
		os.Chtimes(filepath.Join(dir, p), past, past)
	}
	caches := t.TempDir()
	cache := filepath.Join(caches, "c", "files")
	var logs strings.Builder
	var logMu sync.Mutex
	logf := func(format string, args ...any) {
		logMu.Lock()
		fmt.Fprintf(&logs, format+"\n", args...)
		logMu.Unlock()
	}
	build := func(cache string, kind RecordKind) *Index {
		proj, err := project.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		ix := NewEngine(proj, Options{CacheFile: cache, StoreDir: filepath.Join(caches, "store"), NoWatch: true, Log: logf}, []RecordKind{&treeKind{}, kind})
		ix.Build(context.Background())
		return ix
	}
	ix := build(cache, &spillKind{})
	defer ix.Close()
	mem := build(filepath.Join(caches, "m", "files"), &treeKind{})
	defer mem.Close()
	if ix.spill.Size() == 0 || mem.spill.Size() != 0 {
		t.Fatalf("spilled %d and %d bytes; want some, none", ix.spill.Size(), mem.spill.Size())
	}
	for _, r := range ix.Files {
		m := mem.ByPath[r.Path]
		if r.Path == "README" {
			continue
		}
		raw := r.Recs.Get(1)
		if len(raw) == 0 || raw[0] != slotFile {
			t.Fatalf("%s: slot %x; want one in the file", r.Path, raw)
		}
		rec, err := ix.Record(1, raw)
		if want := m.Recs.Get(1); err != nil || !bytes.Equal(rec, want) {
			t.Errorf("%s: Record %q, %v; want %q", r.Path, rec, err, want)
		}
		if got, err := ix.unspill(nil, r.Recs); err != nil || !bytes.Equal(got, m.Recs) {
			t.Errorf("%s: unspilled %q, %v; want %q", r.Path, got, err, m.Recs)
		}
		if n, err := ix.unspilledLen(r.Recs); err != nil || n != len(m.Recs) {
			t.Errorf("%s: unspilled length %d, %v; want %d", r.Path, n, err, len(m.Recs))
		}
		got, err := ix.encodeEntry(ix.Words.View(), nil, false, r.Recs)
		if err != nil {
			t.Fatal(err)
		}
		want, err := mem.encodeEntry(mem.Words.View(), nil, false, m.Recs)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: store entry %x; want %x (%v)", r.Path, got, want, err)
		}
	}

	// The image, written at the build's end, read back by a restart and
	// written again.
	ix.Close()
	image := readSections(t, filepath.Join(filepath.Dir(cache), diskcache.ImageName), dir)
	logs.Reset()
	re := build(cache, &spillKind{})
	defer re.Close()
	if re.spill.Size() == 0 || re.Cached != len(re.Files) || strings.Contains(logs.String(), "image") {
		t.Fatalf("the restart spilled %d bytes, took %d of %d files from the cache; log:\n%s", re.spill.Size(), re.Cached, len(re.Files), logs.String())
	}
	re.Mu.Lock()
	st := re.imageStateLocked()
	re.Mu.Unlock()
	re.cacheFile = filepath.Join(t.TempDir(), "again", "files")
	if st == nil {
		t.Fatal("the restarted index has no image state")
	}
	if err := re.writeImage(st, 1); err != nil {
		t.Fatal(err)
	}
	again := readSections(t, re.imageFile(), dir)
	if len(image) != len(again) {
		t.Fatalf("%d sections, then %d", len(image), len(again))
	}
	for i := range image {
		if !bytes.Equal(image[i], again[i]) {
			t.Errorf("image section %d differs once restarted:\n%q\n%q", i, image[i], again[i])
		}
	}

	// The spill file damaged: no store entry, no image, no crash.
	if err := re.spill.f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	if _, err := re.encodeEntry(re.Words.View(), nil, false, re.ByPath["p3/f.go"].Recs); !errors.Is(err, ErrSpillDamaged) {
		t.Errorf("store entry of a damaged record: %v; want ErrSpillDamaged", err)
	}
	re.cacheFile = filepath.Join(t.TempDir(), "damaged", "files")
	if err := re.writeImage(st, 2); !errors.Is(err, ErrSpillDamaged) {
		t.Errorf("image of damaged records: %v; want ErrSpillDamaged", err)
	}
	if ents, _ := os.ReadDir(filepath.Dir(re.cacheFile)); len(ents) != 0 {
		t.Errorf("image of damaged records left %v", ents)
	}
}

func readSections(t *testing.T, file, root string) [][]byte {
	t.Helper()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	im, err := diskcache.OpenImage(file, real, CacheProducer())
	if err != nil || im == nil {
		t.Fatalf("image %s: %v", file, err)
	}
	defer im.Close()
	var out [][]byte
	for i := range im.Sections() {
		b, err := im.Section(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
