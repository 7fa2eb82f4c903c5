package search

import "context"

// SymbolsNow answers q from the symbol index, brought up to date first, as
// the index answers find_symbol, keeping at most limit definitions (one
// more sets More). ok is false while the symbol index is not complete;
// the caller then searches the files itself.
func (ix *Index) SymbolsNow(ctx context.Context, q SymbolQuery, limit int) (res *SymbolResult, ok bool, err error) {
	if !ix.symbolsReady.Load() {
		return nil, false, nil
	}
	if err := ix.sync(ctx); err != nil {
		return nil, true, err
	}
	res, err = ix.symbols(ctx, q, limit)
	return res, true, err
}
