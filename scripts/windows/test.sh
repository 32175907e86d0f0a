#!/usr/bin/env bash
# Runs test suites as Windows programs under Wine:
#
#   scripts/windows/test.sh                 the core and the parry world (kcc, kcc-parry: every
#                                           unit, course and doc test) and the extension's
#                                           unit tests (rust_character_body --lib)
#   scripts/windows/test.sh -p kcc-sim      any other `cargo test` arguments
#
# Wine 8 lacks bcryptprimitives.dll, which Rust's standard library imports; a stand-in built
# here from bcryptprimitives.c is copied next to each test program (never into the addon).
# The Wine prefix lives in target/windows/wine. Ends with one summary line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=env.sh
source "$here/env.sh"

if [ "$#" -eq 0 ]; then
  runs=("-p kcc -p kcc-parry" "-p rust_character_body --lib")
else
  runs=("$*")
fi
windows_need wine

shim_dir="$CARGO_TARGET_DIR/shim"
mkdir -p "$shim_dir"
x86_64-w64-mingw32-gcc -shared -O2 -o "$shim_dir/bcryptprimitives.dll" \
  "$here/bcryptprimitives.c" -ladvapi32

# The checker must refuse a DLL that needs a MinGW runtime: build one that imports
# libwinpthread-1.dll and make sure check-dll.sh says no.
printf '#include <pthread.h>\n__declspec(dllexport) int gdext_rust_init(void) { return (int)(long long)pthread_self(); }\n' \
  >"$shim_dir/needs_runtime.c"
x86_64-w64-mingw32-gcc -shared -o "$shim_dir/needs_runtime.dll" "$shim_dir/needs_runtime.c" \
  -Wl,-Bdynamic -lwinpthread
if "$here/check-dll.sh" "$shim_dir/needs_runtime.dll" 2>/dev/null; then
  echo "windows: check-dll.sh accepted a DLL that imports libwinpthread-1.dll" >&2
  exit 1
fi

export WINEPREFIX="$CARGO_TARGET_DIR/wine"
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="
export KCC_WINDOWS_SHIM="$shim_dir/bcryptprimitives.dll"
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$here/wine-run.sh"

log="$CARGO_TARGET_DIR/wine-tests.log"
: >"$log"
status=0
for run in "${runs[@]}"; do
  read -r -a args <<<"$run"
  cargo_windows test "${args[@]}" 2>&1 | tee -a "$log" || status=$?
done
passed=$(awk '/^test result: ok\./ { sum += $4 } END { print sum + 0 }' "$log")
suites=$(grep -c '^test result: ok\.' "$log" || true)
if [ "$status" -ne 0 ] || [ "$passed" -eq 0 ] || grep -q '^test result: FAILED' "$log"; then
  echo "windows tests under Wine: FAILED (log in $log)"
  exit 1
fi
echo "windows tests under Wine ($(/usr/lib/wine/wine64 --version)): $passed passed in $suites suites (${runs[*]})"
