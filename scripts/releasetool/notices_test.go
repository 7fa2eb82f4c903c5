package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotices: THIRD_PARTY_NOTICES is what `releasetool -notices` writes
// now, and it is complete: the licence of Go, of every module the
// binary links on each platform of the release (go list, read here on
// its own), of every grammar vendored in grammar/langs and of every
// grammar smacker/go-tree-sitter carries that the binary links, each in
// full.
func TestNotices(t *testing.T) {
	const root = "../.."
	got, err := os.ReadFile(filepath.Join(root, noticesFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkNotices(root); err != nil {
		t.Fatal(err)
	}
	text := string(got)
	has := func(what, section, licence string) {
		t.Helper()
		i := strings.Index(text, "\n"+section)
		if i < 0 {
			t.Errorf("%s: no section %q", what, section)
			return
		}
		licence = strings.TrimSpace(strings.ReplaceAll(licence, "\r\n", "\n"))
		if !strings.Contains(text[i:], licence) {
			t.Errorf("%s: its licence text is not in %s", what, noticesFile)
		}
	}

	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	has("Go", "Go, its standard library", string(b))

	grammars := map[string]bool{}
	for _, p := range npmPlatforms {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}} {{.Dir}}{{end}}{{end}} {{.ImportPath}}", "./cmd/zumba")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOOS="+p.goos, "GOARCH="+p.goarch, "CGO_ENABLED=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list for %s: %v", p, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) != 4 {
				continue // the standard library, zumba's own
			}
			path, version, dir, pkg := f[0], f[1], f[2], f[3]
			entries, _ := os.ReadDir(dir)
			n := 0
			for _, e := range entries {
				if name := strings.ToUpper(e.Name()); strings.HasPrefix(name, "LICEN") || strings.HasPrefix(name, "COPYING") {
					b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
					has(path, "The Go module "+path+" "+version, string(b))
					n++
				}
			}
			if n == 0 {
				t.Errorf("module %s %s (%s) has no licence file", path, version, dir)
			}
			if path == smackerModule && pkg != smackerModule {
				grammars[grammarOf(pkg)] = true
			}
		}
	}
	if len(grammars) < 20 {
		t.Errorf("the binary links %d grammars of %s; want its 28", len(grammars), smackerModule)
	}
	for g := range grammars {
		b, err := os.ReadFile(filepath.Join(root, upstreamLicenses, g+".txt"))
		if err != nil {
			t.Errorf("grammar %s of %s: %v", g, smackerModule, err)
			continue
		}
		title, licence, _ := strings.Cut(string(b), "\n\n")
		has(g+" in "+smackerModule, "In "+smackerModule+": "+title, licence)
	}

	langs, err := os.ReadDir(filepath.Join(root, "grammar", "langs"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range langs {
		if !e.IsDir() {
			continue
		}
		n++
		b, err := os.ReadFile(filepath.Join(root, "grammar", "langs", e.Name(), "LICENSE"))
		if err != nil {
			t.Errorf("grammar/langs/%s: %v", e.Name(), err)
			continue
		}
		has("grammar/langs/"+e.Name(), "Vendored in grammar/langs/"+e.Name()+":", string(b))
	}
	if n < 9 {
		t.Errorf("%d grammars in grammar/langs; want 9 or more", n)
	}
}

// TestLicenseTexts: a folder with no licence file is an error naming
// it; several licence files are each given under their name.
func TestLicenseTexts(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "README"), []byte("x"), 0o644)
	if _, err := licenseTexts(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("no licence: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "LICENSE"), []byte("MIT\r\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "PATENTS"), []byte("grant\n\n"), 0o644)
	got, err := licenseTexts(dir)
	if want := "-- LICENSE --\n\nMIT\n\n-- PATENTS --\n\ngrant\n"; err != nil || got != want {
		t.Errorf("licenseTexts = %q, %v; want %q", got, err, want)
	}
	if !bytes.Contains(writeNotices([]notice{{"x", "the x", "text\n"}}), []byte("  - x\n")) {
		t.Error("the contents do not list a section")
	}
}
