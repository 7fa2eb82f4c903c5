setup() {
  helper() {
    echo "defined when setup runs"
  }
  helper
}

if [[ -n "${DEBUG:-}" ]]; then
  debug() { echo "$@"; }
else
  debug() { :; }
fi
