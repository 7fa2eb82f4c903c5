#!/usr/bin/env bash
# scripts/resolve_bench.sh: issue 45's speed and memory figures for
# find_references of one definition (a qualified name), from a complete
# index of GOSRC (default: the Go tree's src), in process: each name's
# warm calls, the median and p99 over all calls (goals: 20 ms and 100 ms),
# the heap of the index with and without the resolver's facts (goal: at
# most 15% more), and the heap the resolver holds after the calls.
#
#   scripts/resolve_bench.sh [GOSRC]
#   scripts/resolve_bench.sh --ts [TSSRC]
#   scripts/resolve_bench.sh --py [PYSRC]
#
# --ts measures TypeScript: TSSRC (default: rxjs 7.8.1's src/, packed
# from npm once into scripts/.cache/tsresolve, as the tsserver
# differential keeps it) and twelve of its classes' methods.
#
# --py measures Python: PYSRC (default: python3's standard library, its
# .py files but site-packages' copied once into scripts/.cache/pyresolve)
# and twelve of its functions and methods.
#
# Environment: ROUNDS=9 (calls per name), NAMES=a,b (qualified names; the
# default twelve are the test's, or --ts's). Timings: run it alone on the machine
# (here: flock -x /work/cpu.lock scripts/resolve_bench.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--ts" ]; then
  shift
  if [ -z "${1:-}" ]; then
    pack=scripts/.cache/tsresolve/rxjs7.8.1
    if [ ! -d "$pack/package/src" ]; then
      mkdir -p "$pack"
      tgz=$(cd "$pack" && npm pack rxjs@7.8.1 --silent)
      tar -xzf "$pack/$tgz" -C "$pack"
    fi
    set -- "$pack/package/src"
  fi
  NAMES=${NAMES:-Subscription.unsubscribe,Observable.subscribe,Observable.pipe,Subscriber.next,Subject.next,Subscription.add,AsyncAction.schedule,OperatorSubscriber.unsubscribe,Observable.lift,Subject.asObservable,AsyncScheduler.flush,Notification.observe}
fi
if [ "${1:-}" = "--py" ]; then
  shift
  if [ -z "${1:-}" ]; then
    stdlib=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')
    copy=scripts/.cache/pyresolve/$(basename "$stdlib")
    if [ ! -d "$copy" ]; then
      python3 - "$stdlib" "$copy" <<'PY'
import os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
for dp, dns, fns in os.walk(src):
    dns[:] = [d for d in dns if d not in ("site-packages", "__pycache__")]
    for fn in fns:
        if fn.endswith(".py"):
            out = os.path.join(dst, os.path.relpath(os.path.join(dp, fn), src))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            shutil.copy2(os.path.join(dp, fn), out)
PY
    fi
    set -- "$copy"
  fi
  NAMES=${NAMES:-http.client.HTTPConnection.close,HTTPConnection.request,JSONDecoder.decode,json.dumps,BaseEventLoop.run_until_complete,Future.set_result,Logger.info,Thread.start,Path.exists,Popen.communicate,_ActionsContainer.add_argument,TestCase.assertEqual}
fi
SRC=${1:-"$(go env GOROOT)/src"}
[ -d "$SRC" ] || { echo "scripts/resolve_bench.sh: not a folder: $SRC" >&2; exit 2; }
SRC=$(cd "$SRC" && pwd)
ZUMBA_RESOLVE_TREE="$SRC" ZUMBA_RESOLVE_MEM=1 ZUMBA_RESOLVE_WATCH=1 \
  ZUMBA_RESOLVE_ROUNDS="${ROUNDS:-9}" ZUMBA_RESOLVE_NAMES="${NAMES:-}" \
  go test -count=1 -timeout 30m -run TestResolvedTree -v ./search/ |
  grep -E 'index heap|built in|uses|heap in use|warm resolved' | sed 's/^ *resolved_tree_test.go:[0-9]*: //'
