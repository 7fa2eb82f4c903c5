package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// The licence files of the release. LICENSE is zumba's own;
// THIRD_PARTY_NOTICES holds the licence of everything else its binary
// is built from, in full. Both are at the repository's root and in
// every archive and npm package.
const (
	licenseFile = "LICENSE"
	noticesFile = "THIRD_PARTY_NOTICES"
	// licenseID is zumba's licence as npm, Homebrew and the registry
	// name it (SPDX).
	licenseID = "MIT"
)

// noticesCommand writes THIRD_PARTY_NOTICES; TestNotices fails when the
// committed file is not what it writes.
const noticesCommand = "go run ./scripts/releasetool -notices > " + noticesFile

// upstreamLicenses holds the licences of what smacker/go-tree-sitter
// carries without them: each grammar's (NAME.txt, NAME being the first
// folder of its package in that module), tree-sitter's runtime and ICU's
// headers, each file's first line saying where its text comes from.
const upstreamLicenses = "scripts/releasetool/licenses"

// smackerModule is the module of the tree-sitter bindings and grammars.
const smackerModule = "github.com/smacker/go-tree-sitter"

// licenseNames are the files of a module's root that hold its licence
// and the notices it asks to keep.
func isLicenseName(name string) bool {
	upper := strings.ToUpper(name)
	for _, p := range []string{"LICENSE", "LICENCE", "COPYING", "NOTICE", "PATENTS"} {
		if strings.HasPrefix(upper, p) {
			return true
		}
	}
	return false
}

// notice is one section of THIRD_PARTY_NOTICES: its name in the
// contents, what it is and where it comes from, and its licence text.
type notice struct {
	name, title string
	text        string
}

// linked is what `go list -deps` says the zumba binary is built from, on
// every platform of the release: its modules (path@version → folder) and
// the packages of smacker/go-tree-sitter.
type linked struct {
	modules  map[string]string
	packages []string
}

// listLinked runs go list for each platform (with cgo, as the release
// builds) from the repository's root.
func listLinked(root string) (linked, error) {
	l := linked{modules: map[string]string{}}
	for _, p := range npmPlatforms {
		cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Module", "./cmd/zumba")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS="+p.goos, "GOARCH="+p.goarch, "CGO_ENABLED=1", "GOFLAGS=-mod=readonly")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return l, fmt.Errorf("go list for %s: %v\n%s", p, err, stderr.Bytes())
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		for dec.More() {
			var pkg struct {
				ImportPath string
				Module     *struct {
					Path, Version, Dir string
					Main               bool
				}
			}
			if err := dec.Decode(&pkg); err != nil {
				return l, err
			}
			m := pkg.Module
			if m == nil || m.Main {
				continue // the standard library, zumba's own
			}
			if m.Dir == "" {
				return l, fmt.Errorf("module %s@%s is not downloaded (go mod download)", m.Path, m.Version)
			}
			l.modules[m.Path+" "+m.Version] = m.Dir
			if m.Path == smackerModule && pkg.ImportPath != smackerModule && !slices.Contains(l.packages, pkg.ImportPath) {
				l.packages = append(l.packages, pkg.ImportPath)
			}
		}
	}
	slices.Sort(l.packages)
	return l, nil
}

// grammarOf is the name of the grammar a package of smacker's module
// holds: its first folder (typescript for typescript/tsx).
func grammarOf(pkg string) string {
	rest := strings.TrimPrefix(pkg, smackerModule+"/")
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// collectNotices gathers every section of THIRD_PARTY_NOTICES, in order:
// Go, the linked modules, what smacker's module carries, the grammars
// vendored in grammar/langs. An error names anything whose licence is
// missing.
func collectNotices(root string) ([]notice, error) {
	var out []notice
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %v", err)
	}
	text, err := licenseTexts(strings.TrimSpace(string(goroot)))
	if err != nil {
		return nil, fmt.Errorf("Go: %v", err)
	}
	out = append(out, notice{"Go", "Go, its standard library and runtime (linked into every Go program): https://go.dev", text})

	l, err := listLinked(root)
	if err != nil {
		return nil, err
	}
	var mods []string
	for m := range l.modules {
		mods = append(mods, m)
	}
	slices.Sort(mods)
	for _, m := range mods {
		text, err := licenseTexts(l.modules[m])
		if err != nil {
			return nil, fmt.Errorf("module %s: %v", m, err)
		}
		path, version, _ := strings.Cut(m, " ")
		out = append(out, notice{path + " " + version, fmt.Sprintf("The Go module %s %s", path, version), text})
	}

	if len(l.packages) > 0 {
		names := []string{"tree-sitter", "icu"}
		for _, pkg := range l.packages {
			if g := grammarOf(pkg); !slices.Contains(names, g) {
				names = append(names, g)
			}
		}
		slices.Sort(names[2:])
		for _, name := range names {
			b, err := os.ReadFile(filepath.Join(root, upstreamLicenses, name+".txt"))
			if err != nil {
				return nil, fmt.Errorf("%s carries %s with no licence of it in %s: %v", smackerModule, name, upstreamLicenses, err)
			}
			title, text, _ := strings.Cut(string(b), "\n\n")
			short, _, _ := strings.Cut(title, ":")
			short, _, _ = strings.Cut(short, " (")
			out = append(out, notice{short + " (in " + smackerModule + ")", "In " + smackerModule + ": " + title, text})
		}
	}

	langs, err := os.ReadDir(filepath.Join(root, "grammar", "langs"))
	if err != nil {
		return nil, err
	}
	for _, e := range langs {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, "grammar", "langs", e.Name())
		text, err := licenseTexts(dir)
		if err != nil {
			return nil, fmt.Errorf("grammar/langs/%s: %v", e.Name(), err)
		}
		out = append(out, notice{"tree-sitter-" + e.Name() + " (in grammar/langs/" + e.Name() + ")",
			fmt.Sprintf("Vendored in grammar/langs/%s: %s", e.Name(), vendoredSource(dir)), text})
	}
	return out, nil
}

// vendoredSource is where a vendored grammar comes from: the first
// sentence of its README's "Source:" paragraph, or of its VERSION.
func vendoredSource(dir string) string {
	text := ""
	if b, err := os.ReadFile(filepath.Join(dir, "README")); err == nil {
		for _, para := range strings.Split(string(b), "\n\n") {
			if rest, ok := strings.CutPrefix(para, "Source: "); ok {
				text = rest
				break
			}
		}
	} else if b, err := os.ReadFile(filepath.Join(dir, "VERSION")); err == nil {
		text = string(b)
	}
	text = strings.Join(strings.Fields(text), " ")
	if i := strings.Index(text, ". "); i > 0 {
		text = text[:i+1]
	}
	if text == "" {
		return "see its README or VERSION"
	}
	return text
}

// licenseTexts is the licence files of a folder's root, each in full
// (several are one after the other, each under its name).
func licenseTexts(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && isLicenseName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return "", fmt.Errorf("no licence file (LICENSE, COPYING, …) in %s", dir)
	}
	var sb strings.Builder
	for i, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return "", err
		}
		if len(names) > 1 {
			if i > 0 {
				sb.WriteString("\n")
			}
			fmt.Fprintf(&sb, "-- %s --\n\n", name)
		}
		sb.WriteString(strings.TrimRight(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n \t") + "\n")
	}
	return sb.String(), nil
}

// writeNotices is the text of THIRD_PARTY_NOTICES.
func writeNotices(sections []notice) []byte {
	const rule = "================================================================================\n"
	var b bytes.Buffer
	b.WriteString(`THIRD-PARTY NOTICES

zumba is copyright (c) 2026 The zumba authors, under the MIT licence (the
file LICENSE). Its binaries also hold the software below, each under its
own licence, given here in full.

This file is written by ` + "`" + noticesCommand + "`" + `
from the modules the binary links on every platform of the release and
the grammars it carries; a test fails when it is out of date.

`)
	for _, s := range sections {
		fmt.Fprintf(&b, "  - %s\n", s.name)
	}
	for _, s := range sections {
		b.WriteString("\n" + rule)
		b.WriteString(s.title + "\n")
		b.WriteString(rule + "\n")
		b.WriteString(s.text)
	}
	return b.Bytes()
}

// buildNotices is THIRD_PARTY_NOTICES as it should be for the
// repository at root.
func buildNotices(root string) ([]byte, error) {
	sections, err := collectNotices(root)
	if err != nil {
		return nil, err
	}
	return writeNotices(sections), nil
}

// checkNotices fails unless the committed THIRD_PARTY_NOTICES is what
// buildNotices writes.
func checkNotices(root string) error {
	want, err := buildNotices(root)
	if err != nil {
		return err
	}
	got, err := os.ReadFile(filepath.Join(root, noticesFile))
	if err != nil {
		return fmt.Errorf("%v; write it with %s", err, noticesCommand)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s is out of date (the modules the binary links, or the grammars it carries, changed); write it again with %s", noticesFile, noticesCommand)
	}
	return nil
}
