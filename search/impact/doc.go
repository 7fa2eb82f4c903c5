// Package impact finds who a definition's change can reach: the callers
// of callers of a name (find_references' depth; callers.go) and what the
// work tree changed since a base commit, each changed definition with
// its users (the changes tool; changes.go, and changes_depth.go for its
// depth).
//
// It searches nothing itself: the uses of each name come from the
// search the caller hands it (CallerFunc, UsesFunc: package search's
// find_references grouped by definition) and, for the definitions a
// resolver decides (Go), from DefCallerFunc; it reads the repository
// through internal/gitread and outlines both versions of each changed
// file. Its results (CallerTree, ChangeSet) hold search.Site values;
// mcpserver prints them.
package impact
