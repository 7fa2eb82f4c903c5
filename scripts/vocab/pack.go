package main

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/zumba-dev/zumba/search/findcode"
)

// pack reads fastText's vectors and writes the nearest-words table.
func pack(args []string) error {
	fl := flag.NewFlagSet("pack", flag.ExitOnError)
	words := fl.Int("words", 40000, "the most frequent words kept")
	near := fl.Int("near", 12, "nearest words kept per word")
	minSim := fl.Float64("min", 0.5, "the least cosine similarity kept")
	fl.Parse(args)
	if fl.NArg() != 2 {
		usage()
	}
	vocab, vecs, dim, err := readVec(fl.Arg(0), *words)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "vocab pack: %d words of %d dimensions\n", len(vocab), dim)
	nears := nearest(vecs, dim, *near, float32(*minSim))
	return os.WriteFile(fl.Arg(1), encodeTable(vocab, nears), 0o644)
}

// readVec reads the first n words of a .vec file whose word is one
// find_code keeps (letters and digits, as findcode.ForWords gives them),
// each vector normalised to length 1.
func readVec(path string, n int) (vocab []string, vecs []float32, dim int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	if !sc.Scan() {
		return nil, nil, 0, fmt.Errorf("%s: empty", path)
	}
	head := strings.Fields(sc.Text())
	if len(head) != 2 {
		return nil, nil, 0, fmt.Errorf("%s: not a .vec file", path)
	}
	dim, err = strconv.Atoi(head[1])
	if err != nil {
		return nil, nil, 0, err
	}
	for sc.Scan() && len(vocab) < n {
		fs := strings.Fields(sc.Text())
		if len(fs) != dim+1 || !plainWord(fs[0]) {
			continue
		}
		var sum float64
		start := len(vecs)
		for _, s := range fs[1:] {
			v, err := strconv.ParseFloat(s, 32)
			if err != nil {
				return nil, nil, 0, err
			}
			vecs = append(vecs, float32(v))
			sum += v * v
		}
		norm := float32(1 / math.Max(math.Sqrt(sum), 1e-9))
		for i := start; i < len(vecs); i++ {
			vecs[i] *= norm
		}
		vocab = append(vocab, fs[0])
	}
	return vocab, vecs, dim, sc.Err()
}

func plainWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !('a' <= w[i] && w[i] <= 'z' || '0' <= w[i] && w[i] <= '9') {
			return false
		}
	}
	return true
}

type neighbour struct {
	id  uint32
	sim float32
}

// nearest returns each word's k nearest words of similarity at least
// minSim, nearest first: every pair compared, on all cores.
func nearest(vecs []float32, dim, k int, minSim float32) [][]neighbour {
	n := len(vecs) / dim
	out := make([][]neighbour, n)
	var wg sync.WaitGroup
	next := make(chan int, 256)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				a := vecs[i*dim : (i+1)*dim]
				var best []neighbour
				for j := range n {
					if j == i {
						continue
					}
					b := vecs[j*dim : (j+1)*dim]
					var s float32
					for d := range a {
						s += a[d] * b[d]
					}
					if s < minSim || len(best) == k && s <= best[k-1].sim {
						continue
					}
					at, _ := slices.BinarySearchFunc(best, s, func(x neighbour, s float32) int { return cmp.Compare(s, x.sim) })
					best = slices.Insert(best, at, neighbour{uint32(j), s})
					if len(best) > k {
						best = best[:k]
					}
				}
				out[i] = best
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// encodeTable writes the table in findcode's vocabulary format.
func encodeTable(vocab []string, nears [][]neighbour) []byte {
	b := []byte("zvocab1\n")
	b = binary.AppendUvarint(b, uint64(len(vocab)))
	for _, w := range vocab {
		b = binary.AppendUvarint(b, uint64(len(w)))
		b = append(b, w...)
	}
	for _, ns := range nears {
		b = binary.AppendUvarint(b, uint64(len(ns)))
		for _, nb := range ns {
			b = binary.AppendUvarint(b, uint64(nb.id))
			b = append(b, byte(math.Round(float64(nb.sim)*255)))
		}
	}
	return b
}

// showNear prints each word's nearest words in the table file args[0]
// (read as findcode reads it: through findcode.NearWords).
func showNear(args []string) error {
	if len(args) < 2 {
		usage()
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	for _, w := range args[1:] {
		near, err := findcode.NearWords(data, w)
		if err != nil {
			return err
		}
		fmt.Printf("%s: %s\n", w, strings.Join(near, " "))
	}
	return nil
}
