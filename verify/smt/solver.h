// The one place that talks to Z3. A Solver decides named queries over smt::Terms with a
// wall-clock limit that is enforced (Z3's own timeout plus an interrupt from a watchdog),
// and returns models as Assignments so the caller can replay them concretely. Every named
// query goes to the verification's QueryLog: its answer and time (for --stats) and, when
// the log has a dump directory, a self-contained SMT-LIB2 file (the proof bundle's queries).
#pragma once

#include "verify/smt/term.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ksynth::smt {

enum class Status { Sat, Unsat, Unknown };
const char *statusName(Status s);

struct Result {
  Status status = Status::Unknown;
  std::string reason; // for Unknown: Z3's reason (timeout, incomplete, ...)
  double ms = 0;
  Assignment model;   // for Sat: a value for every Var and App in the query
  bool repeated = false; // answered from the solver's memory of an identical earlier query
  bool sliced = false;   // asked over the goal's slice, not the whole background (Solver::check)
};

// A query as the log and the dumps know it.
struct Query {
  std::string name; // unique within a verification ("vec_add.race.C"); the dump is NAME.smt2
  // The dump's header comment: what the query encodes and what `unsat` establishes, given
  // the answer the solver gave. Empty: a search step (a smaller model, a candidate asked
  // again), logged but never written.
  std::function<std::string(Status)> header;
};

// Every query of one verification, in order.
struct QueryRecord {
  std::string name;
  Status status = Status::Unknown;
  double ms = 0;
  std::string file; // the dump's file name (in the dump directory); empty when not written
  bool repeated = false; // an identical earlier query's answer (Result::repeated)
  bool sliced = false;   // asked over its slice (Result::sliced)
};

class QueryLog {
public:
  explicit QueryLog(std::string dumpDir = {}) : dumpDir_(std::move(dumpDir)) {}
  const std::string &dumpDir() const { return dumpDir_; }
  const std::deque<QueryRecord> &records() const { return records_; }
  // Records one answered query; writes background ∧ goal as NAME.smt2 when it has a header
  // and the log a directory, saying so in the header when background holds fewer than the
  // backgroundSize facts of the solver (Solver::check writes the goal's slice). Returns the
  // record.
  const QueryRecord &add(const Query &q, const Result &r, const std::vector<Term> &background, Term goal,
                         size_t backgroundSize);

private:
  std::string dumpDir_;
  std::deque<QueryRecord> records_; // stable addresses: Solver::lastRecord points into it
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
  // Decides background ∧ goal. A query asked before (the same goal over the same background:
  // terms are hash-consed and the background only grows) gets its earlier answer back, model
  // included, at no cost; an earlier `unknown` only while the limit is no longer than it was.
  // Across solvers (a file's template instances differ mostly in facts their goals never
  // read), the answers `unsat` and `unknown` are remembered by the goal's slice: the goal and
  // the background facts that share a symbol with it, transitively. Background ∧ goal is
  // slice ∧ rest over disjoint symbols, so an unsat slice makes every query with that slice
  // unsat; a solver's own unsat answer is remembered for its slice only once its background
  // is known satisfiable (a sat answer over all of it), since only then is the slice unsat too.
  // (Z3 then starts the next query from other heuristic state, so single queries may get slower
  // or faster; on specs/fast/ the whole takes 16% less time. KSYNTH_ASK_EVERY_QUERY=1 in the
  // environment turns the memory off, to compare.)
  // A goal whose slice is a small part of a large background (at most a quarter of 200 facts
  // or more: a matmul's tile and loop facts, where the goal is about one index) is asked over
  // its slice alone, on a second Z3 solver that keeps the facts of the slices asked before (what
  // Z3 learns from one query then serves the next, as on the whole background's solver). Unsat
  // there is unsat of the whole. Sat is taken only while a model of the whole background is
  // known (the last sat answer over all of it, at its present size): the model is the slice's
  // values joined with that model's for every other symbol, which satisfies every fact; without
  // one the whole query is asked. (Values are per term: where the slice's values make the
  // arguments of two applications of a function equal whose range facts the slice leaves out
  // (a loaded value's), the two may keep different values, each within the ranges.) The
  // answers are those of the whole query (up to Z3's limits). The file a logged query writes
  // is its slice where the background is known satisfiable (check(goal, q)).
  Result check(Term goal);
  // Decides background ∧ goal and records it in the log (set with setLog; none: not logged).
  // A query the log writes holds the goal's slice where the background is known satisfiable
  // (for an unsat answer, the background alone is asked first when it is not yet), its header
  // saying how many facts are left out: unsat of the slice is then unsat of the whole, and a
  // reader re-checks a few kilobytes instead of the whole background.
  Result check(Term goal, const Query &q);
  // The last check(goal, q)'s record (its dump file); null before any.
  const QueryRecord *lastRecord() const { return last_; }
  void setLog(QueryLog *log) { log_ = log; }
  void setTimeout(unsigned ms) { timeoutMs_ = ms; }
  unsigned timeout() const { return timeoutMs_; }

  static std::string version();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  TermContext &tc_;
  std::vector<Term> background_;
  // The symbols of background_[0, bgDone_) and every node walked to find them: a model reads
  // them back after each satisfiable check without walking the background again.
  std::vector<Term> bgSyms_;
  std::unordered_set<Term> bgSeen_;
  size_t bgDone_ = 0;
  unsigned timeoutMs_;
  QueryLog *log_ = nullptr;
  const QueryRecord *last_ = nullptr;
  // Earlier answers by (goal, background size), with the limit each was asked under.
  struct PairHash {
    size_t operator()(const std::pair<Term, size_t> &k) const {
      return std::hash<Term>()(k.first) * 31 + k.second;
    }
  };
  std::unordered_map<std::pair<Term, size_t>, std::pair<Result, unsigned>, PairHash> answers_;
  bool remember_ = true;
  // The background size at the last sat answer: background_[0, satBackground_) is satisfiable.
  size_t satBackground_ = 0;
  // The goal's slice: the indices of the background facts it keeps (ascending) in kept, and
  // returned written out (empty when past 1 MiB). solver.cpp.
  std::string slice(Term goal, std::vector<size_t> &kept);
  // Queries are asked over their slice alone (Solver::check); KSYNTH_WHOLE_QUERIES=1 in the
  // environment asks every one over the whole background, to compare.
  bool slicing_ = true;
  // A model of background_[0, bgModelSize_) (SIZE_MAX: none yet), from the last sat answer over
  // the whole background: the values of the facts a slice leaves out.
  Assignment bgModel_;
  size_t bgModelSize_ = SIZE_MAX;
  QueryRecord unlogged_;
};

} // namespace ksynth::smt
