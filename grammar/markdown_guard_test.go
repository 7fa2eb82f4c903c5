package grammar

import "testing"

func TestGuardMarkdown(t *testing.T) {
	if got := string(guardMarkdown([]byte("# 2024年\n2024年\n1. 2😀\n"))); got != "# 2024xxx\n2024xxx\n1. 2xxxx\n" {
		t.Errorf("guardMarkdown = %q", got)
	}
}
