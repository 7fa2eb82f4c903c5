package mcpserver

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zumba-dev/zumba/mcpserver/internal/conncap"
)

// TestDocumentedHTTPBounds: the bounds docs/http.md states are the ones
// the transport uses (issue 32: limits, eviction, caps).
func TestDocumentedHTTPBounds(t *testing.T) {
	section := readDoc(t, "../docs/http.md")
	secs := func(d time.Duration) int { return int(d / time.Second) }
	for _, c := range []struct {
		what string
		re   string // words apart by any space; the figure is (\S+)
		want int
	}{
		{"body bound (MiB)", `a body over (\S+) MiB gets 413`, defaultMaxBody >> 20},
		{"body budget (MiB)", `share a budget of (\S+) MiB`, defaultBodyBudget >> 20},
		{"wait for the budget (s)", `waits up to (\S+) s, then gets 503`, secs(defaultBodyWait)},
		{"header timeout (s)", `Headers must arrive within (\S+) s`, secs(readHeaderTimeout)},
		{"body timeout (s)", `the body within (\S+) s;`, secs(defaultReadBody)},
		{"write deadline (s)", `client within (\S+) s ends the connection`, secs(defaultWrite)},
		{"calls in flight", `most (\S+) tool calls run at once`, maxInFlight},
		{"connections", `At most (\S+) connections are open`, conncap.DefaultMax},
		{"sessions", `At most (\S+) sessions are kept`, defaultMaxSessions},
		{"new sessions a second", `may open at most (\S+) sessions a second`, defaultSessionRate},
		{"shutdown grace (s)", `finish \(up to (\S+) s\)`, secs(shutdownGrace)},
	} {
		if c.what == "new sessions a second" && defaultSessionWindow != time.Second {
			t.Errorf("docs/http.md speaks of sessions a second; the window is %v", defaultSessionWindow)
		}
		re := regexp.MustCompile(strings.ReplaceAll(c.re, " ", `\s+`))
		m := re.FindStringSubmatch(section)
		if m == nil {
			t.Errorf("docs/http.md states no %s (%s)", c.what, c.re)
			continue
		}
		if n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); err != nil || n != c.want {
			t.Errorf("docs/http.md says %q; the code's %s is %d", m[0], c.what, c.want)
		}
	}
}
