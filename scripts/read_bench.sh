#!/usr/bin/env bash
# scripts/read_bench.sh: what it costs an agent, in bytes read, to see one
# definition's source (grep and a whole file, grep and a 100-line read,
# find_symbol + outline + read, read_symbol, the definition's own lines),
# and read_symbol's latency through the indexed server. Figures, not
# pass/fail; see scripts/readbench/main.go for what each column counts.
# Runs from a fresh clone: it needs Go, and node and npm for the
# TypeScript tree (skipped without them).
#
#   scripts/read_bench.sh                 the Go standard library and rxjs
#   TREES=go scripts/read_bench.sh        only the Go standard library
#   N=60 SEED=1 ROUNDS=5                  tasks per tree, random seed, calls per task
#   GO_TREE=DIR TS_PKG=name@version       other trees (TS_PKG's src/ when it has one)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

TREES=${TREES:-"go ts"}
N=${N:-60}
SEED=${SEED:-1}
ROUNDS=${ROUNDS:-5}
TS_PKG=${TS_PKG:-rxjs@7.8.1}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zumba-read-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# The server's disk cache goes to the scratch folder, not the user's.
export XDG_CACHE_HOME=$WORK/cache

echo "== building zumba and readbench" >&2
go build -o "$WORK/zumba" ./cmd/zumba
go build -o "$WORK/readbench" ./scripts/readbench

echo "zumba $("$WORK/zumba" version) ($(git rev-parse --short HEAD 2>/dev/null || echo unknown)), $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a), $(date -u +%Y-%m-%dT%H:%MZ)"

for t in $TREES; do
  case $t in
  go)
    dir=${GO_TREE:-$(go env GOROOT)/src}
    echo "== Go: $dir" >&2
    "$WORK/readbench" -server "$WORK/zumba" -dir "$dir" -lang go -n "$N" -seed "$SEED" -rounds "$ROUNDS"
    ;;
  ts)
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
      echo "== TypeScript skipped: node and npm are needed" >&2
      continue
    fi
    echo "== TypeScript: $TS_PKG" >&2
    (cd scripts/tsdiff && { [ -d node_modules/typescript ] || npm ci --no-audit --no-fund --silent; })
    (cd "$WORK" && npm pack "$TS_PKG" --silent >/dev/null && mkdir pkg && tar -xzf ./*.tgz -C pkg)
    # The package's sources: an npm tarball has no .gitignore, so its build
    # output (dist/: each function again as cjs, esm, esm5 and .d.ts) would
    # be searched too, as it is not in the project an agent works in.
    dir=$WORK/pkg/package
    [ -d "$dir/src" ] && dir=$dir/src
    find "$dir" -type f \( -name '*.ts' -o -name '*.tsx' \) ! -name '*.d.ts' | sort |
      node scripts/tsdiff/outline.js --extents >"$WORK/ts-extents.jsonl"
    "$WORK/readbench" -server "$WORK/zumba" -dir "$dir" -lang ts -truth "$WORK/ts-extents.jsonl" \
      -n "$N" -seed "$SEED" -rounds "$ROUNDS"
    ;;
  *) echo "unknown tree $t" >&2; exit 2 ;;
  esac
done
