#!/usr/bin/env bash
# Fuzzes each target of tests/fuzz for SECONDS (default 60) with libFuzzer under
# AddressSanitizer and UndefinedBehaviorSanitizer (clang 19, libclang-rt-19-dev). Seeds:
# specs/, specs/fast and examples/, the synthesis fixtures, tests/fuzz/seeds. A crash,
# leak-free timeout or sanitizer report is copied to tests/fuzz/regressions/TARGET/ (which
# ctest runs from then on, in every build) and the script exits 1.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: spec frontend launch replay)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(spec frontend launch replay)
B=build-fuzz
# vptr: LLVM and clang are built without RTTI, so UBSan's dynamic-type check cannot read their objects.
san="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
mkdir -p $B
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-19 -DKSYNTH_FUZZ=ON -DKSYNTH_UCONTEXT=ON \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link $san" -DCMAKE_EXE_LINKER_FLAGS="$san" > $B/ksynth-build.log
nice ninja -C $B "${targets[@]/#/fuzz_}" >> $B/ksynth-build.log
declare -A seeds=([spec]="specs" [frontend]="specs/fast examples" [launch]="tests/fuzz/seeds/launch"
                  [replay]="synth/fixtures")
status=0
for t in "${targets[@]}"; do
  work=$(mktemp -d)
  mkdir -p "$work/corpus" "tests/fuzz/regressions/$t"
  # -rss_limit_mb: memory stays bounded; -timeout: one input may take 30 s (clang parses).
  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
    "$B/fuzz_$t" -max_total_time="$secs" -rss_limit_mb=4096 -timeout=30 -max_len=65536 \
    -artifact_prefix="$work/" "$work/corpus" ${seeds[$t]} "tests/fuzz/regressions/$t" \
    > "$work/log" 2>&1 || true
  found=$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' -o -name 'leak-*' \))
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/log" | awk '{print $2}' || true)
  [ -n "$runs" ] || runs=$(grep -oE '^#[0-9]+' "$work/log" | tail -1 | tr -d '#' || true)
  if [ -n "$found" ]; then
    cp $found "tests/fuzz/regressions/$t/"
    echo "fuzz_$t: FOUND $(echo "$found" | wc -l) input(s), kept in tests/fuzz/regressions/$t:"
    grep -E 'ERROR|SUMMARY|runtime error' "$work/log" | head -5 || true
    status=1
  else
    echo "fuzz_$t: ${secs}s, ${runs:-?} inputs, nothing found"
  fi
  rm -rf "$work"
done
exit $status
