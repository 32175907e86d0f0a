# Sourced by scripts/godot/addon.sh and scripts/windows/addon.sh: what both builds of the
# extension share.

addon_bin="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/addons/rust_character_body/bin"

# Sets `profiles` from the script's arguments: none for debug and release, --release or --debug
# for one of them.
addon_profiles() {
  case "${1:-}" in
    "") profiles=(debug release) ;;
    --release) profiles=(release) ;;
    --debug) profiles=(debug) ;;
    *)
      echo "usage: $0 [--release|--debug]" >&2
      exit 2
      ;;
  esac
}

# Copies the library `built` into the addon's bin/ as `name` (the .gdextension's file name),
# replacing the old one in one step.
addon_install() {
  local built="$1" name="$2"
  if [ ! -f "$built" ]; then
    echo "addon: cargo finished but $built is missing" >&2
    exit 1
  fi
  cp "$built" "$addon_bin/$name.tmp"
  mv -f "$addon_bin/$name.tmp" "$addon_bin/$name"
  echo "addon: installed addons/rust_character_body/bin/$name ($(($(wc -c <"$built") / 1024)) KiB)" >&2
}
