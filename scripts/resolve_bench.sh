#!/usr/bin/env bash
# scripts/resolve_bench.sh: issue 45's speed and memory figures for
# find_references of one definition (a qualified name), from a complete
# index of GOSRC (default: the Go tree's src), in process: each name's
# warm calls, the median and p99 over all calls (goals: 20 ms and 100 ms),
# the heap of the index with and without the resolver's facts (goal: at
# most 15% more), and the heap the resolver holds after the calls.
#
#   scripts/resolve_bench.sh [GOSRC]
#
# Environment: ROUNDS=9 (calls per name), NAMES=a,b (qualified names; the
# default twelve are the test's). Timings: run it alone on the machine
# (here: flock -x /work/cpu.lock scripts/resolve_bench.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=${1:-"$(go env GOROOT)/src"}
[ -d "$SRC" ] || { echo "scripts/resolve_bench.sh: not a folder: $SRC" >&2; exit 2; }
ZUMBA_RESOLVE_TREE="$SRC" ZUMBA_RESOLVE_MEM=1 ZUMBA_RESOLVE_WATCH=1 \
  ZUMBA_RESOLVE_ROUNDS="${ROUNDS:-9}" ZUMBA_RESOLVE_NAMES="${NAMES:-}" \
  go test -count=1 -timeout 30m -run TestResolvedTree -v ./search/ |
  grep -E 'index heap|built in|uses|heap in use|warm resolved' | sed 's/^ *resolved_tree_test.go:[0-9]*: //'
