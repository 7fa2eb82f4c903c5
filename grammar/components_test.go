package grammar

import (
	"strings"
	"testing"
)

// blankExcept is src with every byte but line breaks made a space, except
// the keep strings, found in order.
func blankExcept(src string, keep ...string) string {
	out := []byte(src)
	at := 0
	var spans [][2]int
	for _, k := range keep {
		i := strings.Index(src[at:], k)
		spans = append(spans, [2]int{at + i, at + i + len(k)})
		at += i + len(k)
	}
	for i := range out {
		kept := false
		for _, sp := range spans {
			kept = kept || sp[0] <= i && i < sp[1]
		}
		if !kept && out[i] != '\n' {
			out[i] = ' '
		}
	}
	return string(out)
}

func TestPrepareComponent(t *testing.T) {
	for _, tc := range []struct {
		src  string
		keep []string
	}{
		{"<template>\n  <p>{{ x }}</p>\n</template>\n<script setup lang=\"ts\">\nconst x = 1\n</script>\n<style>p {}</style>\n", []string{"\nconst x = 1\n"}},
		// A commented-out script, a ">" inside an attribute, two scripts,
		// an upper-case tag, and one left open at the end.
		{"<!-- <script>a()</script> -->\n<SCRIPT data-x=\"a>b\">b()</SCRIPT><script>c()", []string{"b()", "c()"}},
		// No script at all: everything blanked but line breaks.
		{"<div>\n</div>", nil},
		// <scripts> is another tag; a self-closed script has no content.
		{"<scripts>x</scripts><script src=\"a.js\"/>y", nil},
		// An unclosed comment hides the rest.
		{"<!-- <script>a()</script>", nil},
	} {
		got := string(prepareComponent([]byte(tc.src)))
		if want := blankExcept(tc.src, tc.keep...); got != want {
			t.Errorf("prepareComponent(%q)\n got %q\nwant %q", tc.src, got, want)
		}
	}
	src := []byte("\n  \n")
	if got := prepareComponent(src); &got[0] != &src[0] {
		t.Errorf("a source it does not change is not returned as it is")
	}
}

func TestComponentComments(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"<!-- a --><p>x</p><!-- b -->", []string{"<!-- a -->", "<!-- b -->"}},
		// A script's text is not markup; a style's comments are found.
		{"<script>s = '<!-- x -->'</script><style>/* c */ p {}</style>", []string{"/* c */"}},
		// Left open: to the end of the file (the script after it is in
		// the comment, as prepareComponent has it), or of the style.
		{"<p/><!-- open<script>x</script>", []string{"<!-- open<script>x</script>"}},
		{"<style>p {} /* open</style><!-- d -->", []string{"/* open", "<!-- d -->"}},
		{"<div></div>", nil},
	} {
		var got []string
		for _, r := range componentComments([]byte(tc.src)) {
			got = append(got, tc.src[r[0]:r[1]])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("componentComments(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}
