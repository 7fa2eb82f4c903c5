package search

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/zumba-dev/zumba/grammar"
	"github.com/zumba-dev/zumba/outline"
)

const testProducer = "zumba test"

// oldTime is a modification time well outside the racy window.
var oldTime = time.Now().Add(-time.Hour).UnixNano()

func oldStat(size int64, inode uint64) FileStat {
	return FileStat{Size: size, MTime: oldTime, Inode: inode}
}

func sampleRecord(i int) CacheRecord {
	return CacheRecord{
		Definitions: []outline.Definition{
			{Name: "Rpc", Qualified: []string{"Rpc"}, Kind: grammar.Struct, Line: 3, Start: 1, End: 9},
			{Name: "spawn" + strconv.Itoa(i), Qualified: []string{"Rpc", "spawn" + strconv.Itoa(i)}, Kind: grammar.Method, Line: 5, Start: 4, End: 8},
			{Name: "spawn" + strconv.Itoa(i), Qualified: []string{"Rpc", "spawn" + strconv.Itoa(i)}, Kind: grammar.Method, Line: 4, Start: 4, End: 4, Decl: true},
			{Name: "Ünïcode", Qualified: []string{"Ünïcode"}, Kind: grammar.Heading, Line: 1 << 20, Start: 1 << 20, End: 1<<20 + 1},
		},
		Words: []string{"Rpc", "spawn" + strconv.Itoa(i), "err", "", "Ünïcode"},
	}
}

// newTestCache opens a cache file in a fresh folder for root "/proj".
func newTestCache(t *testing.T) (*DiskCache, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "sub", "files")
	c := OpenDiskCache(file, "/proj", testProducer)
	if err := c.Discarded(); err != nil {
		t.Fatalf("fresh cache: Discarded() = %v", err)
	}
	return c, file
}

func mustLookup(t *testing.T, c *DiskCache, rel string, st FileStat, want CacheRecord) {
	t.Helper()
	got, ok := c.Lookup(rel, st)
	if !ok {
		t.Fatalf("Lookup(%q) missed", rel)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Lookup(%q) (-want +got):\n%s", rel, d)
	}
}

func TestDiskCacheRoundTrip(t *testing.T) {
	c, file := newTestCache(t)
	stats := map[string]FileStat{}
	for i := range 50 {
		rel := fmt.Sprintf("dir%d/file%d.go", i%7, i)
		stats[rel] = oldStat(int64(100+i), uint64(1000+i))
		c.Put(rel, stats[rel], sampleRecord(i))
	}
	c.Put("empty.txt", oldStat(0, 7), CacheRecord{})
	stats["empty.txt"] = oldStat(0, 7)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c2 := OpenDiskCache(file, "/proj", testProducer)
	if err := c2.Discarded(); err != nil {
		t.Fatalf("reload: Discarded() = %v", err)
	}
	if c2.Len() != len(stats) {
		t.Errorf("reload: Len() = %d; want %d", c2.Len(), len(stats))
	}
	for i := range 50 {
		rel := fmt.Sprintf("dir%d/file%d.go", i%7, i)
		mustLookup(t, c2, rel, stats[rel], sampleRecord(i))
		// A second lookup decodes again and must agree.
		mustLookup(t, c2, rel, stats[rel], sampleRecord(i))
	}
	mustLookup(t, c2, "empty.txt", stats["empty.txt"], CacheRecord{})

	// Saving a loaded cache with one change keeps the untouched records.
	c2.Put("new.go", oldStat(1, 1), sampleRecord(99))
	c2.Delete("dir0/file0.go")
	if err := c2.Save(); err != nil {
		t.Fatal(err)
	}
	c3 := OpenDiskCache(file, "/proj", testProducer)
	if err := c3.Discarded(); err != nil {
		t.Fatalf("second reload: Discarded() = %v", err)
	}
	mustLookup(t, c3, "new.go", oldStat(1, 1), sampleRecord(99))
	mustLookup(t, c3, "dir3/file10.go", stats["dir3/file10.go"], sampleRecord(10))
	if _, ok := c3.Lookup("dir0/file0.go", stats["dir0/file0.go"]); ok {
		t.Error("a deleted record came back")
	}
	c3.Prune(func(rel string) bool { return strings.HasPrefix(rel, "dir1/") })
	if got := c3.Len(); got != 7 {
		t.Errorf("after Prune: Len() = %d; want 7", got)
	}
}

func TestDiskCacheSaveUnchangedWritesNothing(t *testing.T) {
	c, file := newTestCache(t)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("an empty, unchanged cache was written: %v", err)
	}
	c.Put("a", oldStat(1, 1), sampleRecord(1))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(file)
	os.Chtimes(file, time.Unix(1, 0), time.Unix(1, 0))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Stat(file)
	if !fi2.ModTime().Equal(time.Unix(1, 0)) || fi.Size() != fi2.Size() {
		t.Error("Save rewrote a cache with no change")
	}
}

func TestDiskCacheInvalidation(t *testing.T) {
	c, file := newTestCache(t)
	st := oldStat(10, 42)
	c.Put("a.go", st, sampleRecord(1))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*DiskCache{c, OpenDiskCache(file, "/proj", testProducer)} {
		mustLookup(t, c, "a.go", st, sampleRecord(1))
		for name, changed := range map[string]FileStat{
			"size":  {Size: st.Size + 1, MTime: st.MTime, Inode: st.Inode},
			"mtime": {Size: st.Size, MTime: st.MTime + 1, Inode: st.Inode},
			"inode": {Size: st.Size, MTime: st.MTime, Inode: st.Inode + 1},
		} {
			if _, ok := c.Lookup("a.go", changed); ok {
				t.Errorf("Lookup with a changed %s hit", name)
			}
		}
		if _, ok := c.Lookup("b.go", st); ok {
			t.Error("Lookup of an unknown path hit")
		}
	}
}

func TestDiskCacheRacy(t *testing.T) {
	c, file := newTestCache(t)
	// Modified just now: the file may change again within the same time
	// stamp, so its record is never trusted.
	fresh := FileStat{Size: 5, MTime: time.Now().UnixNano(), Inode: 9}
	c.Put("fresh.go", fresh, sampleRecord(1))
	if _, ok := c.Lookup("fresh.go", fresh); ok {
		t.Error("Lookup trusted a record of a file modified as it was read")
	}
	// Modified in the future (a skewed clock, an extracted archive).
	future := FileStat{Size: 5, MTime: time.Now().Add(time.Hour).UnixNano(), Inode: 9}
	c.Put("future.go", future, sampleRecord(1))
	if _, ok := c.Lookup("future.go", future); ok {
		t.Error("Lookup trusted a record of a file modified in the future")
	}
	// At the edge: 2 s before is racy, a little more is not.
	edge := FileStat{Size: 5, MTime: time.Now().Add(-RacyWindow + 100*time.Millisecond).UnixNano(), Inode: 9}
	c.Put("edge.go", edge, sampleRecord(1))
	if _, ok := c.Lookup("edge.go", edge); ok {
		t.Error("Lookup trusted a record inside the racy window")
	}
	settled := FileStat{Size: 5, MTime: time.Now().Add(-RacyWindow - 100*time.Millisecond).UnixNano(), Inode: 9}
	c.Put("settled.go", settled, sampleRecord(1))
	mustLookup(t, c, "settled.go", settled, sampleRecord(1))

	// Racy records are not saved: under the save's later time they would
	// look verified.
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c2 := OpenDiskCache(file, "/proj", testProducer)
	if got := c2.Len(); got != 1 {
		t.Errorf("reload: Len() = %d; want 1 (only settled.go)", got)
	}
	mustLookup(t, c2, "settled.go", settled, sampleRecord(1))

	// A file whose entry was written within the window of the cache's own
	// write time (only a forged or clock-skewed file has one) is racy.
	racy := FileStat{Size: 5, MTime: oldTime, Inode: 9}
	written := oldTime + int64(time.Second)
	forge := OpenDiskCache(filepath.Join(t.TempDir(), "files"), "/proj", testProducer)
	forge.Put("racy.go", racy, sampleRecord(1))
	e := forge.entries["racy.go"]
	e.ref = oldTime + int64(time.Hour)
	b, err := encodeCache("/proj", testProducer, written, []*cacheEntry{e}, forge.strs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c3 := OpenDiskCache(file, "/proj", testProducer)
	if c3.Len() != 1 {
		t.Fatalf("forged file: Len() = %d; want 1", c3.Len())
	}
	if _, ok := c3.Lookup("racy.go", racy); ok {
		t.Error("Lookup trusted a record modified within 2 s of the cache's write")
	}
}

// savedFile writes a small cache and returns its bytes.
func savedFile(t *testing.T) (string, []byte) {
	t.Helper()
	c, file := newTestCache(t)
	for i := range 5 {
		c.Put(fmt.Sprintf("f%d.go", i), oldStat(int64(i), uint64(i)), sampleRecord(i))
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return file, b
}

func expectDiscarded(t *testing.T, file string, b []byte, what string) {
	t.Helper()
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c := OpenDiskCache(file, "/proj", testProducer)
	if c.Discarded() == nil || c.Len() != 0 {
		t.Fatalf("%s: Discarded() = %v, Len() = %d; want an error and an empty cache", what, c.Discarded(), c.Len())
	}
	// Still usable.
	c.Put("x", oldStat(1, 1), sampleRecord(1))
	mustLookup(t, c, "x", oldStat(1, 1), sampleRecord(1))
}

func TestDiskCacheCorruptBytes(t *testing.T) {
	file, good := savedFile(t)
	// Every byte, every bit pattern change that matters: one flipped byte
	// anywhere is caught (by the header checks or the CRC-32C).
	rng := rand.New(rand.NewPCG(1, 2))
	for off := range good {
		b := slices.Clone(good)
		b[off] ^= byte(1 + rng.IntN(255))
		expectDiscarded(t, file, b, fmt.Sprintf("byte %d of %d changed", off, len(good)))
	}
	// Bursts of random bytes at random offsets.
	for range 200 {
		b := slices.Clone(good)
		off := rng.IntN(len(b))
		n := 1 + rng.IntN(16)
		for i := off; i < off+n && i < len(b); i++ {
			b[i] = byte(rng.Uint32())
		}
		if bytes.Equal(b, good) {
			continue
		}
		expectDiscarded(t, file, b, fmt.Sprintf("%d random bytes at %d", n, off))
	}
}

func TestDiskCacheTruncated(t *testing.T) {
	file, good := savedFile(t)
	for n := range len(good) {
		expectDiscarded(t, file, good[:n], fmt.Sprintf("truncated to %d of %d bytes", n, len(good)))
	}
	expectDiscarded(t, file, append(slices.Clone(good), 0), "one byte appended")
}

func TestDiskCacheForeign(t *testing.T) {
	file, good := savedFile(t)
	b := slices.Clone(good)
	copy(b, "notzumba")
	expectDiscarded(t, file, b, "wrong magic")

	b = slices.Clone(good)
	binary.LittleEndian.PutUint32(b[8:], cacheVersion+1)
	expectDiscarded(t, file, b, "another format version")

	expectDiscarded(t, file, []byte("some other program's file, long enough for a header"), "foreign file")

	if err := os.WriteFile(file, good, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ root, producer string }{
		{"/other", testProducer},
		{"/proj/", testProducer},
		{"/proj", "zumba other build"},
	} {
		c := OpenDiskCache(file, tc.root, tc.producer)
		if c.Discarded() == nil || c.Len() != 0 {
			t.Errorf("root %q producer %q: Discarded() = %v, Len() = %d; want it discarded", tc.root, tc.producer, c.Discarded(), c.Len())
		}
	}
	// The rightful owner still reads it.
	if c := OpenDiskCache(file, "/proj", testProducer); c.Discarded() != nil || c.Len() != 5 {
		t.Errorf("owner: Discarded() = %v, Len() = %d", c.Discarded(), c.Len())
	}
	// A discarded file is replaced by the next Save, even with no change.
	c := OpenDiskCache(file, "/other", testProducer)
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if c := OpenDiskCache(file, "/other", testProducer); c.Discarded() != nil {
		t.Errorf("after Save: Discarded() = %v", c.Discarded())
	}
}

// reseal recomputes the length and checksum of a damaged payload, so that
// the decoder itself meets the damage.
func reseal(b []byte) []byte {
	if len(b) < cacheHeaderSize {
		return b
	}
	payload := b[cacheHeaderSize:]
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(payload, castagnoli))
	binary.LittleEndian.PutUint64(b[16:], uint64(len(payload)))
	return b
}

// TestDiskCacheDecoderRobust damages the payload behind a valid checksum:
// the decoder must never panic or over-allocate, and whatever it accepts
// must look up without panicking.
func TestDiskCacheDecoderRobust(t *testing.T) {
	_, good := savedFile(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		b := slices.Clone(good)
		switch i % 3 {
		case 0:
			b[cacheHeaderSize+rng.IntN(len(b)-cacheHeaderSize)] = byte(rng.Uint32())
		case 1:
			b = b[:cacheHeaderSize+rng.IntN(len(b)-cacheHeaderSize)]
		case 2:
			off := cacheHeaderSize + rng.IntN(len(b)-cacheHeaderSize)
			b = slices.Insert(b, off, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f)
		}
		decodeAll(reseal(b))
	}
}

func FuzzDiskCacheDecode(f *testing.F) {
	c := OpenDiskCache(filepath.Join(f.TempDir(), "files"), "/proj", testProducer)
	for i := range 3 {
		c.Put(fmt.Sprintf("f%d.go", i), oldStat(int64(i), uint64(i)), sampleRecord(i))
	}
	if err := c.Save(); err != nil {
		f.Fatal(err)
	}
	good, _ := os.ReadFile(c.File())
	f.Add(good[cacheHeaderSize:])
	f.Fuzz(func(t *testing.T, payload []byte) {
		b := append(slices.Clone(good[:cacheHeaderSize]), payload...)
		decodeAll(reseal(b))
	})
}

func decodeAll(b []byte) {
	c := &DiskCache{root: "/proj", producer: testProducer, entries: map[string]*cacheEntry{}}
	if c.decode(b) != nil {
		return
	}
	var entries []*cacheEntry
	for rel, e := range c.entries {
		c.Lookup(rel, e.stat)
		c.LookupIDs(rel, e.stat)
		entries = append(entries, e)
	}
	// Whatever survives must save into a file that loads.
	b, err := encodeCache(c.root, c.producer, 1, entries, c.strs)
	if err != nil {
		panic(err)
	}
	c2 := &DiskCache{root: "/proj", producer: testProducer, entries: map[string]*cacheEntry{}}
	if err := c2.decode(b); err != nil {
		panic(fmt.Sprintf("re-saved damaged cache does not load: %v", err))
	}
}

// TestDiskCacheConcurrentSave runs two processes that save the same cache
// file over and over while this one reads it: every read sees a complete
// file from one of them.
func TestDiskCacheConcurrentSave(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	file := filepath.Join(t.TempDir(), "files")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestDiskCacheSaverProcess$")
			cmd.Env = append(os.Environ(), "ZUMBA_TEST_SAVER="+file, "ZUMBA_TEST_SAVER_ID="+strconv.Itoa(w))
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[w] = fmt.Errorf("saver %d: %v\n%s", w, err, out)
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	reads := 0
	for loop := true; loop; {
		select {
		case <-done:
			loop = false
		default:
		}
		c := OpenDiskCache(file, "/proj", testProducer)
		if err := c.Discarded(); err != nil {
			t.Fatalf("read %d saw a damaged file: %v", reads, err)
		}
		if c.Len() > 0 {
			checkSaverContents(t, c)
		}
		reads++
	}
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	c := OpenDiskCache(file, "/proj", testProducer)
	if c.Discarded() != nil || c.Len() != 200 {
		t.Fatalf("final file: Discarded() = %v, Len() = %d; want 200 records", c.Discarded(), c.Len())
	}
	checkSaverContents(t, c)
	left, _ := filepath.Glob(file + ".*.tmp")
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	t.Logf("%d reads during the saves", reads)
}

// checkSaverContents checks that a file is wholly one saver's.
func checkSaverContents(t *testing.T, c *DiskCache) {
	t.Helper()
	var owner string
	for i := range 200 {
		rel := fmt.Sprintf("f%03d.go", i)
		rec, ok := c.Lookup(rel, oldSaverStat(i))
		if !ok {
			t.Fatalf("%s missing from a saved file", rel)
		}
		if owner == "" {
			owner = rec.Words[0]
		}
		if rec.Words[0] != owner {
			t.Fatalf("%s is from %s, the file's first record from %s: a mixed file", rel, rec.Words[0], owner)
		}
	}
}

func oldSaverStat(i int) FileStat {
	return FileStat{Size: int64(i), MTime: 1_600_000_000_000_000_000, Inode: uint64(i)}
}

// TestDiskCacheSaverProcess is the child of TestDiskCacheConcurrentSave.
func TestDiskCacheSaverProcess(t *testing.T) {
	file := os.Getenv("ZUMBA_TEST_SAVER")
	if file == "" {
		t.Skip("run by TestDiskCacheConcurrentSave")
	}
	id := os.Getenv("ZUMBA_TEST_SAVER_ID")
	for round := range 40 {
		c := OpenDiskCache(file, "/proj", testProducer)
		for i := range 200 {
			rec := sampleRecord(i)
			rec.Words = append([]string{"saver" + id}, strings.Repeat("w", round*10+i))
			c.Put(fmt.Sprintf("f%03d.go", i), oldSaverStat(i), rec)
		}
		if err := c.Save(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDiskCacheLookupIDs(t *testing.T) {
	c, file := newTestCache(t)
	c.Put("a.go", oldStat(1, 1), sampleRecord(1))
	c.Put("b.go", oldStat(2, 2), sampleRecord(2))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*DiskCache{c, OpenDiskCache(file, "/proj", testProducer)} {
		syms, ids, ok := c.LookupIDs("a.go", oldStat(1, 1))
		if !ok {
			t.Fatal("LookupIDs missed")
		}
		want := sampleRecord(1)
		if d := cmp.Diff(want.Definitions, syms); d != "" {
			t.Errorf("LookupIDs symbols (-want +got):\n%s", d)
		}
		var words []string
		for _, id := range ids {
			words = append(words, c.Word(id))
		}
		if d := cmp.Diff(want.Words, words); d != "" {
			t.Errorf("LookupIDs words (-want +got):\n%s", d)
		}
		// Shared words share ids across files.
		_, ids2, _ := c.LookupIDs("b.go", oldStat(2, 2))
		if ids[0] != ids2[0] || ids[2] != ids2[2] {
			t.Errorf("\"Rpc\" and \"err\" have ids %d,%d in a.go and %d,%d in b.go", ids[0], ids[2], ids2[0], ids2[2])
		}
		if _, _, ok := c.LookupIDs("a.go", oldStat(1, 2)); ok {
			t.Error("LookupIDs hit with a changed inode")
		}
	}
}

// TestDiskCacheCompacts checks that strings only replaced or deleted
// records used are not saved, and the renumbered records still read back.
func TestDiskCacheCompacts(t *testing.T) {
	c, file := newTestCache(t)
	big := func(tag string) CacheRecord {
		var rec CacheRecord
		for i := range 500 {
			rec.Words = append(rec.Words, fmt.Sprintf("%s_word_%d", tag, i))
		}
		rec.Definitions = []outline.Definition{{Name: tag, Qualified: []string{tag}, Kind: grammar.Function, Line: 1, Start: 1, End: 2}}
		return rec
	}
	c.Put("keep.go", oldStat(1, 1), sampleRecord(1))
	c.Put("gone.go", oldStat(2, 2), big("gone"))
	c.Put("changed.go", oldStat(3, 3), big("before"))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	fi1, _ := os.Stat(file)
	c = OpenDiskCache(file, "/proj", testProducer)
	c.Delete("gone.go")
	c.Put("changed.go", oldStat(4, 3), big("after"))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Stat(file)
	if fi2.Size() >= fi1.Size()*3/4 {
		t.Errorf("file grew from %d to %d bytes; unused strings were kept", fi1.Size(), fi2.Size())
	}
	c = OpenDiskCache(file, "/proj", testProducer)
	if len(c.strs) > 520 {
		t.Errorf("reloaded table has %d strings; want at most 520", len(c.strs))
	}
	mustLookup(t, c, "keep.go", oldStat(1, 1), sampleRecord(1))
	mustLookup(t, c, "changed.go", oldStat(4, 3), big("after"))
	if c.Len() != 2 {
		t.Errorf("Len() = %d; want 2", c.Len())
	}
}

// TestDiskCacheConcurrentUse is for the race detector: workers put and
// look up while another goroutine saves.
func TestDiskCacheConcurrentUse(t *testing.T) {
	c, file := newTestCache(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				rel := fmt.Sprintf("w%d/f%d.go", w, i%50)
				st := oldStat(int64(i), uint64(w))
				c.Put(rel, st, sampleRecord(i))
				if rec, ok := c.Lookup(rel, st); !ok || rec.Words[1] != "spawn"+strconv.Itoa(i) {
					t.Errorf("Lookup(%s) after Put = %v, %v", rel, rec, ok)
					return
				}
				if _, ids, ok := c.LookupIDs(rel, st); !ok || c.Word(ids[1]) != "spawn"+strconv.Itoa(i) {
					t.Errorf("LookupIDs(%s) after Put disagrees", rel)
					return
				}
				if i%7 == 0 {
					c.Delete(rel)
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 20 {
			if err := c.Save(); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	wg.Wait()
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c2 := OpenDiskCache(file, "/proj", testProducer)
	if c2.Discarded() != nil || c2.Len() != c.Len() {
		t.Errorf("reload: Discarded() = %v, Len() = %d; want %d", c2.Discarded(), c2.Len(), c.Len())
	}
}
