#!/usr/bin/env bash
# Builds the Godot extension (crate rust_character_body) for Windows x86_64 and installs the
# DLLs into addons/rust_character_body/bin/ under the names rust_character_body.gdextension
# gives them:
#
#   scripts/windows/addon.sh             debug and release
#   scripts/windows/addon.sh --release   release only (what a game ships)
#   scripts/windows/addon.sh --debug     debug only (Rust assertions, line tables)
#
# Each DLL is checked before it is installed, and the build fails when a check fails: it
# exports gdext_rust_init (the .gdextension's entry_symbol), and it imports only DLLs that
# every Windows 10 or later has (a MinGW runtime such as libgcc_s_seh-1.dll,
# libwinpthread-1.dll or libstdc++-6.dll would be missing on a player's machine). Its size is
# printed. Progress goes to stderr.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=env.sh
source "$here/env.sh"

# shellcheck source=../lib/addon.sh
source "$here/../lib/addon.sh"
addon_profiles "$@"

windows_need
for profile in "${profiles[@]}"; do
  if [ "$profile" = release ]; then
    # Symbols only make the release DLL larger (23 MB to 11 MB); panics still print messages.
    CARGO_PROFILE_RELEASE_STRIP=symbols cargo_windows build -p rust_character_body --release >&2
  else
    cargo_windows build -p rust_character_body >&2
  fi
  built="$CARGO_TARGET_DIR/$windows_target/$profile/rust_character_body.dll"
  [ -f "$built" ] && "$here/check-dll.sh" "$built"
  addon_install "$built" "rust_character_body.windows.$profile.x86_64.dll"
done
