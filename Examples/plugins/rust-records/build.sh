#!/bin/sh
# Builds records.wasm from records.rs with Debian's rustc and its wasm32 standard library
# (apt install rustc libstd-rust-dev-wasm32 lld-14; rustc 1.63, no cargo, no crates):
#   ./build.sh [OUTPUT]    (default: records.wasm next to this script)
# RUSTC overrides the compiler: /usr/bin/rustc by default, since a rustup rustc first on PATH may lack the target.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/records.wasm}"
rustc="${RUSTC:-/usr/bin/rustc}"
# wasm32-unknown-unknown: the plugin imports nothing but aggregate_v1 (no WASI); a cdylib exports its #[no_mangle]
# functions and memory. LTO and stripped symbols keep the module small.
exec "$rustc" --edition 2021 --target wasm32-unknown-unknown --crate-type cdylib -C opt-level=2 -C lto \
    -C strip=symbols "$here/records.rs" -o "$out"
