#!/usr/bin/env bash
# scripts/roots_mem.sh: issue 31 part 2's memory goal, "a second root that
# shares most files with the first costs <= 25% of the first's resident
# memory". Runs from a fresh clone: it builds zumba from this checkout.
#
#   scripts/roots_mem.sh [SRC]     (default: $(go env GOROOT)/src)
#
# SRC is copied (cp -a) to A and B under a temporary folder with its own
# XDG_CACHE_HOME, and A is indexed alone once, to fill the store of
# records by content. Then, RUNS times each:
#   (a) `zumba mcp A`
#   (b) `zumba mcp A B`, B's snapshot removed first (a new checkout: its
#       records all come from the store)
# each until every root's index is complete (its stderr's "index
# complete" lines), and its resident set (VmRSS) read 3 s later. Prints
# the medians: one root, two roots, the second's cost and its share of
# the first's.
# Environment: RUNS=3, SETTLE=3 (seconds after completion), WORKDIR
# (default $TMPDIR or /tmp: it needs twice SRC's size), BENCH_OUT=DIR
# (keep the logs there).
#
# Figures (GOROOT/src of Go 1.26, 11,452 files; 2 cores shared with other
# work, load 1.5-5; one root / two roots / the second's cost):
#   before (5879875): 62.8 / 92.6 MiB: 29.8 MiB, 47%. Until 94c67eb an
#     index returned its garbage to the system only from 64 MB of heap,
#     which two roots cross or not (with the sharing below, two roots
#     measured 74 or 87-89 MiB from run to run). The same commit with
#     that threshold at 16 MB, as since 94c67eb, stable: 55.3 / 90.7 MiB:
#     35.4 MiB, 64%
#   one word table and one copy of each record for all roots (8388ce9,
#     5943363), the 16 MB threshold (94c67eb), postings offsets only for
#     keys with files (c3f8c8c): 53.3 / 69.4 MiB: 16.1 MiB, 30%
#     (the second's live heap is ~11 MB, 60% of it its postings)
#   the postings' bases in blocks of 256 keys, each held once for all
#     roots with the same bytes (load 3-4; the same build before it:
#     54.8 / 70.7 MiB, 15.9 MiB, 29%): 53.8 / 62.0 MiB: 8.2 MiB, 15%
#   a file re-read with its record's bytes keeps its record and id, and
#     a root sharing its blocks keeps a few edits out of them (load 2.6-4):
#     54.3 / 61.7 MiB: 7.4 MiB, 14%
#   main bf8676f, with 717edbe and d00cf3a, which made one root smaller
#     and two roots no smaller (load 1.7-3.3): 48.0 / 57.2 MiB: 9.2 MiB, 19%
#     (live heap after the last collection: 30 / 36 MB; the second's 6 MB
#     are its file records, path map and strings, watcher, and the unique
#     maps' entries of the shared records and blocks)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

SRC=${1:-$(go env GOROOT)/src}
[ -d "$SRC" ] || { echo "scripts/roots_mem.sh: not a folder: $SRC" >&2; exit 2; }
RUNS=${RUNS:-3}
SETTLE=${SETTLE:-3}
WORK=$(mktemp -d "${WORKDIR:-${TMPDIR:-/tmp}}/zumba-roots-mem.XXXXXX")
OUT=${BENCH_OUT:-$WORK/out}
pid= hold=
cleanup() {
  for p in $pid $hold; do kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$OUT" "$WORK/bin" "$WORK/cache"

echo "== building zumba" >&2
go build -o "$WORK/bin/zumba" ./cmd/zumba
# After the build: Go's build cache is under it too.
export XDG_CACHE_HOME="$WORK/cache"

echo "== copying $SRC" >&2
cp -a "$SRC" "$WORK/A"
cp -a "$SRC" "$WORK/B"

# serve NAME DIR...: a server on DIRs until each index is complete; prints
# its resident set in MiB SETTLE seconds later.
serve() {
  local name=$1
  shift
  local log="$OUT/$name.log" want=$# deadline=$((SECONDS + 1800))
  : >"$log"
  # Its input stays open (the sleep's end of a pipe) until it is stopped.
  rm -f "$WORK/in" && mkfifo "$WORK/in"
  sleep 100000 >"$WORK/in" &
  hold=$!
  "$WORK/bin/zumba" mcp "$@" <"$WORK/in" >/dev/null 2>"$log" &
  pid=$!
  until [ "$(grep -c 'index complete' "$log" || true)" -ge "$want" ]; do
    if ! kill -0 "$pid" 2>/dev/null || [ $SECONDS -gt $deadline ]; then
      echo "scripts/roots_mem.sh: $name: the server stopped or took too long; see $log" >&2
      exit 1
    fi
    sleep 0.2
  done
  sleep "$SETTLE"
  local rss
  rss=$(awk '$1=="VmRSS:" {printf "%.1f", $2/1024}' "/proc/$pid/status")
  kill "$pid" "$hold"
  wait "$pid" "$hold" 2>/dev/null || true
  pid= hold=
  echo "$name: $(grep -o 'index complete: .*' "$log" | paste -sd ';' -); rss $rss MiB" >&2
  echo "$rss"
}

snapshot() { rm -rf "$XDG_CACHE_HOME/zumba/$(printf '%s' "$(realpath -m "$1")" | sha256sum | cut -c1-32)"; }

echo "== filling the store from A" >&2
serve fill "$WORK/A" >/dev/null

for r in $(seq 1 "$RUNS"); do
  serve "one$r" "$WORK/A" >>"$OUT/one"
  snapshot "$WORK/B"
  serve "two$r" "$WORK/A" "$WORK/B" >>"$OUT/two"
done

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else print a[int((NR+1)/2)]}'; }
one=$(median <"$OUT/one")
two=$(median <"$OUT/two")
echo "one root: median $one MiB ($(paste -sd ' ' "$OUT/one"))"
echo "two roots: median $two MiB ($(paste -sd ' ' "$OUT/two"))"
awk -v a="$one" -v b="$two" 'BEGIN{printf "second root: %.1f MiB, %.0f%% of the first (goal <= 25%%)\n", b-a, 100*(b-a)/a}'
echo "load: $(uptime)"
