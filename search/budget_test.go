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
	if d := stopBy(ctx, time.Second); d.Before(now.Add(time.Second)) {
		t.Errorf("stopBy without AnswerBy = now+%v; want now+1s", d.Sub(now))
	}
	soon := now.Add(100 * time.Millisecond)
	if d := stopBy(AnswerBy(ctx, soon), time.Second); !d.Equal(soon) {
		t.Errorf("stopBy with AnswerBy(now+100ms) = now+%v; want now+100ms", d.Sub(now))
	}
	late := now.Add(time.Hour)
	if d := stopBy(AnswerBy(ctx, late), time.Second); d.After(now.Add(2 * time.Second)) {
		t.Errorf("stopBy with AnswerBy(now+1h) = now+%v; want its own limit, 1s", d.Sub(now))
	}
}
