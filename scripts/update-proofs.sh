#!/bin/sh
# Regenerates the committed proof bundles proofs/<spec>/ of the spec library: one
# `ksynth verify specs/NAME.cu --spec specs/NAME.smt --proof-dir proofs/NAME` per spec.
# Review the diff (query files change when an encoding changes) and commit it;
# tests/run_proofs.py (ctest `proofs`) re-checks them with the z3 and cvc5 executables.
# Usage: scripts/update-proofs.sh [KSYNTH]   (default build/ksynth)
set -eu
cd "$(dirname "$0")/.."
KS=${1:-build/ksynth}
for smt in specs/*.smt; do
  n=$(basename "$smt" .smt)
  rm -rf "proofs/$n"
  rc=0
  "$KS" verify "specs/$n.cu" --spec "$smt" --proof-dir "proofs/$n" > /dev/null || rc=$?
  case $rc in
    0) echo "proofs/$n: proven" ;;
    2) echo "proofs/$n: not proven (bounded or unknown), recorded as such" ;;
    *) echo "proofs/$n: ksynth exited $rc" >&2; exit 1 ;;
  esac
done
# The fast reference kernels, against the spec their first line names (// ksynth:spec SPEC).
for cu in specs/fast/*.cu; do
  [ -e "$cu" ] || continue
  n=fast/$(basename "$cu" .cu)
  s=$(head -1 "$cu" | sed -n 's|^// *ksynth:spec *\([^ ]*\).*|\1|p')
  rm -rf "proofs/$n"
  rc=0
  "$KS" verify "$cu" --spec "specs/$s.smt" --proof-dir "proofs/$n" > /dev/null || rc=$?
  case $rc in
    0) echo "proofs/$n: proven" ;;
    2) echo "proofs/$n: not proven (bounded or unknown), recorded as such" ;;
    *) echo "proofs/$n: ksynth exited $rc" >&2; exit 1 ;;
  esac
done
