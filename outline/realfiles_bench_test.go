//go:build unix

package outline

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/zumba-dev/zumba/grammar"
)

// benchFile is one real file of a benchmark sample.
type benchFile struct {
	path string
	src  []byte
}

// benchTrees are the real sources BenchmarkOutlineCost samples per
// language, each skipped when absent: kernel C (ZUMBA_BENCH_C, default the
// Linux tree this project is measured on), libstdc++'s headers for C++,
// Python's standard library, and a pinned npm package's TypeScript
// sources (packed with npm into the tsdiff cache on first use).
var benchTrees = []struct {
	lang, env string
	dirs      func() []string
}{
	{"c", "ZUMBA_BENCH_C", func() []string { return []string{"/work/linux/linux-source-6.12"} }},
	{"cpp", "ZUMBA_BENCH_CPP", func() []string {
		dirs, _ := filepath.Glob("/usr/include/c++/*/bits")
		return dirs
	}},
	{"python", "ZUMBA_BENCH_PYTHON", func() []string {
		out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
		if err != nil {
			return nil
		}
		return []string{strings.TrimSpace(string(out))}
	}},
	{"typescript", "ZUMBA_BENCH_TS", func() []string { return []string{packForBench("rxjs@7.8.1", "rxjs-7.8.1")} }},
}

// maxBenchFiles and maxBenchBytes bound a sample: files are taken evenly
// from the sorted list of the tree's files of that language (at most
// 512 KB each, as the index), until either bound.
const (
	maxBenchFiles = 150
	maxBenchBytes = 4 << 20
)

// BenchmarkOutlineCost compares, per language on real files, tree-sitter's
// own parse of each file (a pooled parser, the file's bytes as they are)
// with the whole definitions path the index takes (Parse, then
// Definitions). It reports both speeds and their ratio, the cost of an
// outline per byte in parses:
//
//	go test -run '^$' -bench OutlineCost -benchtime 3x ./outline
//
// The speeds and x-parse are per second of the process's CPU time (user
// and system, garbage collection included), which other processes on a
// loaded machine do not stretch as they do wall time; x-parse-wall is the
// ratio of wall times. The two parts alternate file by file, so that a
// change in the machine's load weighs on both alike, and each goes first
// for half of the files.
func BenchmarkOutlineCost(b *testing.B) {
	for _, tree := range benchTrees {
		lang := grammar.ByName(tree.lang)
		dirs := tree.dirs()
		if v := os.Getenv(tree.env); v != "" {
			dirs = []string{v}
		}
		files := sampleFiles(lang, dirs)
		if len(files) == 0 {
			b.Logf("%s: no files (set %s to a source tree)", tree.lang, tree.env)
			continue
		}
		var size int64
		for _, f := range files {
			size += int64(len(f.src))
		}
		b.Run(tree.lang, func(b *testing.B) {
			ctx := context.Background()
			p := sitter.NewParser()
			defer p.Close()
			p.SetLanguage(lang.Sitter())
			var parse, outline, parseWall, outlineWall time.Duration
			b.SetBytes(size)
			parseOne := func(f benchFile) {
				start, startWall := processCPU(), time.Now()
				t, err := p.ParseCtx(ctx, nil, f.src)
				if err != nil {
					b.Fatalf("parse %s: %v", f.path, err)
				}
				t.Close()
				parse += processCPU() - start
				parseWall += time.Since(startWall)
			}
			outlineOne := func(f benchFile) {
				start, startWall := processCPU(), time.Now()
				o, err := Parse(ctx, lang, f.src)
				if err != nil {
					b.Fatalf("outline %s: %v", f.path, err)
				}
				o.Definitions("")
				outline += processCPU() - start
				outlineWall += time.Since(startWall)
			}
			n := 0
			for b.Loop() {
				for _, f := range files {
					// The second to read a file finds it, and the memory
					// the first freed, in the caches: each goes first
					// half of the time.
					if n++; n%2 == 0 {
						parseOne(f)
						outlineOne(f)
					} else {
						outlineOne(f)
						parseOne(f)
					}
				}
			}
			mbs := func(d time.Duration) float64 { return float64(size) * float64(b.N) / d.Seconds() / 1e6 }
			b.ReportMetric(float64(len(files)), "files")
			b.ReportMetric(mbs(parse), "parse-MB/s")
			b.ReportMetric(mbs(outline), "outline-MB/s")
			b.ReportMetric(outline.Seconds()/parse.Seconds(), "x-parse")
			b.ReportMetric(outlineWall.Seconds()/parseWall.Seconds(), "x-parse-wall")
		})
	}
}

// processCPU is the CPU time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sampleFiles reads up to maxBenchFiles files of lang under dirs, taken
// evenly from their sorted list.
func sampleFiles(lang *grammar.Language, dirs []string) []benchFile {
	var paths []string
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.Type().IsRegular() && grammar.ForPath(p, nil) != nil && grammar.ForPath(p, nil).Name == lang.Name || strings.HasSuffix(p, ".h") && lang.Name == "cpp" {
				paths = append(paths, p)
			}
			return nil
		})
	}
	slices.Sort(paths)
	var files []benchFile
	var total int
	step := max(len(paths)/maxBenchFiles, 1)
	for i := 0; i < len(paths) && len(files) < maxBenchFiles && total < maxBenchBytes; i += step {
		src, err := os.ReadFile(paths[i])
		if err != nil || len(src) > 512<<10 || grammar.ForPath(paths[i], src) != lang {
			continue
		}
		files = append(files, benchFile{paths[i], src})
		total += len(src)
	}
	return files
}

// packForBench unpacks the npm package spec into the tsdiff cache (shared
// with scripts/tsdiff) and returns its folder, or "" without npm.
func packForBench(spec, name string) string {
	// go test runs in the package's folder (with or without -trimpath,
	// which would leave runtime.Caller no folder to go by).
	cache := filepath.Join("..", "scripts", ".cache", "tsdiff")
	dir := filepath.Join(cache, name)
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return ""
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return ""
	}
	cmd := exec.Command("npm", "pack", spec, "--silent")
	cmd.Dir = cache
	if err := cmd.Run(); err != nil {
		return ""
	}
	if err := os.MkdirAll(dir+".tmp", 0o755); err != nil {
		return ""
	}
	if err := exec.Command("tar", "-xzf", filepath.Join(cache, name+".tgz"), "-C", dir+".tmp").Run(); err != nil {
		os.RemoveAll(dir + ".tmp")
		return ""
	}
	if err := os.Rename(dir+".tmp", dir); err != nil {
		return ""
	}
	return dir
}
