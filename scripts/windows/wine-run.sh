#!/usr/bin/env bash
# Cargo's runner for x86_64-pc-windows-gnu programs (scripts/windows/test.sh): puts the
# bcryptprimitives.dll stand-in next to the program, then runs it under Wine.
set -euo pipefail
program="$1"
shift
cp -f "$KCC_WINDOWS_SHIM" "$(dirname "$program")/bcryptprimitives.dll"
exec /usr/lib/wine/wine64 "$program" "$@"
