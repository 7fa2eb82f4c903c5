usage() {
  cat <<USAGE
usage: tool [-h]
  fake() { not a function }
USAGE
}

version() { echo 1.0; }
