#!/usr/bin/env bash
# scripts/bench.sh: zumba beside universal-ctags and ripgrep on the Go and
# Python standard libraries, printed side by side with issue 6's targets.
# Figures, not pass/fail. Runs from a fresh clone: it installs ripgrep,
# universal-ctags, hyperfine and time from Debian when they are missing.
#
#   scripts/bench.sh                  both trees
#   TREES=go scripts/bench.sh         only the Go standard library
#   GO_TREE=DIR PY_TREE=DIR ...       other trees (PY_TREE is copied without
#                                     site-packages, dist-packages, __pycache__)
#   ROUNDS=5 RG_RUNS=5 CTAGS_RUNS=3   repetitions
#   BENCH_VERBOSE=1                   show the server's stderr
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin:$(go env GOPATH 2>/dev/null || echo /root/go)/bin"

TREES=${TREES:-"go python"}
ROUNDS=${ROUNDS:-5}
RG_RUNS=${RG_RUNS:-5}
CTAGS_RUNS=${CTAGS_RUNS:-3}
# 24 names per tree, from the most common identifiers to rare ones; the
# first is the "common" name and the last the "rare" one of the cold runs.
GO_NAMES=${GO_NAMES:-"err,String,ctx,Reader,Errorf,Sprintf,Mutex,Marshal,TrimSpace,NewReader,Itoa,ServeHTTP,WriteHeader,ParseFloat,LookPath,ReadMemStats,QuoteRune,gcMarkDone,findfunc,Getpagesize,readvarint,appendQuotedWith,ParseMediaType,EncodeToString"}
PY_NAMES=${PY_NAMES:-"self,None,os,path,join,TestCase,assertEqual,deque,namedtuple,Decimal,OrderedDict,urlparse,mkstemp,ZipFile,HTMLParser,getaddrinfo,SequenceMatcher,quote_plus,ThreadPoolExecutor,fsencode,getpreferredencoding,Fraction,_wrap_close,get_close_matches"}
GO_RARE=${GO_RARE:-ParseMediaType}
PY_RARE=${PY_RARE:-get_close_matches}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/zumba-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# --- tools -----------------------------------------------------------------
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
apt_install() {
  echo "== installing $* from Debian" >&2
  if ! $SUDO apt-get install -y -qq "$@" >/dev/null 2>&1; then
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq "$@" >/dev/null
  fi
}
command -v rg >/dev/null 2>&1 || apt_install ripgrep
ctags --version 2>/dev/null | grep -q "Universal Ctags" || apt_install universal-ctags
command -v hyperfine >/dev/null 2>&1 || apt_install hyperfine
[ -x /usr/bin/time ] || apt_install time
command -v python3 >/dev/null 2>&1 || apt_install python3

echo "== building zumba" >&2
BIN="$WORK/bin"
mkdir -p "$BIN"
go build -o "$BIN/zumba" ./cmd/zumba
go build -o "$BIN/benchclient" ./scripts/benchclient

# --- trees -----------------------------------------------------------------
tree_dir() {
  case "$1" in
    go) echo "${GO_TREE:-$(go env GOROOT)/src}" ;;
    python)
      if [ -n "${PY_TREE:-}" ]; then src=$PY_TREE
      else src=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'); fi
      dst="$WORK/python-stdlib"
      if [ ! -d "$dst" ]; then
        mkdir -p "$dst"
        tar -C "$src" --exclude=./site-packages --exclude=./dist-packages --exclude=__pycache__ -cf - . | tar -C "$dst" -xf -
      fi
      echo "$dst" ;;
  esac
}

# --- one tree --------------------------------------------------------------
# Raw results go to $WORK/<tree>/; report.py prints them side by side.
bench_tree() {
  local name=$1 dir names rare common out
  dir=$(tree_dir "$name")
  out="$WORK/$name"
  mkdir -p "$out"
  if [ "$name" = go ]; then names=$GO_NAMES; rare=$GO_RARE; else names=$PY_NAMES; rare=$PY_RARE; fi
  common=${names%%,*}
  echo "$dir" >"$out/dir"
  find "$dir" -type f | wc -l >"$out/files"
  du -sm "$dir" | cut -f1 >"$out/mb"

  echo "== $name: ctags -R" >&2
  hyperfine -N -i --style none --runs "$CTAGS_RUNS" --warmup 1 --export-csv "$out/ctags.csv" \
    "ctags -R -f $out/tags $dir" >/dev/null 2>"$out/hyperfine.log"
  /usr/bin/time -f %M -o "$out/ctags.rss" ctags -R -f "$out/tags" "$dir" 2>/dev/null

  echo "== $name: rg -w -F -n, ${names//,/ }" >&2
  hyperfine -N -i --style none --runs "$RG_RUNS" --warmup 1 --export-csv "$out/rg.csv" \
    --parameter-list name "$names" "rg -w -F -n {name} $dir" >/dev/null 2>>"$out/hyperfine.log"
  : >"$out/rg.lines"
  for n in ${names//,/ }; do
    printf '%s\t%s\n' "$n" "$( (rg -w -F -n "$n" "$dir" || true) | wc -l)" >>"$out/rg.lines"
  done

  local cache="$WORK/cache-$name"
  echo "== $name: zumba cold start ($rare)" >&2
  rm -rf "$cache"
  XDG_CACHE_HOME=$cache "$BIN/benchclient" -server "$BIN/zumba" -dir "$dir" -cold "$rare" >"$out/cold-rare.tsv"
  echo "== $name: zumba cold start ($common)" >&2
  rm -rf "$cache"
  XDG_CACHE_HOME=$cache "$BIN/benchclient" -server "$BIN/zumba" -dir "$dir" -cold "$common" >"$out/cold-common.tsv"
  echo "== $name: zumba restart with the cache ($rare)" >&2
  XDG_CACHE_HOME=$cache "$BIN/benchclient" -server "$BIN/zumba" -dir "$dir" -cold "$rare" >"$out/warm-rare.tsv"

  echo "== $name: zumba find_symbol, find_references on one server" >&2
  XDG_CACHE_HOME=$cache "$BIN/benchclient" -server "$BIN/zumba" -dir "$dir" -names "$names" \
    -rounds "$ROUNDS" -wrap "/usr/bin/time -f %M -o $out/zumba.rss" >"$out/latency.tsv"
  printf '%s\t%s\n' "$common" "$rare" >"$out/common-rare"
}

for t in $TREES; do bench_tree "$t"; done

echo
echo "zumba $("$BIN/zumba" version) ($(git rev-parse --short HEAD 2>/dev/null || echo unknown)), $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a), $(date -u +%Y-%m-%dT%H:%MZ)"

python3 - "$WORK" $TREES <<'PY'
import csv, os, statistics, sys

work, trees = sys.argv[1], sys.argv[2:]
LABEL = {"go": "Go standard library", "python": "Python standard library"}

def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""

def tsv(path):
    return [l.split("\t") for l in read(path).splitlines() if l]

def q(xs, p):
    s = sorted(xs)
    i = max(0, min(len(s) - 1, int(p * len(s) + 0.999999) - 1))
    return s[i]

def fmt_ms(v):
    if v is None:
        return "n/a"
    return f"{v/1000:.2f} s" if v >= 1000 else f"{v:.2f} ms"

def ratio(a, b, target):
    if a is None or b is None or b == 0:
        return f"n/a (target {target})"
    return f"{a/b:.3f} (target {target})"

def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None

for t in trees:
    d = os.path.join(work, t)
    common, rare = read(os.path.join(d, "common-rare")).split("\t")
    print()
    print(f"== {LABEL.get(t, t)}: {read(os.path.join(d, 'dir'))}, "
          f"{read(os.path.join(d, 'files'))} files, {read(os.path.join(d, 'mb'))} MB")

    with open(os.path.join(d, "ctags.csv")) as f:
        ctags_ms = float(next(csv.DictReader(f))["median"]) * 1000
    rg = {}
    with open(os.path.join(d, "rg.csv")) as f:
        for row in csv.DictReader(f):
            rg[row["parameter_name"]] = float(row["median"]) * 1000
    rg_lines = dict(tsv(os.path.join(d, "rg.lines")))

    calls = {}
    summary = {}
    for row in tsv(os.path.join(d, "latency.tsv")):
        if row[0] == "call":
            calls[(row[1], row[2])] = (num(row[3]), row[4], row[5])
        elif row[0] == "summary":
            summary[row[1]] = (num(row[2]), num(row[3]))
    cold = {}
    for which in ("cold-rare", "cold-common", "warm-rare"):
        for row in tsv(os.path.join(d, which + ".tsv")):
            if row[1] == "initialize":
                cold[(which, "init")] = num(row[2])
            elif row[1] == "first_answer":
                cold[(which, "first")] = num(row[3]) if row[4] in ("ok", "partial") else None
            elif row[1] == "index_ready":
                cold[(which, "ready")] = num(row[2])

    print(f"{'name':<24}{'rg lines':>9}{'rg -w -F':>12}{'find_references':>17}{'find_symbol':>13}")
    for name in rg:
        r = calls.get(("find_references", name), (None, "", "n/a"))
        s = calls.get(("find_symbol", name), (None, "", "n/a"))
        print(f"{name:<24}{rg_lines.get(name, '?'):>9}{fmt_ms(rg[name]):>12}"
              f"{fmt_ms(r[0]):>17}{fmt_ms(s[0]):>13}")

    rg_med, rg_p99 = q(list(rg.values()), 0.5), q(list(rg.values()), 0.99)
    refs = summary.get("find_references", (None, None))
    syms = summary.get("find_symbol", (None, None))
    rss = lambda f: (int(read(os.path.join(d, f)).splitlines()[-1]) / 1024) if read(os.path.join(d, f)) else None
    zrss, crss = rss("zumba.rss"), rss("ctags.rss")
    common_refs = calls.get(("find_references", common), (None,))[0]
    print()
    print(f"{'':<52}{'median':>12}{'p99':>12}  ratio")
    print(f"{'ctags -R (index the tree)':<52}{fmt_ms(ctags_ms):>12}")
    print(f"{'rg -w -F -n, ' + str(len(rg)) + ' names':<52}{fmt_ms(rg_med):>12}{fmt_ms(rg_p99):>12}")
    print(f"{'zumba find_references, same names':<52}{fmt_ms(refs[0]):>12}{fmt_ms(refs[1]):>12}  "
          f"refs/rg {ratio(refs[0], rg_med, '<= 0.05')}")
    print(f"{'zumba find_references ' + common:<52}{fmt_ms(common_refs):>12}{'':>12}  "
          f"refs/rg {ratio(common_refs, rg.get(common), '<= 0.2')}")
    print(f"{'zumba find_symbol, same names':<52}{fmt_ms(syms[0]):>12}{fmt_ms(syms[1]):>12}  "
          f"target median < 2 ms")
    print(f"{'zumba cold: initialize answered':<52}{fmt_ms(cold.get(('cold-rare', 'init'))):>12}")
    print(f"{'zumba cold: first complete find_symbol ' + rare:<52}{fmt_ms(cold.get(('cold-rare', 'first'))):>12}{'':>12}  "
          f"/ctags {ratio(cold.get(('cold-rare', 'first')), ctags_ms, '< 1')}")
    print(f"{'zumba cold: first complete find_symbol ' + common:<52}{fmt_ms(cold.get(('cold-common', 'first'))):>12}")
    print(f"{'zumba complete index, cold':<52}{fmt_ms(cold.get(('cold-common', 'ready'))):>12}{'':>12}  "
          f"/ctags {ratio(cold.get(('cold-common', 'ready')), ctags_ms, '<= 4')}")
    print(f"{'zumba complete index, restart with cache':<52}{fmt_ms(cold.get(('warm-rare', 'ready'))):>12}{'':>12}  "
          f"/ctags {ratio(cold.get(('warm-rare', 'ready')), ctags_ms, '<= 0.1')}")
    print(f"{'zumba restart: first complete find_symbol ' + rare:<52}{fmt_ms(cold.get(('warm-rare', 'first'))):>12}")
    mb = lambda v: "n/a" if v is None else f"{v:.0f} MB"
    print(f"{'peak RSS: zumba (latency run) / ctags -R':<52}{mb(zrss):>12}{mb(crss):>12}  "
          f"{'target zumba < 200 MB on Go' if t == 'go' else ''}")
PY
