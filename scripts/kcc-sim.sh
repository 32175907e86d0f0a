#!/usr/bin/env bash
# kcc-sim (release build) with Jolt's CharacterVirtual as a third controller when Jolt can be
# built here: `scripts/kcc-sim.sh demo`, `scripts/kcc-sim.sh run scenarios/*.toml --controller all`.
#
# Jolt is built from source (crate oxijolt, cargo feature `jolt`) and needs CMake 3.20 or newer;
# a missing or older CMake is installed from PyPI (`pip install cmake`). When CMake cannot be had
# or Jolt does not build, one line says so and kcc-sim runs without Jolt (ours and Rapier's).
set -euo pipefail
cd "$(dirname "$0")/.."

# Builds kcc-sim with Jolt into $log, printing a line each 30 s with the crate cargo is on.
build_with_progress() {
  cargo build --release -p kcc-sim --features jolt >"$log" 2>&1 &
  local build=$! waited=0
  while kill -0 "$build" 2>/dev/null; do
    sleep 1
    waited=$((waited + 1))
    if [ $((waited % 30)) -eq 0 ]; then
      local last
      last=$(grep -o 'Compiling [^ ]*' "$log" | tail -n 1 || true)
      echo "kcc-sim: still building (${waited} s; ${last:-starting})" >&2
    fi
  done
  wait "$build"
}

# True when `cmake` is 3.20 or newer.
cmake_is_new_enough() {
  local version major minor
  version=$(cmake --version 2>/dev/null | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p') || return 1
  [ -n "$version" ] || return 1
  read -r major minor <<<"$version"
  [ "$major" -gt 3 ] || { [ "$major" -eq 3 ] && [ "$minor" -ge 20 ]; }
}

features=()
log=target/jolt-build.log
mkdir -p target
# A fresh clone builds for minutes before the course starts: say what, why and where the log is.
if [ ! -x target/release/kcc-sim ]; then
  echo "kcc-sim: first build (release, with Jolt's CharacterVirtual built from C++ source for the side-by-side): about 3 to 5 minutes on 2 cores; progress in $log" >&2
fi
if ! cmake_is_new_enough; then
  echo "kcc-sim: installing CMake 3.20+ from PyPI for Jolt's build (seconds)" >&2
  python3 -m pip install --quiet --disable-pip-version-check "cmake>=3.20" >"$log" 2>&1 || true
  hash -r
fi
if ! cmake_is_new_enough; then
  echo "kcc-sim: no CMake 3.20 or newer (pip install cmake failed, see $log); running without Jolt's controller" >&2
elif ! build_with_progress; then
  echo "kcc-sim: Jolt did not build (see $log); running without Jolt's controller" >&2
else
  features=(--features jolt)
fi
exec cargo run --quiet --release -p kcc-sim "${features[@]}" -- "$@"
