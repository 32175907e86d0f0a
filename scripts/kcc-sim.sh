#!/usr/bin/env bash
# kcc-sim (release build) with Jolt's CharacterVirtual as a third controller when Jolt can be
# built here: `scripts/kcc-sim.sh demo`, `scripts/kcc-sim.sh run scenarios/*.toml --controller all`.
#
# Jolt is built from source (crate oxijolt, cargo feature `jolt`) and needs CMake 3.20 or newer;
# a missing or older CMake is installed from PyPI (`pip install cmake`). When CMake cannot be had
# or Jolt does not build, one line says so and kcc-sim runs without Jolt (ours and Rapier's).
set -euo pipefail
cd "$(dirname "$0")/.."

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
if ! cmake_is_new_enough; then
  python3 -m pip install --quiet --disable-pip-version-check "cmake>=3.20" >"$log" 2>&1 || true
  hash -r
fi
if ! cmake_is_new_enough; then
  echo "kcc-sim: no CMake 3.20 or newer (pip install cmake failed, see $log); running without Jolt's controller" >&2
elif ! cargo build --release -p kcc-sim --features jolt >"$log" 2>&1; then
  echo "kcc-sim: Jolt did not build (see $log); running without Jolt's controller" >&2
else
  features=(--features jolt)
fi
exec cargo run --quiet --release -p kcc-sim "${features[@]}" -- "$@"
