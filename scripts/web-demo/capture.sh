#!/usr/bin/env bash
# The README's animation: the web demo's headless walk (check.mjs, 60 Hz, the capsule, walking
# with Shift) up the sample course's eight 0.3 m steps and back down, recorded as Chromium draws
# it, joined into docs/stairs-walk.gif (frames-to-gif.py; installs Pillow from PyPI when it is
# missing). Needs what check.sh needs (Chromium, the web template, the wasm core built). Takes
# about a minute.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
frames="$root/out/capture"
rm -rf "$frames"
python3 -c "import PIL" 2>/dev/null || python3 -m pip install --quiet pillow
(cd "$root/scripts/web-demo" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
echo "capture: walking the demo's stairs in headless Chromium, frames into $frames" >&2
node "$root/scripts/web-demo/check.mjs" --rates 60 --shapes capsule --out out/capture-check \
  --capture out/capture
python3 "$root/scripts/web-demo/frames-to-gif.py" "$frames" "$root/docs/stairs-walk.gif"
