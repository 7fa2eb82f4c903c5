#!/bin/sh
set -eu

log() {
  printf '%s\n' "$*" >&2
}

die() { log "error: $*"; exit 1; }

cleanup()
{
  rm -rf "$TMP"
}
trap cleanup EXIT
