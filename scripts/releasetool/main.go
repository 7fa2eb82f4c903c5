// Command releasetool packages the binaries that scripts/release.sh built:
// one archive per platform (zumba_VERSION_OS_ARCH.tar.gz, .zip for
// Windows), SHA256SUMS, a Homebrew formula, the MCP registry's server.json
// and the npm packages' folders. It builds nothing and reaches no network.
//
//	go run ./scripts/releasetool -version 0.2.0 -dist dist linux/amd64 darwin/arm64 ...
//
// It reads DIST/build/OS_ARCH/zumba (zumba.exe on Windows) and writes
// everything else into DIST.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// repoURL is where the source, the releases and the formula's homepage are.
const repoURL = "https://github.com/zumba-dev/zumba"

// semver is the form of a release version: npm and the MCP registry take
// nothing else (no leading v, no range).
var semver = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// platform is one target of the release, as Go names it.
type platform struct{ goos, goarch string }

func parsePlatform(s string) (platform, error) {
	goos, goarch, ok := strings.Cut(s, "/")
	if !ok || goos == "" || goarch == "" {
		return platform{}, fmt.Errorf("platform %q: want OS/ARCH, as linux/amd64", s)
	}
	p := platform{goos, goarch}
	if p.npmOS() == "" || p.npmCPU() == "" {
		return platform{}, fmt.Errorf("platform %q: not one zumba releases", s)
	}
	return p, nil
}

func (p platform) String() string { return p.goos + "/" + p.goarch }

// exe is the binary's file name.
func (p platform) exe() string {
	if p.goos == "windows" {
		return "zumba.exe"
	}
	return "zumba"
}

// archive is the archive's file name.
func (p platform) archive(version string) string {
	ext := ".tar.gz"
	if p.goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("zumba_%s_%s_%s%s", version, p.goos, p.goarch, ext)
}

// npmOS and npmCPU are Node's names (process.platform, process.arch).
func (p platform) npmOS() string {
	switch p.goos {
	case "linux", "darwin":
		return p.goos
	case "windows":
		return "win32"
	}
	return ""
}

func (p platform) npmCPU() string {
	switch p.goarch {
	case "amd64":
		return "x64"
	case "arm64":
		return "arm64"
	}
	return ""
}

// release is what one run packages.
type release struct {
	version   string
	dist      string
	platforms []platform
	// mtime is every archived file's time, so that the same binaries give
	// the same archives (the release script passes the commit's time).
	mtime time.Time
	// downloadURL is the folder of the archives, for the formula.
	downloadURL string
	// root is the repository's root folder (README.md, LICENSE,
	// THIRD_PARTY_NOTICES, npm/).
	root string
}

func main() {
	version := flag.String("version", "", "the release version, as 0.2.0 (required)")
	dist := flag.String("dist", "dist", "the folder holding build/OS_ARCH/ and receiving the release")
	mtime := flag.Int64("mtime", 0, "the archived files' time, in seconds since 1970 (the commit's)")
	download := flag.String("download-url", "", "where the archives are published (default: the GitHub release of vVERSION)")
	notices := flag.Bool("notices", false, "print "+noticesFile+" as it should be, and do nothing else")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: releasetool -version VERSION [-dist DIR] [-mtime SECONDS] [-download-url URL] OS/ARCH...")
		fmt.Fprintln(os.Stderr, "       releasetool -notices > "+noticesFile)
		flag.PrintDefaults()
	}
	flag.Parse()
	if *notices {
		b, err := buildNotices(".")
		if err != nil {
			fmt.Fprintln(os.Stderr, "releasetool:", err)
			os.Exit(1)
		}
		os.Stdout.Write(b)
		return
	}
	if !semver.MatchString(*version) || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	r := release{version: *version, dist: *dist, mtime: time.Unix(*mtime, 0).UTC(), downloadURL: *download, root: "."}
	if r.downloadURL == "" {
		r.downloadURL = repoURL + "/releases/download/v" + r.version
	}
	for _, a := range flag.Args() {
		p, err := parsePlatform(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, "releasetool:", err)
			os.Exit(2)
		}
		r.platforms = append(r.platforms, p)
	}
	if err := checkNotices(r.root); err != nil {
		fmt.Fprintln(os.Stderr, "releasetool:", err)
		os.Exit(1)
	}
	if err := r.run(); err != nil {
		fmt.Fprintln(os.Stderr, "releasetool:", err)
		os.Exit(1)
	}
}

// run writes the archives and their checksums, then the manifests made
// from them.
func (r release) run() error {
	sums, err := r.writeArchives()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(r.dist, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		return err
	}
	formula, err := r.formula(sums)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(r.dist, "zumba.rb"), []byte(formula), 0o644); err != nil {
		return err
	}
	server, err := r.serverJSON()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(r.dist, "server.json"), server, 0o644); err != nil {
		return err
	}
	return r.writeNPM()
}

// binary is the path of a platform's built binary.
func (r release) binary(p platform) string {
	return filepath.Join(r.dist, "build", p.goos+"_"+p.goarch, p.exe())
}
