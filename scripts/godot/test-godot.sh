#!/usr/bin/env bash
# Runs the headless Godot tests (godot_project/tests/run.gd) against a fresh build of the addon.
#
#   GODOT=/path/to/godot scripts/godot/test-godot.sh           builds debug and release first
#   GODOT=/path/to/godot scripts/godot/test-godot.sh --debug   builds only the debug library,
#                                                              the one the tests load (CI)
#
# GODOT must be a Godot 4.4+ binary. Without it the addon is still built and installed, then
# one line says the tests did not run, and the script succeeds (no Godot binary can be installed
# on the project's machines). With it, the tests run under a timeout (GODOT_TEST_TIMEOUT
# seconds, default 300); the log is kept in target/godot-tests.log. The run fails on a non-zero
# exit code and on any ERROR: or SCRIPT ERROR line: Godot prints a Rust panic or a script error
# and keeps going, so the exit code alone would not show it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"$root/scripts/godot/addon.sh" "$@"

if [ -z "${GODOT:-}" ]; then
  echo "Godot tests did not run: GODOT is not set (no Godot 4.4+ binary on this machine)"
  exit 0
fi

log_dir="${CARGO_TARGET_DIR:-$root/target}"
mkdir -p "$log_dir"
log="$log_dir/godot-tests.log"
status=0
timeout "${GODOT_TEST_TIMEOUT:-300}" "$GODOT" --headless --fixed-fps 60 \
  --path "$root/godot_project" --script res://tests/run.gd 2>&1 | tee "$log" || status=$?

if [ "$status" -ne 0 ]; then
  echo "Godot tests failed: exit code $status (124 is the timeout); log in $log" >&2
  exit 1
fi
if grep -E -q 'ERROR:|SCRIPT ERROR' "$log"; then
  echo "Godot tests failed: the log has errors:" >&2
  grep -E 'ERROR:|SCRIPT ERROR' "$log" >&2
  exit 1
fi
if ! grep -E -q '^[0-9]+ passed, 0 failed$' "$log"; then
  echo "Godot tests failed: no '<N> passed, 0 failed' line in $log" >&2
  exit 1
fi
