package grammar

import (
	"bytes"
	"path"
	"strings"
)

// vendoredDirs are the folders whose files are someone else's code,
// copied into the project: a file anywhere under one is vendored.
var vendoredDirs = []string{"vendor", "third_party", "node_modules"}

// vendoredNames are base-name patterns of generated or minified files
// ("*" stands for any run of characters, as in TestFiles.Names).
var vendoredNames = []string{"*.min.js", "*.pb.go", "*_generated.*"}

// IsVendoredFile reports whether the project path p (slash-separated) is
// vendored or generated code by its path alone: under a vendor,
// third_party or node_modules folder, or named *.min.js, *.pb.go or
// *_generated.*. A file that says it is generated in its first lines is
// found by [IsGeneratedHead].
func IsVendoredFile(p string) bool {
	dir, base := path.Split(p)
	for _, pat := range vendoredNames {
		if starMatch(pat, base) {
			return true
		}
	}
	if dir == "" {
		return false
	}
	folders := "/" + dir
	for _, d := range vendoredDirs {
		if strings.Contains(folders, "/"+d+"/") {
			return true
		}
	}
	return false
}

// GeneratedHeadSize is how much of a file's start IsGeneratedHead looks
// at: the first lines, where generators put their mark.
const GeneratedHeadSize = 1024

// IsGeneratedHead reports whether a file whose contents start with head
// says in its first GeneratedHeadSize bytes that it is generated: a line
// holding "Code generated" and "DO NOT EDIT" (Go's convention, followed
// by many generators) or "@generated" (Facebook's, in Python, JavaScript
// and Rust generators).
func IsGeneratedHead(head []byte) bool {
	head = head[:min(len(head), GeneratedHeadSize)]
	if bytes.Contains(head, []byte("@generated")) {
		return true
	}
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if i := bytes.Index(line, []byte("Code generated")); i >= 0 && bytes.Contains(line[i:], []byte("DO NOT EDIT")) {
			return true
		}
	}
	return false
}
