package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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
	all := clientconf.Clients(home, configDir)
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
		e, err := clientconf.Plan(c, server, project)
		var skip *clientconf.NeedsProject
		if errors.As(err, &skip) {
			fmt.Fprintf(w, "%s: %v\n", c.Title, err)
			continue
		}
		if err != nil {
			s.fail(c.Title, err)
			continue
		}
		s.apply(c.Title, c.Path, e.Old, e.New, e.Changed, "the server zumba ("+strings.Join(e.Args, " ")+")")
	}
	if on(fs, "project") {
		dir := project
		if dir == "" {
			if dir, err = os.Getwd(); err != nil {
				return failure(err)
			}
		}
		s.block(filepath.Join(dir, "AGENTS.md"), true)
		s.block(filepath.Join(dir, "CLAUDE.md"), false)
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

func (s *setupRun) fail(what string, err error) {
	fmt.Fprintf(s.w, "%s: %v\n", what, err)
	s.failed = true
}

// apply writes one file's change (or, in a dry run, shows its diff).
func (s *setupRun) apply(what, path string, old, data []byte, changed bool, entry string) {
	switch {
	case !changed:
		fmt.Fprintf(s.w, "%s: %s already has %s; nothing changed.\n", what, path, entry)
	case s.dryRun:
		fmt.Fprintf(s.w, "%s: would set %s in %s:\n%s", what, entry, path, clientconf.Diff(path, old, data))
	default:
		backup, err := clientconf.Write(path, old, data)
		if err != nil {
			s.fail(what, err)
			return
		}
		if backup != "" {
			fmt.Fprintf(s.w, "%s: set %s in %s (the old file is %s).\n", what, entry, path, backup)
		} else {
			fmt.Fprintf(s.w, "%s: set %s in %s, a new file.\n", what, entry, path)
		}
	}
}

// block writes zumba's guidance block in an agents' file: AGENTS.md
// always, CLAUDE.md only when it exists.
func (s *setupRun) block(path string, create bool) {
	what := filepath.Base(path)
	old, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err) && !create:
		return
	case os.IsNotExist(err):
		old = nil
	case err != nil:
		s.fail(what, err)
		return
	}
	data, changed, err := clientconf.Block(old)
	if err != nil {
		s.fail(what, fmt.Errorf("%s: %v", path, err))
		return
	}
	s.apply(what, path, old, data, changed, "zumba's guidance block")
}
