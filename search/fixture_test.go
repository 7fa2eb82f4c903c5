package search

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the expected outputs in testdata/search")

const fixtureDir = "../testdata/search"

// unpack writes the archive's project files into dir/project (sections
// whose names start with "$ " are commands, not files) and runs the
// comment's setup lines. It returns the project folder.
//
// File names: a Go string literal ("name ") is unquoted, for names that
// end in spaces; "gitignore" becomes ".gitignore" at any depth, and "git/"
// at the start becomes ".git/", so no real ignore file is committed under
// testdata; "../" reaches outside the project, for links that leave it.
//
// Setup lines in the comment start with "> "; other lines are prose:
//
//	crlf FILE               rewrite FILE's line ends as CRLF
//	big FILE SIZE TEXT      FILE is TEXT then spaces up to SIZE bytes
//	binary FILE TEXT        FILE is TEXT, a NUL byte, TEXT
//	symlink LINK TARGET     a symbolic link
//	repeat FILE N TEXT      N lines of TEXT (%d is the line's number); a
//	                        %d in FILE makes N files of one line instead
//	unreadable FILE         chmod 000 (skipped when running as root)
//	fifo FILE               a named pipe (the test is skipped where there
//	                        are none)
//	fanout DIR LEVELS LINKS DIR/l0 … DIR/lLEVELS-1 are folders, each with
//	                        one file and LINKS links to the next level
//
// A symlink TARGET starting with "$PROJECT/" is made absolute.
func unpack(t *testing.T, a *txtar.Archive) string {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range a.Files {
		if strings.HasPrefix(f.Name, "$ ") {
			continue
		}
		write(fixtureName(f.Name), f.Data)
	}
	for _, line := range strings.Split(string(a.Comment), "\n") {
		line, ok := strings.CutPrefix(line, "> ")
		if !ok {
			continue
		}
		fields := strings.Fields(line)
		rest := func(n int) string {
			s := strings.TrimSpace(line)
			for range n {
				s = strings.TrimSpace(s[strings.IndexAny(s, " \t"):])
			}
			return strings.ReplaceAll(s, `\n`, "\n")
		}
		switch fields[0] {
		case "crlf":
			p := filepath.Join(dir, fixtureName(fields[1]))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b = bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		case "big":
			size, _ := strconv.Atoi(fields[2])
			b := []byte(rest(3) + "\n")
			b = append(b, bytes.Repeat([]byte(" "), size-len(b))...)
			write(fields[1], b)
		case "binary":
			text := rest(2)
			write(fields[1], []byte(text+"\n\x00\n"+text+"\n"))
		case "symlink":
			p := filepath.Join(dir, fixtureName(fields[1]))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			target := fields[2]
			if rest, ok := strings.CutPrefix(target, "$PROJECT/"); ok {
				target = filepath.Join(dir, filepath.FromSlash(rest))
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		case "repeat":
			n, _ := strconv.Atoi(fields[2])
			text := rest(3)
			if strings.Contains(fields[1], "%d") {
				for i := 1; i <= n; i++ {
					write(fmt.Sprintf(fields[1], i), []byte(strings.ReplaceAll(text, "%d", strconv.Itoa(i))+"\n"))
				}
				continue
			}
			var b strings.Builder
			for i := 1; i <= n; i++ {
				b.WriteString(strings.ReplaceAll(text, "%d", strconv.Itoa(i)) + "\n")
			}
			write(fields[1], []byte(b.String()))
		case "fifo":
			p := filepath.Join(dir, fixtureName(fields[1]))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			mkfifo(t, p)
		case "fanout":
			levels, _ := strconv.Atoi(fields[2])
			links, _ := strconv.Atoi(fields[3])
			for l := range levels {
				level := fmt.Sprintf("%s/l%d", fields[1], l)
				write(fmt.Sprintf("%s/f%d.txt", level, l), []byte(fmt.Sprintf("Fan out level %d\n", l)))
				if l == levels-1 {
					continue
				}
				for k := range links {
					if err := os.Symlink(fmt.Sprintf("../l%d", l+1), filepath.Join(dir, filepath.FromSlash(fmt.Sprintf("%s/link%d", level, k)))); err != nil {
						t.Fatal(err)
					}
				}
			}
		case "unreadable":
			if err := os.Chmod(filepath.Join(dir, fields[1]), 0); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("unknown setup line %q", line)
		}
	}
	return dir
}

func fixtureName(name string) string {
	if u, err := strconv.Unquote(name); err == nil && strings.HasPrefix(name, `"`) {
		// txtar trims a section name's spaces: a name that needs them
		// is written as a Go string literal.
		name = u
	}
	if rest, ok := strings.CutPrefix(name, "git/"); ok {
		name = ".git/" + rest
	}
	parts := strings.Split(name, "/")
	if parts[len(parts)-1] == "gitignore" {
		parts[len(parts)-1] = ".gitignore"
	}
	return filepath.FromSlash(strings.Join(parts, "/"))
}

// TestFixtures runs the commands of every archive in testdata/search and
// compares their output with the section's text:
//
//	-- $ walk --              the files the walk lists, one per line
//	-- $ refs NAME [GLOBS] -- find_references (GLOBS: the rest of the line)
//	-- $ symbol NAME --       find_symbol
//
// NAME may be a Go string literal ("  \t"), for names with spaces.
//
// An error answer is written as "error: MESSAGE". -update rewrites them.
func TestFixtures(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(fixtureDir, "*.txtar"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	for _, file := range names {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := unpack(t, a)
			root, err := OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			// Answers must not depend on the machine's load.
			root.SymbolTimeLimit = time.Hour
			changed := false
			for i := range a.Files {
				f := &a.Files[i]
				cmdline, ok := strings.CutPrefix(f.Name, "$ ")
				if !ok {
					continue
				}
				got := runCommand(t, root, cmdline) + "\n"
				if got == string(f.Data) {
					continue
				}
				if *update {
					f.Data, changed = []byte(got), true
					continue
				}
				t.Errorf("%s:\n%s (-want +got)\n%s", file, cmdline, cmp.Diff(string(f.Data), got))
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// commandTimeout is how long a fixture's command may take: a command that
// blocks (on a named pipe, say) fails the test instead of hanging it.
const commandTimeout = 30 * time.Second

func runCommand(t *testing.T, root *Root, cmdline string) string {
	t.Helper()
	cmd, args, _ := strings.Cut(cmdline, " ")
	var name, rest string
	if cmd == "refs" || cmd == "symbol" {
		name, rest = fixtureName1(t, args)
	}
	out := make(chan string, 1)
	go func() { out <- command(root, cmd, name, rest) }()
	select {
	case s := <-out:
		return s
	case <-time.After(commandTimeout):
		t.Fatalf("%s: no answer in %v", cmdline, commandTimeout)
		return ""
	}
}

// command runs one fixture command, whose name argument and the rest of
// its line are already split.
func command(root *Root, cmd, name, rest string) string {
	ctx := context.Background()
	var (
		text string
		err  error
	)
	switch cmd {
	case "walk":
		files, werr := root.Walk(ctx)
		if werr != nil {
			return "walk failed: " + werr.Error()
		}
		var lines []string
		for _, e := range files {
			if _, cerr := root.Contents(e, nil); cerr != nil {
				lines = append(lines, e.Path+" (skipped: binary)")
				continue
			}
			lines = append(lines, e.Path)
		}
		text = strings.Join(lines, "\n")
	case "refs":
		text, err = refsAnswer(ctx, root, name, rest)
	case "symbol":
		text, err = symbolAnswer(ctx, root, name)
	default:
		return fmt.Sprintf("unknown command %q", cmd)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return text
}

// fixtureName1 splits a command's arguments into the name (a Go string
// literal when it starts with a quote, else up to the first space) and
// the rest.
func fixtureName1(t *testing.T, args string) (name, rest string) {
	t.Helper()
	if strings.HasPrefix(args, `"`) {
		lit, err := strconv.QuotedPrefix(args)
		if err != nil {
			t.Fatalf("bad quoted name in %q: %v", args, err)
		}
		name, _ = strconv.Unquote(lit)
		return name, strings.TrimPrefix(args[len(lit):], " ")
	}
	name, rest, _ = strings.Cut(args, " ")
	return name, rest
}

// TestFixturesIndexed runs the find_symbol and find_references commands
// of every archive in testdata/search through a built index: its answers
// must be the same as the search's without it.
func TestFixturesIndexed(t *testing.T) {
	names, err := filepath.Glob(filepath.Join(fixtureDir, "*.txtar"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in %s: %v", fixtureDir, err)
	}
	ctx := context.Background()
	for _, file := range names {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ix, _, _ := testIndex(t, unpack(t, a), "-", true)
			for _, f := range a.Files {
				cmdline, ok := strings.CutPrefix(f.Name, "$ ")
				if !ok {
					continue
				}
				cmd, args, _ := strings.Cut(cmdline, " ")
				var text string
				switch cmd {
				case "refs":
					name, globs := fixtureName1(t, args)
					text, err = refsAnswer(ctx, ix, name, globs)
				case "symbol":
					name, _ := fixtureName1(t, args)
					text, err = symbolAnswer(ctx, ix, name)
				default:
					continue
				}
				if err != nil {
					text = "error: " + err.Error()
				}
				if got := text + "\n"; got != string(f.Data) {
					t.Errorf("%s: %s from the index (-want +got)\n%s", file, cmdline, cmp.Diff(string(f.Data), got))
				}
			}
		})
	}
}
