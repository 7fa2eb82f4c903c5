package search

import (
	"github.com/zumba-dev/zumba/search/resolve"
	"github.com/zumba-dev/zumba/search/resolve/tsjs"
)

// TypeScript's and JavaScript's row of resolvedLangs: the resolver of
// package search/resolve/tsjs over the index's records of kindTSFacts,
// or over files read afresh.

// tsOfIndex is the TypeScript/JavaScript resolver over the index.
func tsOfIndex(ix *Index) resolve.Lang {
	return tsjs.NewResolver(newLangFacts(ix, kindTSFacts, tsjs.Reads, tsjs.DecodeIn, tsjs.Parse))
}

// tsOfFiles is the TypeScript/JavaScript resolver over files read
// afresh.
func tsOfFiles(paths []string, read func(p string) ([]byte, error)) (resolve.Lang, func(p string)) {
	src := tsjs.NewFiles(paths, read)
	return tsjs.NewResolver(src), func(p string) { src.Facts(p) }
}
