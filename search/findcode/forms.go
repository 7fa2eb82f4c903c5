package findcode

import (
	"strings"

	"github.com/kljensen/snowball/english"
)

// Word forms: find_code's words are stemmed lightly (codeStem: plurals
// and verb endings), which leaves "suggest" apart from "suggestions" and
// "graceful" from "gracefully". The Snowball English stemmer (Porter2,
// github.com/kljensen/snowball) joins them, but applied to every word of
// the index and the query it also joins what the light stemmer keeps
// apart ("organization" and "organ", "university" and "universe"), and
// on the benchmark's held-out half (scripts/code_bench.sh, TestCodeTune)
// it lost more than it won: hit@1 0.219 -> 0.205, hit@5 0.384 -> 0.377,
// Python's and RxJS's CHANGELOG sets worse. So each word of a query keeps
// its own form, and the other forms of it the index holds, those
// Snowball gives the word's stem, count as the word (in its group, as
// abbreviations do) weighted codeWeights.forms: a definition holding the
// word itself scores it in full. With forms 0.5 the held-out half is
// unchanged (hit@1 0.219, hit@5 0.384; MRR 0.289 -> 0.288), all queries
// hit@5 0.422 -> 0.425; 0.7 lost a held-out hit@5, 0.3 was too weak to
// put cobra's SuggestionsFor first for "suggest similar command names
// when a user mistypes a subcommand" (0.5: first; before: 19th).

// formEnds are the endings tried on a query word's stem (after
// removing one of them) to find its other forms in the index: those a
// light stem keeps and Snowball takes off.
var formEnds = []string{
	"s", "es", "ed", "ing", "er", "ers", "ion", "ions", "ation", "ations", "ment", "ments",
	"ly", "al", "ally", "ful", "fully", "ness", "ive", "ively", "ity", "ities", "able", "ably",
	"ance", "ence", "ant", "ent", "ize", "ized", "izes", "ise", "ised", "ism", "ist", "ous", "ously",
}

// snowballStem is a light stem's Snowball stem, the key its forms share.
func snowballStem(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return ""
		}
	}
	return english.Stem(s, true)
}

// codeForms returns terms and, for each word of the query (weight 1),
// the other forms of it the index holds: words of ASCII letters built
// from the word's stem with one of formEnds removed and one added,
// whose Snowball stem is the word's, weighted w.forms in the word's
// group. The caller holds ix.mu.
func (ix *Index) codeForms(terms []codeTerm, w codeWeights) []codeTerm {
	out := terms
	seen := map[string]bool{}
	for _, t := range terms {
		seen[t.stem] = true
	}
	for _, t := range terms {
		if t.weight != 1 || len(t.stem) < 3 {
			continue
		}
		key := snowballStem(t.stem)
		if key == "" {
			continue
		}
		bases := []string{t.stem}
		for _, e := range formEnds {
			if b, ok := strings.CutSuffix(t.stem, e); ok && len(b) >= 3 {
				bases = append(bases, b)
			}
		}
		try := func(c string) {
			if seen[c] || isCodeStopWord([]byte(c)) {
				return
			}
			seen[c] = true
			if _, ok := ix.Words.LookupString(c); ok && snowballStem(c) == key {
				out = append(out, codeTerm{word: t.word, stem: c, group: t.group, weight: w.forms})
			}
		}
		for _, b := range bases {
			try(b)
			for _, e := range formEnds {
				try(b + e)
			}
		}
	}
	return out
}
