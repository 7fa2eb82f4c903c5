#!/usr/bin/env bash
# scripts/store_bench.sh: issue 31 part 1, a second checkout served from the
# store of records by content. Runs from a fresh clone: it builds zumba and
# scripts/benchclient from this checkout.
#
#   scripts/store_bench.sh [SRC]     (default: /usr/src/linux-source-6.12)
#
# 1. SRC is copied (cp -a) to A and indexed by a server (the cold build).
# 2. ROUNDS times: A is copied to B, 20 files of B spread over the tree
#    get a new last line (a comment naming the round), and a server on B
#    runs until its index is complete. Goals: complete in <= 10 s, peak
#    resident set <= 500 MiB, the cache folder grows by <= 5% for B.
#    (Each round removes B and its snapshot; the store keeps the 20 files
#    B added, so every round adds 20 new ones.)
# 3. A restart on the last B (its own snapshot, nothing changed).
#
# Prints, per server, its stderr's "index complete" line, the time to it
# and the peak resident set (benchclient's "log ready" and "rss ready"),
# its CPU time (user+sys, /usr/bin/time), and the cache folder's size; a
# summary with the medians over the rounds last.
# Environment: ROUNDS=3, READY_WAIT=60m, WORKDIR (default $TMPDIR or /tmp:
# it needs three times SRC's size), BENCH_OUT=DIR (keep the logs there).
# The machine should be quiet: run it under `nice -n 10` at most.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

SRC=${1:-/usr/src/linux-source-6.12}
[ -d "$SRC" ] || { echo "scripts/store_bench.sh: not a folder: $SRC" >&2; exit 2; }
ROUNDS=${ROUNDS:-3}
READY_WAIT=${READY_WAIT:-60m}
WORK=$(mktemp -d "${WORKDIR:-${TMPDIR:-/tmp}}/zumba-store-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
OUT=${BENCH_OUT:-$WORK/out}
mkdir -p "$OUT" "$WORK/bin" "$WORK/cache"

echo "== building zumba" >&2
go build -o "$WORK/bin/zumba" ./cmd/zumba
go build -o "$WORK/bin/benchclient" ./scripts/benchclient
# After the builds: Go's build cache is under it too.
export XDG_CACHE_HOME="$WORK/cache"
# The server's stderr goes to benchclient and to $ZLOG, through a tee that
# is no child of the server's (benchclient reads the memory of the last
# process of the chain).
cat >"$WORK/bin/teeerr" <<'SH'
#!/usr/bin/env bash
f="$ZLOG.fifo"
rm -f "$f" && mkfifo "$f"
( tee -a "$ZLOG" <"$f" >&2 & )
# The server's CPU time over its life (the machine's load stretches the
# wall-clock figures; this one it does not).
exec /usr/bin/time -f "%U %S" -o "$ZLOG.cpu" "$@" 2>"$f"
SH
chmod +x "$WORK/bin/teeerr"

cachesize() { du -sb "$XDG_CACHE_HOME/zumba" | cut -f1; }

# serve NAME DIR: one server on DIR until its index is complete.
serve() {
  export ZLOG="$OUT/$1.log"
  : >"$ZLOG"
  "$WORK/bin/benchclient" -server "$WORK/bin/zumba" -dir "$2" -wrap "$WORK/bin/teeerr" \
    -ready-wait "$READY_WAIT" -ping 0 -idle 3s >"$OUT/$1.out"
  sleep 0.5 # tee's last lines
  local line ready rss
  line=$(grep -o 'index complete: .*' "$ZLOG" || echo "index complete: n/a")
  ready=$(awk '$1=="log" && $2=="ready" {print $3}' "$OUT/$1.out")
  rss=$(awk '$1=="rss" && $2=="ready" {print $3}' "$OUT/$1.out")
  local cpu
  cpu=$(awk '{printf "%.1f", $1 + $2}' "$ZLOG.cpu" 2>/dev/null || echo n/a)
  echo "$1: $line; ready ${ready} ms; peak rss ${rss} MiB; cpu ${cpu} s (user+sys, whole life); cache $(cachesize) bytes"
  echo "$1 $ready $rss $cpu" >>"$OUT/figures"
}

echo "== copying $SRC" >&2
cp -a "$SRC" "$WORK/A"
# Debian's linux-source packages (6.12.118 and later) end the tree's top
# .gitignore with their packaging repository's "/*" and "!/debian/", which
# leave every file of the tree out (zumba follows .gitignore as git does,
# repository or not): the copy drops them, as the upstream tree has none.
if [ -f "$WORK/A/.gitignore" ] && grep -qx '!/debian/' "$WORK/A/.gitignore"; then
  sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$WORK/A/.gitignore"
  echo "   (dropped Debian's packaging rules /* and !/debian/ from the copy's .gitignore)" >&2
fi
serve cold "$WORK/A"
base=$(cachesize)

for r in $(seq 1 "$ROUNDS"); do
  rm -rf "$WORK/B"
  # B's snapshot of the last round (its folder is named by a hash of its
  # real path): B is a new checkout each round.
  rm -rf "$XDG_CACHE_HOME/zumba/$(printf '%s' "$(realpath -m "$WORK/B")" | sha256sum | cut -c1-32)"
  before=$(cachesize)
  cp -a "$WORK/A" "$WORK/B"
  (cd "$WORK/B" && find . -type f \( -name '*.c' -o -name '*.go' \) | sort >"$OUT/candidates")
  awk -v s="$(($(wc -l <"$OUT/candidates") / 20))" 'NR % s == 0' "$OUT/candidates" | head -20 >"$OUT/edited"
  while read -r f; do printf '\n// store bench round %d\n' "$r" >>"$WORK/B/$f"; done <"$OUT/edited"
  serve "second$r" "$WORK/B"
  after=$(cachesize)
  echo "second$r: cache grew by $((after - before)) bytes, $(awk -v a="$after" -v b="$before" 'BEGIN{printf "%.2f", 100*(a-b)/b}')% (edited $(wc -l <"$OUT/edited") files)"
  echo "growth$r $(awk -v a="$after" -v b="$before" 'BEGIN{printf "%.2f", 100*(a-b)/b}')" >>"$OUT/figures"
done
serve restart "$WORK/B"

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else print a[int((NR+1)/2)]}'; }
echo "== summary over $ROUNDS rounds (cold index: $(awk '$1=="cold"{print $2" ms, "$3" MiB"}' "$OUT/figures"), cache $base bytes)"
echo "second checkout ready: median $(grep '^second' "$OUT/figures" | awk '{print $2}' | median) ms (goal <= 10000)"
echo "second checkout cpu (user+sys): median $(grep '^second' "$OUT/figures" | awk '{print $4}' | median) s"
echo "second checkout peak rss: median $(grep '^second' "$OUT/figures" | awk '{print $3}' | median) MiB (goal <= 500)"
echo "cache growth per checkout: median $(grep '^growth' "$OUT/figures" | awk '{print $2}' | median)% (goal <= 5)"
echo "restart: $(awk '$1=="restart"{print $2" ms, "$3" MiB, cpu "$4" s"}' "$OUT/figures")"
