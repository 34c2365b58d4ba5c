#!/bin/sh
# Builds hello.wasm from hello.c with the Swift toolchain's clang and Debian's wasi-libc (apt install wasi-libc):
#   ./build.sh [OUTPUT]    (default: hello.wasm next to this script)
# CLANG and WASI_SYSROOT override where they are looked for; CFLAGS adds flags (-DGREETING='"Howdy"').
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/hello.wasm}"
clang="${CLANG:-$(command -v /opt/swift/usr/bin/clang || command -v clang)}"
sysroot="${WASI_SYSROOT:-/usr}"
# A library with exports and no main (-mexec-model=reactor, --no-entry). -nostdlib and -lc: the toolchain's clang
# ships no wasm32 compiler-rt, and this plugin needs none of it.
exec "$clang" --target=wasm32-wasi --sysroot="$sysroot" -isystem "$sysroot/include/wasm32-wasi" \
    -L"$sysroot/lib/wasm32-wasi" -O2 -mexec-model=reactor -nostdlib -Wl,--no-entry \
    -I "$here/../include" ${CFLAGS:-} "$here/hello.c" -lc -o "$out"
