package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// npmSource is the main package's folder in the repository; its
// package.json names every platform package at devVersion, which the
// release replaces.
const (
	npmSource  = "npm/zumba-mcp"
	devVersion = "0.0.0-dev"
)

// npmPlatforms is every platform zumba releases, as the main package's
// optionalDependencies name them.
var npmPlatforms = []platform{{"darwin", "arm64"}, {"darwin", "amd64"}, {"linux", "arm64"}, {"linux", "amd64"}, {"windows", "amd64"}}

// npmName is the name of a platform's package.
func (p platform) npmName() string { return npmMain + "-" + p.npmOS() + "-" + p.npmCPU() }

// writeNPM writes DIST/npm/NAME/ for the main package and each platform's
// package built this time, ready for `npm pack` and `npm publish`
// (platform packages first).
func (r release) writeNPM() error {
	root := filepath.Join(r.dist, "npm")
	if err := os.RemoveAll(root); err != nil {
		return err
	}
	for _, p := range r.platforms {
		if err := r.writePlatformPackage(filepath.Join(root, p.npmName()), p); err != nil {
			return fmt.Errorf("npm %s: %w", p.npmName(), err)
		}
	}
	return r.writeMainPackage(filepath.Join(root, npmMain))
}

func (r release) writePlatformPackage(dir string, p platform) error {
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return err
	}
	bin, err := os.ReadFile(r.binary(p))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", p.exe()), bin, 0o755); err != nil {
		return err
	}
	manifest := struct {
		Name            string            `json:"name"`
		Version         string            `json:"version"`
		Description     string            `json:"description"`
		Homepage        string            `json:"homepage"`
		License         string            `json:"license"`
		Repository      map[string]string `json:"repository"`
		OS              []string          `json:"os"`
		CPU             []string          `json:"cpu"`
		Files           []string          `json:"files"`
		PreferUnplugged bool              `json:"preferUnplugged"`
	}{
		Name:        p.npmName(),
		Version:     r.version,
		Description: fmt.Sprintf("The zumba binary for %s; installed by %s, which runs it", p, npmMain),
		Homepage:    repoURL,
		License:     licenseID,
		Repository:  map[string]string{"type": "git", "url": "git+" + repoURL + ".git"},
		OS:          []string{p.npmOS()},
		CPU:         []string{p.npmCPU()},
		Files:       []string{"bin/" + p.exe(), "README.md", licenseFile, noticesFile},
		// Yarn's Plug'n'Play must unpack it: a binary cannot run from a zip.
		PreferUnplugged: true,
	}
	b, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	readme := fmt.Sprintf("# %s\n\nThe [zumba](%s) binary for %s. Install `%s`, which depends on it\n(and on the packages of the other platforms) and runs it: `npx -y %s mcp .`\n\nMIT licence (LICENSE); the licences of the software the binary holds are in THIRD_PARTY_NOTICES.\n", p.npmName(), repoURL, p, npmMain, npmMain)
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644); err != nil {
		return err
	}
	return r.writeLicenses(dir)
}

// writeLicenses copies LICENSE and THIRD_PARTY_NOTICES into a package's
// folder.
func (r release) writeLicenses(dir string) error {
	for _, name := range []string{licenseFile, noticesFile} {
		b, err := os.ReadFile(filepath.Join(r.root, name))
		if err != nil {
			return fmt.Errorf("read %s (run from the repository's root): %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeMainPackage copies npm/zumba-mcp with the release's version in
// place of devVersion.
func (r release) writeMainPackage(dir string) error {
	manifest, err := os.ReadFile(filepath.Join(r.root, npmSource, "package.json"))
	if err != nil {
		return fmt.Errorf("read %s (run from the repository's root): %w", npmSource, err)
	}
	if err := checkMainManifest(manifest); err != nil {
		return err
	}
	files := map[string][]byte{"package.json": []byte(strings.ReplaceAll(string(manifest), `"`+devVersion+`"`, `"`+r.version+`"`))}
	for _, name := range []string{"bin/zumba-mcp.js", "README.md"} {
		b, err := os.ReadFile(filepath.Join(r.root, npmSource, name))
		if err != nil {
			return err
		}
		files[name] = b
	}
	for name, b := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(name, "bin/") {
			mode = 0o755
		}
		if err := os.WriteFile(path, b, mode); err != nil {
			return err
		}
	}
	return r.writeLicenses(dir)
}

// checkMainManifest checks that the main package's manifest names every
// platform package at devVersion, no other dependency, mcpName, its
// licence and the licence files, and neither install scripts nor a
// download.
func checkMainManifest(b []byte) error {
	var m struct {
		Name         string            `json:"name"`
		Version      string            `json:"version"`
		MCPName      string            `json:"mcpName"`
		License      string            `json:"license"`
		Files        []string          `json:"files"`
		Bin          map[string]string `json:"bin"`
		Scripts      map[string]string `json:"scripts"`
		Dependencies map[string]string `json:"dependencies"`
		Optional     map[string]string `json:"optionalDependencies"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("%s/package.json: %w", npmSource, err)
	}
	var problems []string
	if m.Name != npmMain || m.Version != devVersion || m.MCPName != serverName {
		problems = append(problems, fmt.Sprintf("name %q, version %q, mcpName %q; want %q, %q, %q", m.Name, m.Version, m.MCPName, npmMain, devVersion, serverName))
	}
	if m.License != licenseID {
		problems = append(problems, fmt.Sprintf("license %q; want %q", m.License, licenseID))
	}
	for _, f := range []string{licenseFile, noticesFile} {
		if !slices.Contains(m.Files, f) {
			problems = append(problems, fmt.Sprintf("files lacks %s", f))
		}
	}
	if m.Bin[npmMain] == "" {
		problems = append(problems, "no bin named "+npmMain+" (npx runs the bin named as the package)")
	}
	if len(m.Scripts) > 0 || len(m.Dependencies) > 0 {
		problems = append(problems, "scripts or dependencies: the package must install nothing but its platform's binary")
	}
	if len(m.Optional) != len(npmPlatforms) {
		problems = append(problems, fmt.Sprintf("%d optionalDependencies; want the %d platform packages", len(m.Optional), len(npmPlatforms)))
	}
	for _, p := range npmPlatforms {
		if v := m.Optional[p.npmName()]; v != devVersion {
			problems = append(problems, fmt.Sprintf("optionalDependencies[%q] = %q; want %q", p.npmName(), v, devVersion))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s/package.json: %s", npmSource, strings.Join(problems, "; "))
	}
	return nil
}
