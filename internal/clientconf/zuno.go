package clientconf

import (
	"fmt"
	"strings"
)

// ZunoTimeout is the request timeout, in milliseconds, that zumba's Zuno
// entry sets: zumba answers within 4.5 s, inside Zuno's default of 5000,
// and twice that leaves room on a slow machine (a call Zuno times out is
// reported as an uncertain outcome, not retried).
const ZunoTimeout = 10000

// ZunoAdd is the argument list of the zuno command that registers the
// server whose command line is line, in Zuno's global layer.
func ZunoAdd(line []string) []string {
	return append([]string{"mcp", "add", "zumba", "--"}, line...)
}

// ZunoEntry is zumba's entry in Zuno's global zuno.json, as JSON: a
// local server, its command line, and a timeout.
func ZunoEntry(line []string) string {
	parts := make([]string, len(line))
	for i, a := range line {
		b, err := marshal(a)
		if err != nil {
			panic(err) // a string
		}
		parts[i] = string(b)
	}
	return fmt.Sprintf(`{
  "mcp": {
    "zumba": {
      "type": "local",
      "command": %s,
      "timeout": %d
    }
  }
}
`, "["+strings.Join(parts, ", ")+"]", ZunoTimeout)
}
