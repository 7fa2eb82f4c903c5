// Package gitexec runs git for the changes tool, reading a repository
// without ever running a program that the repository's own configuration
// names.
//
// git runs helpers that a repository's configuration or attributes name:
// a file system monitor (core.fsmonitor), an external diff
// (diff.external, diff.<driver>.command), text conversion
// (diff.<driver>.textconv), clean and smudge filters (filter.<driver>.*),
// a pager, hooks, an ssh command. A checkout is not trusted: every call
// here runs the git binary found on PATH with a fixed argument list (no
// shell), with the user's and the system's configuration files left out,
// the environment's GIT_* variables dropped, and each of those settings
// overridden on the command line; filter drivers, whose names the
// repository chooses, are listed from its configuration (reading it runs
// nothing) and each one's commands are emptied. Output is bounded and
// every call ends with its context.
package gitexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// MaxOutput bounds what one git call may print.
const MaxOutput = 64 << 20

// ErrNoGit is returned when no git binary is on PATH.
var ErrNoGit = errors.New("no git on PATH: the changes tool needs git")

// ErrNotRepo is returned for a folder outside any git work tree.
var ErrNotRepo = errors.New("not a git repository")

// Repo is a git work tree, reached from a folder inside it.
type Repo struct {
	dir  string
	git  string
	safe []string // the -c overrides every call carries
}

// Open returns the repository whose work tree holds dir.
func Open(ctx context.Context, dir string) (*Repo, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, ErrNoGit
	}
	r := &Repo{dir: dir, git: git, safe: fixedOverrides()}
	out, err := r.Run(ctx, "rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, ErrNotRepo
	}
	// The filter drivers the repository names, each emptied.
	out, err = r.Run(ctx, "config", "--name-only", "--get-regexp", `^filter\.`)
	if err == nil {
		seen := map[string]bool{}
		for _, key := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			name, ok := strings.CutPrefix(key, "filter.")
			i := strings.LastIndexByte(name, '.')
			if !ok || i <= 0 || seen[name[:i]] {
				continue
			}
			driver := name[:i]
			seen[driver] = true
			for _, k := range []string{"clean", "smudge", "process"} {
				r.safe = append(r.safe, "-c", "filter."+driver+"."+k+"=")
			}
			r.safe = append(r.safe, "-c", "filter."+driver+".required=false")
		}
	}
	return r, nil
}

// fixedOverrides are the settings that name a program, disabled.
func fixedOverrides() []string {
	var args []string
	for _, kv := range []string{
		"core.fsmonitor=false",
		"core.hooksPath=" + os.DevNull,
		"core.pager=cat",
		"core.sshCommand=false",
		"core.askPass=",
		"core.editor=false",
		"core.quotePath=false",
		"diff.external=",
		"diff.noprefix=false",
		"diff.mnemonicPrefix=false",
		"credential.helper=",
		"protocol.allow=never",
		"gpg.program=false",
		"uploadpack.packObjectsHook=",
	} {
		args = append(args, "-c", kv)
	}
	return args
}

// environ is the environment git runs in: this process's, without GIT_*
// variables (which can name programs, other repositories and
// configuration), with the user's and the system's configuration files
// and any pager or prompt left out.
func environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "PAGER=") && !strings.HasPrefix(kv, "EDITOR=") && !strings.HasPrefix(kv, "VISUAL=") {
			env = append(env, kv)
		}
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_PAGER=cat",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_NO_REPLACE_OBJECTS=1",
		"LC_ALL=C",
	)
}

// Error is a git call that failed: its arguments and what it printed on
// stderr (cut).
type Error struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", e.Args[0], msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Run runs git with args in the repository and returns what it printed
// on stdout, at most MaxOutput bytes.
func (r *Repo) Run(ctx context.Context, args ...string) ([]byte, error) {
	return r.RunInput(ctx, nil, args...)
}

// RunInput is Run with stdin (nil: none).
func (r *Repo) RunInput(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	full := append(append([]string{"--no-pager"}, r.safe...), args...)
	cmd := exec.CommandContext(ctx, r.git, full...)
	cmd.Dir = r.dir
	cmd.Env = environ()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out := &limited{max: MaxOutput}
	var stderr limited
	stderr.max = 64 << 10
	cmd.Stdout, cmd.Stderr = out, &stderr
	err := cmd.Run()
	if out.over {
		return nil, &Error{Args: args, Err: fmt.Errorf("output over %d bytes", MaxOutput)}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Args: args, Stderr: stderr.buf.String(), Err: err}
	}
	return out.buf.Bytes(), nil
}

// limited keeps the first max bytes written to it.
type limited struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); len(p) > room {
		l.buf.Write(p[:max(room, 0)])
		l.over = true
		return len(p), nil
	}
	return l.buf.Write(p)
}
