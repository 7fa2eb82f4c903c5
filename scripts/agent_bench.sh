#!/usr/bin/env bash
# scripts/agent_bench.sh: everyday agent questions over two pinned projects
# (Go: spf13/cobra v1.8.1; TypeScript: rxjs 7.8.1's src/), each answered
# twice: through zumba's CLI twins of the MCP tools, and through rg plus
# 100-line reads. Prints the bytes the agent reads and the calls it makes
# per question, the totals and the zumba/grep ratio of bytes (goal <= 0.5,
# in fewer calls). Figures, not pass/fail, except that a recipe whose
# output lacks the answer stops the run. The questions and recipes are in
# scripts/agentbench/questions.go; how they were chosen in its main.go.
# Runs from a fresh clone: it needs Go (cobra comes from the Go module
# proxy), node's npm (rxjs from the npm registry), rg and git.
#
#   scripts/agent_bench.sh        V=1: every command's output to stderr
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

command -v rg >/dev/null || { echo "scripts/agent_bench.sh: rg (ripgrep) is needed" >&2; exit 2; }
command -v npm >/dev/null || { echo "scripts/agent_bench.sh: npm is needed" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zumba-agent-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# zumba's disk cache goes to the scratch folder, not the user's.
export XDG_CACHE_HOME=$WORK/cache

echo "== building zumba and agentbench" >&2
go build -o "$WORK/zumba" ./cmd/zumba
go build -o "$WORK/agentbench" ./scripts/agentbench

echo "== fetching github.com/spf13/cobra@v1.8.1 and rxjs@7.8.1" >&2
dir=$(cd "$WORK" && GOFLAGS=-mod=mod go mod download -json github.com/spf13/cobra@v1.8.1 |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$dir" ] || { echo "scripts/agent_bench.sh: go mod download gave no folder" >&2; exit 2; }
cp -R "$dir" "$WORK/cobra" && chmod -R u+w "$WORK/cobra"
# A git copy of cobra with one line of stripFlags edited in place (the
# other questions' line numbers hold), for changes.
cp -R "$WORK/cobra" "$WORK/cobra-edit"
(cd "$WORK/cobra-edit" && git init -q && git add -A &&
  git -c user.name=bench -c user.email=bench@example.com commit -qm base &&
  sed 's/^\tcommands := \[\]string{}$/\tcommands := make([]string, 0, len(args))/' command.go >command.go.new &&
  mv command.go.new command.go)
git -C "$WORK/cobra-edit" diff --quiet && { echo "scripts/agent_bench.sh: the edit of cobra's stripFlags did not apply" >&2; exit 2; }
(cd "$WORK" && npm pack rxjs@7.8.1 --silent >/dev/null && mkdir rxjs && tar -xzf rxjs-7.8.1.tgz -C rxjs)

echo "zumba $("$WORK/zumba" version) ($(git rev-parse --short HEAD 2>/dev/null || echo unknown)), $(rg --version | head -1)," \
  "$(date -u +%Y-%m-%dT%H:%MZ)"
v=()
[ -n "${V:-}" ] && v=(-v)
"$WORK/agentbench" -zumba "$WORK/zumba" -go "$WORK/cobra" -goedit "$WORK/cobra-edit" -ts "$WORK/rxjs/package/src" ${v[@]+"${v[@]}"}
