// Symbolic execution: private declarations shared by its parts (thread state, class Exec).
#pragma once

#include "verify/check/symexec.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ksynth::check {

using ir::Op;
using ir::StmtKind;
using smt::int128;
using smt::Sort;
using smt::TermContext;

namespace detail {

struct SVal {
  Term t = nullptr;  // Int/Real/Bool value
  int array = -1;    // pointer: array id (-2: unknown; -3: one of `alts`; -4: never assigned)
  Term off = nullptr; // pointer: element offset
  struct Alt {
    int array;
    Term guard, off;
  };
  std::vector<Alt> alts; // array == -3: the pointer is alts[i] when alts[i].guard holds
};

// Thread-local arrays are private to their thread, so their contents are modelled exactly:
// the stores made so far (each under the path condition it was made in) over an unknown
// initial content. A loop that stores to the array leaves it unknown again (a new epoch).
struct LocalWrite {
  Term pc, flat, val;
};
struct LocalMem {
  int epoch = 0;
  std::vector<std::shared_ptr<const LocalWrite>> writes;
};

struct State {
  Term pc;
  std::vector<SVal> vars;
  std::map<int, LocalMem> local; // Local-space array id -> contents (absent: epoch 0, no writes)
  Term bc, wc, gc; // barriers executed: block (incl. grid), all, grid
  // Warp-exchange array -> the exchange store this thread executed last, outside loops
  // (nullptr: not one known store).
  std::map<int, const ir::Stmt *> lastExchange;
};

class Exec {
public:
  bool wrapFreeSummaries = true;
  bool sharedContent = false; // float and integer loads of shared arrays as shm.NAME(bc, flat)
  const ThreadSyms *peer = nullptr; // see execute()
  Exec(TermContext &tc, const ir::Kernel &k, const GlobalSyms &g, const ThreadSyms &t,
       const std::string &tag, ThreadModel &out)
      : tc_(tc), k_(k), g_(g), t_(t), tag_(tag), out_(out) {}

  void run();

private:
  TermContext &tc_;
  const ir::Kernel &k_;
  const GlobalSyms &g_;
  const ThreadSyms &t_;
  std::string tag_;
  ThreadModel &out_;
  bool dry_ = false; // detection passes record nothing
  bool noWrap_ = false; // detection of induction variables modulo wrap-around (validated later)
  bool kernelHasBarrier_ = false;
  bool kernelHasGridBarrier_ = false;
  std::vector<Term> iters_;
  std::map<int, std::vector<State>> pendingExits_;
  std::set<std::string> abstractionSeen_;

  void abstraction(const std::string &what) {
    if (dry_)
      return;
    if (abstractionSeen_.insert(what).second)
      out_.abstractions.push_back(what);
  }

  static Sort sortOf(ir::Type t) {
    return t.isFloat() ? Sort::Real : t.isBool() ? Sort::Bool : Sort::Int;
  }

  SVal initial(int v);

  Term fresh(const std::string &what, Sort s) { return tc_.fresh(tag_ + "." + what, s); }

  // ---- expressions (symexec_expr.cpp) ---------------------------------------------------

  void arithCheck(const ir::Expr &e, ArithKind kind, Term pc, Term ok);
  Term rangeOk(Term v, ir::Type t);
  Term wrapUnsigned(Term r, ir::Type t);
  Term convertInt(Term v, ir::Type to);
  Term pow2(Term e, int maxExp);
  // C's division (rounds toward zero); Euclidean where a >= 0 is known from its range or from
  // a conjunct of the path condition `pc` (`t >= 0 && t / S < D`).
  Term truncDiv(Term a, Term b, Term pc = nullptr);
  bool nonNegative(Term a, Term pc);
  Term realConst(double v);
  SVal evalPtr(const ir::Expr &e, const State &s, Term pc);
  SVal choosePtr(Term c, const SVal &a, const SVal &b);
  Term eval(const ir::Expr &e, const State &s, Term pc);
  Term uniformValue(const ir::Expr &e, const State &s);
  Term bitwiseOrXor(const ir::Expr &e, Term a, Term b, const ir::Type &ty);

  // ---- statements (symexec_stmt.cpp) ----------------------------------------------------

  State merge(Term c, const State &a, const State &b);

  int epochs_ = 0;
  int newEpoch() { return ++epochs_; }

  Term readLocal(const State &s, int arr, Term flat, ir::Type t);
  void forgetLocals(State &s, const std::set<int> &arrays, bool all);
  static void storedLocals(const ir::Kernel &k, const ir::Block &b, std::set<int> &out, bool &any);
  // `after`: the strongest barrier that may follow in the thread's program.
  void block(const ir::Block &b, State &s, ir::SyncLevel after);
  void access(const ir::Stmt &st, State &s, bool write, bool atomic, Term *loaded,
              int *arrOut = nullptr, Term *flatOut = nullptr, std::vector<SVal::Alt> *alts = nullptr);
  static int baseArrayOf(const ir::Expr &p);
  Term flatOf(const ir::Stmt &st, const State &s);
  void boundToType(Term sym, const ir::Type &t);
  Term idxOf(const ir::Stmt &st, const State &s);
  void assign(State &s, int var, const ir::Expr &value);
  void stmt(const ir::Stmt &st, State &s, ir::SyncLevel after);
  void recordControl(const ir::Stmt &st, const State &s, Term cond, const std::vector<const ir::Block *> &inside,
                     ir::SyncLevel after);
  static void assignedVars(const ir::Block &b, std::set<int> &out);

  // ---- loops (symexec_loops.cpp) --------------------------------------------------------

  enum class Shape { Invariant, Affine, ShiftRight, ShiftLeft, Accumulate, Product, Extremum, ArgExtremum, Rescaled, Havoc };
  struct Summary {
    Shape shape = Shape::Havoc;
    Term step = nullptr; // Affine, Accumulate: per-iteration delta (Accumulate: over entry values);
                         // Product: per-iteration factor (over entry values);
                         // Extremum: the per-iteration candidate (kExtremumNone: no update)
    int k = 0;
    bool trunc = false;  // ShiftRight: C's signed division by 2^k (rounds toward zero)
    bool isMax = false;  // Extremum, ArgExtremum: max (else min)
    int keyVar = -1;     // ArgExtremum: the fold's variable, whose update decides this one's;
                         // Rescaled: the variable m the sum is kept relative to
    Term scaleAt = nullptr; // Rescaled: the symbol P in step, exp(x - P): m's final value
    std::string expName;    // Rescaled: the exponential used (fn.__expf, fn.expf, ...)
    bool strict = false; // ArgExtremum: replaced on > (<), not >= (<=)
    bool validate = false; // found assuming no wrap-around: check by induction
  };
  // What loop() finds out about one loop before its recorded pass, for its later phases.
  struct LoopFacts {
    ir::SyncLevel afterBody = ir::SyncLevel::None; // the strongest barrier after the body
    std::set<int> modified;       // variables the loop assigns
    std::vector<int> outer;       // labels outside the loop that it may exit to
    bool irregular = false;       // break/return inside
    std::map<int, Term> entrySym; // modified non-pointer variable -> its value at entry (a symbol)
    std::set<int> localsStored;   // local arrays the loop may store to
    bool anyStored = false;       // a store whose local target is not known statically
    Term bcEntry = nullptr, wcEntry = nullptr, gcEntry = nullptr; // barrier counts at entry
    std::map<int, Summary> summary;
    Summary bcSum, wcSum, gcSum;
    int128 testFalseFrom = -1; // without a closed-form count: the loop runs at most this often
  };

  State iteration(const ir::Stmt &L, State s, Term &cond, ir::SyncLevel afterBody, bool record,
                  Term iterPcExtra);
  Term valueAt(const Summary &sm, Term v0, Term i, const std::string &name, Sort sort,
               const ir::Type *ty = nullptr);
  // (`test`, where given: the test at an iteration X, d0 + a X < 0 or <= 0, over `X`, an
  // unbounded variable made for it.)
  Term tripCount(Term cn, Term n, uint32_t mark, std::pair<Term, Term> *test = nullptr);
  Term constantTripCount(Term cn, Term n);
  Term neverZeroThrough(Term cn, Term i, uint32_t mark);
  Term testOn(const ir::Stmt &L, State st);
  Term realDelta(Term v, Term e);
  Term realFactor(Term v, Term e);
  Term extremumStep(Term v, Term e, bool isMax);
  Summary rescaledStep(int v, Term e, const State &end, const LoopFacts &f, uint32_t watermark,
                       const std::set<Term> &entryIds);
  Term rescaled(int v, const Summary &sm, const State &s, const State &r, Term n, std::map<int, Summary> &summary,
                const std::map<int, Term> &entrySym,
                const std::function<std::vector<std::pair<Term, Term>>(Term)> &counters);
  Term accumulated(int v, const Summary &sm, const State &s, Term n, std::map<int, Summary> &summary,
                   const std::map<int, Term> &entrySym,
                   const std::function<std::vector<std::pair<Term, Term>>(Term)> &counters);
  void loop(const ir::Stmt &L, State &s, ir::SyncLevel after);
  void detectSummaries(const ir::Stmt &L, const State &s, LoopFacts &f);
  Summary classifyStep(Term e, Term v, uint32_t watermark, const std::set<Term> &entryIds);
  void findArgExtremum(std::map<int, Summary> &summary, const std::map<int, Term> &entrySym, const State &end,
                       uint32_t watermark, const std::set<Term> &entryIds);
  State stateAt(const State &s, LoopFacts &f, Term i, const std::string &why);
  int128 tripBound(const ir::Stmt &L, const State &s, LoopFacts &f);
  int128 testFailsFrom(Term cn, Term n);
  Term recordedPass(const ir::Stmt &L, const State &s, LoopFacts &f, int128 maxTrips);
  State afterLoop(const ir::Stmt &L, const State &s, ir::SyncLevel next, LoopFacts &f, Term i);
};

} // namespace detail
} // namespace ksynth::check
