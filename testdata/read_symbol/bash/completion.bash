_tool_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  COMPREPLY=($(compgen -W "build push deploy" -- "$cur"))
}
complete -F _tool_complete tool

tool::version() {
  echo "tool 1.0"
}
