#!/usr/bin/env bash
# Builds ksynth with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/) and runs
# the unit tests, the fuzz regressions, the corpus and the hostile-input tests under them.
# Any sanitizer report fails the run (UBSan does not recover; ASan aborts). Leak checking is
# off: the interpreter abandons the frames of threads that diverge at a barrier on purpose.
#
# Usage: scripts/sanitize.sh [CTEST_REGEX]   (default: unit_|fuzz_|corpus|hostile)
set -euo pipefail
cd "$(dirname "$0")/.."
B=build-asan
# vptr: LLVM and clang are built without RTTI, so UBSan's dynamic-type check cannot read their objects.
san="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
mkdir -p $B
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKSYNTH_UCONTEXT=ON \
  -DCMAKE_CXX_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" > $B/ksynth-build.log
nice ninja -C $B >> $B/ksynth-build.log
export KSYNTH_HOSTILE_NO_RLIMIT=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir $B --output-on-failure -R "${1:-unit_|fuzz_|corpus|hostile}"
