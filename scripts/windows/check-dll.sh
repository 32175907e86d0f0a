#!/usr/bin/env bash
# Checks a Windows build of the extension: scripts/windows/check-dll.sh path/to/library.dll
#
# Fails unless the DLL exports gdext_rust_init (the entry symbol Godot calls) and imports only
# DLLs that every Windows 10 or later has. Prints the DLL's size and what it imports.
set -euo pipefail

dll="${1:?usage: $0 library.dll}"
objdump=x86_64-w64-mingw32-objdump
command -v "$objdump" >/dev/null || {
  echo "check-dll: $objdump not found (Debian package binutils-mingw-w64-x86-64)" >&2
  exit 1
}
headers="$("$objdump" -p "$dll")"

# The export table lists names as "[   0] name".
if ! grep -E -q '^[[:space:]]*\[[[:space:]]*[0-9]+\] gdext_rust_init$' <<<"$headers"; then
  echo "check-dll: $dll does not export gdext_rust_init" >&2
  exit 1
fi

# Windows' own libraries, present on every installation. Anything else (a MinGW runtime DLL, a
# Visual C++ redistributable) would have to ship beside the game.
system='^(kernel32|kernelbase|ntdll|msvcrt|ucrtbase|userenv|ws2_32|advapi32|bcrypt|bcryptprimitives|user32|shell32|ole32|oleaut32|secur32|crypt32|dbghelp|synchronization|api-ms-win-[a-z0-9-]+)\.dll$'
imports=()
bad=()
while read -r name; do
  imports+=("$name")
  lower="$(tr '[:upper:]' '[:lower:]' <<<"$name")"
  grep -E -q "$system" <<<"$lower" || bad+=("$name")
done < <(sed -n 's/^[[:space:]]*DLL Name: //p' <<<"$headers" | sort -u)

size=$(stat -c %s "$dll")
echo "check-dll: $(basename "$dll"): $((size / 1024)) KiB, exports gdext_rust_init, imports ${imports[*]}" >&2
if [ "${#bad[@]}" -ne 0 ]; then
  echo "check-dll: $dll imports DLLs that Windows does not have: ${bad[*]}" >&2
  exit 1
fi
