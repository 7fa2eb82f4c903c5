package search

import (
	"context"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/internal/index"
)

// TestMapPartial: past the time limit, a map says how far it got: the
// index being built, or a direct search's reading.
func TestMapPartial(t *testing.T) {
	dir := freshProject(t)
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(root, index.Options{CacheFile: "-", NoWatch: true})
	ix.symbolLimit = -time.Second
	m, err := ix.Map(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Building || m.Stopped || m.Indexed >= m.Total || m.Total != 22 {
		t.Errorf("index map: building %v, stopped %v, %d of %d files; want building, part of 22", m.Building, m.Stopped, m.Indexed, m.Total)
	}
	root.SymbolTimeLimit = -time.Second
	m, err = root.Map(context.Background(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if !m.Building || !m.Stopped || m.Indexed >= m.Total || m.Total != 22 {
		t.Errorf("direct map: building %v, stopped %v, %d of %d files; want stopped, part of 22", m.Building, m.Stopped, m.Indexed, m.Total)
	}
}
