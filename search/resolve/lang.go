package resolve

// Lang is what a search asks of one language's resolver over a state of
// the project (Go's is Resolver; each further language has a package of
// its own under search/resolve, its facts a record kind of their own).
// The targets, classes and uses are this package's, whatever the
// language: a target's Dir and Pkg name its package or module, Recv
// the type or class declaring it.
type Lang interface {
	// TargetAt is the target the definition named name at path and
	// line declares; ok is false when the file's facts hold none.
	TargetAt(path string, line int32, name string) (t Target, ok bool)
	// FileUses classifies the uses of name in the file at path that may
	// mean one of the targets (uses meaning none are left out); text
	// reads the file's bytes when needed. ok is false when the file's
	// facts are not known: every use there is then unresolved.
	FileUses(path, name string, targets []Target, text func() []byte) (uses []FileUse, ok bool)
}

var _ Lang = (*Resolver)(nil)
