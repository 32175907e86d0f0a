#!/usr/bin/env bash
# Cargo's runner for x86_64-pc-windows-gnu programs (scripts/windows/test.sh): puts the
# bcryptprimitives.dll stand-in next to the program, then runs it under Wine. When Wine itself
# fails (its client loses the connection to the Wine server, "wine client error", seen once in
# CI as a program started), the program is run once more; a failing test is never retried.
set -euo pipefail
program="$1"
shift
cp -f "$KCC_WINDOWS_SHIM" "$(dirname "$program")/bcryptprimitives.dll"
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
for attempt in 1 2; do
  status=0
  /usr/lib/wine/wine64 "$program" "$@" 2>"$errors" || status=$?
  cat "$errors" >&2
  if [ "$status" -eq 0 ] || ! grep -q '^wine client error' "$errors"; then
    exit "$status"
  fi
  echo "wine-run: Wine lost its server (attempt $attempt); running $(basename "$program") again" >&2
done
exit "$status"
