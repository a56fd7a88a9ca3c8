// Safety checker: private declarations shared by its parts (class Checker).
#pragma once

#include "verify/check/checker.h"
#include "verify/check/symexec.h"
#include "verify/interp/interp.h"
#include "verify/smt/solver.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace ksynth::check::checker_detail {

using smt::int128;
using smt::Sort;
using smt::Term;
using smt::TermContext;

// A candidate violation inside a disjunctive query.
struct Candidate {
  Term cond;
  std::function<bool(const smt::Assignment &, Obligation &, std::string &why)> confirm;
  // True facts that may help the solver show cond impossible when asked about this candidate
  // alone (splitByCandidate); left out of the combined query, where they can slow it down.
  Term hints = nullptr;
};

class Checker {
public:
  Checker(const ir::Kernel &k, const Options &o);

  KernelReport run();

private:
  const ir::Kernel &k_;
  Options opts_;
  TermContext tc_;
  smt::Solver solver_;
  smt::QueryLog ownLog_; // when Options::log names none
  GlobalSyms g_;
  ThreadSyms t1_, t2_;
  ThreadModel m1_, m2_;
  KernelReport rep_;
  // checkSummaries: sizes at which a loop summary's closed form fails (a loop variable wraps
  // around), for the abstraction note; empty when the solver gave none.
  std::string wrapSizes_;

  // checker.cpp: setup, vacuity, loop-summary lemma
  static Kind kindOf(const std::string &check);
  std::vector<std::string> orderedChecks();
  std::vector<ir::StmtPtr> collectAssumeTexts();
  void describeLaunch();
  KernelReport finish();
  bool checkSummaries();
  bool checkPremises();
  std::vector<Term> launchAtTwo();
  std::string lemmaHeader(const std::string &name, const std::string &meaning, const std::set<unsigned> &lines);

  // check_replay.cpp: concrete replay
  interp::Env envFrom(const smt::Assignment &m);
  interp::ThreadId threadFrom(const ThreadSyms &t, const smt::Assignment &m);
  static std::string threadText(const interp::ThreadId &id, const interp::Env &env);
  nlohmann::json witnessJson(const interp::Env &env, const std::vector<interp::ThreadId> &threads);
  std::string sizesText(const interp::Env &env);
  std::string varsIn(const std::string &text, const interp::Event &ev);
  std::string iterText(const interp::Event &ev, const std::string &text);

  // check_replay.cpp: query driver
  void addBackground(Term f);
  std::vector<Term> background_;
  Term productLemmas(Term goal);
  std::vector<Term> extentHints(Term ok);
  void decide(Obligation &o, std::vector<Candidate> &cands);
  // decide(), except that no candidate at all is proven without a query; then o is reported.
  void settle(Obligation &o, std::vector<Candidate> &cands);
  std::string violatedPrecondition(const smt::Assignment &m);
  bool splitByCandidate(Obligation &o, std::vector<Candidate> &cands, std::vector<bool> &excluded, std::string &why);
  // A violation by one thread: the model's thread is replayed and confirms it when it reaches
  // an event `matches` accepts that does not depend on loaded values; the witness is that
  // thread at the model's sizes, `report` adds the reason and the event's notes. `heldWhy`
  // says what happened when no such event came.
  Candidate oneThreadCandidate(
      Term cond, std::function<bool(const interp::Event &)> matches,
      std::function<void(const interp::Event &, const interp::Env &, const interp::ThreadId &, Obligation &)> report,
      std::string heldWhy);
  std::vector<Term> sizeSymbols(bool all);
  smt::Assignment smallModel(Term goal, const smt::Assignment &model);
  bool confirmLarger(Candidate &cand, Term cond, Obligation &o);
  smt::Query obligationQuery(const Obligation &o);
  Term distinctThreads();
  Term sameBlock();
  Term linearTid(const ThreadSyms &t);
  Term sameWarp();
  void uniformCandidates(std::vector<Candidate> &cands);
  void maskedBarrierCandidates(std::vector<Candidate> &cands);
  void activeMaskFacts();
  static int64_t linearOf(const interp::ThreadId &t, const interp::Env &env);
  bool barriersDiffer(const interp::Env &env, const interp::ThreadId &i1, const interp::ThreadId &i2,
                      const std::function<bool(const interp::Event &, int64_t)> &counts,
                      std::vector<const ir::Stmt *> &s1, std::vector<const ir::Stmt *> &s2, std::string &why);
  void kernelBounds(std::vector<Term> &pre);

  // check_race.cpp
  static bool sameInterval(const interp::Event &a, const interp::Event &b, bool sameBlk, bool sameWrp);
  // One access of a candidate race: where, and how it touches memory.
  struct RaceAccess {
    const ir::Stmt *stmt;
    bool write, atomic;
  };
  bool replayRace(RaceAccess a, RaceAccess b, bool shared, const smt::Assignment &m, Obligation &ob, std::string &why);
  void checkRaces();

  // check_safety.cpp
  void checkBarriers();
  void checkBounds();
  void checkOverflow();
  void checkAsserts(ir::AssertKind which);
};

} // namespace ksynth::check::checker_detail
