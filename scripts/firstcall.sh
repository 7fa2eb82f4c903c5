#!/usr/bin/env bash
# scripts/firstcall.sh: the first call of every tool on a cold server, on
# each tree, over stdio and over Streamable HTTP (2026-07-28, no session),
# each beside the goal of 4.5 s (issue 41, item 4). Runs from a fresh
# clone: it builds zumba and scripts/firstcall from this checkout.
#
#   scripts/firstcall.sh [DIR...]     (default: $(go env GOROOT)/src)
#
# Each DIR is copied into a temporary git repository (one commit); then 500
# of its source files get an edit inside a function (their first "\treturn "
# line), so that changes has a 500-file uncommitted change to read. Each
# call has its own server and an empty disk cache: what an agent meets in a
# task's fresh worktree. A Linux tree (kernel/sched/core.c) gets the Linux
# names, any other tree the Go standard library's; Debian's linux-source
# ends its .gitignore with "/*" and "!/debian/", which leave every file
# out: the copy drops those two lines.
#
# Environment: REPO=DIR (use this git repository as it is, edits and all,
# instead of copying), TRANSPORTS=stdio,http, BENCH_OUT=DIR (keep the raw
# output there). The machine should be quiet: the figures are wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zumba-firstcall.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
OUT=${BENCH_OUT:-$WORK/out}
mkdir -p "$OUT" "$WORK/bin"
TRANSPORTS=${TRANSPORTS:-stdio,http}

echo "== building zumba and firstcall" >&2
go build -o "$WORK/bin/zumba" ./cmd/zumba
go build -o "$WORK/bin/firstcall" ./scripts/firstcall

prepare() { # SRC REPO: SRC copied into the git repository REPO, 500 files edited
  local src=$1 repo=$2
  echo "== copying $src into a git repository" >&2
  cp -r "$src" "$repo"
  if [ -f "$repo/.gitignore" ] && grep -qx '!/debian/' "$repo/.gitignore"; then
    sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$repo/.gitignore"
  fi
  local G=(git -C "$repo" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false -c core.hooksPath=/dev/null)
  "${G[@]}" init -q
  "${G[@]}" add -A
  "${G[@]}" commit -q -m base
  "${G[@]}" ls-files '*.go' '*.c' | grep -v -e '_test\.go$' -e '/testdata/' | sort |
    while read -r f; do grep -q $'^\treturn ' "$repo/$f" && echo "$f"; done >"$WORK/candidates"
  local total step
  total=$(wc -l <"$WORK/candidates")
  step=$((total / 500))
  [ "$step" -ge 1 ] || step=1
  awk -v s="$step" 'NR % s == 0' "$WORK/candidates" | head -500 >"$WORK/edited"
  while read -r f; do
    sed -i '0,/^\treturn /s//\treturn \/* edited *\/ /' "$repo/$f"
  done <"$WORK/edited"
  echo "== $(wc -l <"$WORK/edited") files edited: $("${G[@]}" diff --shortstat)" >&2
}

[ $# -gt 0 ] || set -- "$(go env GOROOT)/src"
i=0
for src in "$@"; do
  i=$((i + 1))
  if [ -n "${REPO:-}" ]; then
    repo=$REPO
  else
    repo="$WORK/tree$i"
    prepare "$src" "$repo"
  fi
  echo "== first calls on $src ($(find "$repo" -type f -not -path '*/.git/*' | wc -l) files), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "$WORK/bin/firstcall" -server "$WORK/bin/zumba" -dir "$repo" -transports "$TRANSPORTS" | tee "$OUT/tree$i.tsv"
  [ -n "${REPO:-}" ] || rm -rf "$repo"
done
