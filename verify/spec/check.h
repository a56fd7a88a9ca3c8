// Well-formedness of a parsed spec, decided with Z3 (through verify/smt) over symbolic sizes.
// With A = (every dim >= 1) ∧ the spec's assumptions and F the facts in scope at a subterm
// (index variables of an ensures in [0, extent), binder variables in [LO, HI), conditions of
// enclosing ite/and/or/=>, let bindings, a define's arguments at each call), each check is a
// query that must be unsat (sat = a counterexample, unknown = not shown; both are errors):
//   vacuity      A must be sat (the spec describes at least one problem)
//   range        A ∧ F ∧ HI <= LO          for max-over, min-over, argmax-over, argmin-over
//   read         A ∧ F ∧ ¬(0 <= e_k < extent_k)  for every index e_k of a tensor read
//   division     A ∧ F ∧ divisor = 0       for Int div and mod
// Sums, products and range extrema appearing inside these formulas become fresh unknowns
// (an over-approximation, so unsat still proves); tensor elements and exp, log, ... are
// uninterpreted functions.
#pragma once

#include "verify/spec/spec.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ksynth::spec {

struct CheckResult {
  std::vector<Diagnostic> errors;
  bool satisfiable = false;               // the assumptions were shown satisfiable
  std::map<std::string, int64_t> example; // dims of one admitted problem (from the vacuity model)
  unsigned queries = 0;
  double ms = 0;
};

CheckResult checkSpec(const Spec &s, unsigned timeoutMs = 5000);

} // namespace ksynth::spec
