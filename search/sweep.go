package search

import (
	"io/fs"
	"iter"
	"path/filepath"
	"slices"
)

// SweepResult is what a stat sweep found changed since the previous one.
type SweepResult struct {
	// Created, Changed and Deleted are project-relative paths, sorted.
	Created, Changed, Deleted []string
	// Stats is every file seen, to pass as prev to the next sweep.
	Stats map[string]FileStat
}

// Sweep compares the files a walk yields now (project-relative path and
// stat) with prev, the result of the previous walk. It is the fallback for
// when watching is unavailable or lost events: stat-ing every file of a
// large project costs tens of milliseconds, reading them all a second or
// more. A file modified within RacyWindow of when its record was made can
// keep its stat across a write; the caller re-reads such files itself.
func Sweep(prev map[string]FileStat, cur iter.Seq2[string, FileStat]) SweepResult {
	res := SweepResult{Stats: make(map[string]FileStat, len(prev))}
	for rel, st := range cur {
		res.Stats[rel] = st
		old, ok := prev[rel]
		switch {
		case !ok:
			res.Created = append(res.Created, rel)
		case old != st:
			res.Changed = append(res.Changed, rel)
		}
	}
	for rel := range prev {
		if _, ok := res.Stats[rel]; !ok {
			res.Deleted = append(res.Deleted, rel)
		}
	}
	slices.Sort(res.Created)
	slices.Sort(res.Changed)
	slices.Sort(res.Deleted)
	return res
}

// StatTree yields the regular files under root with their stats, skipping
// .git folders and the folders skipDir names (by project-relative path);
// symbolic links are not followed. It is the simplest walk to give Sweep;
// the project walker, which applies the ignore rules to files too, is the
// usual one.
func StatTree(root string, skipDir func(rel string) bool) iter.Seq2[string, FileStat] {
	return func(yield func(string, FileStat) bool) {
		root = filepath.Clean(root)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == root {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if d.Name() == ".git" || (skipDir != nil && skipDir(rel)) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return nil
			}
			if !yield(rel, StatOf(fi)) {
				return filepath.SkipAll
			}
			return nil
		})
	}
}
