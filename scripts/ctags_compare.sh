#!/usr/bin/env bash
# Compares zumba's C and C++ outlines with universal-ctags over real sources:
# Python's and Node's headers, Go's runtime/cgo, /usr/include and pinned npm
# packages that ship C and C++ (downloaded with `npm pack` into the
# git-ignored scripts/.cache/npm; no install scripts run). Writes the tags
# zumba lacks and the definitions ctags lacks under scripts/.cache/.
#
#   scripts/ctags_compare.sh [DIR...]   # default: the corpus above
set -euo pipefail
cd "$(dirname "$0")/.."

if ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
  echo "ctags_compare: needs universal-ctags (apt-get install -y universal-ctags)" >&2
  exit 1
fi

cache=scripts/.cache
mkdir -p "$cache/npm"
packages=(
  leveldown@6.1.1       # leveldb and snappy, C++
  re2@1.22.1            # re2 and abseil, C++
  nan@2.22.0            # C++ headers
  node-addon-api@8.5.0  # C++ headers
  tree-sitter@0.21.1    # the tree-sitter runtime, C
  lmdb@3.4.2            # LMDB, C and C++
  better-sqlite3@11.10.0
  bufferutil@4.0.8
)

if [ $# -gt 0 ]; then
  go run ./scripts/ctagscompare -misses "$cache/ctags_misses.txt" -extras "$cache/ctags_extras.txt" "$@"
  exit
fi

for p in "${packages[@]}"; do
  d="$cache/npm/${p//@/-}"
  if [ ! -d "$d" ]; then
    (cd "$cache/npm" && npm pack --silent "$p" >/dev/null)
    mkdir -p "$d" && tar -xzf "$cache/npm/${p//@/-}.tgz" -C "$d"
  fi
done

# One run per source, so that the system headers (many, and full of
# macros) do not hide how the others fare.
run() {
  local name=$1; shift
  echo "== $name"
  go run ./scripts/ctagscompare -misses "$cache/ctags_misses_$name.txt" -extras "$cache/ctags_extras_$name.txt" "$@"
}

py=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["include"])' 2>/dev/null || true)
[ -n "$py" ] && [ -d "$py" ] && run python "$py"
run go-cgo "$(go env GOROOT)/src/runtime/cgo"
# Node's headers: its own, V8's and libuv's; OpenSSL once, not per arch.
if [ -d /usr/include/node ]; then
  node=()
  for f in /usr/include/node/*; do
    [ "$(basename "$f")" = openssl ] || node+=("$f")
  done
  run node "${node[@]}" /usr/include/node/openssl/archs/linux-x86_64/asm/include
fi
run npm "$cache/npm"
# The system headers, without the copies of Node and Python above.
sys=()
for f in /usr/include/*; do
  case "$(basename "$f")" in node|python3*) ;; *) sys+=("$f") ;; esac
done
run usr-include "${sys[@]}"
