#!/usr/bin/env bash
# scripts/map_quality.sh: how good the map of a folder (outline .) is, on
# pinned projects (issue 28's quality bar): (a) how many of the definition
# names the project's own documentation gives are in the map at the
# default budget (goal >= 60%), and (b) how many of the top 50 of a
# PageRank over the same reference graph (Aider's repo-map method) are in
# the map's top 50, with the largest differences either way. See
# scripts/mapquality/main.go for how each figure is counted. Figures, not
# pass/fail. Runs from a fresh clone: it needs Go (the Go standard library
# and github.com/spf13/cobra from the module proxy), and npm for npm's own
# sources (skipped without it).
#
#   scripts/map_quality.sh
#   PROJECTS="nethttp cobra" scripts/map_quality.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

PROJECTS=${PROJECTS:-"nethttp cobra npm"}
COBRA=${COBRA:-github.com/spf13/cobra@v1.8.1}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zumba-map-quality.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
go build -o "$WORK/mapquality" ./scripts/mapquality

echo "zumba $(git rev-parse --short HEAD 2>/dev/null || echo unknown), go $(go env GOVERSION), $(date -u +%Y-%m-%dT%H:%MZ)"
for p in $PROJECTS; do
  case $p in
  nethttp)
    # The package's documentation is its doc.go comment.
    "$WORK/mapquality" -dir "$(go env GOROOT)/src/net/http" -docs doc.go
    ;;
  cobra)
    dir=$(cd "$WORK" && GOFLAGS=-mod=mod go mod download -json "$COBRA" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
    "$WORK/mapquality" -dir "$dir" -docs 'README.md,site/**/*.md'
    ;;
  npm)
    if ! command -v npm >/dev/null; then
      echo "npm: skipped (no npm)"
      continue
    fi
    "$WORK/mapquality" -dir "$(npm root -g)/npm" -docs 'README.md,docs/**/*.md'
    ;;
  *)
    echo "unknown project $p" >&2
    exit 2
    ;;
  esac
done
