#!/usr/bin/env bash
# Checks a release that scripts/release.sh wrote: every binary's format and
# architecture (TestReleaseBinaries), then each binary that this machine
# can run — natively, linux/arm64 under qemu-user, windows/amd64 under
# wine — answers `zumba version` and the README's quick start as the README
# shows. macOS binaries cannot run here: their headers, code signature and
# libraries are what is checked.
#
#   scripts/release_check.sh [DIST]        (default dist/)
# Debian packages for the emulators: qemu-user, wine64.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
dist=$(cd "${1:-dist}" && pwd)

failed=0
echo "== headers"
ZUMBA_RELEASE_DIST="$dist" go test -count=1 -run TestReleaseBinaries -v ./scripts/releasetool/ | grep -E '^\s+e2e_test|^(ok|FAIL|---)' || failed=1

request='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"outline","arguments":{"path":"cmd/zumba/main.go"}}}'
want=$(grep -m1 -E '^    \{"jsonrpc":"2.0","id":1,"result"' README.md | sed 's/^    //')
version=$(sed -n 's/.*"version": "\(.*\)",/\1/p' "$dist/server.json" | head -1)

# check NAME RUNNER... runs one binary through RUNNER (empty: natively).
check() {
  local name="$1"; shift
  local start=$SECONDS got
  if ! got=$("$@" version 2>&1 | head -1 | tr -d '\r') || [ "$got" != "zumba $version" ]; then
    echo "FAIL $name: zumba version said '$got'; want 'zumba $version'"; failed=1; return
  fi
  got=$(printf '%s\n' "$request" | "$@" mcp . 2>/dev/null | tr -d '\r')
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: the quick start answered $got"; failed=1; return
  fi
  echo "ok   $name: zumba version and the quick start ($((SECONDS - start)) s)"
}

# wine_prefix makes a Wine prefix that can start Go programs: Go (1.22 on)
# loads ProcessPrng from system32's bcryptprimitives.dll, which Debian 12's
# Wine 8.0 lacks; a stub calling RtlGenRandom stands in, in this prefix
# only (it is no part of the release).
wine_prefix() {
  local wine="$1" sys="$WINEPREFIX/drive_c/windows/system32"
  [ -d "$sys" ] || "$wine" wineboot --init >/dev/null 2>&1 || true
  if [ ! -e "$sys/bcryptprimitives.dll" ] && command -v x86_64-w64-mingw32-gcc >/dev/null; then
    cat >"$WINEPREFIX/bcp.c" <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!SystemFunction036(data, n)) return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
C
    x86_64-w64-mingw32-gcc -shared -O2 -o "$sys/bcryptprimitives.dll" "$WINEPREFIX/bcp.c" -ladvapi32
  fi
}

host="$(go env GOHOSTOS)_$(go env GOHOSTARCH)"
for dir in "$dist"/build/*/; do
  p=$(basename "$dir")
  bin="$dir/zumba"; [ "${p%%_*}" = windows ] && bin="$dir/zumba.exe"
  if [ "$p" = "$host" ]; then
    check "$p" "$bin"
  elif [ "$p" = linux_arm64 ] && command -v qemu-aarch64 >/dev/null; then
    check "$p (qemu-aarch64)" qemu-aarch64 "$bin"
  elif [ "$p" = windows_amd64 ] && { command -v wine64 >/dev/null || [ -x /usr/lib/wine/wine64 ]; }; then
    wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
    export WINEDEBUG=-all WINEPREFIX="${WINEPREFIX:-$dist/wine}"
    wine_prefix "$wine"
    check "$p (wine)" "$wine" "$bin"
  else
    echo "--   $p: cannot run here"
  fi
done
exit $failed
