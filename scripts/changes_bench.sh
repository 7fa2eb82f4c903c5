#!/usr/bin/env bash
# scripts/changes_bench.sh: the latencies of issue 27 through an indexed
# server, each beside its goal and marked met or missed. Runs from a fresh
# clone: it builds zumba and scripts/benchclient from this checkout.
#
#   scripts/changes_bench.sh [GOSRC]     (default: $(go env GOROOT)/src)
#
# 1. changes: GOSRC is copied into a temporary git repository (one commit),
#    then 20 of its Go files get an edit inside a function (the first
#    "\treturn " line of each); `changes` is timed on that work tree.
#    Goal: median <= 300 ms.
# 2. find_references depth 2 on the same tree, for the 24 names of
#    scripts/bench.sh (common to rare). Goals: median <= 50 ms, p99 <= 500 ms
#    (the median and p99 over the names' medians).
#
# 3. With LINUX_GIT=DIR, a git repository of the Linux tree with every file
#    committed (e.g. `cp -r` of Linux 6.12, `git add -A`, `git commit`,
#    `git gc`): 500 of its .c files, spread over the tree, get the same
#    edit; `changes` is timed there (KROUNDS=10 calls), then the edits are
#    undone (git checkout). Goal: median <= 4 s.
#
# All wait for the complete index first (READY_WAIT=30m at most); the
# second server reads the index the first one saved (XDG_CACHE_HOME is the
# run's own). Environment: ROUNDS=20 (changes calls), REF_ROUNDS=5 (calls per
# name), BENCH_OUT=DIR (keep the raw benchclient output there), ZUMBA_BIN=FILE
# (time that zumba binary instead of building this checkout's).
# The machine should be quiet: run it under `nice -n 10` at most.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

SRC=${1:-"$(go env GOROOT)/src"}
[ -d "$SRC" ] || { echo "scripts/changes_bench.sh: not a folder: $SRC" >&2; exit 2; }
ROUNDS=${ROUNDS:-20}
REF_ROUNDS=${REF_ROUNDS:-5}
READY_WAIT=${READY_WAIT:-30m}
NAMES="err,String,ctx,Reader,Errorf,Sprintf,Mutex,Marshal,TrimSpace,NewReader,Itoa,ServeHTTP,WriteHeader,ParseFloat,LookPath,ReadMemStats,QuoteRune,gcMarkDone,findfunc,Getpagesize,readvarint,appendQuotedWith,ParseMediaType,EncodeToString"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zumba-changes-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
OUT=${BENCH_OUT:-$WORK/out}
mkdir -p "$OUT" "$WORK/bin" "$WORK/cache"
export XDG_CACHE_HOME="$WORK/cache"

if [ -n "${ZUMBA_BIN:-}" ]; then
  cp "$ZUMBA_BIN" "$WORK/bin/zumba" # another build, e.g. an earlier commit's
else
  echo "== building zumba" >&2
  go build -o "$WORK/bin/zumba" ./cmd/zumba
fi
go build -o "$WORK/bin/benchclient" ./scripts/benchclient

echo "== copying $SRC into a git repository" >&2
REPO="$WORK/src"
cp -r "$SRC" "$REPO"
G=(git -C "$REPO" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false -c core.hooksPath=/dev/null)
"${G[@]}" init -q
"${G[@]}" add -A
"${G[@]}" commit -q -m base
# 20 files outside tests and testdata, spread over the tree, each with an
# edit on the first "\treturn " line (inside a function).
"${G[@]}" ls-files '*.go' | grep -v -e '_test\.go$' -e '/testdata/' | sort |
  while read -r f; do grep -q $'^\treturn ' "$REPO/$f" && echo "$f"; done >"$WORK/candidates"
total=$(wc -l <"$WORK/candidates")
step=$((total / 20))
awk -v s="$step" 'NR % s == 0' "$WORK/candidates" | head -20 >"$WORK/edited"
while read -r f; do
  sed -i '0,/^\treturn /s//\treturn \/* edited *\/ /' "$REPO/$f"
done <"$WORK/edited"
echo "== $(wc -l <"$WORK/edited") files edited; git diff --stat: $("${G[@]}" diff --shortstat)" >&2

run() { # LABEL ARGS...: benchclient on the repository, raw output kept
  local label=$1
  shift
  echo "== $label" >&2
  "$WORK/bin/benchclient" -server "$WORK/bin/zumba" -dir "$REPO" -ready-wait "$READY_WAIT" -ping 0 "$@" | tee "$OUT/$label.tsv" >&2
}
run changes -tools changes -name-arg path -names '**' -rounds "$ROUNDS"
run depth2 -tools find_references -args '{"depth":2}' -names "$NAMES" -rounds "$REF_ROUNDS"

# 3. With KERNEL=DIR (a Linux source tree, e.g. Debian's linux-source-6.12
#    unpacked under /usr/src): find_references depth 2 there, for kmalloc's
#    less common relatives. Goal: each name's median <= 2 s. Debian's tree
#    ends its .gitignore with "/*" and "!/debian/" (its packaging ignores
#    the sources), which zumba obeys as git does: delete those two lines.
KNAMES="ext4_fill_super,ext4_iget,btrfs_search_slot,xfs_trans_commit,kmem_cache_alloc_node,vmalloc_node"
if [ -n "${KERNEL:-}" ]; then
  echo "== kernel depth 2 ($KERNEL)" >&2
  "$WORK/bin/benchclient" -server "$WORK/bin/zumba" -dir "$KERNEL" -ready-wait "$READY_WAIT" -ping 0 \
    -tools find_references -args '{"depth":2}' -names "$KNAMES" -rounds "$REF_ROUNDS" | tee "$OUT/kernel.tsv" >&2
fi

if [ -n "${LINUX_GIT:-}" ]; then
  LG=(git -C "$LINUX_GIT")
  if [ -n "$("${LG[@]}" status --porcelain --untracked-files=no | head -1)" ]; then
    echo "scripts/changes_bench.sh: $LINUX_GIT has uncommitted changes" >&2
    exit 2
  fi
  (cd "$LINUX_GIT" && git ls-files -z '*.c' | xargs -0 grep -l $'^\treturn ' | LC_ALL=C sort) >"$WORK/kcandidates"
  kstep=$(($(wc -l <"$WORK/kcandidates") / 500))
  awk -v s="$kstep" 'NR % s == 0' "$WORK/kcandidates" | head -500 >"$WORK/kedited"
  trap '(cd "$LINUX_GIT" && xargs git checkout -q -- <"$WORK/kedited"); rm -rf "$WORK"' EXIT
  while read -r f; do
    sed -i '0,/^\treturn /s//\treturn \/* edited *\/ /' "$LINUX_GIT/$f"
  done <"$WORK/kedited"
  echo "== Linux: $(wc -l <"$WORK/kedited") files edited; $("${LG[@]}" diff --shortstat)" >&2
  echo "== Linux changes ($LINUX_GIT)" >&2
  "$WORK/bin/benchclient" -server "$WORK/bin/zumba" -dir "$LINUX_GIT" -ready-wait "$READY_WAIT" -ping 0 \
    -tools changes -name-arg path -names '**' -rounds "${KROUNDS:-10}" | tee "$OUT/kchanges.tsv" >&2
  (cd "$LINUX_GIT" && xargs git checkout -q -- <"$WORK/kedited")
fi

# summary TOOL MEDIAN_MS P99_MS NAMES P99_ALL_MS CALLS
verdict() { # VALUE GOAL
  awk -v v="$1" -v g="$2" 'BEGIN { if (v == "n/a") print "n/a"; else if (v + 0 <= g + 0) print "met"; else print "missed" }'
}
read -r _ _ cmed _ _ cp99 ccalls < <(grep '^summary' "$OUT/changes.tsv")
read -r _ _ dmed dp99 dnames dp99all dcalls < <(grep '^summary' "$OUT/depth2.tsv")
echo
echo "load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
printf 'changes, 20 files edited, %s calls:  median %s ms (goal <= 300: %s), p99 %s ms\n' "$ccalls" "$cmed" "$(verdict "$cmed" 300)" "$cp99"
printf 'find_references depth 2, %s names:  median %s ms (goal <= 50: %s), p99 %s ms (goal <= 500: %s); p99 of all %s calls %s ms\n' \
  "$dnames" "$dmed" "$(verdict "$dmed" 50)" "$dp99" "$(verdict "$dp99" 500)" "$dcalls" "$dp99all"
if [ -n "${LINUX_GIT:-}" ]; then
  read -r _ _ lmed _ _ lp99 lcalls < <(grep '^summary' "$OUT/kchanges.tsv")
  printf 'changes on Linux, 500 files edited, %s calls:  median %s ms (goal <= 4000: %s), p99 %s ms\n' "$lcalls" "$lmed" "$(verdict "$lmed" 4000)" "$lp99"
fi
if [ -n "${KERNEL:-}" ]; then
  read -r _ _ kmed kp99 knames _ kcalls < <(grep '^summary' "$OUT/kernel.tsv")
  printf 'find_references depth 2 on the Linux tree, %s names:  median %s ms, worst name %s ms (goal <= 2000: %s)\n' \
    "$knames" "$kmed" "$kp99" "$(verdict "$kp99" 2000)"
fi
