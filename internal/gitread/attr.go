package gitread

import (
	"bytes"
	"io"
	"path"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"

	"github.com/zumba-dev/zumba/internal/project"
)

// attrs is what the attributes say of a file that matters to a diff.
type attrs struct {
	filter string // the filter driver named, "" for none
	binary bool   // -diff, or the binary macro
}

// attrReader answers attributes from the .gitattributes files of the
// folder the repository was opened at and its subfolders (read through
// the project's Root, each once) and the repository's info/attributes,
// as git ranks them: info/attributes first, then the file's own folder's
// .gitattributes, then each parent's; within a file, the last matching
// line. The user's and the system's attributes files are not read.
type attrReader struct {
	r    *Repo
	wt   *project.Root
	mu   sync.Mutex
	dirs map[string][]gitattributes.MatchAttribute
	info []gitattributes.MatchAttribute
}

// maxAttrFile bounds an attributes file read.
const maxAttrFile = 1 << 20

func newAttrReader(r *Repo, wt *project.Root) *attrReader {
	a := &attrReader{r: r, wt: wt, dirs: map[string][]gitattributes.MatchAttribute{}}
	if f, err := r.store.Filesystem().Open("info/attributes"); err == nil {
		data, _ := io.ReadAll(io.LimitReader(f, maxAttrFile))
		f.Close()
		a.info, _ = gitattributes.ReadAttributes(bytes.NewReader(data), nil, true)
	}
	return a
}

// dir is the lines of the .gitattributes of the project folder dir.
func (a *attrReader) dir(dir string) []gitattributes.MatchAttribute {
	a.mu.Lock()
	defer a.mu.Unlock()
	if m, ok := a.dirs[dir]; ok {
		return m
	}
	var m []gitattributes.MatchAttribute
	if data, _, err := a.wt.ReadFile(path.Join(dir, ".gitattributes"), maxAttrFile); err == nil {
		var domain []string
		if dir != "." {
			domain = strings.Split(a.r.Prefix+dir, "/")
		} else if a.r.Prefix != "" {
			domain = strings.Split(strings.TrimSuffix(a.r.Prefix, "/"), "/")
		}
		m, _ = gitattributes.ReadAttributes(bytes.NewReader(data), domain, dir == "." && a.r.Prefix == "")
	}
	a.dirs[dir] = m
	return m
}

// of is the attributes of the file rel (relative to the folder the
// repository was opened at).
func (a *attrReader) of(rel string) attrs {
	full := strings.Split(a.r.Prefix+rel, "/")
	var out attrs
	filterDone, diffDone := false, false
	decide := func(lines []gitattributes.MatchAttribute) {
		for i := len(lines) - 1; i >= 0 && !(filterDone && diffDone); i-- {
			l := lines[i]
			if l.Pattern == nil || !l.Pattern.Match(full) {
				continue
			}
			for _, at := range l.Attributes {
				switch at.Name() {
				case "filter":
					if !filterDone && !at.IsUnspecified() {
						filterDone = true
						if at.IsValueSet() {
							out.filter = at.Value()
						}
					}
				case "diff":
					if !diffDone && !at.IsUnspecified() {
						diffDone = true
						out.binary = at.IsUnset()
					}
				case "binary":
					if !diffDone && at.IsSet() {
						diffDone = true
						out.binary = true
					}
				}
			}
		}
	}
	decide(a.info)
	d := path.Dir(rel)
	for {
		decide(a.dir(d))
		if d == "." {
			break
		}
		d = path.Dir(d)
	}
	return out
}
