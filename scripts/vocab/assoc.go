package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/zumba-dev/zumba/search/findcode"
)

// assoc learns which words of a definition's name its doc comment's words
// go with: for each definition of the corpus that has a doc comment
// (found by the lines around it, not parsed: a comment block or a Python
// docstring next to a line declaring a name; in Go a line indented by one
// tab after a comment is taken for a struct field or a block's constant,
// so a commented statement of a function body is counted too: noise the
// measurement includes), the words of the comment's
// first paragraph and the words of the name, each counted once a
// definition. A doc word's associated name words are those with the
// highest normalised pointwise mutual information (NPMI, -1 to 1: 1 when
// they only occur together) over the definitions, seen together at least
// -min times; the table is written in find_code's vocabulary format
// (search/findcode/vocab.go), NPMI as the similarity.
func assoc(args []string) error {
	fl := flag.NewFlagSet("assoc", flag.ExitOnError)
	minPair := fl.Int("min", 10, "the fewest definitions a doc word and a name word share")
	minWord := fl.Int("words", 50, "the fewest definitions a doc word is in")
	k := fl.Int("near", 8, "name words kept per doc word")
	floor := fl.Float64("floor", 0.1, "the lowest score kept")
	score := fl.String("score", "npmi", "npmi, or ibm1: IBM model 1's translation probability t(name word | doc word), 5 rounds of EM")
	fl.Parse(args)
	if fl.NArg() < 2 {
		usage()
	}
	out, dirs := fl.Arg(0), fl.Args()[1:]
	c := &assocCounts{ids: map[string]uint32{}, pairs: map[uint64]uint32{}, seen: map[uint64]bool{}}
	if err := eachSource(dirs, c.file); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "vocab assoc: %d definitions with a doc comment, %d words, %d pairs\n", c.defs, len(c.words), len(c.pairs))
	if *score == "ibm1" {
		c.ibm1(5)
	}
	return os.WriteFile(out, c.table(*minPair, *minWord, *k, *floor), 0o644)
}

type assocCounts struct {
	ids   map[string]uint32
	words []string
	// doc and name count the definitions each word is in, as a doc word
	// and as a name word; pairs each (doc word, name word) pair's.
	doc, name []uint32
	pairs     map[uint64]uint32
	defs      int
	dw, nw    []uint32
	// seen holds the definitions counted (a hash of the name's and the
	// comment's words): generated code (an SDK's thousands of alike
	// operations) repeats them, and is counted once.
	seen map[uint64]bool
	// lists: each definition's doc words, then its name words, after
	// its two counts (for ibm1).
	lists []uint32
	// t is IBM model 1's t(name word | doc word) by pair (nil: NPMI).
	t map[uint64]float64
}

func (c *assocCounts) id(w []byte) uint32 {
	if id, ok := c.ids[string(w)]; ok {
		return id
	}
	id := uint32(len(c.words))
	c.ids[string(w)] = id
	c.words = append(c.words, string(w))
	c.doc = append(c.doc, 0)
	c.name = append(c.name, 0)
	return id
}

// maxDocWords bounds the doc words a definition counts (its comment's
// first ones).
const maxDocWords = 40

// add counts one definition: its name and its doc comment's text.
func (c *assocCounts) add(name string, doc []byte) {
	c.nw = c.nw[:0]
	findcode.ForWords([]byte(name), func(w []byte) { c.nw = append(c.nw, c.id(w)) })
	if len(c.nw) == 0 {
		return
	}
	slices.Sort(c.nw)
	c.nw = slices.Compact(c.nw)
	c.dw = c.dw[:0]
	n := 0
	findcode.ForWords(doc, func(w []byte) {
		if n < maxDocWords {
			n++
			c.dw = append(c.dw, c.id(w))
		}
	})
	slices.Sort(c.dw)
	c.dw = slices.Compact(c.dw)
	// The comment's words that are the name's own (Go's comments begin
	// with the name) are left out.
	c.dw = slices.DeleteFunc(c.dw, func(d uint32) bool { _, found := slices.BinarySearch(c.nw, d); return found })
	if len(c.dw) == 0 {
		return
	}
	h := fnv.New64a()
	for _, x := range append(slices.Clone(c.nw), c.dw...) {
		h.Write(binary.LittleEndian.AppendUint32(nil, x))
	}
	if c.seen[h.Sum64()] {
		return
	}
	c.seen[h.Sum64()] = true
	c.defs++
	c.lists = append(c.lists, uint32(len(c.dw)), uint32(len(c.nw)))
	c.lists = append(append(c.lists, c.dw...), c.nw...)
	for _, n := range c.nw {
		c.name[n]++
	}
	for _, d := range c.dw {
		c.doc[d]++
		for _, n := range c.nw {
			c.pairs[uint64(d)<<32|uint64(n)]++
		}
	}
}

var (
	goDecl = regexp.MustCompile(`^(?:func\s+(?:\([^)]*\)\s*)?|type\s+|var\s+|const\s+|\t)([A-Za-z_]\w*)`)
	jsDecl = regexp.MustCompile(`^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:(?:public|private|protected|static|readonly|abstract|async|get|set|override)\s+)*(?:(?:function\*?|class|interface|type|enum|const|let|var|namespace)\s+)?([A-Za-z_$][\w$]*)\s*[(<:=?{]`)
	pyDecl = regexp.MustCompile(`^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)`)
)

// file finds the definitions with doc comments of one source file.
func (c *assocCounts) file(p string, data []byte) {
	lines := bytes.Split(data, []byte("\n"))
	switch filepath.Ext(p) {
	case ".go":
		c.comments(lines, "//", goDecl)
	case ".py":
		c.python(lines)
	default:
		c.jsdoc(lines)
	}
}

// comments: a block of line comments (the first paragraph kept) followed
// by a declaring line.
func (c *assocCounts) comments(lines [][]byte, mark string, decl *regexp.Regexp) {
	var doc []byte
	para := true
	for _, l := range lines {
		t := bytes.TrimSpace(l)
		if rest, ok := bytes.CutPrefix(t, []byte(mark)); ok {
			rest = bytes.TrimSpace(rest)
			if len(rest) == 0 && len(doc) > 0 {
				para = false
			}
			if para {
				doc = append(append(doc, rest...), ' ')
			}
			continue
		}
		if len(doc) > 0 {
			if m := decl.FindSubmatch(l); m != nil {
				c.add(string(m[1]), doc)
			}
		}
		doc, para = doc[:0], true
	}
}

// jsdoc: a /** */ block (its text up to the first blank line or tag)
// followed by a declaring line.
func (c *assocCounts) jsdoc(lines [][]byte) {
	var doc []byte
	in, para, ready := false, true, false
	for _, l := range lines {
		t := bytes.TrimSpace(l)
		if !in && bytes.HasPrefix(t, []byte("/**")) {
			in, para, ready, doc = true, true, false, doc[:0]
			t = t[3:]
		}
		if in {
			end := bytes.Contains(t, []byte("*/"))
			if end {
				t, _, _ = bytes.Cut(t, []byte("*/"))
			}
			t = bytes.TrimSpace(bytes.TrimLeft(t, "*"))
			if len(t) == 0 && len(doc) > 0 || bytes.HasPrefix(t, []byte("@")) {
				para = false
			}
			if para {
				doc = append(append(doc, t...), ' ')
			}
			if end {
				in, ready = false, len(doc) > 0
			}
			continue
		}
		if ready && len(t) > 0 {
			if bytes.HasPrefix(t, []byte("@")) { // a decorator
				continue
			}
			if m := jsDecl.FindSubmatch(l); m != nil {
				c.add(string(m[1]), doc)
			}
			ready = false
		}
	}
}

// python: a def or class whose body begins with a docstring (its first
// paragraph), or which a block of # comments precedes.
func (c *assocCounts) python(lines [][]byte) {
	c.comments(lines, "#", pyDecl)
	for i := 0; i < len(lines); i++ {
		m := pyDecl.FindSubmatch(lines[i])
		if m == nil {
			continue
		}
		// The docstring is on the first line after the signature's end.
		j := i
		for j < len(lines) && j < i+10 && !bytes.HasSuffix(bytes.TrimSpace(lines[j]), []byte(":")) {
			j++
		}
		j++
		if j >= len(lines) {
			continue
		}
		t := bytes.TrimSpace(lines[j])
		t = bytes.TrimLeft(t, "rRuU")
		var q []byte
		switch {
		case bytes.HasPrefix(t, []byte(`"""`)):
			q = []byte(`"""`)
		case bytes.HasPrefix(t, []byte(`'''`)):
			q = []byte(`'''`)
		default:
			continue
		}
		t = t[3:]
		var doc []byte
		for {
			end := bytes.Contains(t, q)
			if end {
				t, _, _ = bytes.Cut(t, q)
			}
			if len(t) == 0 && len(doc) > 0 {
				break
			}
			doc = append(append(doc, t...), ' ')
			j++
			if end || j >= len(lines) {
				break
			}
			t = bytes.TrimSpace(lines[j])
		}
		if len(bytes.TrimSpace(doc)) > 0 {
			c.add(string(m[1]), doc)
		}
	}
}

// table writes the doc words' associated name words.
func (c *assocCounts) table(minPair, minWord, k int, floor float64) []byte {
	type nb struct {
		id   uint32
		npmi float64
	}
	near := map[uint32][]nb{}
	n := float64(c.defs)
	for key, cnt := range c.pairs {
		d, w := uint32(key>>32), uint32(key)
		if int(cnt) < minPair || int(c.doc[d]) < minWord {
			continue
		}
		pxy := float64(cnt) / n
		pmi := math.Log(pxy / (float64(c.doc[d]) / n * float64(c.name[w]) / n))
		v := pmi / -math.Log(pxy)
		if c.t != nil {
			v = c.t[key]
		}
		if v >= floor {
			near[d] = append(near[d], nb{w, v})
		}
	}
	// The table's words: the doc words with some, then the name words
	// they point to.
	var docs []uint32
	for d, l := range near {
		slices.SortFunc(l, func(a, b nb) int {
			if a.npmi != b.npmi {
				if a.npmi > b.npmi {
					return -1
				}
				return 1
			}
			return strings.Compare(c.words[a.id], c.words[b.id])
		})
		if len(l) > k {
			near[d] = l[:k]
		}
		docs = append(docs, d)
	}
	slices.SortFunc(docs, func(a, b uint32) int { return strings.Compare(c.words[a], c.words[b]) })
	num := map[uint32]int{}
	var words []uint32
	for _, d := range docs {
		num[d] = len(words)
		words = append(words, d)
	}
	for _, d := range docs {
		for _, x := range near[d] {
			if _, ok := num[x.id]; !ok {
				num[x.id] = len(words)
				words = append(words, x.id)
			}
		}
	}
	vocab := make([]string, len(words))
	nears := make([][]neighbour, len(words))
	for i, id := range words {
		vocab[i] = c.words[id]
		for _, x := range near[id] {
			nears[i] = append(nears[i], neighbour{id: uint32(num[x.id]), sim: float32(min(x.npmi, 1))})
		}
	}
	return encodeTable(vocab, nears)
}

// nullWord is IBM model 1's empty doc word, which a name word is
// translated from when no doc word explains it.
const nullWord = math.MaxUint32

// ibm1 estimates t(name word | doc word) by EM over the definitions, each
// name word drawn from one of the definition's doc words or the empty
// one.
func (c *assocCounts) ibm1(rounds int) {
	t := map[uint64]float64{}
	for key := range c.pairs {
		t[key] = 1
	}
	for n := range c.name {
		t[uint64(nullWord)<<32|uint64(n)] = 1
	}
	for r := range rounds {
		counts := map[uint64]float64{}
		total := map[uint32]float64{}
		for i := 0; i < len(c.lists); {
			nd, nn := int(c.lists[i]), int(c.lists[i+1])
			dw := append(c.lists[i+2:i+2+nd:i+2+nd], nullWord)
			nw := c.lists[i+2+nd : i+2+nd+nn]
			i += 2 + nd + nn
			for _, n := range nw {
				sum := 0.0
				for _, d := range dw {
					sum += t[uint64(d)<<32|uint64(n)]
				}
				for _, d := range dw {
					key := uint64(d)<<32 | uint64(n)
					x := t[key] / sum
					counts[key] += x
					total[d] += x
				}
			}
		}
		for key, x := range counts {
			t[key] = x / total[uint32(key>>32)]
		}
		fmt.Fprintf(os.Stderr, "vocab assoc: ibm1 round %d\n", r+1)
	}
	c.t = t
}
