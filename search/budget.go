package search

import (
	"context"
	"time"
)

// A client waits a few seconds for an answer (5 s by default for the
// strict client, which treats a late answer as an uncertain outcome, not
// a retry). Each search bounds its own work (SymbolTimeLimit and the
// like), counted from when it starts; a server also waits before a search
// starts (for a place among the calls in flight, for the client's roots),
// so it tells the search when the call must be answered by, and every
// search stops by then whatever its own bound.

type answerByKey struct{}

// AnswerBy returns a context that tells the searches run under it to
// stop by t, so that the call they serve is answered by then.
func AnswerBy(ctx context.Context, t time.Time) context.Context {
	return context.WithValue(ctx, answerByKey{}, t)
}

// StopBy is when a search bounded by limit stops: limit from now, or
// earlier when the call it serves must be answered sooner (AnswerBy).
func StopBy(ctx context.Context, limit time.Duration) time.Time {
	d := time.Now().Add(limit)
	if by, ok := AnswerByTime(ctx); ok && by.Before(d) {
		return by
	}
	return d
}

// AnswerByTime is the time the call ctx serves must be answered by, when
// it has one (AnswerBy).
func AnswerByTime(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(answerByKey{}).(time.Time)
	return t, ok
}

// WithSymbolLimit returns ctx bounded to be answered by r's find_symbol
// time limit from now, for an answer made of several searches (see
// AnswerBy): find_symbol's second search, for the names outside tests,
// ran to the server's own bound past the first one's limit (4.0-4.2 s
// on the Go tree during the build, over the 3.85 s issue 42 allows).
func (r *Root) WithSymbolLimit(ctx context.Context) context.Context {
	return AnswerBy(ctx, StopBy(ctx, r.symbolTimeLimit()))
}
