#!/usr/bin/env bash
# Packs a built ksynth for a GPU machine that lacks clang 19, Z3 and their libraries (the
# device machine of a session, an Ubuntu 24.04 image with CUDA): the stripped binary, every
# shared library it needs beyond glibc and libstdc++ (libicudata replaced by a stub: LLVM
# links it through libxml2 but never reads it, and it is 31 MB), and clang's resource
# headers, xz-compressed into .devcarry/bundle.tar.xz (about 55 MB) plus .devcarry/ksynth.
# On the machine (as root):
#   mkdir -p /opt/ks && tar -xJf .devcarry/bundle.tar.xz -C /opt/ks && cp .devcarry/ksynth /opt/ks/
#   mkdir -p /usr/lib/llvm-19/lib/clang/19 && ln -s /opt/ks/clang-include /usr/lib/llvm-19/lib/clang/19/include
#   printf '#!/bin/sh\nLD_LIBRARY_PATH=/opt/ks/lib exec /opt/ks/ksynth "$@"\n' > /opt/ks/ks && chmod +x /opt/ks/ks
#   KSYNTH=/opt/ks/ks bash scripts/gpu-check.sh
# .devcarry/ must be ignored (.git/info/exclude) and named in the device call's carry.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/ksynth}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" .devcarry
ldd "$bin" | awk '{print $3}' | grep / | grep -v -E 'libc\.so|libm\.so|libgcc_s|libstdc\+\+|libpthread|libdl\.so|ld-linux' |
  xargs -I{} cp -L {} "$stage/lib/"
if [ -e "$stage/lib/libicudata.so.72" ]; then
  echo 'extern "C" const char icudt72_dat[64] = {0};' > "$stage/icu.cpp"
  g++ -shared -fPIC -o "$stage/lib/libicudata.so.72" -Wl,-soname,libicudata.so.72 "$stage/icu.cpp"
  rm "$stage/icu.cpp"
fi
cp -r /usr/lib/llvm-19/lib/clang/19/include "$stage/clang-include"
strip -o .devcarry/ksynth "$bin"
tar -C "$stage" -cf - . | xz -T0 -6 > .devcarry/bundle.tar.xz
grep -qs '^/.devcarry/$' .git/info/exclude || { mkdir -p .git/info; echo '/.devcarry/' >> .git/info/exclude; }
ls -la .devcarry
