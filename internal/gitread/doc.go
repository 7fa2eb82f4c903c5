// Package gitread reads a git repository in process, for the changes
// tool: the work tree's files against a commit, as git diff -M BASE and
// git ls-files --others give them, with each file's hunks as git diff
// -U0 numbers them; revisions and merge bases as git rev-parse and git
// merge-base find them.
//
// It runs no program. git runs helpers that a repository's configuration
// and attributes name (filters, file system monitors, text conversions,
// external diffs, hooks, remotes' commands when a partial clone fetches),
// and a list of settings to override loses to the next one git adds; so
// git is not run at all. The repository's own files (HEAD, the refs, the
// index, loose objects and packfiles, the commit-graph) are read with
// go-git's plumbing through a read-only view over os.Root (fs.go), and
// contents are compared here (linediff.go, rename.go). An object the
// repository lacks is an error naming it, never a fetch; a filter is
// never applied (such files are compared as stored); a submodule is not
// entered.
//
// Only the project's own repository is read: Open refuses a .git,
// commondir or alternates naming a folder outside the work tree, except
// where git itself made the link (a linked work tree, a submodule) and
// that folder names this work tree back (see Open).
package gitread
