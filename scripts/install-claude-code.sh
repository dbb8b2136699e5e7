#!/usr/bin/env bash
# Installs the pinned Claude Code releases (scripts/claude-code.versions, or
# the versions given as arguments) for the real-client test in
# e2e/realclient_test.go. Each goes into $CREDENCE_CLAUDE_DIR/<version>
# (default .cache/claude-code/<version>, ignored by git) with a `claude`
# link to its native binary; a version already there is left alone.
#
# npm's package declares the Node engine it wants (>=22 for recent
# releases), but what it installs is a self-contained binary, so an older
# Node only warns. The binary comes from the platform package
# (@anthropic-ai/claude-code-<os>-<arch>); the wrapper's postinstall copies
# it over bin/claude.exe, and when npm skips install scripts the platform
# package's copy is used directly.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${CREDENCE_CLAUDE_DIR:-$PWD/.cache/claude-code}
if [ $# -gt 0 ]; then
  versions=("$@")
else
  mapfile -t versions < <(grep -v '^[[:space:]]*\(#\|$\)' scripts/claude-code.versions)
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "install-claude-code: npm is not installed; the real-client test needs it (Node.js 20 or newer)" >&2
  exit 1
fi

# works prints the path of the first candidate binary that reports version $1.
works() {
  local want=$1 bin out
  shift
  for bin in "$@"; do
    [ -x "$bin" ] || continue
    out=$("$bin" --version 2>/dev/null) || continue
    if [ "${out%% *}" = "$want" ]; then
      echo "$bin"
      return 0
    fi
  done
  return 1
}

mkdir -p "$dir"
for v in "${versions[@]}"; do
  dest=$dir/$v
  if works "$v" "$dest/claude" >/dev/null; then
    echo "Claude Code $v: already in $dest"
    continue
  fi
  tmp=$(mktemp -d "$dir/.install-$v.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "Claude Code $v: installing into $dest"
  npm install --prefix "$tmp" --no-audit --no-fund --no-save --loglevel=error \
    "@anthropic-ai/claude-code@$v" 2>&1 | grep -v 'EBADENGINE\|install-scripts' >&2 || true
  pkgs=$tmp/node_modules/@anthropic-ai
  bin=$(works "$v" "$pkgs/claude-code/bin/claude.exe" "$pkgs"/claude-code-*/claude) || {
    echo "install-claude-code: npm installed no runnable Claude Code $v binary for $(uname -sm) in $pkgs" >&2
    exit 1
  }
  ln -s "${bin#"$tmp"/}" "$tmp/claude"
  rm -rf "$dest"
  mv "$tmp" "$dest"
  trap - EXIT
  echo "Claude Code $v: $("$dest/claude" --version)"
done
