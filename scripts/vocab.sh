#!/usr/bin/env bash
# scripts/vocab.sh: find_code's learned vocabulary, from nothing (issue 46).
# It fetches a pinned corpus of code nobody here wrote from three
# ecosystems (Go modules from the module proxy, npm packages, the Python
# packages Debian ships; none of the projects scripts/code_bench.sh
# searches: not the Go standard library, cobra, RxJS or Python's standard
# library), turns it into find_code's words (go run ./scripts/vocab
# corpus), trains subword word vectors with fastText (Debian's fasttext
# package) on the machine's cores, and packs each frequent word's nearest
# words into the table find_code reads (go run ./scripts/vocab pack); and
# a second table, of the name words that doc comments' words go with (go
# run ./scripts/vocab assoc).
#
#   scripts/vocab.sh [OUT]     (default OUT: a new temporary folder)
#
# Prints each step's size and time; OUT/vocab.bin is the table. Measure it
# with search/findcode's TestCodeTune (ZUMBA_VOCAB_TABLE=OUT/vocab.bin, see
# there). What it measured, and why find_code does not ship it:
# docs/development.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
OUT=${1:-$(mktemp -d "${TMPDIR:-/tmp}/zumba-vocab.XXXXXX")}
mkdir -p "$OUT"/src/npm "$OUT"/src/deb
command -v fasttext >/dev/null || apt-get install -y -qq --no-install-recommends fasttext >/dev/null

GO_MODULES=(
  k8s.io/kubernetes@v1.31.4 google.golang.org/grpc@v1.68.0 golang.org/x/tools@v0.28.0
  github.com/gohugoio/hugo@v0.139.0 github.com/caddyserver/caddy/v2@v2.8.4
  github.com/docker/docker@v27.3.1+incompatible github.com/cli/cli/v2@v2.63.0
  github.com/influxdata/telegraf@v1.32.3 go.etcd.io/etcd/server/v3@v3.5.17
  github.com/prometheus/prometheus@v0.55.1 github.com/minio/minio-go/v7@v7.0.81
  github.com/containerd/containerd@v1.7.24 helm.sh/helm/v3@v3.16.3
  github.com/pulumi/pulumi/sdk/v3@v3.142.0 github.com/aws/aws-sdk-go@v1.55.5
  github.com/hashicorp/terraform-provider-aws@v1.60.0 github.com/kubernetes/dashboard@v1.10.1
  github.com/cockroachdb/pebble@v1.1.2 github.com/dgraph-io/badger/v4@v4.4.0
  github.com/nats-io/nats-server/v2@v2.10.22 github.com/traefik/traefik/v3@v3.2.1
  github.com/syncthing/syncthing@v1.28.1 github.com/ollama/ollama@v0.5.1 tailscale.com@v1.78.1
)
NPM_PACKAGES=(
  typescript@5.6.3 @types/node@22.10.1 lodash@4.17.21 webpack@5.97.1 eslint@9.16.0 three@0.171.0
  @angular/core@19.0.4 @angular/common@19.0.4 @angular/compiler@19.0.4 vue@3.5.13
  @vue/runtime-core@3.5.13 @vue/compiler-core@3.5.13 monaco-editor@0.52.0 react-dom@19.0.0
  react@19.0.0 d3@7.9.0 @babel/parser@7.26.3 @babel/traverse@7.26.4 @babel/types@7.26.3
  @babel/core@7.26.0 @babel/generator@7.26.3 date-fns@4.1.0 express@4.21.2 jquery@3.7.1
  echarts@5.5.1 mongoose@8.8.4 mongodb@6.12.0 @nestjs/core@10.4.15 @nestjs/common@10.4.15
  playwright-core@1.49.1 vite@6.0.3 rollup@4.28.1 svelte@5.12.0 immutable@5.0.3 zod@3.24.1
  @sentry/core@8.45.0 socket.io@4.8.1 pixi.js@8.6.5 chart.js@4.4.7 axios@1.7.9 graphql@16.9.0
  ws@8.18.0 yargs@17.7.2 commander@12.1.0 @types/react@19.0.1 @prisma/client@6.0.1
  sequelize@6.37.5 typeorm@0.3.20
)
# Debian 12's versions (apt-get download takes the release's own).
DEB_PACKAGES=(
  python3-django python3-numpy python3-scipy python3-sympy python3-matplotlib python3-twisted
  python3-sqlalchemy python3-pandas python3-sphinx python3-docutils python3-networkx
  python3-astropy python3-dask python3-tornado python3-jinja2 python3-pygments
  python3-hypothesis python3-sklearn python3-setuptools python3-botocore python3-nltk
  python3-requests python3-urllib3 python3-openssl python3-cryptography python3-paramiko
  python3-boto3 python3-flask python3-werkzeug python3-celery python3-kombu ansible-core
  python3-mypy pylint python3-astroid python3-ipython python3-traitlets python3-jedi
  python3-parso python3-nbformat python3-notebook python3-statsmodels python3-skimage
  python3-biopython python3-zmq python3-lxml python3-yaml python3-attr python3-pytest
  python3-sqlparse python3-alembic python3-gevent python3-aiohttp
)

step() { echo "== $1 ($(date -u +%H:%M:%S))" >&2; }

step "Go modules"
for m in "${GO_MODULES[@]}"; do
  GOMODCACHE="$OUT/src/gomod" GOFLAGS=-modcacherw GOTOOLCHAIN=local go mod download "$m"
done
rm -rf "$OUT/src/gomod/cache"
step "npm packages"
for p in "${NPM_PACKAGES[@]}"; do
  t=$(cd "$OUT/src/npm" && npm pack --silent "$p")
  mkdir -p "$OUT/src/npm/${t%.tgz}" && tar xzf "$OUT/src/npm/$t" -C "$OUT/src/npm/${t%.tgz}" && rm "$OUT/src/npm/$t"
done
step "Debian's Python packages"
(cd "$OUT/src/deb" && apt-get download -qq "${DEB_PACKAGES[@]}" >/dev/null)
for d in "$OUT"/src/deb/*.deb; do dpkg-deb -x "$d" "$OUT/src/deb/x" && rm "$d"; done

step "corpus"
go run ./scripts/vocab corpus "$OUT/src/gomod" "$OUT/src/npm" "$OUT/src/deb/x" > "$OUT/corpus.txt"
echo "corpus: $(wc -c < "$OUT/corpus.txt") bytes, $(wc -w < "$OUT/corpus.txt") words" >&2
# Two fifths of the corpus's paragraphs (28 M words of 71 M), two epochs,
# 64 dimensions: about 9 minutes on 2 shared cores (the whole corpus, five
# epochs and 100 dimensions were on course for over an hour). SUBWORDS=0
# trains word vectors without subwords (-maxn 0), the experiment's second
# model.
step "fastText skipgram on $(nproc) cores"
awk 'NR % 5 < 2' "$OUT/corpus.txt" > "$OUT/corpus40.txt"
subwords=(-minn 3 -maxn 5)
[ "${SUBWORDS:-1}" = 1 ] || subwords=(-maxn 0)
start=$(date +%s)
fasttext skipgram -input "$OUT/corpus40.txt" -output "$OUT/ft" -dim 64 -epoch 2 -minCount 5 \
  "${subwords[@]}" -ws 5 -thread "$(nproc)" -verbose 1
echo "trained in $(( $(date +%s) - start )) s" >&2
step "pack"
go run ./scripts/vocab pack -words 40000 -near 12 -min 0.5 "$OUT/ft.vec" "$OUT/vocab.bin"
ls -l "$OUT/vocab.bin" >&2
# The second experiment: which words of definitions' names their doc
# comments' words go with (NPMI over 0.46 M distinct commented definitions;
# SCORE=ibm1 for IBM model 1's translation probabilities), a table in the
# same format, measured the same way with name-only matching (fields 1 in
# TestCodeTune's log). About 10 s for NPMI, 4 min for ibm1.
step "doc comments and names"
go run ./scripts/vocab assoc -score "${SCORE:-npmi}" -min 5 -words 20 -floor "${FLOOR:-0.1}" \
  "$OUT/assoc.bin" "$OUT/src/gomod" "$OUT/src/npm" "$OUT/src/deb/x"
ls -l "$OUT/assoc.bin" >&2
