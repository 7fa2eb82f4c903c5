// Command agentbench replays everyday agent questions over two pinned
// projects twice: through zumba's CLI twins of the MCP tools, and through
// rg plus 100-line reads, the way an agent without zumba works. It counts
// the bytes of every output the agent reads and the calls it makes, and
// prints a row per question and the totals. Figures, not pass/fail; run it
// through scripts/agent_bench.sh, which builds zumba and fetches the
// projects.
//
// How the questions were chosen: before looking at any answer, a list of
// what an agent asks when it starts in an unfamiliar codebase or is in the
// middle of a change (where is X and what does it do, what does type T
// have, who calls F, show me X.Y, what is in this file, where is N used in
// code, a few examples of a call), about ten per project, on names central
// to each project (the ones its README and entry points mention) plus a few
// helpers an edit would touch. Each question has two recipes written as an
// agent would type them. The grep recipe uses the pattern an agent would
// plausibly type (`rg -n` with -w, a `func`/`export function` prefix when
// looking for a definition, `| head` for "a few examples") and then one
// 100-line read (`sed -n 'L,L+99p' FILE`) per file it must look at, starting
// at the hit (75 lines above it when the enclosing function is the
// question). The read is repeated from where it stopped when the answer runs
// past it. Both recipes must contain the answer: each question lists strings
// that both outputs must hold, so a wrong or cut answer fails loudly
// instead of counting as cheap.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A question is one thing an agent wants to know, with its two recipes.
// Each step is a shell command run in the project's folder (a leading
// "zumba" is the binary given by -zumba); the bytes it prints, stdout and stderr, are what the agent reads.
type question struct {
	proj  string   // "go", "goedit" (go with an edit) or "ts"
	ask   string   // the question, short
	want  []string // what the answer must show, in both recipes' output
	zumba []string // the zumba recipe
	grep  []string // the rg + sed recipe
}

// cost is what one recipe took.
type cost struct {
	bytes, calls int
}

func main() {
	zumba := flag.String("zumba", "", "the zumba binary")
	goDir := flag.String("go", "", "the Go project (spf13/cobra v1.8.1)")
	editDir := flag.String("goedit", "", "a git repository of the Go project with one uncommitted edit (see agent_bench.sh)")
	tsDir := flag.String("ts", "", "the TypeScript project (rxjs 7.8.1's src/)")
	verbose := flag.Bool("v", false, "print every command's output to stderr")
	flag.Parse()
	if *zumba == "" || *goDir == "" || *tsDir == "" || *editDir == "" {
		fmt.Fprintln(os.Stderr, "usage: agentbench -zumba BIN -go DIR -goedit DIR -ts DIR [-v]")
		os.Exit(2)
	}
	bin, err := filepath.Abs(*zumba)
	if err != nil {
		fatal(err)
	}
	dirs := map[string]string{"go": *goDir, "goedit": *editDir, "ts": *tsDir}
	failed := 0
	tot := [2]map[string]cost{{}, {}}
	fmt.Printf("%-3s %-4s %-58s %7s %5s %7s %5s %6s\n", "#", "proj", "question", "zumba B", "calls", "grep B", "calls", "ratio")
	for i, q := range questions {
		z, zout := run(q.zumba, dirs[q.proj], bin, *verbose)
		g, gout := run(q.grep, dirs[q.proj], bin, *verbose)
		mark := ""
		for _, w := range q.want {
			if !strings.Contains(zout, w) {
				fmt.Fprintf(os.Stderr, "question %d: zumba's answer lacks %q\n", i+1, w)
				mark = " WRONG"
			}
			if !strings.Contains(gout, w) {
				fmt.Fprintf(os.Stderr, "question %d: grep's answer lacks %q\n", i+1, w)
				mark = " WRONG"
			}
		}
		if mark != "" {
			failed++
		}
		fmt.Printf("%-3d %-4s %-58s %7d %5d %7d %5d %6.2f%s\n", i+1, q.proj, clip(q.ask, 58),
			z.bytes, z.calls, g.bytes, g.calls, float64(z.bytes)/float64(g.bytes), mark)
		for _, k := range []string{strings.TrimSuffix(q.proj, "edit"), "all"} {
			tot[0][k] = add(tot[0][k], z)
			tot[1][k] = add(tot[1][k], g)
		}
	}
	for _, k := range []string{"go", "ts", "all"} {
		z, g := tot[0][k], tot[1][k]
		fmt.Printf("%-3s %-4s %-58s %7d %5d %7d %5d %6.2f\n", "", k, "total", z.bytes, z.calls, g.bytes, g.calls,
			float64(z.bytes)/float64(g.bytes))
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "%d questions answered wrong (see above)\n", failed)
		os.Exit(1)
	}
}

func add(a, b cost) cost { return cost{a.bytes + b.bytes, a.calls + b.calls} }

// run runs a recipe's steps in dir and returns their cost and the text
// they printed, all of it.
func run(steps []string, dir, zumba string, verbose bool) (cost, string) {
	var c cost
	var all strings.Builder
	for _, s := range steps {
		line := s
		if rest, ok := strings.CutPrefix(s, "zumba "); ok {
			line = "'" + zumba + "' " + rest
		}
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout = &out
		cmd.Stderr = &out
		// rg exits 1 when nothing matched, and zumba 1 on "not found": the
		// text is the answer either way; the want check catches a miss.
		if err := cmd.Run(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				fatal(err)
			}
		}
		if verbose {
			fmt.Fprintf(os.Stderr, "$ %s   (%d bytes)\n%s\n", s, out.Len(), out.String())
		}
		c.bytes += out.Len()
		c.calls++
		all.Write(out.Bytes())
	}
	return c, all.String()
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "agentbench:", err)
	os.Exit(2)
}
