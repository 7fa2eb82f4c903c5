package outline

import (
	"os"
	"os/exec"
	"testing"
)

// TestSolidityDifferential compares zumba's Solidity outlines with solc's
// parser (its compact JSON AST after parsing, through
// scripts/sol-outline.js and the solc npm package in ZUMBA_SOL_DIFF_SOLC, a
// node_modules folder) on the .sol files under ZUMBA_SOL_DIFF_DIR
// (scripts/solidity-diff: pinned npm packages). Recall counts contracts,
// interfaces, libraries, functions, constructors, modifiers, events,
// errors, structs, enums, user-defined value types and constants found at
// the same (line, kind, name), a function in a contract counting as a
// method; nesting, whether each is in the contract solc puts it in.
func TestSolidityDifferential(t *testing.T) {
	dir := os.Getenv("ZUMBA_SOL_DIFF_DIR")
	if dir == "" {
		t.Skip("set ZUMBA_SOL_DIFF_DIR (scripts/solidity-diff) to compare with solc")
	}
	node, err := exec.LookPath("node")
	solcDir := os.Getenv("ZUMBA_SOL_DIFF_SOLC")
	if err != nil || solcDir == "" {
		t.Skip("node not found or ZUMBA_SOL_DIFF_SOLC unset (scripts/solidity-diff)")
	}
	files := filesUnder(dir, ".sol")
	want := runOracle(t, []string{node, "../scripts/sol-outline.js", solcDir}, files)
	f := oracleDiff{lang: "solidity", oracle: "solc", want: want, ours: func(o *Outline) []javaDef {
		return parentedDefs(o, methodAsFunction)
	}}.compare(t, files)
	t.Logf("solidity differential: %d files (%d with tree-sitter syntax errors); %d entries from solc", f.files, f.partial, f.total)
	f.report(t, "ZUMBA_SOL_DIFF_DUMP", 20, 0.99)
}
