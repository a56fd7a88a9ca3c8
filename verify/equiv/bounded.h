// Bounded equivalence: the fallback when the proof over symbolic sizes (prove.h) leaves
// coverage or equivalence unknown. For every size tuple admitted by the spec with each dim at
// most a bound n, the whole grid runs on the concrete interpreter with *symbolic* inputs
// (interp.h, Symbolic): every input element and float scalar is an unknown real, and every
// output element ends as a term over them. That term is compared with the spec's ensures,
// unrolled at the same sizes, for all real inputs at once:
//   1. both are brought to a canonical form (polynomials over atoms: inputs, exp(p), 1/p,
//      n-ary max/min, ite on sign conditions of polynomials); equal forms are equal reals;
//   2. otherwise Z3 decides `kernel != spec` (math functions uninterpreted, inputs finite
//      floats). unsat: equal. sat: the model's inputs are replayed on the concrete tests
//      (concrete.h); only a replayed difference refutes. Anything else stops the check.
// Coverage at each tuple comes from the same run: every out element stored, by one thread
// (atomics aside). The run is one path for all inputs only if no branch, loop test or
// address depends on an input (ifs that only assign are merged); otherwise the check stops.
//
// Sound only for kernels free of races and barrier divergence (the caller proves the safety
// obligations first): the interpreter runs one schedule. For the same reason a used value
// returned by an atomic stops the check.
//
// The verdict is never "proven": at best every tuple up to n agrees, reported as BOUNDED
// ("holds for all sizes with every dim <= n"). Levels n = 1, 2, ... are checked in order
// until the bound, the time budget, or a failure; `reached` is the last complete level.
#pragma once

#include "verify/smt/solver.h"

#include "verify/equiv/concrete.h"
#include "verify/ir/kir.h"
#include "verify/spec/bind.h"
#include "verify/spec/spec.h"

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

namespace ksynth::equiv {

struct BoundedOptions {
  std::array<ir::ExprPtr, 3> block{}, grid{}; // the launch
  int bound = 6;             // the largest value of every dim
  double budgetSeconds = 20; // stop starting new tuples after this
  unsigned seed = 1;         // the concrete values that steer the run (not the inputs' terms)
  unsigned solverMs = 5000;  // per Z3 query
  smt::QueryLog *log = nullptr; // where its queries are recorded (never written: search steps)
};

struct BoundedReport {
  enum class Result { Agrees, Refuted, Stopped } result = Result::Stopped;
  int reached = 0;      // every admitted tuple with all dims <= reached agrees (0: none)
  int tuples = 0;       // admitted size tuples that agreed
  int excluded = 0;     // tuples the kernel's own preconditions exclude (skipped)
  std::string stopped;  // why the check stopped before the bound (empty: it reached it)
  // Refuted: what the replay found (concrete.h's report, a real execution).
  ConcreteReport refutation;
  std::vector<std::string> assumptions; // e.g. "inputs are finite floats" (used by max)
  std::vector<std::pair<int, double>> levelMs; // (level, ms since start when it completed)
  int solverQueries = 0;                       // elements the canonical forms did not settle
  double ms = 0;
};

BoundedReport boundedCheck(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                           const BoundedOptions &o);

} // namespace ksynth::equiv
