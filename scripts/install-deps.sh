#!/usr/bin/env bash
# Installs the Debian packages ksynth builds and tests with. Idempotent; used by .ci/run
# and by the README. Needs root (or sudo) and Debian's package mirror.
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build ccache pkg-config python3
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools
  libclang-rt-19-dev # libFuzzer and the sanitizer runtimes (scripts/fuzz.sh, scripts/sanitize.sh)
  libz3-dev z3 cvc5
  libcurl4-openssl-dev nlohmann-json3-dev doctest-dev
  # `ksynth bench` tests: a one-node Slurm cluster on loopback (--slurm job arrays) and the
  # HTML report looked at in headless Chromium (tests/cli/run_bench_tests.py)
  slurmctld slurmd slurm-client munge chromium
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
