package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeRelease is a release of all five platforms whose binaries are a few
// bytes each, written into a temporary dist folder.
func fakeRelease(t *testing.T) release {
	t.Helper()
	r := release{version: "1.2.3", dist: t.TempDir(), platforms: npmPlatforms, mtime: time.Unix(1764720000, 0).UTC(),
		downloadURL: repoURL + "/releases/download/v1.2.3", root: "../.."}
	for _, p := range r.platforms {
		if err := os.MkdirAll(filepath.Dir(r.binary(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(r.binary(p), []byte("binary for "+p.String()), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// TestArchives: each archive holds the binary (executable), the README,
// LICENSE and THIRD_PARTY_NOTICES, SHA256SUMS has the archives' sums,
// and the same binaries give the same bytes.
func TestArchives(t *testing.T) {
	r := fakeRelease(t)
	if err := r.run(); err != nil {
		t.Fatal(err)
	}
	sums, err := os.ReadFile(filepath.Join(r.dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(sums), "\n"), "\n")
	if len(lines) != len(r.platforms) {
		t.Fatalf("SHA256SUMS has %d lines; want %d:\n%s", len(lines), len(r.platforms), sums)
	}
	first := map[string][]byte{}
	for _, line := range lines {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q: want HASH  NAME", line)
		}
		b, err := os.ReadFile(filepath.Join(r.dist, name))
		if err != nil {
			t.Fatal(err)
		}
		first[name] = b
		if got := sha256.Sum256(b); hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s: sha256 %x; SHA256SUMS says %s", name, got, sum)
		}
	}
	for _, p := range r.platforms {
		name := p.archive(r.version)
		members := readArchive(t, first[name], p.goos == "windows")
		want := map[string]string{p.exe(): "-rwxr-xr-x binary for " + p.String(), "README.md": "-rw-r--r--", "LICENSE": "-rw-r--r--", "THIRD_PARTY_NOTICES": "-rw-r--r--"}
		for m, w := range want {
			if got := members[m]; !strings.HasPrefix(got, w) {
				t.Errorf("%s: %s = %q; want %q…", name, m, got, w)
			}
		}
		if len(members) != len(want) {
			t.Errorf("%s holds %v; want %d files", name, members, len(want))
		}
	}
	if err := r.run(); err != nil {
		t.Fatal(err)
	}
	for name, b := range first {
		again, err := os.ReadFile(filepath.Join(r.dist, name))
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("%s differs when made again from the same binaries", name)
		}
	}
}

// readArchive maps each member's name to its mode and, for a binary, its
// text: "-rwxr-xr-x binary for linux/amd64".
func readArchive(t *testing.T, b []byte, isZip bool) map[string]string {
	t.Helper()
	members := map[string]string{}
	add := func(name string, mode os.FileMode, r io.Reader) {
		data, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		text := mode.String()
		if strings.HasPrefix(name, "zumba") {
			text += " " + string(data)
		}
		members[name] = text
	}
	if isZip {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			add(f.Name, f.Mode(), rc)
			rc.Close()
		}
		return members
	}
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return members
		}
		if err != nil {
			t.Fatal(err)
		}
		add(hdr.Name, hdr.FileInfo().Mode(), tr)
	}
}

// TestFormula: the Homebrew formula is Ruby (ruby -c, where Ruby is
// installed) and names each macOS and Linux archive with its checksum
// under the right platform block.
func TestFormula(t *testing.T) {
	r := fakeRelease(t)
	sums := checksums{}
	for i, p := range r.platforms {
		sums[p.archive(r.version)] = fmt.Sprintf("%064x", i+1)
	}
	f, err := r.formula(sums)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"class Zumba < Formula\n", `  version "1.2.3"`, `  license "MIT"`, `bin.install "zumba"`, `prefix.install "LICENSE", "THIRD_PARTY_NOTICES"`, "shell_output(\"#{bin}/zumba version\")"} {
		if !strings.Contains(f, want) {
			t.Errorf("formula lacks %q:\n%s", want, f)
		}
	}
	block := regexp.MustCompile(`(?s)  (on_macos|on_linux) do\n(.*?)\n  end\n`)
	arch := regexp.MustCompile(`(?s)    (on_arm|on_intel) do\n      url "([^"]+)"\n      sha256 "([0-9a-f]{64})"\n    end`)
	seen := map[string]bool{}
	for _, b := range block.FindAllStringSubmatch(f, -1) {
		goos := map[string]string{"on_macos": "darwin", "on_linux": "linux"}[b[1]]
		for _, a := range arch.FindAllStringSubmatch(b[2], -1) {
			goarch := map[string]string{"on_arm": "arm64", "on_intel": "amd64"}[a[1]]
			name := platform{goos, goarch}.archive(r.version)
			if a[2] != r.downloadURL+"/"+name || a[3] != sums[name] {
				t.Errorf("%s %s: url %s sha256 %s; want %s/%s and %s", b[1], a[1], a[2], a[3], r.downloadURL, name, sums[name])
			}
			seen[name] = true
		}
	}
	if len(seen) != 4 {
		t.Errorf("formula names %d archives; want the 4 of macOS and Linux:\n%s", len(seen), f)
	}
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Log("ruby is missing: ruby -c skipped")
		return
	}
	path := filepath.Join(t.TempDir(), "zumba.rb")
	if err := os.WriteFile(path, []byte(f), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("ruby", "-c", path).CombinedOutput(); err != nil {
		t.Errorf("ruby -c zumba.rb: %v\n%s", err, out)
	}
}

// TestServerJSON checks server.json against the fields the MCP registry's
// schema (2025-12-11) requires, and that the npm package it names says
// mcpName: the registry's proof of ownership.
func TestServerJSON(t *testing.T) {
	r := fakeRelease(t)
	b, err := r.serverJSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema      string `json:"$schema"`
		Name        string
		Description string
		Version     string
		Packages    []struct {
			RegistryType string
			Identifier   string
			Version      string
			Transport    struct{ Type string }
			PackageArgs  []struct{ Type, Value, ValueHint string } `json:"packageArguments"`
		}
		Meta map[string]map[string]string `json:"_meta"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("server.json: %v\n%s", err, b)
	}
	if !regexp.MustCompile(`^https://static\.modelcontextprotocol\.io/schemas/\d{4}-\d{2}-\d{2}/server\.schema\.json$`).MatchString(doc.Schema) {
		t.Errorf("$schema = %q", doc.Schema)
	}
	if !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(doc.Name) || len(doc.Name) > 200 {
		t.Errorf("name = %q; want NAMESPACE/NAME, reverse DNS", doc.Name)
	}
	if n := len(doc.Description); n < 1 || n > 100 {
		t.Errorf("description is %d characters; the registry takes 1 to 100", n)
	}
	if doc.Version != r.version {
		t.Errorf("version = %q; want %q", doc.Version, r.version)
	}
	if got := doc.Meta[metaPublisher]; got["license"] != "MIT" || got["licenseUrl"] != repoURL+"/blob/v1.2.3/LICENSE" {
		t.Errorf("_meta = %v; want the licence under %s", doc.Meta, metaPublisher)
	}
	var top map[string]any
	json.Unmarshal(b, &top)
	for k := range top {
		// The 2025-12-11 schema's fields: nothing else at the top.
		if !slices.Contains([]string{"$schema", "_meta", "description", "icons", "name", "packages", "remotes", "repository", "title", "version", "websiteUrl"}, k) {
			t.Errorf("server.json has %q, which the schema does not define", k)
		}
	}
	if len(doc.Packages) != 1 {
		t.Fatalf("%d packages; want the npm one", len(doc.Packages))
	}
	p := doc.Packages[0]
	if p.RegistryType != "npm" || p.Identifier != npmMain || p.Version != r.version || p.Transport.Type != "stdio" {
		t.Errorf("package = %+v; want npm %s %s over stdio", p, npmMain, r.version)
	}
	for _, a := range p.PackageArgs {
		if a.Type != "positional" || a.Value == "" && a.ValueHint == "" {
			t.Errorf("package argument %+v: a positional one needs a value or a valueHint", a)
		}
	}
	manifest, err := os.ReadFile(filepath.Join(r.root, npmSource, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkMainManifest(manifest); err != nil {
		t.Error(err)
	}
}

// TestPlatformPackages: each platform's npm package says its os and cpu
// in Node's names and holds the executable binary.
func TestPlatformPackages(t *testing.T) {
	r := fakeRelease(t)
	if err := r.writeNPM(); err != nil {
		t.Fatal(err)
	}
	for _, p := range r.platforms {
		dir := filepath.Join(r.dist, "npm", p.npmName())
		var m struct {
			Name, Version, License string
			OS, CPU                []string
			Files                  []string
		}
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"darwin/arm64": "darwin arm64", "darwin/amd64": "darwin x64", "linux/arm64": "linux arm64", "linux/amd64": "linux x64", "windows/amd64": "win32 x64"}[p.String()]
		if got := strings.Join(append(m.OS, m.CPU...), " "); got != want || m.Version != r.version {
			t.Errorf("%s: os/cpu %q version %q; want %q %q", m.Name, got, m.Version, want, r.version)
		}
		fi, err := os.Stat(filepath.Join(dir, "bin", p.exe()))
		if err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: bin/%s: %v %v; want an executable", m.Name, p.exe(), fi, err)
		}
		licensed(t, m.Name, dir, m.License, m.Files)
	}
	var mm struct {
		License string
		Files   []string
	}
	if b, err := os.ReadFile(filepath.Join(r.dist, "npm", npmMain, "package.json")); err != nil || json.Unmarshal(b, &mm) != nil {
		t.Fatal(err)
	}
	licensed(t, npmMain, filepath.Join(r.dist, "npm", npmMain), mm.License, mm.Files)
	main, err := os.ReadFile(filepath.Join(r.dist, "npm", npmMain, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(main), devVersion) || !strings.Contains(string(main), `"zumba-mcp-win32-x64": "1.2.3"`) {
		t.Errorf("the main package.json keeps %s or lacks the release's version:\n%s", devVersion, main)
	}
}

// licensed checks that an npm package says its licence is MIT and holds
// LICENSE and THIRD_PARTY_NOTICES as the repository has them.
func licensed(t *testing.T, name, dir, license string, files []string) {
	t.Helper()
	if license != "MIT" {
		t.Errorf("%s: license %q; want MIT", name, license)
	}
	for _, f := range []string{licenseFile, noticesFile} {
		want, _ := os.ReadFile(filepath.Join("../..", f))
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(want) == 0 || !bytes.Equal(got, want) || !slices.Contains(files, f) {
			t.Errorf("%s: %s is not the repository's, or not in files %v: %v", name, f, files, err)
		}
	}
}
