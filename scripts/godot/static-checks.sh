#!/usr/bin/env bash
# Static checks of the GDScript: every .gd file under godot_project (the sample project) and
# godot_oracle (the Godot world's oracle) and web_demo (the web demo) that git tracks (or would track: new files count too)
# must parse (gdparse) and pass the style linter (gdlint). Installs gdtoolkit 4 from PyPI when
# its commands are missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

if ! command -v gdparse >/dev/null 2>&1 || ! command -v gdlint >/dev/null 2>&1; then
  echo "static-checks: installing gdtoolkit" >&2
  python3 -m pip install --quiet "gdtoolkit>=4,<5" >&2
fi

mapfile -t files < <(git ls-files --cached --others --exclude-standard -- 'godot_project/*.gd' 'godot_oracle/*.gd' 'web_demo/*.gd')
# Matched in the shell, not by `printf | grep -q`: grep -q leaves at its first match, and under
# pipefail the printf it leaves behind dies of SIGPIPE on a busy machine, failing the check.
for folder in godot_project godot_oracle web_demo; do
  found=0
  for file in "${files[@]}"; do
    if [[ $file == "$folder/"* ]]; then
      found=1
      break
    fi
  done
  if [ "$found" -eq 0 ]; then
    echo "static-checks: no .gd files found under $folder" >&2
    exit 1
  fi
done

failed=0
for file in "${files[@]}"; do
  if ! gdparse "$file" >/dev/null; then
    echo "static-checks: $file does not parse" >&2
    failed=1
  fi
done
if ! gdlint "${files[@]}"; then
  failed=1
fi
if [ "$failed" -ne 0 ]; then
  echo "static-checks: GDScript checks failed" >&2
  exit 1
fi
echo "static-checks: ${#files[@]} GDScript files parse and pass gdlint"
