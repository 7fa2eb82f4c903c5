// Command vocab makes find_code's learned vocabulary (issue 46): the
// corpus fastText learns word vectors from, and the table of each word's
// nearest words that find_code's query expansion reads.
//
//	go run ./scripts/vocab corpus DIR... > corpus.txt
//	go run ./scripts/vocab pack [-words N] [-near K] [-min SIM] VECFILE OUT
//	go run ./scripts/vocab assoc [-score npmi|ibm1] [-min N] [-words N] [-near K] [-floor S] OUT DIR...
//	go run ./scripts/vocab near TABLE WORD...
//
// corpus walks each DIR for source files (Go, TypeScript, JavaScript,
// Python) and writes their words as find_code keeps them (findcode.ForWords:
// identifiers split, lowercased, stemmed, stop words out), one line per
// paragraph of the file (lines up to a blank one), so that a word's
// context is the code and comments around it. pack reads the vectors
// fastText wrote (the .vec text file, most frequent words first), keeps
// the first N words, and writes for each its K nearest by cosine
// similarity of at least SIM (see search/findcode/vocab.go for the
// format). assoc writes a table of the same format from the same sources:
// for each doc comment word, the words of definitions' names it goes with
// (see assoc.go). near prints the nearest words of each WORD in a table.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zumba-dev/zumba/search/findcode"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "corpus":
		err = corpus(os.Args[2:])
	case "pack":
		err = pack(os.Args[2:])
	case "assoc":
		err = assoc(os.Args[2:])
	case "near":
		err = showNear(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vocab:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: vocab corpus DIR... > corpus.txt | vocab pack [-words N] [-near K] [-min SIM] VECFILE OUT | vocab assoc [-score npmi|ibm1] [flags] OUT DIR... | vocab near TABLE WORD...")
	os.Exit(2)
}

// sourceExts are the files the corpus reads.
var sourceExts = map[string]bool{".go": true, ".ts": true, ".tsx": true, ".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".py": true}

// maxSource skips larger files: bundles and generated tables.
const maxSource = 4 << 20

// eachSource calls f with the path and bytes of each source file under
// dirs (sourceExts, no minified bundle, none over maxSource).
func eachSource(dirs []string, f func(path string, data []byte)) error {
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !sourceExts[filepath.Ext(p)] || strings.HasSuffix(p, ".min.js") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil || len(data) > maxSource {
				return nil
			}
			f(p, data)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func corpus(dirs []string) error {
	if len(dirs) == 0 {
		usage()
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	files, size := 0, 0
	err := eachSource(dirs, func(_ string, data []byte) {
		files++
		size += len(data)
		writeParagraphs(out, data)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "vocab corpus: %d files, %d bytes of source\n", files, size)
	return out.Flush()
}

// writeParagraphs writes data's words, a line per paragraph.
func writeParagraphs(out *bufio.Writer, data []byte) {
	n := 0
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if n > 0 {
				out.WriteByte('\n')
				n = 0
			}
			continue
		}
		findcode.ForWords(line, func(w []byte) {
			if n > 0 {
				out.WriteByte(' ')
			}
			out.Write(w)
			n++
		})
	}
	if n > 0 {
		out.WriteByte('\n')
	}
}
