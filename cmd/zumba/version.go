package main

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/zumba-dev/zumba/mcpserver"
)

// version and commit are stamped by scripts/release.sh with
// -ldflags "-X main.version=... -X main.commit=...". A build without them
// (go install, go build in a checkout) takes what Go recorded in the
// binary; see appVersion and appCommit.
var (
	version string
	commit  string
)

// releaseTag is a module version that names a tag, not a pseudo-version
// (v0.0.0-20261203155539-6463a3b15e8c) or a dirty checkout (+dirty).
var releaseTag = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)
var pseudoVersion = regexp.MustCompile(`[0-9]{14}-[0-9a-f]{12}$`)

// init settles the version before any command runs, so that `zumba
// version` and initialize's serverInfo.version agree.
func init() {
	mcpserver.Version = appVersion(version, buildInfo())
}

// appVersion is zumba's version: the release script's stamp, else the tag
// that `go install github.com/zumba-dev/zumba/cmd/zumba@vX.Y.Z` built,
// else the source's own (mcpserver.Version).
func appVersion(stamp string, info *debug.BuildInfo) string {
	if stamp != "" {
		return stamp
	}
	if info != nil {
		v := info.Main.Version
		if releaseTag.MatchString(v) && !pseudoVersion.MatchString(v) {
			return strings.TrimPrefix(v, "v")
		}
	}
	return mcpserver.Version
}

// appCommit is the commit zumba was built from: the stamp, else the one Go
// recorded from the checkout ("-dirty" when it had changes), else
// "unknown" (go install of a module version records none).
func appCommit(stamp string, info *debug.BuildInfo) string {
	if stamp != "" {
		return stamp
	}
	if info == nil {
		return "unknown"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "-dirty"
		}
	}
	if rev == "" {
		return "unknown"
	}
	return rev + dirty
}

func buildInfo() *debug.BuildInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return info
}

// runVersion prints the version (which initialize also reports as
// serverInfo.version), the commit, and the Go version and platform.
func runVersion(args []string) int {
	if len(args) > 0 {
		return usageError("version takes no arguments")
	}
	info := buildInfo()
	fmt.Printf("zumba %s\ncommit %s\n%s %s/%s\n", mcpserver.Version, appCommit(commit, info), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}
