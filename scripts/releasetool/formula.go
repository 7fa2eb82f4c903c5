package main

import (
	"fmt"
	"strings"
)

// formula is a Homebrew formula installing the prebuilt archive of the
// user's platform: put it in a tap (Formula/zumba.rb) once the archives
// are published at downloadURL.
func (r release) formula(sums checksums) (string, error) {
	var sb strings.Builder
	sb.WriteString(`# Homebrew formula for zumba, written by scripts/release.sh.
class Zumba < Formula
  desc "Code navigation for coding agents over MCP: outlines, symbols, references"
  homepage "` + repoURL + `"
  version "` + r.version + `"
  license "` + licenseID + `"

`)
	n := 0
	for _, goos := range []string{"darwin", "linux"} {
		block := map[string]string{"darwin": "on_macos", "linux": "on_linux"}[goos]
		var arches []string
		for _, arch := range []struct{ goarch, block string }{{"arm64", "on_arm"}, {"amd64", "on_intel"}} {
			p := platform{goos, arch.goarch}
			if !r.has(p) {
				continue
			}
			name := p.archive(r.version)
			sum, ok := sums[name]
			if !ok {
				return "", fmt.Errorf("formula: no checksum of %s", name)
			}
			arches = append(arches, fmt.Sprintf("    %s do\n      url %q\n      sha256 %q\n    end\n", arch.block, r.downloadURL+"/"+name, sum))
			n++
		}
		if len(arches) > 0 {
			sb.WriteString("  " + block + " do\n" + strings.Join(arches, "") + "  end\n\n")
		}
	}
	if n == 0 {
		return "", fmt.Errorf("formula: no macOS or Linux archive among %v", r.platforms)
	}
	sb.WriteString(`  def install
    bin.install "zumba"
    doc.install "README.md"
    prefix.install "LICENSE", "THIRD_PARTY_NOTICES"
  end

  test do
    assert_match "zumba #{version}", shell_output("#{bin}/zumba version")
  end
end
`)
	return sb.String(), nil
}

// has reports whether the release builds p.
func (r release) has(p platform) bool {
	for _, q := range r.platforms {
		if q == p {
			return true
		}
	}
	return false
}
