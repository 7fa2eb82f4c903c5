package diskcache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func testKey(i int) Key {
	var k Key
	copy(k[:], fmt.Sprintf("key%013d", i))
	return k
}

func testEntry(i int) []byte { return bytes.Repeat([]byte{byte(i)}, 100+i%50) }

// addPack writes a pack of the entries from..to-1.
func addPack(t *testing.T, s *Store, from, to int) {
	t.Helper()
	w, err := s.NewPack()
	if err != nil {
		t.Fatal(err)
	}
	for i := from; i < to; i++ {
		if err := w.Add(testKey(i), testEntry(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
}

func checkEntries(t *testing.T, s *Store, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		b, ok, err := s.Get(testKey(i), nil)
		if err != nil || !ok || !bytes.Equal(b, testEntry(i)) {
			t.Fatalf("entry %d: %d bytes, %v, %v", i, len(b), ok, err)
		}
	}
}

// TestStoreConcurrentWriters: stores of one folder writing at once (two
// servers indexing two checkouts) leave every pack whole, and a store
// opened afterwards reads every entry; entries already in the store are
// not written again.
func TestStoreConcurrentWriters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := OpenStore(dir, "p", 0)
			if err != nil {
				t.Error(err)
				return
			}
			defer s.Close()
			// Overlapping ranges: every writer has 100 of its own.
			addPack(t, s, w*100, w*100+200)
		}()
	}
	wg.Wait()
	s, err := OpenStore(dir, "p", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkEntries(t, s, 0, 500)
	if s.Len() != 500 {
		t.Errorf("%d entries, want 500", s.Len())
	}
	w, _ := s.NewPack()
	w.Add(testKey(3), testEntry(3))
	if w.Len() != 0 {
		t.Error("an entry the store holds was written again")
	}
	w.Abort()
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(m) != 0 {
		t.Errorf("temporary files left: %q", m)
	}
	other, _ := OpenStore(dir, "another build", 0)
	if other.Len() != 0 {
		t.Errorf("another producer's store sees %d entries", other.Len())
	}
}

// TestStoreDamaged: a damaged entry is not returned (its pack's others
// are), and a pack whose index is damaged is deleted.
func TestStoreDamaged(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir, "p", 0)
	addPack(t, s, 0, 10)
	s.Close()
	packs, _ := listPacks(dir)
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	file := filepath.Join(dir, packs[0].name)
	b, _ := os.ReadFile(file)
	// Entry 0 starts after the header.
	at := len(packMagic) + 4 + 1 + 1
	b[at+3] ^= 0xff
	os.WriteFile(file, b, 0o600)
	s, _ = OpenStore(dir, "p", 0)
	if _, ok, err := s.Get(testKey(0), nil); ok || err == nil {
		t.Errorf("damaged entry: ok %v, err %v", ok, err)
	}
	if _, ok, _ := s.Get(testKey(0), nil); ok {
		t.Error("damaged entry returned on a second try")
	}
	checkEntries(t, s, 1, 10)
	s.Close()
	b[len(b)-trailerSize-2] ^= 0xff
	os.WriteFile(file, b, 0o600)
	s, err := OpenStore(dir, "p", 0)
	if err == nil || s.Len() != 0 {
		t.Errorf("damaged index: %d entries, err %v", s.Len(), err)
	}
	if _, err := os.Stat(file); err == nil {
		t.Error("pack with a damaged index kept")
	}
}

// TestStoreEviction: past the limit, the least recently used packs go;
// reading a pack makes it recently used.
func TestStoreEviction(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir, "p", 0)
	for p := range 3 {
		addPack(t, s, p*100, p*100+100)
	}
	s.Close()
	packs, _ := listPacks(dir)
	var total int64
	for i, p := range packs {
		total += p.size
		// Oldest to newest: 0, 1, 2 as written.
		tm := time.Now().Add(time.Duration(i-10) * time.Minute)
		os.Chtimes(filepath.Join(dir, p.name), tm, tm)
	}
	s, _ = OpenStore(dir, "p", total-1)
	// The oldest pack is read, so it is used now.
	var oldest int
	for i := range 300 {
		if k := testKey(i); s.Has(k) {
			if l := s.index[k]; s.packs[l.pack].name == packs[0].name {
				oldest = i
				break
			}
		}
	}
	s.Get(testKey(oldest), nil)
	s.Touch()
	addPack(t, s, 1000, 1001)
	s.Close()
	left, _ := listPacks(dir)
	if len(left) != 3 {
		t.Fatalf("%d packs left, want 3", len(left))
	}
	for _, p := range left {
		if p.name == packs[1].name {
			t.Errorf("least recently used pack %s kept", p.name)
		}
	}
}

// TestUsageClean: Usage counts the store and the projects' snapshots;
// Clean empties the folder.
func TestUsageClean(t *testing.T) {
	base := t.TempDir()
	s, _ := OpenStore(filepath.Join(base, "store"), "p", 0)
	addPack(t, s, 0, 10)
	s.Close()
	for _, r := range []string{"a", "b"} {
		WriteAtomic(filepath.Join(base, r, FileName), []byte("x"))
	}
	size, roots, err := Usage(base)
	if err != nil || roots != 2 || size < 1000 {
		t.Errorf("Usage = %d bytes, %d roots, %v", size, roots, err)
	}
	if err := Clean(base); err != nil {
		t.Fatal(err)
	}
	if size, roots, err := Usage(base); size != 0 || roots != 0 || err != nil {
		t.Errorf("after Clean: %d bytes, %d roots, %v", size, roots, err)
	}
}

// TestStoreCompact: past maxPacks packs, a commit merges all but the
// largest into one, and every entry is still there, for this store and
// for one opened afterwards.
func TestStoreCompact(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir, "p", 0)
	defer s.Close()
	for p := range maxPacks + 1 {
		addPack(t, s, p*3, p*3+3)
	}
	packs, _ := listPacks(dir)
	if len(packs) != keepPacks+1 {
		t.Errorf("%d packs after compaction, want %d", len(packs), keepPacks+1)
	}
	checkEntries(t, s, 0, 3*(maxPacks+1))
	s2, _ := OpenStore(dir, "p", 0)
	defer s2.Close()
	checkEntries(t, s2, 0, 3*(maxPacks+1))
	if s2.Len() != 3*(maxPacks+1) {
		t.Errorf("%d entries, want %d", s2.Len(), 3*(maxPacks+1))
	}
}

// TestOpenShared: the indexes of one process share one open store of a
// folder, closed after its last user.
func TestOpenShared(t *testing.T) {
	dir := t.TempDir()
	a, _ := OpenShared(dir, "p", 0)
	b, _ := OpenShared(dir, "p", 0)
	c, _ := OpenShared(dir, "other", 0)
	if a != b || a == c {
		t.Fatal("OpenShared: one folder and producer, two stores; or two producers, one store")
	}
	addPack(t, a, 0, 5)
	checkEntries(t, b, 0, 5)
	a.Release()
	checkEntries(t, b, 0, 5)
	b.Release()
	c.Release()
	d, _ := OpenShared(dir, "p", 0)
	defer d.Release()
	if d == a {
		t.Error("a released store was handed out again")
	}
	checkEntries(t, d, 0, 5)
}
