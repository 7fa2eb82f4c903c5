package gitexec

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// FileDiff is one file a diff changes.
type FileDiff struct {
	// Old and New are the file's paths before and after, relative to the
	// folder the repository was opened at; Old is "" for a file added,
	// New "" for one deleted. They differ for a rename.
	Old, New string
	// Added and Deleted count its lines added and deleted.
	Added, Deleted int
	// Binary: git compares it as a binary file (no line counts, no hunks).
	Binary bool
	// Untracked: a file git does not track yet (and does not ignore).
	Untracked bool
	Hunks     []Hunk
}

// Hunk is one run of changed lines: OldCount lines from OldStart in the
// old version replaced by NewCount lines from NewStart in the new one. A
// count of 0 is an insertion (or a deletion) after line Start.
type Hunk struct {
	OldStart, OldCount, NewStart, NewCount int
}

// ErrUnknownRevision is returned for a base that names no commit.
var ErrUnknownRevision = errors.New("unknown revision")

// ErrNoMergeBase is returned when a base and HEAD share no commit that the
// repository holds (a shallow clone without it, or unrelated histories).
var ErrNoMergeBase = errors.New("no merge base")

// Commit resolves rev to a commit id.
func (r *Repo) Commit(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.ContainsAny(rev, "\x00\n") || len(rev) > 1024 {
		return "", ErrUnknownRevision
	}
	out, err := r.Run(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", ErrUnknownRevision
	}
	return strings.TrimSpace(string(out)), nil
}

// MergeBase is the best common ancestor of commits a and b.
func (r *Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := r.Run(ctx, "merge-base", "--end-of-options", a, b)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", ErrNoMergeBase
	}
	return strings.TrimSpace(string(out)), nil
}

// Diff lists the files of the work tree, under the folder the repository
// was opened at, that differ from commit base: tracked files changed
// (staged or not), renamed or deleted, and untracked files that git does
// not ignore, each with its hunks.
func (r *Repo) Diff(ctx context.Context, base string) ([]FileDiff, error) {
	common := []string{"diff", "--no-ext-diff", "--no-textconv", "--no-color", "-M", "--relative"}
	// The three calls each read the work tree; they run side by side.
	var patch, others []byte
	var patchErr, othersErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		patch, patchErr = r.Run(ctx, append(common, "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", base, "--")...)
	}()
	go func() {
		defer wg.Done()
		others, othersErr = r.Run(ctx, "ls-files", "--others", "--exclude-standard", "-z")
	}()
	num, err := r.Run(ctx, append(common, "--numstat", "-z", base, "--")...)
	wg.Wait()
	if err = cmp.Or(err, patchErr, othersErr); err != nil {
		return nil, err
	}
	files, err := parseNumstat(num)
	if err != nil {
		return nil, err
	}
	hunks := parseHunks(patch)
	for i := range files {
		f := &files[i]
		h, ok := hunks[f.New]
		if !ok {
			// A deleted file's hunks are under its old path.
			h = hunks["\x00"+f.Old]
		}
		f.Hunks = h
	}
	for _, p := range strings.Split(string(others), "\x00") {
		if p != "" {
			files = append(files, FileDiff{New: p, Untracked: true})
		}
	}
	return files, nil
}

// parseNumstat reads `git diff --numstat -z`: per file "ADDED\tDELETED\tPATH\0",
// or "ADDED\tDELETED\t\0OLD\0NEW\0" for a rename; "-" counts for a binary
// file. An added or deleted file is told by its hunks' ranges later; here
// both paths are the one path.
func parseNumstat(out []byte) ([]FileDiff, error) {
	var files []FileDiff
	fields := strings.Split(string(out), "\x00")
	for i := 0; i < len(fields); i++ {
		rec := fields[i]
		if rec == "" {
			continue
		}
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("git diff --numstat: unexpected %.100q", rec)
		}
		f := FileDiff{Binary: parts[0] == "-"}
		f.Added, _ = strconv.Atoi(parts[0])
		f.Deleted, _ = strconv.Atoi(parts[1])
		if parts[2] != "" {
			f.Old, f.New = parts[2], parts[2]
		} else {
			if i+2 >= len(fields) || fields[i+1] == "" || fields[i+2] == "" {
				return nil, fmt.Errorf("git diff --numstat: a rename without its paths")
			}
			f.Old, f.New = fields[i+1], fields[i+2]
			i += 2
		}
		files = append(files, f)
	}
	return files, nil
}

// parseHunks reads a `git diff --unified=0` patch into each file's hunks,
// by its new path, or by "\x00" and its old path for a deleted file.
// Added and deleted files are marked by their /dev/null sides.
func parseHunks(patch []byte) map[string][]Hunk {
	byFile := map[string][]Hunk{}
	var oldPath, key string
	for len(patch) > 0 {
		line := patch
		if i := bytes.IndexByte(patch, '\n'); i >= 0 {
			line, patch = patch[:i], patch[i+1:]
		} else {
			patch = nil
		}
		switch {
		case bytes.HasPrefix(line, []byte("diff --git ")):
			oldPath, key = "", ""
		case bytes.HasPrefix(line, []byte("--- ")):
			oldPath = patchPath(string(line[4:]), "a/")
		case bytes.HasPrefix(line, []byte("+++ ")):
			if p := patchPath(string(line[4:]), "b/"); p != "" {
				key = p
			} else {
				key = "\x00" + oldPath
			}
			if _, ok := byFile[key]; !ok {
				byFile[key] = nil
			}
		case bytes.HasPrefix(line, []byte("@@ ")) && key != "":
			if h, ok := parseHunkHeader(string(line)); ok {
				byFile[key] = append(byFile[key], h)
			}
		}
	}
	return byFile
}

// patchPath is the path of a "--- " or "+++ " line: "" for /dev/null,
// else without its prefix, unquoted when git quoted it.
func patchPath(s, prefix string) string {
	s = strings.TrimSuffix(s, "\t")
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	return strings.TrimPrefix(s, prefix)
}

// parseHunkHeader reads "@@ -A[,B] +C[,D] @@".
func parseHunkHeader(s string) (Hunk, bool) {
	fields := strings.Fields(s)
	if len(fields) < 3 || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return Hunk{}, false
	}
	var h Hunk
	var ok1, ok2 bool
	h.OldStart, h.OldCount, ok1 = rangeOf(fields[1][1:])
	h.NewStart, h.NewCount, ok2 = rangeOf(fields[2][1:])
	return h, ok1 && ok2
}

func rangeOf(s string) (start, count int, ok bool) {
	a, b, comma := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, false
	}
	count = 1
	if comma {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, false
		}
	}
	return start, count, true
}

// ShowFiles is the contents of paths (relative to the folder the
// repository was opened at) in commit; a file the commit lacks, or larger
// than limit bytes, is left out of the map. Two git calls read them all.
func (r *Repo) ShowFiles(ctx context.Context, commit string, paths []string, limit int64) (map[string][]byte, error) {
	var names []string
	var in bytes.Buffer
	for _, p := range paths {
		if strings.ContainsAny(p, "\n\x00") {
			continue
		}
		names = append(names, p)
		fmt.Fprintf(&in, "%s:./%s\n", commit, p)
	}
	out, err := r.RunInput(ctx, in.Bytes(), "cat-file", "--batch-check=%(objecttype) %(objectsize)")
	if err != nil {
		return nil, err
	}
	var want []string
	in.Reset()
	for i, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if i >= len(names) {
			break
		}
		typ, size, _ := strings.Cut(line, " ")
		n, err := strconv.ParseInt(size, 10, 64)
		if typ != "blob" || err != nil || n > limit {
			continue
		}
		want = append(want, names[i])
		fmt.Fprintf(&in, "%s:./%s\n", commit, names[i])
	}
	files := map[string][]byte{}
	if len(want) == 0 {
		return files, nil
	}
	out, err = r.RunInput(ctx, in.Bytes(), "cat-file", "--batch=%(objecttype) %(objectsize)")
	if err != nil {
		return nil, err
	}
	for _, p := range want {
		head, rest, ok := bytes.Cut(out, []byte("\n"))
		if !ok {
			break
		}
		typ, size, _ := strings.Cut(string(head), " ")
		n, err := strconv.Atoi(size)
		if typ != "blob" || err != nil || n+1 > len(rest) {
			break
		}
		files[p] = rest[:n]
		out = rest[n+1:]
	}
	return files, nil
}
