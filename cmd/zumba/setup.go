package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/zumba-dev/zumba/internal/clientconf"
)

const setupUsage = "usage: zumba setup [--client NAME]... [--project] [--dry-run] [DIR]"

func runSetup(args []string) int {
	return setup(os.Stdout, args)
}

// setup registers zumba with the MCP clients installed for this user (or
// those --client names), and with --project writes the guidance block in
// DIR's AGENTS.md (and CLAUDE.md when there is one). Each file is changed
// or not on its own: one that cannot be read or written is named with
// why, left as it is, and makes the exit code 1.
func setup(w io.Writer, args []string) int {
	fs := newFlagSet("setup")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError("setup: " + err.Error() + "; " + setupUsage)
	}
	if len(pos) > 1 {
		return usageError("setup takes at most one project folder; " + setupUsage)
	}
	dryRun, project := on(fs, "dry-run"), ""
	if len(pos) == 1 {
		if project, err = filepath.Abs(pos[0]); err != nil {
			return failure(err)
		}
		if info, err := os.Stat(project); err != nil || !info.IsDir() {
			return usageError(fmt.Sprintf("setup: %s is not a folder", pos[0]))
		}
	}
	server, err := serverCommand()
	if err != nil {
		return failure(err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return failure(err)
	}
	configDir, err := os.UserConfigDir()
	if err != nil {
		return failure(err)
	}
	xdgConfig := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(xdgConfig) {
		xdgConfig = filepath.Join(home, ".config")
	}
	all := clientconf.Clients(home, configDir, xdgConfig)
	var names []string
	for _, v := range list(fs, "client") {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	clients, err := clientconf.Select(all, names)
	if err != nil {
		return usageError("setup: " + err.Error())
	}
	s := setupRun{w: w, dryRun: dryRun}
	if len(clients) == 0 {
		fmt.Fprintf(w, "No MCP client found for this user (looked for %s); name one with --client.\n", strings.Join(clientconf.Names(all), ", "))
		s.failed = !on(fs, "project")
	}
	for _, c := range clients {
		if c.Program != "" {
			s.program(c, server, project)
			continue
		}
		s.edit(c.Title, func() (clientconf.File, []byte, bool, string, error) {
			e, err := clientconf.Plan(c, server, project)
			return e.File, e.New, e.Changed, "the server zumba (" + strings.Join(e.Args, " ") + ")", err
		})
	}
	if on(fs, "project") {
		dir := project
		if dir == "" {
			if dir, err = os.Getwd(); err != nil {
				return failure(err)
			}
		}
		s.block(dir, "AGENTS.md", true)
		s.block(dir, "CLAUDE.md", false)
	}
	if dryRun {
		fmt.Fprintln(w, "Dry run: nothing was written.")
	}
	if s.failed {
		return 1
	}
	return 0
}

// npmPackage is the npm package whose launcher runs zumba (npm/).
const npmPackage = "zumba-mcp"

// serverCommand is how a client starts this zumba: its absolute path, or,
// when it runs from npx's cache (npx -y zumba-mcp setup), which npm may
// empty at any time, npx with the package.
func serverCommand() ([]string, error) {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot find zumba's own path: %v", err)
	}
	return serverFor(self), nil
}

// serverFor is serverCommand for the binary at path.
func serverFor(path string) []string {
	sep := string(filepath.Separator)
	if strings.Contains(path, sep+"_npx"+sep) {
		return []string{"npx", "-y", npmPackage}
	}
	return []string{path}
}

// setupRun prints what setup does, file by file.
type setupRun struct {
	w      io.Writer
	dryRun bool
	failed bool
}

// testBeforeWrite, when a test sets it, runs between each plan and its
// write (where another program may change the file).
var testBeforeWrite func(path string)

func (s *setupRun) fail(what string, err error) {
	fmt.Fprintf(s.w, "%s: %v\n", what, err)
	s.failed = true
}

// editTries bounds how many times one file is read and edited again
// when another program keeps changing it under setup.
const editTries = 3

// edit plans one file's change and writes it (or, in a dry run, shows
// its diff). plan reads the file and returns it, its new bytes, whether
// they differ, and what the change sets; when another program changes
// the file between plan and write, plan runs again, up to editTries.
func (s *setupRun) edit(what string, plan func() (f clientconf.File, data []byte, changed bool, entry string, err error)) {
	var skip *clientconf.NeedsProject
	for try := 1; ; try++ {
		f, data, changed, set, err := plan()
		switch {
		case errors.As(err, &skip):
			fmt.Fprintf(s.w, "%s: %v\n", what, err)
			return
		case err != nil:
			s.fail(what, err)
			return
		case !changed:
			fmt.Fprintf(s.w, "%s: %s already has %s; nothing changed.\n", what, f.Path, set)
			return
		case s.dryRun:
			fmt.Fprintf(s.w, "%s: would set %s in %s:\n%s", what, set, f.Path, clientconf.Diff(f.Path, f.Data, data))
			return
		}
		if testBeforeWrite != nil {
			testBeforeWrite(f.Path)
		}
		backup, err := f.Write(data)
		switch {
		case errors.Is(err, clientconf.ErrChanged) && try < editTries:
			continue
		case errors.Is(err, clientconf.ErrChanged):
			s.fail(what, fmt.Errorf("%v; run zumba setup again when nothing else is writing it", err))
		case err != nil:
			s.fail(what, err)
		case backup != "":
			fmt.Fprintf(s.w, "%s: set %s in %s (the old file is %s).\n", what, set, f.Path, backup)
		default:
			fmt.Fprintf(s.w, "%s: set %s in %s, a new file.\n", what, set, f.Path)
		}
		return
	}
}

// block writes zumba's guidance block in an agents' file of the project
// dir: AGENTS.md always, CLAUDE.md only when it exists. A file that is
// a link is edited where it leads, inside the project only.
func (s *setupRun) block(dir, name string, create bool) {
	path := filepath.Join(dir, name)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) && !create {
		return
	}
	s.edit(name, func() (clientconf.File, []byte, bool, string, error) {
		const set = "zumba's guidance block"
		f, err := clientconf.ReadProjectFile(dir, path)
		if err != nil {
			return f, nil, false, set, err
		}
		data, changed, err := clientconf.Block(f.Data)
		if err != nil {
			return f, nil, false, set, fmt.Errorf("%s: %v", path, err)
		}
		return f, data, changed, set, nil
	})
}

// programWait bounds how long setup waits for a client's own command.
const programWait = 30 * time.Second

// programOutput bounds what setup keeps of that command's output.
const programOutput = 64 << 10

// program registers zumba with a client that does it by its own command
// (Zuno: zuno mcp add, in its global layer; zumba writes no zuno.json,
// and never a project's, which Zuno refuses to take a command from). It
// runs the command when the client is on the PATH, with a fixed argument
// list and no shell, and prints what it said; otherwise it prints the
// command and the entry to add by hand. A client that refuses because it
// has a zumba entry already is told how to change that entry by hand.
func (s *setupRun) program(c clientconf.Client, server []string, project string) {
	line, err := clientconf.Command(c, server, project)
	if err != nil {
		s.fail(c.Title, err)
		return
	}
	args := clientconf.ZunoAdd(line)
	shown := shellJoin(append([]string{c.Program}, args...))
	entry := clientconf.ZunoEntry(line)
	byHand := fmt.Sprintf("the entry of the global zuno.json (not a project's zuno.json: Zuno refuses a server command a project declares):\n%s", indent(entry))
	path, err := exec.LookPath(c.Program)
	if err != nil {
		fmt.Fprintf(s.w, "%s: %s is not on the PATH; register zumba with\n    %s\nor write %s", c.Title, c.Program, shown, byHand)
		return
	}
	if s.dryRun {
		fmt.Fprintf(s.w, "%s: would run %s\n", c.Title, shown)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), programWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	out := &boundedBuffer{max: programOutput}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	said := strings.TrimSpace(out.String())
	if said == "" {
		said = "(nothing)"
	}
	switch {
	case err == nil:
		fmt.Fprintf(s.w, "%s: ran %s; it said:\n%s%s waits 5000 ms for a call when the entry sets no \"timeout\" (zumba answers within it); for room on a slow machine, add \"timeout\": %d to zumba's entry in the global zuno.json.\n",
			c.Title, shown, indent(said), c.Title, clientconf.ZunoTimeout)
	case alreadyThere.MatchString(said):
		fmt.Fprintf(s.w, "%s: ran %s; it refused:\n%s%s has a server named zumba already and left it as it is. To point it at this zumba, change %s",
			c.Title, shown, indent(said), c.Title, byHand)
	default:
		s.fail(c.Title, fmt.Errorf("%s failed (%v); it said:\n%sRegister zumba by hand with %s", shown, err, indent(said), byHand))
	}
}

// alreadyThere matches what a client's command says when it refuses to
// add a server it has ("already exists", "zumba exists"; not "does not
// exist").
var alreadyThere = regexp.MustCompile(`(?i)\balready\b|\bexists\b`)

// indent puts four spaces before each line of text, for the terminal.
func indent(text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	return "    " + strings.Join(lines, "\n    ") + "\n"
}

// shellJoin is a command line as a POSIX shell reads it back: each
// argument quoted when it needs to be.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,") == "" {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// boundedBuffer keeps the first max bytes written to it.
type boundedBuffer struct {
	buf bytes.Buffer
	max int
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *boundedBuffer) String() string { return b.buf.String() }
