#!/usr/bin/env bash
# Builds the controller core for the web page: crate kcc-wasm (rust/kcc-wasm) for
# wasm32-unknown-unknown, into target/wasm/wasm32-unknown-unknown/release/kcc_wasm.wasm, then
# loads it in Node and drives a character over a flat floor answered in JavaScript
# (wasm-smoke.mjs), so a module whose imports or exports went wrong fails here.
#
#   scripts/web-demo/build-wasm.sh
#
# rustup here has only the host's standard library, so the build uses Debian's rustc-web with
# its library sources (rust-web-src) and builds std for wasm with `-Z build-std` (RUSTC_BOOTSTRAP=1
# lets a stable rustc take -Z flags), linking with LLVM's wasm-ld (lld-22). The packages are
# installed when missing (apt-get, as root); otherwise one line says what to install. Progress
# goes to stderr; the last line on stdout names the module and its size.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/scripts/web-demo"
linker=wasm-ld-22

missing=()
[ -x /usr/bin/rustc ] || missing+=(rustc-web)
[ -d /usr/lib/rustlib/src/rust/library/std ] || missing+=(rust-web-src)
command -v "$linker" >/dev/null || missing+=(lld-22)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "web-demo: installing ${missing[*]} (Debian packages)" >&2
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
  else
    echo "web-demo: cannot build the wasm core: install the Debian packages ${missing[*]} (apt-get install --no-install-recommends ${missing[*]})" >&2
    exit 1
  fi
fi

export RUSTC=/usr/bin/rustc
export RUSTDOC=/usr/bin/rustdoc
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="$root/target/wasm"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$linker"
(cd "$root/rust/kcc-wasm" && cargo build --release --target wasm32-unknown-unknown \
  -Z build-std=std,panic_abort >&2)

module="$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/kcc_wasm.wasm"
node "$here/wasm-smoke.mjs" "$module"
echo "web-demo: $module ($(( $(stat -c %s "$module") / 1024 )) KiB)"
