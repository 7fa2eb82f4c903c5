package search

import (
	"time"

	"github.com/zumba-dev/zumba/internal/index"
	"github.com/zumba-dev/zumba/internal/project"
	"github.com/zumba-dev/zumba/search/findcode"
	"github.com/zumba-dev/zumba/search/internal/defrec"
	"github.com/zumba-dev/zumba/search/internal/filetier"
	"github.com/zumba-dev/zumba/search/projmap"
	"github.com/zumba-dev/zumba/search/resolve"
	"github.com/zumba-dev/zumba/search/resolve/pyres"
	"github.com/zumba-dev/zumba/search/resolve/tsjs"
)

// Index is a project's word index (identifier → files holding it) and
// the definitions of the files parsed so far, brought up to date before
// every answer, so that answers reflect the files at the moment of the
// call.
//
// The build walks the project and reads every file once for its words
// (or takes them from the disk cache); until then the tools search the
// files directly, as without an index. Definitions are parsed on demand:
// a find_symbol call parses the files the word index says hold the name,
// and a background pass at low priority (one core left to the caller,
// paused while a call is answered) parses the rest, so that later calls
// find every file parsed. The engine that keeps all this is package
// internal/index (its postings, sync, store and disk cache); the searches
// answer from it: index_query.go, index_cold.go before the word index
// exists, index_exact.go looks a name up, index_fuzzy.go and
// index_names.go find the names that contain it, and index_lines.go gives
// the definitions found their lines.
//
// Files are watched (see [watch.Watcher]); where watching is unavailable
// or has lost events, every file's stat is compared with the index
// instead. The whole index is saved to a disk cache (the format is
// package internal/diskcache), so that a restart costs one walk plus
// reading one file.
//
// An Index is safe for concurrent use.
type Index struct {
	// The engine (internal/index) stores, shares, saves and syncs the
	// files' records and their postings; the rest of Index is the
	// searches' own.
	*index.Index
	root *Root
	// symbolLimit, when set, bounds the searches for definitions instead
	// of the root's SymbolTimeLimit (tests).
	symbolLimit time.Duration
	// cold and coldRefs are what find_symbol's and find_references'
	// calls before the word index learnt of the files (index_cold.go).
	cold     coldMemo[[]Def]
	coldRefs coldMemo[coldRef]
	// symbolMemo is find_symbol's last complete answer while the index
	// is built (see [index.AnswerMemo]).
	symbolMemo index.AnswerMemo[*SymbolResult]
	// src is what calls before the word index read the files through:
	// the root (tests count the reads).
	src project.Source
	// names is the text of the definitions' names, for find_symbol's
	// fallback (index_names.go).
	names defNames
	// order is how far ids follow paths (index_query.go).
	order pathOrder
	// walkTiers are the tiers of the build's walk's files, for the calls
	// before the word index (index_cold.go).
	walkTiers walkTiers
	// defines lists the files defining each name (by its last segment
	// and its whole name: package search/internal/defrec): the engine's
	// postings of the definitions' kind of record NewIndex hands it.
	defines *index.Postings
	// code is find_code's view of the index (package search/findcode),
	// whose kind of record NewIndex hands the engine too.
	code *findcode.Index
	// folderMap is the map's view of it (package search/projmap).
	folderMap *projmap.Index
	// resolve is the resolver of the index's present state
	// (resolved_index.go; package search/resolve).
	resolve resolverMemo
}

// noFacts leaves the resolver's facts out of the indexes made (a test
// measures what they cost).
var noFacts bool

// NewIndex returns the index of the project root; Build fills it.
func NewIndex(root *Root, opts index.Options) *Index {
	code := &findcode.Kind{}
	ix := &Index{root: root, src: root}
	var facts index.RecordKind = resolve.Kind{}
	var tsFacts index.RecordKind = tsjs.Kind{}
	var pyFacts index.RecordKind = pyres.Kind{}
	if noFacts {
		facts, tsFacts, pyFacts = resolve.NoKind{}, tsjs.NoKind{}, pyres.NoKind{}
	}
	ix.Index = index.NewEngine(root.Root, opts, []index.RecordKind{kindDefs: defrec.Kind{}, kindCode: code, kindFacts: facts, kindTSFacts: tsFacts, kindPyFacts: pyFacts})
	ix.WordsDone = ix.dropCold
	ix.WhenComplete = func() { ix.names.prepare(ix) }
	ix.TierOf = filetier.Record
	ix.defines = &ix.KindPost[kindDefs]
	ix.folderMap = &projmap.Index{Index: ix.Index, Src: root, DefsKind: kindDefs, Defines: ix.defines}
	ix.code = &findcode.Index{Index: ix.Index, Src: root, Kind: code, CodeKind: kindCode, DefsKind: kindDefs, Post: &ix.KindPost[kindCode]}
	return ix
}

// The kinds of records the searches keep in the index, in its order.
const (
	// kindDefs is a file's definitions (package search/internal/defrec).
	kindDefs = iota
	// kindCode is find_code's words of them (package search/findcode).
	kindCode
	// kindFacts is a Go file's facts for the resolver (search/resolve).
	kindFacts
	// kindTSFacts is a TypeScript or JavaScript file's facts for its
	// resolver (search/resolve/tsjs).
	kindTSFacts
	// kindPyFacts is a Python file's facts for its resolver
	// (search/resolve/pyres).
	kindPyFacts
)

// IndexOptions tune an Index (see [index.Options]).
type IndexOptions = index.Options

// MemoryPolicy is how the Go runtime collects while an index lives (see
// [index.MemoryPolicy]).
type MemoryPolicy = index.MemoryPolicy

// Shared is what the indexes of one process share (see [index.Shared]):
// give the same Shared to every index of a process.
type Shared = index.Shared

// NewShared returns an empty Shared.
func NewShared() *Shared { return index.NewShared() }
