#!/bin/sh
# Regenerates the committed proof bundles proofs/<spec>/ of the spec library: one
# `ksynth verify specs/NAME.cu --spec specs/NAME.smt --proof-dir proofs/NAME` per spec (and
# proofs/kernelbench/NAME/ for specs/kernelbench/NAME.smt), and
# proofs/fast/NAME/ for each fast reference kernel specs/fast/NAME.cu, against the spec its
# first line names (// ksynth:spec SPEC).
# Review the diff (query files change when an encoding changes) and commit it;
# tests/run_proofs.py (ctest `proofs`) re-checks them with the z3 and cvc5 executables.
# Usage: scripts/update-proofs.sh [KSYNTH]   (default build/ksynth)
set -eu
cd "$(dirname "$0")/.."
KS=${1:-build/ksynth}
# Kept as committed: fast/matmul_wmma's proven bundle has about 2050 queries, too many for
# cvc5 to re-check in CI; the committed one is an earlier, bounded one (README).
KEEP="fast/matmul_wmma"
# Safety obligations only: fast/matmul_f16_wmma's equivalence proof asks about 17,000 queries.
SAFETY_ONLY="fast/matmul_f16_wmma"
bundle() { # NAME KERNEL SPEC
  case " $KEEP " in *" $1 "*) echo "proofs/$1: kept as committed"; return ;; esac
  checks=
  case " $SAFETY_ONLY " in *" $1 "*) checks="--checks race,barrier,bounds,overflow,align,warp,assert" ;; esac
  rm -rf "proofs/$1"
  rc=0
  # shellcheck disable=SC2086 # (checks is empty or one option and its value)
  "$KS" verify "$2" --spec "$3" $checks --proof-dir "proofs/$1" > /dev/null || rc=$?
  case $rc in
    0) echo "proofs/$1: proven" ;;
    2) echo "proofs/$1: not proven (bounded or unknown), recorded as such" ;;
    *) echo "proofs/$1: ksynth exited $rc" >&2; exit 1 ;;
  esac
}
for smt in specs/*.smt; do
  n=$(basename "$smt" .smt)
  bundle "$n" "specs/$n.cu" "$smt"
done
for smt in specs/kernelbench/*.smt; do
  n=$(basename "$smt" .smt)
  bundle "kernelbench/$n" "specs/kernelbench/$n.cu" "$smt"
done
for cu in specs/fast/*.cu; do
  [ -e "$cu" ] || continue
  s=$(head -1 "$cu" | sed -n 's|^// *ksynth:spec *\([^ ]*\).*|\1|p')
  bundle "fast/$(basename "$cu" .cu)" "$cu" "specs/$s.smt"
done
