#!/usr/bin/env bash
# One zip a game developer unzips into a Godot project: `just package`.
#
#   scripts/package/package.sh               build the four libraries, then package
#   scripts/package/package.sh --no-build    package the libraries already in bin/
#   scripts/package/package.sh --no-build --without windows.release.x86_64
#                                            leave one out (CI; check.py --without)
#
# Builds the extension for Linux x86_64 (scripts/godot/addon.sh) and Windows x86_64
# (scripts/windows/addon.sh), debug and release, then writes
# out/package/rust_character_body-<version>.zip and its .sha256 next to it, and checks the zip
# (scripts/package/check.py). The zip holds addons/rust_character_body/ with the libraries,
# the .gdextension, the icons, the addon's README and the LICENSE, as the Godot Asset Library
# lays out an addon: unzipped into a project's folder (or imported in the editor's AssetLib
# tab), it lands in res://addons/rust_character_body/. The .gdextension in the zip lists only
# the libraries the zip holds; the macOS lines are kept as comments, since macOS libraries can
# only be built on a Mac (see the addon's README).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
if [ "${1:-}" = --no-build ]; then
  shift
else
  scripts/godot/addon.sh
  scripts/windows/addon.sh
fi
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
python3 scripts/package/check.py build --version "$version" --out out/package "$@"
python3 scripts/package/check.py check "out/package/rust_character_body-$version.zip" "$@"
