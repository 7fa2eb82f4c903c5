package search

import (
	"context"
	"testing"
	"time"
)

// TestStopBy: a search stops at its own limit, or sooner when the call it
// serves must be answered sooner.
func TestStopBy(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	if d := StopBy(ctx, time.Second); d.Before(now.Add(time.Second)) {
		t.Errorf("stopBy without AnswerBy = now+%v; want now+1s", d.Sub(now))
	}
	soon := now.Add(100 * time.Millisecond)
	if d := StopBy(AnswerBy(ctx, soon), time.Second); !d.Equal(soon) {
		t.Errorf("stopBy with AnswerBy(now+100ms) = now+%v; want now+100ms", d.Sub(now))
	}
	late := now.Add(time.Hour)
	if d := StopBy(AnswerBy(ctx, late), time.Second); d.After(now.Add(2 * time.Second)) {
		t.Errorf("stopBy with AnswerBy(now+1h) = now+%v; want its own limit, 1s", d.Sub(now))
	}
}

// TestWithSymbolLimit: an answer made of several searches (find_symbol's
// names outside tests after its own search) is answered by the symbol
// time limit from its start, or sooner when the call must be answered
// sooner; the second search's limit counts from there, not from its own
// start.
func TestWithSymbolLimit(t *testing.T) {
	r := &Root{SymbolTimeLimit: time.Second}
	now := time.Now()
	ctx := r.WithSymbolLimit(context.Background())
	by, ok := AnswerByTime(ctx)
	if !ok || by.Before(now.Add(time.Second)) || by.After(time.Now().Add(time.Second)) {
		t.Errorf("answer by now+%v (%v); want now+1s", by.Sub(now), ok)
	}
	time.Sleep(10 * time.Millisecond)
	if d := StopBy(ctx, time.Second); !d.Equal(by) {
		t.Errorf("a second search stops at now+%v; want the answer's now+%v", d.Sub(now), by.Sub(now))
	}
	soon := now.Add(100 * time.Millisecond)
	if by, _ := AnswerByTime(r.WithSymbolLimit(AnswerBy(context.Background(), soon))); !by.Equal(soon) {
		t.Errorf("with AnswerBy(now+100ms): answer by now+%v; want now+100ms", by.Sub(now))
	}
}
