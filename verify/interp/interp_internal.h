// Concrete interpreter: private declarations shared by its parts (value helpers, class Machine, grid hooks).
#pragma once

#include "verify/interp/interp.h"

#include "util/deadline.h"
#include "util/float16.h"

#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ksynth::interp {

using ir::Expr;
using ir::Kernel;
using ir::Op;
using ir::Stmt;
using ir::StmtKind;
using ir::Type;
using ir::TypeKind;

namespace detail {

constexpr __int128 kMax128 = static_cast<__int128>((~static_cast<unsigned __int128>(0)) >> 1);
constexpr __int128 kMin128 = -kMax128 - 1;

struct Stop { // ends the thread: runThread catches it
  std::string reason;
};
struct CannotEval {};
// Stop::reason when the command's time limit (util/deadline.h) has passed; the entry points
// turn it into util::TimeLimit once back on the caller's stack.
inline constexpr const char *kTimeLimitStop = "the time limit of the command was reached"; // evalConstExpr: the expression is not a launch-time constant

inline void addTaint(std::string &t, const std::string &more) {
  if (t.empty() || (!more.empty() && isInvented(more) && !isInvented(t)))
    t = more;
}
inline std::string join(const std::string &a, const std::string &b) {
  return a.empty() || (!b.empty() && isInvented(b) && !isInvented(a)) ? b : a;
}
inline std::string join(std::string &&a, std::string &&b) {
  return a.empty() || (!b.empty() && isInvented(b) && !isInvented(a)) ? std::move(b) : std::move(a);
}

// Two's-complement wrap of an exact value into an integer (or bool) type.
inline __int128 wrapTo(__int128 v, const Type &t) {
  if (t.isBool())
    return v != 0;
  unsigned bits = t.bits;
  if (bits >= 128)
    return v;
  unsigned __int128 m = static_cast<unsigned __int128>(v) &
                        ((static_cast<unsigned __int128>(1) << bits) - 1);
  if (t.isSigned && ((m >> (bits - 1)) & 1))
    return static_cast<__int128>(m) - (static_cast<__int128>(1) << bits);
  return static_cast<__int128>(m);
}

inline bool inRange(__int128 v, const Type &t) { return v >= t.minValue() && v <= t.maxValue(); }

// Env::wideFloats of the run in progress (set by the entry points for their duration).
inline thread_local bool tWideFloats = false;
struct WideFloats {
  bool saved;
  explicit WideFloats(bool on) : saved(tWideFloats) { tWideFloats = on; }
  ~WideFloats() { tWideFloats = saved; }
};

inline double roundTo(double f, const Type &t) {
  if (!t.isFloat() || tWideFloats || t.bits == 64)
    return f;
  if (t.bits == 16)
    return t.bfloat ? util::roundToBf16(f) : util::roundToHalf(f);
  return static_cast<double>(static_cast<float>(f));
}

inline Value intVal(__int128 i, std::string taint = {}) {
  Value v;
  v.kind = Value::Kind::Int;
  v.i = i;
  v.taint = std::move(taint);
  return v;
}
inline Value floatVal(double f, std::string taint = {}) {
  Value v;
  v.kind = Value::Kind::Float;
  v.f = f;
  v.taint = std::move(taint);
  return v;
}

Value zeroOf(const Type &t);

inline double toDouble(const Value &v) {
  return v.kind == Value::Kind::Float ? v.f : static_cast<double>(v.i);
}
inline bool truthy(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Int: return v.i != 0;
  case Value::Kind::Float: return v.f != 0;
  case Value::Kind::Ptr: return v.array >= 0;
  }
  return false;
}

Value fit(Value v, const Type &t);
int64_t clamp64(__int128 v);

// What a region of code may do, for tainting the effects of paths not taken.
struct Effects {
  std::set<int> vars;
  std::set<int> arrays;
  bool anyArray = false; // a store through a pointer whose array is not syntactically known
  bool barrier = false;
};

void collectEffects(const ir::Block &b, Effects &e);

struct Flow {
  bool exit = false;
  int label = -1;
};

bool mathCall(const std::string &n, const std::vector<double> &a, double &r);
std::string normaliseMath(std::string n);

// The outermost expressions of k of at least `minNodes` nodes that depend on the launch alone
// (Expr::launchOnly), numbered from 0.
std::unordered_map<const Expr *, int> launchOnlyExprs(const Kernel &k, unsigned minNodes);
// The size from which a grid run keeps them: a lookup costs about as much as evaluating a
// smaller one.
constexpr unsigned kLaunchOnlyMin = 3;

struct GridCtx; // whole-grid execution (runGrid): shared memory and the scheduler
void gridYield(GridCtx &g, ir::BarrierKind kind, uint32_t mask);
bool gridRead(GridCtx &g, const ir::Array &arr, const std::pair<int, int64_t> &key, const Env &env,
              Value &out);
void gridWrite(GridCtx &g, const std::pair<int, int64_t> &key, Value v, bool atomic);

class Machine {
public:
  Machine(const Kernel &k, const Env &env, const ThreadId *tid);

  Trace trace;
  const std::map<std::pair<int, int64_t>, Value> &writes() const { return mem; }
  // Whole-grid mode: shared and global cells live in `grid`; no Access/Barrier events.
  GridCtx *grid = nullptr;
  int64_t *gridSteps = nullptr; // whole-grid mode: statements over all threads so far
  // Whole-grid mode: the kernel's outermost expressions of the launch alone (launchOnlyExprs),
  // with their slots in launchValues: each is evaluated once by a thread.
  const std::unordered_map<const Expr *, int> *launchSlots = nullptr;
  int64_t stepsTaken() const { return steps; }

  Flow execBlock(const ir::Block &b) {
    for (const ir::StmtPtr &s : b) {
      Flow f = exec(*s);
      if (f.exit)
        return f;
    }
    return {};
  }

  Value eval(const Expr &e) { // (inline: called for every node of every expression)
    if (e.launchOnly < kLaunchOnlyMin || !launchSlots || !tid)
      return evalNode(e);
    return evalLaunchOnly(e);
  }

private:
  std::vector<__int128> launchValues; // by launchSlots
  std::vector<uint8_t> launchKnown;
  Value evalNode(const Expr &e);
  Value evalLaunchOnly(const Expr &e);

  const Kernel &k;
  const Env &env;
  const ThreadId *tid; // null: evalConstExpr
  std::vector<Value> vals;
  std::vector<bool> assigned;
  std::map<std::pair<int, int64_t>, Value> mem; // this thread's writes
  std::map<int, std::string> arrayTaint;        // arrays whose private cells may differ
  std::string memTaint;                         // all arrays (store through unknown base)
  uint64_t blockBarriers = 0, warpBarriers = 0, gridBarriers = 0;
  std::string countTaint; // the barrier counts depend on memory
  std::vector<std::pair<int, int64_t>> iters;
  std::string scopedCtrl;                          // If/Loop conditions in force
  std::vector<std::pair<int, std::string>> exitCtrl; // (label, taint): reachability until the label's end
  int64_t steps = 0;
  const Stmt *cur = nullptr;
  std::map<const ir::Block *, Effects> effectsCache;
  std::map<const ir::Block *, std::vector<int>> exitsCache;
  std::map<std::string, std::string> mathNames; // call name -> normalised name
  // Symbolic mode: variables holding what an atomic returned, which depends on the order in
  // which threads ran (one order here; any on a GPU).
  std::vector<bool> orderDependent;

  bool constMode() const { return tid == nullptr; }

  // ---- symbolic values (Env::symbolic) ----
  bool symOn() const { return env.symbolic != nullptr && tid != nullptr; }
  // A value that depends on the inputs (a constant term does not).
  bool symVar(const Value &v) const { return symOn() && v.sym >= 0 && !env.symbolic->isConstant(v.sym); }
  int symOf(const Value &v) { return v.sym >= 0 ? v.sym : env.symbolic->constant(v, false); }
  void noteDependence(const std::string &what) {
    if (env.symbolic->dependence.empty())
      env.symbolic->dependence = "line " + std::to_string(cur ? cur->loc.line : 0) + ": " + what;
  }
  void dependsOn(const Value &v, const char *what) {
    if (symVar(v))
      noteDependence(what);
  }
  Value withSym(Value r, const char *name, std::initializer_list<const Value *> args) {
    if (!symOn()) // (inline: the concrete tests call it at every operation)
      return r;
    return withSymTerm(std::move(r), name, args);
  }
  Value withSymTerm(Value r, const char *name, std::initializer_list<const Value *> args);
  static bool onlyAssigns(const ir::Block &b);
  static bool sameValue(const Value &a, const Value &b) {
    return a.kind == b.kind && a.i == b.i && (a.f == b.f || (a.f != a.f && b.f != b.f)) && a.array == b.array &&
           a.offset == b.offset && a.sym == b.sym;
  }
  Flow execMerged(const Stmt &s, const Value &c);
  int64_t threadLinear() const;
  void checkNarrowing(const Value &v, const Type &from, const Type &to);

  void noteInvented(const std::string &taint) {
    if (trace.inventedControl.empty() && !taint.empty() && isInvented(taint))
      trace.inventedControl = taint;
  }

  std::string ctrl() const {
    if (!scopedCtrl.empty())
      return scopedCtrl;
    for (const auto &[label, t] : exitCtrl)
      if (!t.empty())
        return t;
    return {};
  }

  const Effects &effects(const ir::Block &b);
  void taintEffects(const ir::Block &b, const std::string &t);
  void endScope(int label, std::initializer_list<const ir::Block *> region);

  void step() {
    if ((steps & 4095) == 0 && util::deadlinePassed())
      throw Stop{kTimeLimitStop};
    if (++steps > env.maxSteps)
      throw Stop{"step limit"};
    if (gridSteps && ++*gridSteps > env.maxGridSteps)
      throw Stop{"step limit of the grid run"};
  }

  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void malformed(const std::string &what) {
    throw Stop{"malformed KIR: " + what};
  }
  [[noreturn]] [[gnu::cold]] [[gnu::noinline]] void malformed(const char *what) { malformed(std::string(what)); }

  Event mkEvent(EventKind kind);
  // Appends ev to the trace; stops the run where Env::stopAt accepts it.
  void record(Event ev);
  std::map<int, Value> snapshot() const;
  void assign(int var, Value v);
  void overflowEvent(const Expr &e, __int128 exact, const std::string &taint);
  Value intResult(const Expr &e, __int128 exact, __int128 wrapped, std::string taint);

  Value evalBinary(const Expr &e);
  Value evalCast(const Expr &e);
  Value evalCall(const Expr &e);
  Flow exec(const Stmt &s);
  Flow execLoop(const Stmt &s);
  Flow execAccess(const Stmt &s);
  Value atomicUpdate(const Stmt &s, const ir::Array &arr, const std::pair<int, int64_t> &key, const Value &old,
                     const Value &v);
};

} // namespace detail
} // namespace ksynth::interp
