# Sourced by the scripts in scripts/windows/: the cross toolchain for x86_64-pc-windows-gnu.
#
# The machine's Rust toolchain (rustup) has no Windows standard library and cannot fetch one
# here, so these builds use Debian's rustc-web (a second rustc: 1.96 from bookworm-security, at
# least the workspace's rust-version) with its library sources (rust-web-src) and build the
# standard library for Windows with `-Z build-std` (RUSTC_BOOTSTRAP=1 lets a stable rustc take
# -Z flags), linking with mingw-w64's gcc. The packages are installed when missing (apt-get, as
# root); otherwise one clear line says what to install. Builds go to target/windows/, apart
# from the host's.

windows_target=x86_64-pc-windows-gnu
windows_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# True when Debian's /usr/bin/rustc is at least version $1 (major.minor).
rustc_at_least() {
  local have
  have="$(/usr/bin/rustc --version | awk '{ print $2 }')"
  [ "$(printf '%s\n%s\n' "$1" "$have" | sort -V | head -n1)" = "$1" ]
}

windows_need() {
  local missing=()
  # The workspace's rust-version: bookworm's own rustc-web (1.85) is too old, the one in
  # bookworm-security is not (a stale package index offers the old one, hence the update).
  local need
  need="$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$windows_root/Cargo.toml")"
  if ! [ -x /usr/bin/rustc ] || ! rustc_at_least "$need"; then
    missing+=(rustc-web rust-web-src)
  fi
  [ -d /usr/lib/rustlib/src/rust/library/std ] || missing+=(rust-web-src)
  command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
  for tool in "$@"; do
    case "$tool" in
      wine) [ -x /usr/lib/wine/wine64 ] || missing+=(wine64) ;;
    esac
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "windows: installing ${missing[*]} (Debian packages)" >&2
    if apt-get update -q >&2 \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 \
      && rustc_at_least "$need"; then
      return 0
    fi
  fi
  echo "windows: cannot build for Windows: install the Debian packages ${missing[*]} (apt-get install --no-install-recommends ${missing[*]})" >&2
  return 1
}

export RUSTC=/usr/bin/rustc
export RUSTDOC=/usr/bin/rustdoc
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="$windows_root/target/windows"
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
# Windows builds of the standard library: `cargo_windows build ...` and `cargo_windows test ...`.
# The set always holds `test` (tests need it; a DLL does not link it), so that a debug build and
# a test run share the standard library and the dependencies they have in common.
cargo_windows() {
  local command="$1"
  shift
  (cd "$windows_root" \
    && cargo "$command" -Z build-std=std,panic_abort,test --target "$windows_target" "$@")
}
