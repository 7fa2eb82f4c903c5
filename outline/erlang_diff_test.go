package outline

import (
	"os"
	"os/exec"
	"testing"
)

// TestErlangDifferential compares zumba's Erlang outlines with OTP's
// epp_dodger (through scripts/erl-outline.escript) on the .erl and .hrl
// files under ZUMBA_ERLANG_DIFF_DIR (scripts/erlang-diff: OTP's own
// sources as Debian's erlang-src installs them). Recall counts the
// module, records, types, macros and functions (name/arity, all clauses
// one entry) found at the same (line, kind, name); nesting, whether the
// entry is in the module epp_dodger read before it.
func TestErlangDifferential(t *testing.T) {
	dir := os.Getenv("ZUMBA_ERLANG_DIFF_DIR")
	if dir == "" {
		t.Skip("set ZUMBA_ERLANG_DIFF_DIR (scripts/erlang-diff) to compare with epp_dodger")
	}
	escript, err := exec.LookPath("escript")
	if err != nil {
		t.Skip("escript not found (apt-get install erlang-base erlang-syntax-tools)")
	}
	files := filesUnder(dir, ".erl", ".hrl")
	want := runOracle(t, []string{escript, "../scripts/erl-outline.escript"}, files)
	f := oracleDiff{lang: "erlang", oracle: "epp_dodger", want: want}.compare(t, files)
	t.Logf("erlang differential: %d files (%d with tree-sitter syntax errors); %d entries from epp_dodger", f.files, f.partial, f.total)
	f.report(t, "ZUMBA_ERLANG_DIFF_DUMP", 20, 0.99)
}
