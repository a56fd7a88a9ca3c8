// The independent re-check of a proof bundle (bundle.h): every hash recomputed, every query
// of every proven obligation answered `unsat` by the z3 and cvc5 executables. Links neither
// Z3 nor clang: it trusts nothing of the ksynth that wrote the bundle.
#pragma once

#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace ksynth::bundle {

struct CheckOptions {
  std::string dir;
  std::vector<std::string> solvers = {"z3", "cvc5"};
  std::string kernelFile, specFile; // check these instead of the bundle's copies
  double timeoutS = 60;             // per query and solver
  int jobs = 0;                     // solver processes at once; 0: one per hardware thread
  // Per query file (its name in the bundle, e.g. "k.race.s.smt2"), or per solver and file
  // ("cvc5:k.race.s.smt2"): a limit that replaces timeoutS, for queries a solver is known not
  // to answer (the test suite's listed ones).
  std::map<std::string, double> timeoutFor;
  // "SOLVER:QUERY_FILE": that solver is not asked about that query (a query it is known not to
  // answer); another solver must still answer it unsat, and a query no solver is asked about
  // fails the check.
  std::set<std::string> skip;
  // Easy queries first in batches, many to a solver process (one process each costs more than
  // most queries take); whatever a batch does not answer unsat is asked in a process of its
  // own. false (--no-batch): every query in a process of its own.
  bool batch = true;
};

// Prints the table of obligations and the result line on `out`, errors on `err`.
// 0 everything re-checks and the bundle records a proof, 2 it re-checks but records none,
// 1 something failed.
int checkBundle(const CheckOptions &opts, std::ostream &out, std::ostream &err);

} // namespace ksynth::bundle
