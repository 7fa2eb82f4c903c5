#!/usr/bin/env bash
# scripts/worktree_bench.sh: issue 42's figures, each printed beside its goal
# and marked met or missed. Runs from a fresh clone: it builds zumba and
# scripts/benchclient from this checkout.
#
#   scripts/worktree_bench.sh fresh [SRC]    a fresh worktree, twice
#   scripts/worktree_bench.sh poll [SRC]     the polling client
#   scripts/worktree_bench.sh kernels [SRC]  three trees under one folder
#
# SRC defaults to the Go standard library ($(go env GOROOT)/src); Linux 6.12
# is /work/trees/linux or /usr/src/linux-source-6.12.
#
# fresh: SRC is copied to A and a server started on A at once, with an
#   empty cache, until its index is complete; then SRC is copied to B and
#   a server started on B at once, with the same cache. B's files are as
#   new as A's were (a task's fresh `git worktree add`), so only the store
#   can serve them. Goal: B's index complete in at most 15% of A's time
#   (each the server's own "index complete ... in N ms"), from the store.
# poll: two servers on SRC, each with an empty cache: one left alone, one
#   asked POLL (find_symbol:err, or find_symbol:ret on a tree with a
#   Makefile at its top) from its start until its index is complete, 50 ms
#   after each answer (as an agent retrying a partial answer does). Goals:
#   the polled index complete within 1.3 times the undisturbed one, and
#   every polling call answered within the partial-answer bound
#   (benchclient's -poll-bound, 3.85 s).
# kernels: SRC copied three times under one folder (~5 GB for Linux), one
#   server with an empty cache on the folder: the first complete
#   find_references of RARE (tcp_v4_connect) and find_symbol of RARE, the
#   peak resident set to the complete index, and the time to it beside
#   `ctags -R` on the same folder. Goals: 5 s, 10 s, 1.2 GB, 1.5 x ctags.
#   With KERNELS=DIR, DIR is the folder of the three trees, used as it
#   is (copied before, e.g. outside the time a CPU lock is held).
#
# Environment: POLL=TOOL:NAME, RARE=NAME, KERNELS=DIR, READY_WAIT=60m, CTAGS_RUNS=1
# (0 skips ctags), WORKDIR (default $TMPDIR or /tmp: fresh and kernels need
# two and three times SRC's size), BENCH_OUT=DIR (keep the logs there).
# Timings quoted from it run on a quiet machine (or under the exclusive CPU
# lock); say the load beside them.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

usage() { echo "usage: scripts/worktree_bench.sh fresh|poll|kernels [SRC]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
MODE=$1
SRC=${2:-$(go env GOROOT)/src}
[ -d "$SRC" ] || { echo "scripts/worktree_bench.sh: not a folder: $SRC" >&2; exit 2; }
SRC=$(realpath "$SRC")
READY_WAIT=${READY_WAIT:-60m}
CTAGS_RUNS=${CTAGS_RUNS:-1}
if [ -f "$SRC/Makefile" ] && [ -d "$SRC/kernel" ]; then
  POLL=${POLL:-find_symbol:ret}
else
  POLL=${POLL:-find_symbol:err}
fi
RARE=${RARE:-tcp_v4_connect}
WORK=$(mktemp -d "${WORKDIR:-${TMPDIR:-/tmp}}/zumba-worktree-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
OUT=${BENCH_OUT:-$WORK/out}
mkdir -p "$OUT" "$WORK/bin"

echo "== building zumba" >&2
go build -o "$WORK/bin/zumba" ./cmd/zumba
go build -o "$WORK/bin/benchclient" ./scripts/benchclient
# The server's stderr goes to benchclient and to $ZLOG, through a tee that
# is no child of the server's (benchclient reads the memory of the last
# process of the chain).
cat >"$WORK/bin/teeerr" <<'SH'
#!/usr/bin/env bash
f="$ZLOG.fifo"
rm -f "$f" && mkfifo "$f"
( tee -a "$ZLOG" <"$f" >&2 & )
exec "$@" 2>"$f"
SH
chmod +x "$WORK/bin/teeerr"

# copy SRC DEST: as a checkout is made (new files), dropping the rules of
# Debian's linux-source packaging that leave every file of the tree out.
copy() {
  cp -r "$1" "$2"
  if [ -f "$2/.gitignore" ] && grep -qx '!/debian/' "$2/.gitignore"; then
    sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$2/.gitignore"
  fi
}

# serve NAME DIR CACHE [benchclient flags]: one server on DIR with
# XDG_CACHE_HOME=CACHE until its index is complete; its output in
# $OUT/NAME.out, its stderr in $OUT/NAME.log.
serve() {
  local name=$1 dir=$2 cache=$3
  shift 3
  export ZLOG="$OUT/$name.log"
  : >"$ZLOG"
  XDG_CACHE_HOME="$cache" "$WORK/bin/benchclient" -server "$WORK/bin/zumba" -dir "$dir" -wrap "$WORK/bin/teeerr" \
    -ready-wait "$READY_WAIT" -ping 0 "$@" >"$OUT/$name.out"
  sleep 0.5 # tee's last lines
}
ready() { awk '$1=="log" && $2=="ready" {print $3}' "$OUT/$1.out"; }
peak() { awk '$1=="rss" && $2=="ready" {print $3}' "$OUT/$1.out"; }
complete() { grep -o 'index complete: .*' "$OUT/$1.log" | head -1 || echo "index complete: n/a"; }
# took NAME: the server's own time to its complete index (its log's "in N ms").
took() { complete "$1" | sed -n 's/.* in \([0-9]*\) ms.*/\1/p'; }
# row WHAT VALUE GOAL MET: one figure beside its goal; MET is 1, 0 or "".
row() {
  local mark="n/a"
  case $4 in 1) mark=met ;; 0) mark=MISSED ;; esac
  printf '%-58s %14s   goal %-16s %s\n' "$1" "$2" "$3" "$mark"
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || a == "n/a") print ""; else print (a + 0 <= b + 0) ? 1 : 0 }'; }
echo "load before: $(uptime | sed 's/.*load/load/')"

case $MODE in
fresh)
  copy "$SRC" "$WORK/A"
  serve first "$WORK/A" "$WORK/cache"
  copy "$SRC" "$WORK/B"
  serve second "$WORK/B" "$WORK/cache"
  a=$(took first) b=$(took second)
  echo "first:  $(complete first); ready $(ready first) ms from the start, peak $(peak first) MiB"
  echo "second: $(complete second); ready $(ready second) ms from the start, peak $(peak second) MiB"
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 > 0 && b != "n/a") printf "%.3f", b / a; else print "n/a" }')
  row "fresh worktree: second copy's time / first's" "$ratio" "<= 0.15" "$(le "$ratio" 0.15)"
  ;;
poll)
  serve alone "$SRC" "$WORK/cache-alone"
  serve polled "$SRC" "$WORK/cache-polled" -poll "$POLL"
  a=$(took alone) b=$(took polled)
  read -r _ tool name calls partial med max over at < <(grep '^poll' "$OUT/polled.out")
  echo "undisturbed: $(complete alone); ready $(ready alone) ms from the start"
  echo "polled:      $(complete polled); ready $(ready polled) ms from the start"
  echo "polling $tool $name: $calls calls ($partial partial), median $med ms, slowest $max ms, first complete answer at $at ms"
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 > 0 && b != "n/a") printf "%.3f", b / a; else print "n/a" }')
  row "polling client: complete index, polled / undisturbed" "$ratio" "<= 1.3" "$(le "$ratio" 1.3)"
  row "polling client: calls over the partial-answer bound" "$over of $calls" "0" "$([ "$over" = 0 ] && echo 1 || echo 0)"
  ;;
kernels)
  TREES=${KERNELS:-$WORK/trees}
  if [ -z "${KERNELS:-}" ]; then
    mkdir -p "$TREES"
    for t in a b c; do copy "$SRC" "$TREES/$t"; done
  fi
  ctags_ms=n/a
  if [ "$CTAGS_RUNS" -gt 0 ] && command -v ctags >/dev/null; then
    s=$(date +%s%N)
    (cd "$TREES" && ctags -R -f "$WORK/tags" . 2>/dev/null) || true
    ctags_ms=$((($(date +%s%N) - s) / 1000000))
    rm -f "$WORK/tags"
  fi
  serve kernels "$TREES" "$WORK/cache" -cold "find_references:$RARE,find_symbol:$RARE" -cold-limit 10m
  refs=$(awk -v n="$RARE" '$1=="step" && $2=="find_references" && $3==n {print $6}' "$OUT/kernels.out")
  sym=$(awk -v n="$RARE" '$1=="step" && $2=="find_symbol" && $3==n {print $6}' "$OUT/kernels.out")
  r=$(ready kernels) p=$(peak kernels)
  echo "three trees: $(complete kernels); ready $r ms from the start, peak $p MiB; ctags -R $ctags_ms ms"
  row "three trees: first complete find_references $RARE (ms)" "$refs" "<= 5000" "$(le "$refs" 5000)"
  row "three trees: first complete find_symbol $RARE (ms)" "$sym" "<= 10000" "$(le "$sym" 10000)"
  row "three trees: peak RSS to the complete index (MiB)" "$p" "<= 1144" "$(le "$p" 1144)"
  ratio=$(awk -v a="$ctags_ms" -v b="$(took kernels)" 'BEGIN { if (a + 0 > 0 && b != "n/a") printf "%.3f", b / a; else print "n/a" }')
  row "three trees: complete index / ctags -R" "$ratio" "<= 1.5" "$(le "$ratio" 1.5)"
  ;;
*) usage ;;
esac
echo "load after: $(uptime | sed 's/.*load/load/')"
