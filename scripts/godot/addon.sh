#!/usr/bin/env bash
# Builds the Godot extension (crate rust_character_body) and installs the library into
# addons/rust_character_body/bin/, where rust_character_body.gdextension expects it.
#
#   scripts/godot/addon.sh            release build (what a game ships)
#   scripts/godot/addon.sh --debug    debug build (Rust assertions and debug info)
#
# Progress goes to stderr; nothing is printed on stdout.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
profile=release
case "${1:-}" in
  "" | --release) profile=release ;;
  --debug) profile=debug ;;
  *)
    echo "usage: $0 [--release|--debug]" >&2
    exit 2
    ;;
esac

case "$(uname -s)" in
  Linux*) library=librust_character_body.so ;;
  Darwin*) library=librust_character_body.dylib ;;
  MINGW* | MSYS* | CYGWIN*) library=rust_character_body.dll ;;
  *)
    echo "addon: unsupported platform $(uname -s)" >&2
    exit 2
    ;;
esac

cd "$root"
if [ "$profile" = release ]; then
  cargo build -p rust_character_body --release >&2
else
  cargo build -p rust_character_body >&2
fi

target_dir="${CARGO_TARGET_DIR:-$root/target}"
built="$target_dir/$profile/$library"
if [ ! -f "$built" ]; then
  echo "addon: cargo finished but $built is missing" >&2
  exit 1
fi
destination="$root/addons/rust_character_body/bin/$library"
cp "$built" "$destination.tmp"
mv -f "$destination.tmp" "$destination"
echo "addon: installed $profile build as addons/rust_character_body/bin/$library" >&2
