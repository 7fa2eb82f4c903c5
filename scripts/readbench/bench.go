package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// bench is the running sums of the tasks.
type bench struct {
	c      *client
	root   string
	lang   string
	files  map[string][]byte
	rounds int

	grepFile, grep100, zumba3, read, own, places int
	present, second, variants                    int
	single, singleRead, singleOwn                int
	lat, symLat                                  []time.Duration
}

// task reads definition d five ways and adds up what each costs.
func (b *bench) task(i int, d def, verbose bool) {
	src := b.files[d.path]
	if src == nil {
		var err error
		if src, err = os.ReadFile(filepath.Join(b.root, d.path)); err != nil {
			fatal(err)
		}
	}
	lines := splitLines(src)
	g := grepBytes(b.files, d, b.lang)
	own := linesBytes(lines, d.start, d.end)
	b.grepFile += g + len(src)
	b.grep100 += g + linesBytes(lines, d.line, d.line+99)

	sym, _, err := b.c.tool("find_symbol", d.query)
	if err != nil {
		fatal(err)
	}
	out, _, err := b.c.tool("outline", d.path)
	if err != nil {
		fatal(err)
	}
	b.zumba3 += len(sym) + len(out) + linesBytes(lines, d.line, outlineEnd(out, d.line, len(lines)))

	answer := b.timedReads(d)
	ok := b.complete(&answer, d, lines)
	if ok {
		b.present++
	}
	b.read += len(answer)
	b.places += placeBytes(answer)
	b.own += own
	if oneDefinition(answer) {
		b.single++
		b.singleRead += len(answer)
		b.singleOwn += own
	}
	if verbose {
		fmt.Fprintf(os.Stderr, "%3d %-60s %s:%d-%d own %d read_symbol %d last line %v\n", i, d.query, d.path, d.start, d.end, own, len(answer), ok)
	}
}

// timedReads calls read_symbol (and find_symbol, for comparison) rounds
// times for d, timing them, and returns read_symbol's answer.
func (b *bench) timedReads(d def) string {
	var answer string
	for r := range max(b.rounds, 1) {
		t0 := time.Now()
		text, isErr, err := b.c.tool("read_symbol", d.query)
		el := time.Since(t0)
		if err != nil {
			// A zumba without read_symbol: the other columns still count.
			fmt.Fprintf(os.Stderr, "readbench: %v\n", err)
			break
		}
		if isErr {
			fmt.Fprintf(os.Stderr, "readbench: read_symbol %s: %s\n", d.query, text)
		}
		if r > 0 || b.rounds <= 1 {
			b.lat = append(b.lat, el)
		}
		answer = text
		t0 = time.Now()
		if _, _, err := b.c.tool("find_symbol", d.query); err == nil && (r > 0 || b.rounds <= 1) {
			b.symLat = append(b.symLat, time.Since(t0))
		}
	}
	return answer
}

// complete reports whether answer shows d's last line; when d is only
// listed, the agent reads it by the PATH:LINE the answer gives, and that
// second answer is added to answer.
func (b *bench) complete(answer *string, d def, lines [][]byte) bool {
	if holdsLine(*answer, d.path, d.end, lines) {
		return true
	}
	// Listed as having the same text as a body shown: the agent has read
	// its lines there.
	if p, end, found := sameTextAs(*answer, d.path, d.line); found {
		if src, err := readTreeFile(b.files, b.root, p); err == nil && holdsLine(*answer, p, end, splitLines(src)) {
			return true
		}
	}
	listed := strings.Contains(*answer, fmt.Sprintf("%s:%d ", d.path, d.line))
	if !listed {
		// A build variant of the definition (the same name in another
		// file of its Go package) is shown, with a line naming up to 3 of
		// the others: the agent asked for the name and has its body. When
		// that line names this file, it reads it by PATH:LINE.
		named, ok := variantLine(*answer, d.path, d.line)
		if !ok {
			return false
		}
		if !named {
			b.variants++
			return true
		}
	}
	again, _, err := b.c.tool("read_symbol", fmt.Sprintf("%s:%d", d.path, d.line))
	if err != nil {
		return false
	}
	*answer += "\n" + again
	b.second++
	return holdsLine(again, d.path, d.end, lines)
}

// report prints the sums per task and as ratios to grep and a whole file.
func (b *bench) report(tasks, defs int, seed uint64) {
	k := float64(tasks)
	per := func(v int) string {
		return fmt.Sprintf("%9.0f %6.3f", float64(v)/k, float64(v)/float64(b.grepFile))
	}
	q := func(lat []time.Duration, p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		slices.Sort(lat)
		return lat[min(len(lat)-1, int(p*float64(len(lat))+0.999999)-1)]
	}
	fmt.Printf("%s: %d tasks of %d definitions, seed %d; bytes per task (ratio to grep+file)\n", b.root, tasks, defs, seed)
	fmt.Printf("  %-30s %s\n", "grep + whole file", per(b.grepFile))
	fmt.Printf("  %-30s %s\n", "grep + 100-line read", per(b.grep100))
	fmt.Printf("  %-30s %s\n", "find_symbol + outline + read", per(b.zumba3))
	fmt.Printf("  %-30s %s\n", "read_symbol", per(b.read))
	fmt.Printf("  %-30s %s\n", "the definition's own lines", per(b.own))
	fmt.Printf("  read_symbol / own lines, summed: %.3f (target <= 1.2)\n", float64(b.read)/float64(max(b.own, 1)))
	fmt.Printf("  of read_symbol's bytes, lines listing other definitions (PATH:LINE KIND NAME, and how to narrow): %.0f per task; read_symbol without them / own lines: %.3f\n",
		float64(b.places)/k, float64(b.read-b.places)/float64(max(b.own, 1)))
	fmt.Printf("  read_symbol / own lines, names with one definition (%d tasks): %.3f\n", b.single, float64(b.singleRead)/float64(max(b.singleOwn, 1)))
	fmt.Printf("  last line present: %d/%d (%.1f%%, target >= 99%%); %d tasks needed a second call by PATH:LINE (counted above); %d were answered by another build variant's body\n",
		b.present, tasks, 100*float64(b.present)/k, b.second, b.variants)
	fmt.Printf("  read_symbol latency over %d calls: median %.2f ms, p99 %.2f ms (targets 2 ms, 20 ms)\n",
		len(b.lat), ms(q(b.lat, 0.5)), ms(q(b.lat, 0.99)))
	fmt.Printf("  find_symbol latency, same names, same server: median %.2f ms, p99 %.2f ms\n",
		ms(q(b.symLat, 0.5)), ms(q(b.symLat, 0.99)))
}

// cpuPerCall prints the server's CPU time per read_symbol call, which the
// machine's load does not inflate as it does the wall time: the tasks
// again, read_symbol only, rounds times.
func cpuPerCall(c *client, tasks []def, rounds int) {
	cpu0, ok0 := c.cpu()
	calls := 0
	for range max(rounds, 1) {
		for _, d := range tasks {
			if _, _, err := c.tool("read_symbol", d.query); err != nil {
				fatal(err)
			}
			calls++
		}
	}
	if cpu1, ok1 := c.cpu(); ok0 && ok1 {
		fmt.Printf("  server CPU time per read_symbol call over %d calls: %.2f ms (user+system, /proc)\n", calls, ms(cpu1-cpu0)/float64(calls))
	}
}

// variantsLine matches read_symbol's line for the build variants of a
// shown body: "+ N variants in DIR/ (FILE:LINE, …)".
var variantsLine = regexp.MustCompile(`^\+ \d+ variants? in (.+)/ \((.*)\)$`)

// variantLine reports whether answer has a variants line for the folder
// of path (ok), and whether it names path's line (named).
func variantLine(answer, p string, line int) (named, ok bool) {
	dir, base := path.Dir(p), path.Base(p)
	for _, l := range strings.Split(answer, "\n") {
		m := variantsLine.FindStringSubmatch(l)
		if m == nil || m[1] != dir {
			continue
		}
		return slices.Contains(strings.Split(m[2], ", "), fmt.Sprintf("%s:%d", base, line)), true
	}
	return false, false
}
