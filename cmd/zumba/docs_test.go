package main

import (
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestDocumentedMemoryLimit: every soft memory limit the README states is
// the one `zumba mcp` sets (issue 32, defect 8: the README said 512 MiB
// over HTTP and 160 MiB over stdio; the code set 768 MiB for both).
func TestDocumentedMemoryLimit(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// Every figure in MiB in a sentence that names a soft or memory limit.
	sentences := regexp.MustCompile(`(?:soft|memory)\s+(?:memory\s+)?limit[^.]*`).FindAll(b, -1)
	found := 0
	for _, s := range sentences {
		for _, m := range regexp.MustCompile(`(\d+)\s+MiB`).FindAllSubmatch(s, -1) {
			found++
			if n, _ := strconv.Atoi(string(m[1])); n != serverMemoryLimit>>20 {
				t.Errorf("the README says %q; zumba mcp sets %d MiB", s, serverMemoryLimit>>20)
			}
		}
	}
	if found == 0 {
		t.Fatal("the README states no memory limit")
	}
}
