// The one place that talks to Z3. A Solver decides named queries over smt::Terms with a
// wall-clock limit that is enforced (Z3's own timeout plus an interrupt from a watchdog),
// and returns models as Assignments so the caller can replay them concretely.
#pragma once

#include "verify/smt/term.h"

#include <memory>
#include <string>
#include <vector>

namespace ksynth::smt {

enum class Status { Sat, Unsat, Unknown };
const char *statusName(Status s);

struct Result {
  Status status = Status::Unknown;
  std::string reason; // for Unknown: Z3's reason (timeout, incomplete, ...)
  double ms = 0;
  Assignment model;   // for Sat: a value for every Var and App in the query
};

class Solver {
public:
  explicit Solver(TermContext &tc, unsigned timeoutMs = 10000);
  ~Solver();
  Solver(const Solver &) = delete;
  Solver &operator=(const Solver &) = delete;

  // Background facts for every later query (the launch, assumptions, ...).
  void addBackground(Term t);
  const std::vector<Term> &background() const { return background_; }
  // Decides background ∧ goal.
  Result check(Term goal);
  void setTimeout(unsigned ms) { timeoutMs_ = ms; }

  static std::string version();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  TermContext &tc_;
  std::vector<Term> background_;
  unsigned timeoutMs_;
};

} // namespace ksynth::smt
