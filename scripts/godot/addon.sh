#!/usr/bin/env bash
# Builds the Godot extension (crate rust_character_body) for the machine it runs on and
# installs the libraries into addons/rust_character_body/bin/ under the names
# rust_character_body.gdextension gives them (Windows: scripts/windows/addon.sh).
#
#   scripts/godot/addon.sh             debug and release: the editor and debug exports load
#                                      the debug library, release exports the release one
#   scripts/godot/addon.sh --release   release only (what a game ships)
#   scripts/godot/addon.sh --debug     debug only (Rust assertions and line tables)
#
# Progress goes to stderr; nothing is printed on stdout.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../lib/addon.sh
source "$root/scripts/lib/addon.sh"
addon_profiles "$@"

case "$(uname -m)" in
  x86_64 | amd64) arch=.x86_64 ;;
  aarch64 | arm64) arch=.arm64 ;;
  *)
    echo "addon: unsupported machine $(uname -m)" >&2
    exit 2
    ;;
esac
case "$(uname -s)" in
  Linux*) built_name=librust_character_body.so platform=linux ;;
  Darwin*) built_name=librust_character_body.dylib platform=macos arch="" ;;
  *)
    echo "addon: unsupported platform $(uname -s) (Windows builds: scripts/windows/addon.sh)" >&2
    exit 2
    ;;
esac

cd "$root"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
for profile in "${profiles[@]}"; do
  if [ "$profile" = release ]; then
    cargo build -p rust_character_body --release >&2
  else
    cargo build -p rust_character_body >&2
  fi
  name="${built_name%.*}.$platform.$profile$arch.${built_name##*.}"
  addon_install "$target_dir/$profile/$built_name" "$name"
done
