// Concrete interpreter of KIR (see interp.h). The semantics here is the reference the
// symbolic checker mirrors; every choice a C/CUDA program leaves open is fixed below and
// marked "SEMANTICS:" so the two sides can be compared line by line.
//
// SEMANTICS summary:
//  - Integers are computed exactly in __int128. An Int-typed Add/Sub/Mul/Neg/Shl/Div/Rem
//    whose exact result is outside its type records Overflow (exact = that result, saturated
//    to the __int128 range if it does not fit) and continues with the two's-complement wrap.
//    This applies to unsigned types too (u32 `0 - 1` is an Overflow). Signed arithmetic
//    overflow is undefined behaviour: the thread stops after its Overflow event (stopReason
//    "signed integer overflow (undefined behaviour)"); unsigned wrap and conversions go on.
//  - Rem is exact: INT_MIN % -1 == 0 is in range, so no event (INT_MIN / -1 is an Overflow).
//  - Shl/Shr: a shift amount < 0 or >= the result's bit width records Overflow with
//    exact = the amount, and the result is 0. Shr is arithmetic (floor) for signed types.
//  - Bitwise ops and Min/Max never overflow.
//  - `&&`, `||` and Select evaluate lazily as in C: an unevaluated operand records no events.
//  - Cast int->int that changes the value: Overflow (exact = source value), wrapped.
//    float->int truncates; NaN or out of range: Overflow (exact = truncated value, NaN: 0)
//    and the result saturates to the target range (NaN: 0), as CUDA's cvt.rzi does.
//    int/float->bool is `!= 0`. f32 results are rounded to float.
//  - Float ops run in double; an f32-typed result is rounded to float. No float events.
//  - Atomics wrap silently (they are memory operations, not index arithmetic).
//    CAS: `value` is the new value, `value2` the compare value (kir.h); Inc/Dec are CUDA's
//    atomicInc/atomicDec.
//  - An AssertFail event does not stop the thread.
//  - Malformed KIR (wrong number of indices, a non-pointer base, an exit to a label that
//    encloses nothing) stops the thread with stopReason "malformed KIR: ...".
//  - `__len(p)` in the kernel body without Env::lens[p] stops the thread with
//    stopReason "unknown length: __len(p)".
//
// Taint (replay only; the symbolic side has no counterpart): beyond the data and control
// flow of the brief, values that *would* have been written on a path not taken are tainted
// too, so an untainted event really does not depend on memory:
//  - after an If with a tainted condition, every variable assigned in either branch, every
//    array stored to in either branch, and (if either branch has a barrier) the barrier count
//    are tainted; likewise after a Loop whose condition was tainted in some iteration;
//  - an If with a tainted condition whose branches contain an Exit taints control for the
//    rest of the exited scope (reachability), and that scope's effects when it ends;
//  - a store through a tainted address taints the whole array.
//  Access and Barrier events also carry the barrier-count taint (their barrier interval then
//  depends on memory).
#include "verify/interp/interp.h"

#include <ucontext.h>

#include <algorithm>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <memory>
#include <set>

namespace ksynth::interp {

using ir::Expr;
using ir::Kernel;
using ir::Op;
using ir::Stmt;
using ir::StmtKind;
using ir::Type;
using ir::TypeKind;

namespace {

constexpr __int128 kMax128 = static_cast<__int128>((~static_cast<unsigned __int128>(0)) >> 1);
constexpr __int128 kMin128 = -kMax128 - 1;

struct Stop { // ends the thread: runThread catches it
  std::string reason;
};
struct CannotEval {}; // evalConstExpr: the expression is not a launch-time constant

void addTaint(std::string &t, const std::string &more) {
  if (t.empty())
    t = more;
}
std::string join(const std::string &a, const std::string &b) { return a.empty() ? b : a; }

// Two's-complement wrap of an exact value into an integer (or bool) type.
__int128 wrapTo(__int128 v, const Type &t) {
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

bool inRange(__int128 v, const Type &t) { return v >= t.minValue() && v <= t.maxValue(); }

// Env::wideFloats of the run in progress (set by the entry points for their duration).
thread_local bool tWideFloats = false;
struct WideFloats {
  bool saved;
  explicit WideFloats(bool on) : saved(tWideFloats) { tWideFloats = on; }
  ~WideFloats() { tWideFloats = saved; }
};

double roundTo(double f, const Type &t) {
  return t.isFloat() && t.bits == 32 && !tWideFloats ? static_cast<double>(static_cast<float>(f)) : f;
}

Value intVal(__int128 i, std::string taint = {}) {
  Value v;
  v.kind = Value::Kind::Int;
  v.i = i;
  v.taint = std::move(taint);
  return v;
}
Value floatVal(double f, std::string taint = {}) {
  Value v;
  v.kind = Value::Kind::Float;
  v.f = f;
  v.taint = std::move(taint);
  return v;
}

Value zeroOf(const Type &t) {
  if (t.isFloat())
    return floatVal(0);
  if (t.isPtr()) {
    Value v;
    v.kind = Value::Kind::Ptr;
    return v;
  }
  return intVal(0);
}

double toDouble(const Value &v) {
  return v.kind == Value::Kind::Float ? v.f : static_cast<double>(v.i);
}
bool truthy(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Int: return v.i != 0;
  case Value::Kind::Float: return v.f != 0;
  case Value::Kind::Ptr: return v.array >= 0;
  }
  return false;
}

// Brings a value given from outside (parameters, initial memory) or a same-typed result into
// type `t` without recording anything.
Value fit(Value v, const Type &t) {
  if (t.isFloat()) {
    if (v.kind != Value::Kind::Float) {
      v.f = static_cast<double>(v.i);
      v.kind = Value::Kind::Float;
    }
    v.f = roundTo(v.f, t);
  } else if (t.isInt() || t.isBool()) {
    if (v.kind == Value::Kind::Float) {
      double tr = std::trunc(v.f);
      v.i = std::isfinite(tr) && std::fabs(tr) < 1e38 ? static_cast<__int128>(tr) : 0;
      v.kind = Value::Kind::Int;
    }
    if (v.kind == Value::Kind::Int)
      v.i = wrapTo(v.i, t);
  }
  return v;
}

int64_t clamp64(__int128 v) {
  if (v > std::numeric_limits<int64_t>::max())
    return std::numeric_limits<int64_t>::max();
  if (v < std::numeric_limits<int64_t>::min())
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

// What a region of code may do, for tainting the effects of paths not taken.
struct Effects {
  std::set<int> vars;
  std::set<int> arrays;
  bool anyArray = false; // a store through a pointer whose array is not syntactically known
  bool barrier = false;
};

// The array a pointer expression certainly points into, or -1.
int baseArray(const Expr &p) {
  switch (p.op) {
  case Op::ArrayRef: return p.id;
  case Op::PtrAdd: return baseArray(*p.args[0]);
  default: return -1;
  }
}

void collectEffects(const ir::Block &b, Effects &e) {
  for (const ir::StmtPtr &s : b) {
    switch (s->kind) {
    case StmtKind::Assign:
    case StmtKind::Load:
    case StmtKind::Havoc:
      e.vars.insert(s->var);
      break;
    case StmtKind::Atomic:
    case StmtKind::Store: {
      if (s->var >= 0)
        e.vars.insert(s->var);
      int a = baseArray(*s->ptr);
      if (a >= 0)
        e.arrays.insert(a);
      else
        e.anyArray = true;
      break;
    }
    case StmtKind::Barrier: e.barrier = true; break;
    default: break;
    }
    for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
      collectEffects(*c, e);
  }
}

struct Flow {
  bool exit = false;
  int label = -1;
};

// Math functions by name; the name is normalised (`__expf` -> `exp`) by the caller.
bool mathCall(const std::string &n, const std::vector<double> &a, double &r) {
  if (a.size() == 1) {
    double x = a[0];
    if (n == "exp") r = std::exp(x);
    else if (n == "exp2") r = std::exp2(x);
    else if (n == "exp10") r = std::pow(10.0, x);
    else if (n == "expm1") r = std::expm1(x);
    else if (n == "log") r = std::log(x);
    else if (n == "log2") r = std::log2(x);
    else if (n == "log10") r = std::log10(x);
    else if (n == "log1p") r = std::log1p(x);
    else if (n == "sqrt" || n == "fsqrt_rn") r = std::sqrt(x);
    else if (n == "rsqrt" || n == "frsqrt_rn") r = 1.0 / std::sqrt(x);
    else if (n == "cbrt") r = std::cbrt(x);
    else if (n == "frcp_rn") r = 1.0 / x;
    else if (n == "tanh") r = std::tanh(x);
    else if (n == "sinh") r = std::sinh(x);
    else if (n == "cosh") r = std::cosh(x);
    else if (n == "erf") r = std::erf(x);
    else if (n == "erfc") r = std::erfc(x);
    else if (n == "fabs") r = std::fabs(x);
    else if (n == "sin") r = std::sin(x);
    else if (n == "cos") r = std::cos(x);
    else if (n == "tan") r = std::tan(x);
    else if (n == "asin") r = std::asin(x);
    else if (n == "acos") r = std::acos(x);
    else if (n == "atan") r = std::atan(x);
    else if (n == "floor") r = std::floor(x);
    else if (n == "ceil") r = std::ceil(x);
    else if (n == "trunc") r = std::trunc(x);
    else if (n == "round") r = std::round(x);
    else if (n == "rint") r = std::nearbyint(x);
    else if (n == "saturate") r = std::isnan(x) ? 0.0 : std::fmin(std::fmax(x, 0.0), 1.0);
    else return false;
    return true;
  }
  if (a.size() == 2) {
    double x = a[0], y = a[1];
    if (n == "pow") r = std::pow(x, y);
    else if (n == "fmin") r = std::fmin(x, y);
    else if (n == "fmax") r = std::fmax(x, y);
    else if (n == "fmod") r = std::fmod(x, y);
    else if (n == "atan2") r = std::atan2(x, y);
    else if (n == "copysign") r = std::copysign(x, y);
    else if (n == "fdivide" || n == "fdiv_rn") r = x / y;
    else if (n == "fadd_rn") r = x + y;
    else if (n == "fsub_rn") r = x - y;
    else if (n == "fmul_rn") r = x * y;
    else return false;
    return true;
  }
  if (a.size() == 3 && (n == "fma" || n == "fma_rn")) {
    r = std::fma(a[0], a[1], a[2]);
    return true;
  }
  return false;
}

bool knownMath(const std::string &n) {
  double r;
  for (size_t arity = 1; arity <= 3; ++arity)
    if (mathCall(n, std::vector<double>(arity, 1.0), r))
      return true;
  return false;
}

// `__expf` -> `exp`, `fabsf` -> `fabs`, `__fmaf_rn` -> `fma_rn`, `erff` -> `erf`.
std::string normaliseMath(std::string n) {
  if (n.rfind("__", 0) == 0)
    n = n.substr(2);
  if (n.rfind("std::", 0) == 0)
    n = n.substr(5);
  if (knownMath(n))
    return n;
  if (n.size() > 1 && n.back() == 'f' && knownMath(n.substr(0, n.size() - 1)))
    return n.substr(0, n.size() - 1);
  auto rn = n.find("f_rn"); // fmaf_rn
  if (rn != std::string::npos && rn + 4 == n.size() && knownMath(n.substr(0, rn) + "_rn"))
    return n.substr(0, rn) + "_rn";
  return n;
}

struct GridCtx; // whole-grid execution (runGrid): shared memory and the scheduler
void gridYield(GridCtx &g, ir::BarrierKind kind);
bool gridRead(GridCtx &g, const ir::Array &arr, const std::pair<int, int64_t> &key, const Env &env,
              Value &out);
void gridWrite(GridCtx &g, const std::pair<int, int64_t> &key, Value v, bool atomic);

class Machine {
public:
  Machine(const Kernel &k, const Env &env, const ThreadId *tid)
      : k(k), env(env), tid(tid), vals(k.vars.size()), assigned(k.vars.size(), false) {
    for (size_t v = 0; v < k.vars.size(); ++v)
      vals[v] = zeroOf(k.vars[v].type);
    for (const ir::Param &p : k.params) {
      if (p.isArray)
        continue;
      auto it = env.params.find(p.id);
      vals[p.id] = it != env.params.end() ? fit(it->second, k.vars[p.id].type)
                                          : zeroOf(k.vars[p.id].type);
      if (symOn() && k.vars[p.id].type.isFloat())
        vals[p.id].sym = env.symbolic->param(k.vars[p.id]);
      assigned[p.id] = true;
    }
  }

  Trace trace;
  const std::map<std::pair<int, int64_t>, Value> &writes() const { return mem; }
  // Whole-grid mode: shared and global cells live in `grid`; no Access/Barrier events.
  GridCtx *grid = nullptr;
  int64_t *gridSteps = nullptr; // whole-grid mode: statements over all threads so far
  int64_t stepsTaken() const { return steps; }

  Flow execBlock(const ir::Block &b) {
    for (const ir::StmtPtr &s : b) {
      Flow f = exec(*s);
      if (f.exit)
        return f;
    }
    return {};
  }

  Value eval(const Expr &e);

private:
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
  // r, with the term name(args) when some argument has a term.
  Value withSym(Value r, const std::string &name, std::initializer_list<const Value *> args) {
    if (!symOn())
      return r;
    bool any = false;
    for (const Value *a : args)
      any |= a->sym >= 0;
    if (!any)
      return r;
    std::vector<int> ids;
    for (const Value *a : args)
      ids.push_back(symOf(*a));
    r.sym = env.symbolic->op(name, ids);
    if (r.sym < 0)
      noteDependence("'" + name + "' has no symbolic form");
    return r;
  }
  // An `if` whose arms only assign variables (nested such ifs included).
  static bool onlyAssigns(const ir::Block &b) {
    for (const ir::StmtPtr &st : b) {
      if (st->kind == StmtKind::Assign)
        continue;
      if (st->kind == StmtKind::If && onlyAssigns(st->body) && onlyAssigns(st->elseBody))
        continue;
      return false;
    }
    return true;
  }
  static bool sameValue(const Value &a, const Value &b) {
    return a.kind == b.kind && a.i == b.i && (a.f == b.f || (a.f != a.f && b.f != b.f)) && a.array == b.array &&
           a.offset == b.offset && a.sym == b.sym;
  }
  Flow execMerged(const Stmt &s, const Value &c);
  int64_t threadLinear() const {
    int64_t per = env.block.x * env.block.y * env.block.z;
    int64_t b = (tid->block.z * env.grid.y + tid->block.y) * env.grid.x + tid->block.x;
    int64_t t = (tid->thread.z * env.block.y + tid->thread.y) * env.block.x + tid->thread.x;
    return b * per + t;
  }
  // A symbolic value converted to a type that cannot hold every value it may have.
  void checkNarrowing(const Value &v, const Type &from, const Type &to) {
    if (!symVar(v) || !to.isInt())
      return;
    bool ok = from.isBool() || (from.isInt() && ((from.isSigned == to.isSigned && to.bits >= from.bits) ||
                                                 (!from.isSigned && to.isSigned && to.bits > from.bits)));
    if (!ok)
      noteDependence("a narrowing conversion of a value loaded from memory (" + from.str() + " to " + to.str() + ")");
  }

  std::string ctrl() const {
    if (!scopedCtrl.empty())
      return scopedCtrl;
    for (const auto &[label, t] : exitCtrl)
      if (!t.empty())
        return t;
    return {};
  }

  const Effects &effects(const ir::Block &b) {
    auto it = effectsCache.find(&b);
    if (it == effectsCache.end()) {
      Effects e;
      collectEffects(b, e);
      it = effectsCache.emplace(&b, std::move(e)).first;
    }
    return it->second;
  }

  void taintEffects(const ir::Block &b, const std::string &t) {
    if (t.empty())
      return;
    const Effects &e = effects(b);
    for (int v : e.vars)
      addTaint(vals[v].taint, t);
    for (int a : e.arrays)
      addTaint(arrayTaint[a], t);
    if (e.anyArray)
      addTaint(memTaint, t);
    if (e.barrier)
      addTaint(countTaint, t);
  }

  // Ends the reachability taint of `label`, tainting what the scope's blocks may have done.
  void endScope(int label, std::initializer_list<const ir::Block *> region) {
    std::string t;
    for (auto it = exitCtrl.begin(); it != exitCtrl.end();) {
      if (it->first == label) {
        addTaint(t, it->second);
        it = exitCtrl.erase(it);
      } else {
        ++it;
      }
    }
    for (const ir::Block *b : region)
      taintEffects(*b, t);
  }

  void step() {
    if (++steps > env.maxSteps)
      throw Stop{"step limit"};
    if (gridSteps && ++*gridSteps > env.maxGridSteps)
      throw Stop{"step limit of the grid run"};
  }

  [[noreturn]] void malformed(const std::string &what) { throw Stop{"malformed KIR: " + what}; }

  Event mkEvent(EventKind kind) {
    Event ev;
    ev.kind = kind;
    ev.stmt = cur;
    ev.blockBarriers = blockBarriers;
    ev.warpBarriers = warpBarriers;
    ev.gridBarriers = gridBarriers;
    ev.iterations = iters;
    return ev;
  }

  std::map<int, Value> snapshot() const {
    std::map<int, Value> m;
    for (size_t v = 0; v < vals.size(); ++v)
      if (assigned[v])
        m.emplace(static_cast<int>(v), vals[v]);
    return m;
  }

  void assign(int var, Value v) {
    if (var < 0 || var >= static_cast<int>(vals.size()))
      malformed("assignment to an unknown variable");
    addTaint(v.taint, ctrl());
    if (symOn() && cur && cur->kind == StmtKind::Assign && cur->var == var && cur->value)
      checkNarrowing(v, cur->value->type, k.vars[var].type);
    vals[var] = fit(std::move(v), k.vars[var].type);
    assigned[var] = true;
    if (!orderDependent.empty())
      orderDependent[var] = false;
  }

  void overflowEvent(const Expr &e, __int128 exact, const std::string &taint) {
    if (constMode())
      throw CannotEval{};
    Event ev = mkEvent(EventKind::Overflow);
    ev.expr = &e;
    ev.exact = exact;
    ev.vars = snapshot();
    ev.taint = join(taint, ctrl());
    trace.events.push_back(std::move(ev));
  }

  // An Int-typed result: Overflow if `exact` is outside the type, then `wrapped` wrapped.
  Value intResult(const Expr &e, __int128 exact, __int128 wrapped, std::string taint) {
    if (!inRange(exact, e.type)) {
      overflowEvent(e, exact, taint);
      // Signed arithmetic overflow is undefined behaviour: nothing after it is a fact about
      // the kernel (and a wrapped loop variable could spin for millions of steps).
      if (e.type.isSigned && e.op != Op::Cast)
        throw Stop{"signed integer overflow (undefined behaviour)"};
    }
    return intVal(wrapTo(wrapped, e.type), std::move(taint));
  }

  Value evalBinary(const Expr &e);
  Value evalCast(const Expr &e);
  Value evalCall(const Expr &e);
  Flow exec(const Stmt &s);
  Flow execLoop(const Stmt &s);
  Flow execAccess(const Stmt &s);
};

Value Machine::eval(const Expr &e) {
  switch (e.op) {
  case Op::Const:
    if (e.type.isFloat()) {
      Value v = floatVal(roundTo(e.fval, e.type));
      if (symOn()) // every float has a term, so that constant arithmetic is exact too
        v.sym = env.symbolic->constant(v, e.type.bits == 32);
      return v;
    }
    return intVal(wrapTo(e.ival, e.type));
  case Op::VarRef:
    if (e.id < 0 || e.id >= static_cast<int>(vals.size()))
      malformed("reference to an unknown variable");
    if (constMode() && k.vars[e.id].paramIndex < 0)
      throw CannotEval{};
    if (!orderDependent.empty() && orderDependent[e.id])
      noteDependence("the value an atomic returned (it depends on the order of threads) is used");
    if (symOn() && !assigned[e.id] && k.vars[e.id].paramIndex < 0 && !k.vars[e.id].type.isPtr()) {
      // SEMANTICS (symbolic): an uninitialised variable holds some value (one per thread).
      vals[e.id].sym = env.symbolic->unknown("uninitialised " + k.vars[e.id].name);
      assigned[e.id] = true;
    }
    return vals[e.id];
  case Op::ArrayRef: {
    Value v;
    v.kind = Value::Kind::Ptr;
    v.array = e.id;
    return v;
  }
  case Op::Builtin: {
    auto b = static_cast<ir::Builtin>(e.id);
    int64_t x = 0;
    switch (b) {
    case ir::Builtin::ThreadIdx:
    case ir::Builtin::BlockIdx:
      if (constMode())
        throw CannotEval{};
      x = b == ir::Builtin::ThreadIdx ? tid->thread[e.dim] : tid->block[e.dim];
      break;
    case ir::Builtin::BlockDim: x = env.block[e.dim]; break;
    case ir::Builtin::GridDim: x = env.grid[e.dim]; break;
    }
    return intVal(wrapTo(x, e.type));
  }
  case Op::Len: {
    auto it = env.lens.find(e.id);
    if (it == env.lens.end()) {
      if (constMode())
        throw CannotEval{};
      throw Stop{"unknown length: __len(" + k.arrays[e.id].name + ")"};
    }
    return intVal(wrapTo(it->second, e.type));
  }
  case Op::Neg: {
    Value a = eval(*e.args[0]);
    if (e.type.isFloat())
      return withSym(floatVal(roundTo(-toDouble(a), e.type), a.taint), "neg", {&a});
    return withSym(intResult(e, -a.i, -a.i, a.taint), "neg", {&a});
  }
  case Op::Not: {
    Value a = eval(*e.args[0]);
    return withSym(intVal(truthy(a) ? 0 : 1, a.taint), "not", {&a});
  }
  case Op::BitNot: {
    Value a = eval(*e.args[0]);
    dependsOn(a, "a bitwise operation on a value loaded from memory");
    return intVal(wrapTo(~a.i, e.type), a.taint);
  }
  case Op::LAnd:
  case Op::LOr: {
    // SEMANTICS: short-circuit, as in C; the right side's events happen only if evaluated.
    // Symbolic values: both sides are evaluated when the left one is symbolic (expressions
    // have no side effects but their events).
    Value a = eval(*e.args[0]);
    bool av = truthy(a);
    if (!symVar(a) && (e.op == Op::LAnd ? !av : av))
      return intVal(av ? 1 : 0, a.taint);
    Value b = eval(*e.args[1]);
    bool r = e.op == Op::LAnd ? av && truthy(b) : av || truthy(b);
    return withSym(intVal(r ? 1 : 0, join(a.taint, b.taint)), e.op == Op::LAnd ? "and" : "or", {&a, &b});
  }
  case Op::Select: {
    // SEMANTICS: only the chosen arm is evaluated (C's `?:`); with a symbolic condition both
    // are, and the result is their ite.
    Value c = eval(*e.args[0]);
    if (symVar(c)) {
      Value x = eval(*e.args[1]), y = eval(*e.args[2]);
      Value r = truthy(c) ? x : y;
      r.taint = join(c.taint, r.taint);
      if (x.kind == Value::Kind::Ptr || y.kind == Value::Kind::Ptr) {
        noteDependence("a pointer chosen by a value loaded from memory");
        return r;
      }
      return withSym(r, "ite", {&c, &x, &y});
    }
    Value r = eval(*e.args[truthy(c) ? 1 : 2]);
    r.taint = join(c.taint, r.taint);
    return r;
  }
  case Op::Cast: return evalCast(e);
  case Op::Call: return evalCall(e);
  case Op::PtrAdd: {
    Value p = eval(*e.args[0]);
    Value off = eval(*e.args[1]);
    if (p.kind != Value::Kind::Ptr || off.kind != Value::Kind::Int)
      malformed("ptradd of a non-pointer or by a non-integer");
    dependsOn(off, "a pointer offset depends on a value loaded from memory");
    p.offset = clamp64(static_cast<__int128>(p.offset) + off.i);
    p.taint = join(p.taint, off.taint);
    return p;
  }
  default: return evalBinary(e);
  }
}

Value Machine::evalBinary(const Expr &e) {
  if (e.args.size() != 2)
    malformed(std::string("operator ") + ir::opName(e.op) + " without two operands");
  Value a = eval(*e.args[0]);
  Value b = eval(*e.args[1]);
  std::string t = join(a.taint, b.taint);
  bool isFloat = a.kind == Value::Kind::Float || b.kind == Value::Kind::Float;

  switch (e.op) {
  case Op::Eq:
  case Op::Ne:
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge: {
    int cmp; // -1, 0, 1; 2: unordered (NaN)
    if (a.kind == Value::Kind::Ptr || b.kind == Value::Kind::Ptr) {
      auto pa = std::make_pair(a.array, a.offset), pb = std::make_pair(b.array, b.offset);
      cmp = pa < pb ? -1 : pa == pb ? 0 : 1;
    } else if (isFloat) {
      double x = toDouble(a), y = toDouble(b);
      cmp = std::isnan(x) || std::isnan(y) ? 2 : x < y ? -1 : x == y ? 0 : 1;
    } else {
      cmp = a.i < b.i ? -1 : a.i == b.i ? 0 : 1;
    }
    bool r = false;
    switch (e.op) {
    case Op::Eq: r = cmp == 0; break;
    case Op::Ne: r = cmp != 0; break; // NaN != x is true
    case Op::Lt: r = cmp == -1; break;
    case Op::Le: r = cmp == -1 || cmp == 0; break;
    case Op::Gt: r = cmp == 1; break;
    case Op::Ge: r = cmp == 1 || cmp == 0; break;
    default: break;
    }
    static const char *cmpNames[] = {"==", "!=", "<", "<=", ">", ">="};
    int ci = e.op == Op::Eq ? 0 : e.op == Op::Ne ? 1 : e.op == Op::Lt ? 2 : e.op == Op::Le ? 3 : e.op == Op::Gt ? 4 : 5;
    return withSym(intVal(r ? 1 : 0, t), cmpNames[ci], {&a, &b});
  }
  default: break;
  }

  if (e.type.isFloat() || isFloat) {
    double x = toDouble(a), y = toDouble(b), r = 0;
    switch (e.op) {
    case Op::Add: r = x + y; break;
    case Op::Sub: r = x - y; break;
    case Op::Mul: r = x * y; break;
    case Op::Div: r = x / y; break; // IEEE: no event for /0
    case Op::Rem: r = std::fmod(x, y); break;
    case Op::Min: r = std::fmin(x, y); break; // SEMANTICS: fminf (a NaN operand is ignored)
    case Op::Max: r = std::fmax(x, y); break;
    default: malformed(std::string("float operator ") + ir::opName(e.op));
    }
    const char *name = e.op == Op::Add ? "+" : e.op == Op::Sub ? "-" : e.op == Op::Mul ? "*" : e.op == Op::Div ? "/"
                       : e.op == Op::Rem ? "fmod" : e.op == Op::Min ? "min" : "max";
    return withSym(floatVal(roundTo(r, e.type), t), name, {&a, &b});
  }
  if (symVar(a) || symVar(b)) {
    // Integers derived from memory (argmax indices, loaded ints): ring operations only.
    const char *name = e.op == Op::Add ? "+" : e.op == Op::Sub ? "-" : e.op == Op::Mul ? "*"
                       : e.op == Op::Min ? "min" : e.op == Op::Max ? "max" : nullptr;
    if (!name)
      noteDependence(std::string("integer operator ") + ir::opName(e.op) + " on a value loaded from memory");
    else if (!e.type.isSigned && e.op != Op::Min && e.op != Op::Max)
      noteDependence("unsigned arithmetic on a value loaded from memory (it may wrap around)");
    else if (a.kind == Value::Kind::Int && b.kind == Value::Kind::Int) {
      __int128 x = a.i, y = b.i;
      __int128 r = e.op == Op::Add ? x + y : e.op == Op::Sub ? x - y : e.op == Op::Mul ? x * y
                   : e.op == Op::Min ? std::min(x, y) : std::max(x, y);
      return withSym(intResult(e, r, r, t), name, {&a, &b});
    }
  }

  if (a.kind != Value::Kind::Int || b.kind != Value::Kind::Int)
    malformed(std::string("operator ") + ir::opName(e.op) + " on pointers");
  __int128 x = a.i, y = b.i;
  using U = unsigned __int128;
  switch (e.op) {
  case Op::Add: return intResult(e, x + y, x + y, t);
  case Op::Sub: return intResult(e, x - y, x - y, t);
  case Op::Mul: {
    __int128 exact;
    if (__builtin_mul_overflow(x, y, &exact))
      exact = ((x < 0) != (y < 0)) ? kMin128 : kMax128;
    return intResult(e, exact, static_cast<__int128>(U(x) * U(y)), t);
  }
  case Op::Div:
  case Op::Rem: {
    if (y == 0) {
      if (constMode())
        throw CannotEval{};
      Event ev = mkEvent(EventKind::DivByZero);
      ev.expr = &e;
      ev.taint = join(t, ctrl());
      trace.events.push_back(std::move(ev));
      throw Stop{"division by zero"};
    }
    // C: truncation toward zero, the remainder has the dividend's sign (as __int128 does).
    __int128 r = e.op == Op::Div ? x / y : x % y;
    return intResult(e, r, r, t);
  }
  case Op::Shl:
  case Op::Shr: {
    if (y < 0 || y >= e.type.bits) {
      overflowEvent(e, y, t);
      return intVal(0, t);
    }
    if (e.op == Op::Shr)
      return intVal(wrapTo(x >> static_cast<int>(y), e.type), t); // arithmetic if signed
    __int128 exact;
    if (__builtin_mul_overflow(x, static_cast<__int128>(1) << static_cast<int>(y), &exact))
      exact = x < 0 ? kMin128 : kMax128;
    return intResult(e, exact, static_cast<__int128>(U(x) << static_cast<int>(y)), t);
  }
  case Op::BitAnd: return intVal(wrapTo(x & y, e.type), t);
  case Op::BitOr: return intVal(wrapTo(x | y, e.type), t);
  case Op::BitXor: return intVal(wrapTo(x ^ y, e.type), t);
  case Op::Min: return intVal(x < y ? x : y, t);
  case Op::Max: return intVal(x < y ? y : x, t);
  default: break;
  }
  malformed(std::string("unexpected operator ") + ir::opName(e.op));
}

Value Machine::evalCast(const Expr &e) {
  Value a = eval(*e.args[0]);
  const Type &to = e.type;
  if (to.isPtr()) {
    if (a.kind != Value::Kind::Ptr)
      malformed("cast of a non-pointer to a pointer");
    return a;
  }
  if (a.kind == Value::Kind::Ptr)
    malformed("cast of a pointer to " + to.str());
  if (to.isBool())
    return withSym(intVal(truthy(a) ? 1 : 0, a.taint), "bool", {&a});
  if (to.isFloat()) {
    if (a.kind == Value::Kind::Float) {
      Value r = floatVal(roundTo(a.f, to), a.taint);
      r.sym = a.sym; // SEMANTICS (symbolic): values are reals; conversions between floats are exact
      return r;
    }
    // Direct conversion (no double rounding through double for wide integers).
    double f = to.bits == 32 ? static_cast<double>(static_cast<float>(a.i))
                             : static_cast<double>(a.i);
    Value r = floatVal(f, a.taint);
    if (symOn()) // SEMANTICS (symbolic): an integer converts to the same real
      r.sym = env.symbolic->op("toreal", {symOf(a)});
    return r;
  }
  if (!to.isInt())
    malformed("cast to " + to.str());
  if (a.kind == Value::Kind::Int) { // int/bool -> int: Overflow if the value changes
    Value r = intResult(e, a.i, a.i, a.taint);
    r.sym = symOn() ? a.sym : -1;
    checkNarrowing(a, e.args[0]->type, to);
    return r;
  }
  if (symVar(a)) {
    double tr = std::trunc(a.f);
    __int128 x = std::isfinite(tr) && std::fabs(tr) < 1e30 ? static_cast<__int128>(tr) : 0;
    return withSym(intResult(e, x, x, a.taint), "toint", {&a});
  }
  // float -> int: truncate; out of range (or NaN) is an Overflow and saturates.
  double tr = std::trunc(a.f);
  if (std::isnan(tr)) {
    overflowEvent(e, 0, a.taint);
    return intVal(0, a.taint);
  }
  __int128 exact = tr >= 1.7e38 ? kMax128 : tr <= -1.7e38 ? kMin128 : static_cast<__int128>(tr);
  __int128 sat = exact < to.minValue() ? to.minValue() : exact > to.maxValue() ? to.maxValue() : exact;
  return intResult(e, exact, sat, a.taint);
}

Value Machine::evalCall(const Expr &e) {
  std::vector<Value> args;
  std::string t;
  for (const ir::ExprPtr &p : e.args) {
    args.push_back(eval(*p));
    addTaint(t, args.back().taint);
  }
  auto unsupported = [&]() -> Value {
    if (constMode())
      throw CannotEval{};
    throw Stop{"unsupported: call to " + e.name};
  };
  std::string n = e.name;
  if (n.rfind("std::", 0) == 0)
    n = n.substr(5);
  if (e.type.isInt()) {
    // Integer device functions: abs, min, max (and their l/ll/u/ull spellings).
    for (const Value &v : args)
      if (v.kind != Value::Kind::Int)
        return unsupported();
    if ((n == "abs" || n == "labs" || n == "llabs") && args.size() == 1) {
      __int128 x = args[0].i < 0 ? -args[0].i : args[0].i;
      return withSym(intResult(e, x, x, t), "fabs", {&args[0]});
    }
    if (args.size() == 2 && (n == "min" || n == "umin" || n == "llmin" || n == "ullmin"))
      return withSym(intVal(std::min(args[0].i, args[1].i), t), "min", {&args[0], &args[1]});
    if (args.size() == 2 && (n == "max" || n == "umax" || n == "llmax" || n == "ullmax"))
      return withSym(intVal(std::max(args[0].i, args[1].i), t), "max", {&args[0], &args[1]});
    return unsupported();
  }
  if (!e.type.isFloat())
    return unsupported();
  if (n == "abs")
    n = "fabs";
  else if (n == "min")
    n = "fmin";
  else if (n == "max")
    n = "fmax";
  auto known = mathNames.find(n);
  if (known == mathNames.end())
    known = mathNames.emplace(n, normaliseMath(n)).first;
  n = known->second;
  std::vector<double> xs;
  for (const Value &v : args) {
    if (v.kind == Value::Kind::Ptr)
      return unsupported();
    xs.push_back(toDouble(v));
  }
  double r;
  if ((n == "fma" || n == "fma_rn") && xs.size() == 3 && e.type.bits == 32) {
    // A single rounding to float (double-then-float could round twice).
    r = std::fmaf(static_cast<float>(xs[0]), static_cast<float>(xs[1]),
                  static_cast<float>(xs[2]));
  } else if (!mathCall(n, xs, r)) {
    return unsupported();
  }
  Value out = floatVal(roundTo(r, e.type), t);
  if (symOn()) {
    std::vector<int> ids;
    for (const Value &v : args)
      ids.push_back(symOf(v));
    out.sym = env.symbolic->op(n, ids);
    if (out.sym < 0)
      noteDependence("'" + e.name + "' has no symbolic form");
  }
  return out;
}

Flow Machine::execLoop(const Stmt &s) {
  std::string savedCtrl = scopedCtrl;
  std::string condTaint; // first tainted condition of this loop instance
  iters.emplace_back(s.label, 0);
  int64_t iter = 0;
  Flow out;
  // Runs one part of the loop; returns true when the loop is left (out says how).
  auto part = [&](const ir::Block &b, bool isBody) {
    Flow f = execBlock(b);
    if (isBody)
      endScope(s.contLabel, {&s.body});
    if (!f.exit)
      return false;
    if (isBody && f.label == s.contLabel)
      return false; // continue: the step still runs
    if (f.label != s.label)
      out = f; // an exit further out
    return true;
  };
  auto test = [&]() {
    cur = &s; // events of the condition belong to the Loop, not to the last body statement
    Value c = eval(*s.cond);
    dependsOn(c, "a loop test depends on a value loaded from memory");
    if (!c.taint.empty()) {
      addTaint(condTaint, c.taint);
      // SEMANTICS (taint): everything after a tainted test in this loop instance runs only
      // because of it.
      addTaint(scopedCtrl, c.taint);
    }
    return truthy(c);
  };
  while (true) {
    step();
    iters.back().second = iter;
    if (s.testFirst) {
      // while (true) { pre; if (!cond) break; body; step }
      if (part(s.pre, false) || !test() || part(s.body, true) || part(s.step, false))
        break;
    } else {
      // SEMANTICS: do { body; step; pre } while (cond)
      if (part(s.body, true) || part(s.step, false) || part(s.pre, false) || !test())
        break;
    }
    ++iter;
  }
  iters.pop_back();
  scopedCtrl = savedCtrl;
  if (!condTaint.empty()) {
    taintEffects(s.pre, condTaint);
    taintEffects(s.body, condTaint);
    taintEffects(s.step, condTaint);
  }
  endScope(s.label, {&s.pre, &s.body, &s.step});
  return out;
}

Flow Machine::execAccess(const Stmt &s) {
  Value p = eval(*s.ptr);
  if (p.kind != Value::Kind::Ptr)
    malformed("access through a non-pointer");
  if (p.array < 0 || p.array >= static_cast<int>(k.arrays.size()))
    malformed("access through a null or unassigned pointer");
  const ir::Array &arr = k.arrays[p.array];
  std::string addrT = p.taint;
  std::vector<__int128> idx;
  for (const ir::ExprPtr &i : s.index) {
    Value v = eval(*i);
    if (v.kind != Value::Kind::Int)
      malformed("non-integer index");
    dependsOn(v, "an address depends on a value loaded from memory");
    idx.push_back(v.i);
    addTaint(addrT, v.taint);
  }

  bool inBounds = true;
  __int128 flat = 0;
  if (s.ptr->op == Op::ArrayRef && arr.dims.size() > 1 && idx.size() == arr.dims.size()) {
    // SEMANTICS: a multi-dimensional access checks every index against its dimension and
    // flattens row-major.
    for (size_t d = 0; d < idx.size(); ++d) {
      if (arr.dims[d] > 0 && (idx[d] < 0 || idx[d] >= arr.dims[d]))
        inBounds = false;
      flat = flat * arr.dims[d] + idx[d];
    }
  } else if (idx.size() == 1) {
    flat = static_cast<__int128>(p.offset) + idx[0];
  } else {
    malformed("access to '" + arr.name + "' with " + std::to_string(idx.size()) + " indices");
  }
  // SEMANTICS: bounds. Pointer parameters and dynamic shared arrays: [0, Env::lens) when
  // given, else unchecked; every other array: [0, elementCount) of its static dims.
  bool sized = arr.paramIndex >= 0 || arr.dynamicShared;
  auto len = env.lens.find(p.array);
  if (sized) {
    if (len != env.lens.end() && (flat < 0 || flat >= len->second))
      inBounds = false;
  } else if (flat < 0 || flat >= arr.elementCount()) {
    inBounds = false;
  }

  std::string ct = ctrl();
  Event ev = mkEvent(EventKind::Access);
  ev.array = p.array;
  ev.flat = clamp64(flat);
  for (__int128 i : idx)
    ev.indices.push_back(clamp64(i));
  ev.isWrite = s.kind != StmtKind::Load;
  ev.isAtomic = s.kind == StmtKind::Atomic;
  if (!grid || !inBounds)
    ev.vars = snapshot();
  ev.taint = join(join(addrT, ct), countTaint);
  if (!grid)
    trace.events.push_back(ev);
  if (!inBounds) {
    ev.kind = EventKind::OutOfBounds;
    trace.events.push_back(std::move(ev));
    if (s.kind != StmtKind::Store && s.var >= 0) {
      Value z = zeroOf(k.vars[s.var].type);
      z.taint = "the value of an out-of-bounds read";
      assign(s.var, z);
    }
    return {};
  }

  auto key = std::make_pair(p.array, clamp64(flat));
  // The cell's current value as this thread sees it, tainted as a load.
  bool inGrid = grid && arr.space != ir::Space::Local;
  auto readCell = [&]() {
    Value v;
    if (inGrid) {
      gridRead(*grid, arr, key, env, v);
      addTaint(v.taint, addrT);
      return v;
    }
    auto mine = mem.find(key);
    if (mine != mem.end()) {
      v = mine->second;
      auto at = arrayTaint.find(p.array);
      if (at != arrayTaint.end())
        addTaint(v.taint, at->second);
      addTaint(v.taint, memTaint);
    } else {
      auto init = env.memory.find(key);
      v = init != env.memory.end() ? fit(init->second, arr.elem) : zeroOf(arr.elem);
      if (!env.exactMemory)
        addTaint(v.taint, "value loaded from " + arr.name + "[" + std::to_string(key.second) + "]");
      if (symOn())
        v.sym = env.symbolic->cell(arr, key.second, init == env.memory.end(),
                                   init == env.memory.end() ? -2 - threadLinear() : -1);
    }
    addTaint(v.taint, addrT);
    return v;
  };
  auto writeCell = [&](Value v) {
    addTaint(v.taint, addrT);
    addTaint(v.taint, ct);
    if (inGrid) {
      gridWrite(*grid, key, fit(std::move(v), arr.elem), s.kind == StmtKind::Atomic);
      return;
    }
    mem[key] = fit(std::move(v), arr.elem);
    // A store whose address depends on memory may have gone to any cell of the array.
    if (!addrT.empty())
      addTaint(arrayTaint[p.array], addrT);
  };

  if (s.kind == StmtKind::Load) {
    assign(s.var, readCell());
    return {};
  }
  if (s.kind == StmtKind::Store) {
    Value v = eval(*s.value);
    checkNarrowing(v, s.value->type, arr.elem);
    writeCell(std::move(v));
    return {};
  }

  // Atomic read-modify-write.
  Value old = readCell();
  Value v = eval(*s.value);
  Value nv = old;
  nv.taint = join(old.taint, v.taint);
  const Type &et = arr.elem;
  using A = ir::AtomicOp;
  if (symOn()) {
    // SEMANTICS (symbolic): only additions, subtractions, or min or max alone on a cell give
    // a result that does not depend on the order of the threads.
    bool commutes = s.atomic == A::Add || s.atomic == A::Sub || s.atomic == A::Min || s.atomic == A::Max;
    int kind = s.atomic == A::Sub ? static_cast<int>(A::Add) : static_cast<int>(s.atomic);
    auto [it, fresh] = env.symbolic->atomicOps.emplace(key, kind);
    if (!commutes)
      noteDependence(std::string("atomic ") + ir::atomicOpName(s.atomic) + ": its result depends on the order of threads");
    else if (!arr.elem.isFloat() && (s.atomic == A::Add || s.atomic == A::Sub) && (symVar(old) || symVar(v)))
      noteDependence("an integer atomic on a value loaded from memory (it wraps around)");
    else if (!fresh && it->second != kind)
      noteDependence("two kinds of atomics on one cell: the result depends on their order");
  }
  if (symVar(old) || symVar(v)) {
    const char *name = s.atomic == A::Add ? "+" : s.atomic == A::Sub ? "-" : s.atomic == A::Min ? "min"
                       : s.atomic == A::Max ? "max" : nullptr;
    if (name)
      nv = withSym(nv, name, {&old, &v});
  }
  if (et.isFloat()) {
    double o = old.f, x = toDouble(v);
    switch (s.atomic) {
    case A::Add: nv.f = roundTo(o + x, et); break;
    case A::Sub: nv.f = roundTo(o - x, et); break;
    case A::Min: nv.f = std::fmin(o, x); break;
    case A::Max: nv.f = std::fmax(o, x); break;
    case A::Exch: nv.f = roundTo(x, et); break;
    case A::CAS: {
      if (!s.value2)
        malformed("atomicCAS without a compare value");
      Value cmp = eval(*s.value2);
      addTaint(nv.taint, cmp.taint);
      if (o == toDouble(cmp))
        nv.f = roundTo(x, et);
      break;
    }
    default: malformed(std::string("atomic ") + ir::atomicOpName(s.atomic) + " on a float");
    }
  } else if (et.isInt() && v.kind == Value::Kind::Int) {
    __int128 o = old.i, x = v.i, r = o;
    // SEMANTICS: atomics wrap without an Overflow event.
    switch (s.atomic) {
    case A::Add: r = o + x; break;
    case A::Sub: r = o - x; break;
    case A::Min: r = std::min(o, x); break;
    case A::Max: r = std::max(o, x); break;
    case A::Exch: r = x; break;
    case A::CAS: {
      if (!s.value2)
        malformed("atomicCAS without a compare value");
      Value cmp = eval(*s.value2);
      addTaint(nv.taint, cmp.taint);
      if (o == cmp.i)
        r = x;
      break;
    }
    case A::And: r = o & x; break;
    case A::Or: r = o | x; break;
    case A::Xor: r = o ^ x; break;
    case A::Inc: r = o >= x ? 0 : o + 1; break;              // atomicInc
    case A::Dec: r = (o == 0 || o > x) ? x : o - 1; break;    // atomicDec
    }
    nv.i = wrapTo(r, et);
  } else {
    malformed("atomic on " + et.str());
  }
  writeCell(nv);
  if (s.var >= 0) {
    assign(s.var, old);
    if (symOn()) {
      orderDependent.resize(vals.size(), false);
      orderDependent[s.var] = true;
    }
  }
  return {};
}

// SEMANTICS (symbolic): an `if` on a symbolic condition whose arms only assign variables
// runs both arms from the same state; each variable ends as ite(condition, then, else).
// Concretely the taken arm's values are kept.
Flow Machine::execMerged(const Stmt &s, const Value &c) {
  std::vector<Value> before = vals;
  std::vector<bool> beforeAssigned = assigned;
  execBlock(s.body);
  std::vector<Value> thenVals = std::move(vals);
  std::vector<bool> thenAssigned = assigned;
  vals = before;
  assigned = beforeAssigned;
  execBlock(s.elseBody);
  bool taken = truthy(c);
  for (size_t v = 0; v < vals.size(); ++v) {
    const Value &x = thenVals[v], &y = vals[v];
    assigned[v] = thenAssigned[v] || assigned[v];
    if (sameValue(x, y))
      continue;
    Value r = taken ? x : y;
    addTaint(r.taint, c.taint);
    if (x.kind == Value::Kind::Ptr || y.kind == Value::Kind::Ptr) {
      noteDependence("a pointer chosen by a value loaded from memory");
    } else {
      r = withSym(r, "ite", {&c, &x, &y});
    }
    vals[v] = std::move(r);
  }
  return {};
}

Flow Machine::exec(const Stmt &s) {
  step();
  cur = &s;
  switch (s.kind) {
  case StmtKind::Assign: assign(s.var, eval(*s.value)); return {};
  case StmtKind::Load:
  case StmtKind::Store:
  case StmtKind::Atomic: return execAccess(s);
  case StmtKind::If: {
    Value c = eval(*s.cond);
    if (symVar(c)) {
      if (onlyAssigns(s.body) && onlyAssigns(s.elseBody))
        return execMerged(s, c);
      noteDependence("a branch depends on a value loaded from memory");
    }
    std::string saved = scopedCtrl;
    addTaint(scopedCtrl, c.taint);
    Flow f = execBlock(truthy(c) ? s.body : s.elseBody);
    scopedCtrl = saved;
    if (!c.taint.empty()) {
      // SEMANTICS (taint): what the other branch would have done, and whatever follows an
      // Exit that one branch takes, depends on the condition.
      taintEffects(s.body, c.taint);
      taintEffects(s.elseBody, c.taint);
      for (const ir::Block *b : {&s.body, &s.elseBody}) {
        auto it = exitsCache.find(b);
        if (it == exitsCache.end())
          it = exitsCache.emplace(b, ir::exitsLeaving(*b)).first;
        for (int label : it->second) {
          bool known = false; // keep the first origin, and the list short in loops
          for (const auto &ec : exitCtrl)
            known |= ec.first == label;
          if (!known)
            exitCtrl.emplace_back(label, c.taint);
        }
      }
    }
    return f;
  }
  case StmtKind::Loop: return execLoop(s);
  case StmtKind::Block: {
    Flow f = execBlock(s.body);
    endScope(s.label, {&s.body});
    if (f.exit && f.label == s.label)
      return {};
    return f;
  }
  case StmtKind::Exit: return {true, s.label};
  case StmtKind::Barrier: {
    std::string ct = ctrl();
    Event ev = mkEvent(EventKind::Barrier);
    ev.barrier = s.barrier;
    ev.taint = join(ct, countTaint);
    if (grid) {
      if (s.barrier == ir::BarrierKind::Grid)
        throw Stop{"unsupported: a grid-wide barrier (blocks run one after another here)"};
      gridYield(*grid, s.barrier);
    } else {
      trace.events.push_back(std::move(ev));
    }
    if (s.barrier != ir::BarrierKind::Warp)
      ++blockBarriers;
    if (s.barrier == ir::BarrierKind::Grid)
      ++gridBarriers;
    ++warpBarriers;
    // The counts from here on depend on memory if this barrier ran because of it.
    addTaint(countTaint, ct);
    return {};
  }
  case StmtKind::Assume: {
    Value c = eval(*s.cond);
    dependsOn(c, "an assumption depends on a value loaded from memory");
    if (!truthy(c))
      throw Stop{"assumption violated"};
    return {};
  }
  case StmtKind::Assert: {
    Value c = eval(*s.cond);
    dependsOn(c, "an assertion depends on a value loaded from memory");
    if (!truthy(c)) {
      Event ev = mkEvent(EventKind::AssertFail);
      ev.taint = join(c.taint, ctrl());
      trace.events.push_back(std::move(ev));
    }
    return {};
  }
  case StmtKind::Unsupported: throw Stop{"unsupported: " + s.text};
  case StmtKind::Havoc: {
    // Some value: replay picks zero and marks it as not a fact about the kernel.
    Value v = zeroOf(k.vars[s.var].type);
    v.taint = s.text;
    if (symOn()) // SEMANTICS (symbolic): a new unknown
      v.sym = env.symbolic->unknown(s.text.empty() ? k.vars[s.var].name : s.text);
    assign(s.var, std::move(v));
    return {};
  }
  }
  malformed("unknown statement");
}

// ---- whole-grid execution -----------------------------------------------------------------

struct CellLog {
  std::vector<int64_t> threads; // distinct storing threads, in order of first store
  bool atomic = false;
};

struct GridCtx {
  using Key = std::pair<int, int64_t>;
  const Kernel &k;
  std::map<Key, Value> global; // cells of global memory written by the launch
  std::map<Key, Value> shared; // the running block's shared memory (cells written)
  std::map<Key, CellLog> log;
  int64_t blockNo = 0; // linear id of the running block

  enum class State : uint8_t { Run, WarpWait, BlockWait, Done };
  struct Thread {
    ThreadId id;
    int64_t linear = 0;
    int warp = 0;
    ucontext_t ctx{};
    char *stack = nullptr; // GridCtx::stacks[thread in block], reused by every block
    std::unique_ptr<Machine> m;
    State st = State::Run;
    Flow flow;
    std::string stop; // non-empty: the thread stopped early
  };
  std::vector<Thread> threads; // the running block
  std::vector<std::unique_ptr<char[]>> stacks;
  size_t current = 0;
  ucontext_t sched{};

  explicit GridCtx(const Kernel &k) : k(k) {}
};

thread_local GridCtx *tGrid = nullptr;

void gridYield(GridCtx &g, ir::BarrierKind kind) {
  GridCtx::Thread &t = g.threads[g.current];
  t.st = kind == ir::BarrierKind::Warp ? GridCtx::State::WarpWait : GridCtx::State::BlockWait;
  swapcontext(&t.ctx, &g.sched);
}

bool gridRead(GridCtx &g, const ir::Array &arr, const std::pair<int, int64_t> &key, const Env &env,
              Value &out) {
  const std::map<GridCtx::Key, Value> &cells = arr.space == ir::Space::Shared ? g.shared : g.global;
  auto it = cells.find(key);
  if (it != cells.end()) {
    out = it->second;
    return true;
  }
  auto init = env.memory.find(key);
  out = init != env.memory.end() ? fit(init->second, arr.elem) : zeroOf(arr.elem);
  bool stale = arr.space == ir::Space::Shared || env.poisoned.count(key.first);
  if (stale && env.garbageSet) {
    Value gv;
    gv.kind = Value::Kind::Float;
    gv.f = env.garbage;
    out = fit(gv, arr.elem);
  }
  // SEMANTICS (grid run): shared memory starts undefined in every block, and arrays the caller
  // marks poisoned (outputs) hold stale values from before the launch.
  if (arr.space == ir::Space::Shared)
    out.taint = "uninitialised shared memory " + arr.name + "[" + std::to_string(key.second) + "]";
  else if (env.poisoned.count(key.first))
    out.taint = "stale " + arr.name + "[" + std::to_string(key.second) + "] (read before this launch wrote it)";
  if (env.symbolic)
    out.sym = env.symbolic->cell(arr, key.second, stale, arr.space == ir::Space::Shared ? g.blockNo : -1);
  return false;
}

void gridWrite(GridCtx &g, const std::pair<int, int64_t> &key, Value v, bool atomic) {
  const ir::Array &arr = g.k.arrays[key.first];
  if (arr.space == ir::Space::Shared) {
    g.shared[key] = std::move(v);
    return;
  }
  g.global[key] = std::move(v);
  CellLog &l = g.log[key];
  int64_t me = g.threads[g.current].linear;
  if (std::find(l.threads.begin(), l.threads.end(), me) == l.threads.end())
    l.threads.push_back(me);
  l.atomic |= atomic;
}

void gridThreadEntry() {
  GridCtx &g = *tGrid;
  GridCtx::Thread &t = g.threads[g.current];
  try {
    t.flow = t.m->execBlock(g.k.body);
    if (t.flow.exit && t.flow.label != 0)
      t.stop = "malformed KIR: exit to label " + std::to_string(t.flow.label) + " that encloses nothing";
  } catch (const Stop &s) {
    t.stop = s.reason.empty() ? "stopped" : s.reason;
  }
  t.st = GridCtx::State::Done;
  // returning resumes uc_link (the scheduler)
}

} // namespace

Trace runThread(const Kernel &k, const Env &env, const ThreadId &tid) {
  WideFloats wide(env.wideFloats);
  Machine m(k, env, &tid);
  try {
    Flow f = m.execBlock(k.body);
    // An exit to label 0 that reaches the top is the kernel's `return`.
    if (f.exit && f.label != 0) {
      m.trace.stopReason =
          "malformed KIR: exit to label " + std::to_string(f.label) + " that encloses nothing";
    } else {
      m.trace.completed = true;
    }
  } catch (const Stop &s) {
    m.trace.completed = false;
    m.trace.stopReason = s.reason;
  }
  for (const auto &[key, v] : m.writes())
    if (k.arrays[key.first].space != ir::Space::Local)
      m.trace.writes.emplace(key, v);
  return std::move(m.trace);
}

namespace {
// Kept out of runGrid: getcontext returns twice as far as the compiler knows.
constexpr size_t kStack = 256 * 1024; // per simulated thread

[[gnu::noinline]] void prepareContext(GridCtx &g, GridCtx::Thread &t) {
  getcontext(&t.ctx);
  t.ctx.uc_stack.ss_sp = t.stack;
  t.ctx.uc_stack.ss_size = kStack;
  t.ctx.uc_link = &g.sched;
  makecontext(&t.ctx, gridThreadEntry, 0);
}
} // namespace

// An Overflow event the language defines (unsigned arithmetic wraps modulo 2^n, conversions
// between integer types keep the value modulo 2^n): not a fault of a grid run. Signed
// arithmetic overflow and out-of-range shift amounts are undefined behaviour and stay faults;
// the overflow obligation (checker.h) treats them the same way.
bool definedWrap(const Event &ev) {
  if (ev.kind != EventKind::Overflow || !ev.expr)
    return false;
  const ir::Expr &e = *ev.expr;
  if (e.op == Op::Cast) // int -> int; float -> int out of range is undefined
    return e.type.isInt() && !e.args.empty() && (e.args[0]->type.isInt() || e.args[0]->type.isBool());
  bool shift = e.op == Op::Shl || e.op == Op::Shr;
  return !shift && e.type.isInt() && !e.type.isSigned;
}

GridRun runGrid(const Kernel &k, const Env &env) {
  WideFloats wide(env.wideFloats);
  GridRun run;
  int64_t perBlock = env.block.x * env.block.y * env.block.z;
  int64_t blocks = env.grid.x * env.grid.y * env.grid.z;
  if (perBlock <= 0 || blocks <= 0) {
    run.error = "empty launch";
    return run;
  }
  if (perBlock > 1024) {
    run.error = "more than 1024 threads per block";
    return run;
  }
  GridCtx g(k);
  GridCtx *saved = tGrid;
  tGrid = &g;
  using State = GridCtx::State;
  auto fail = [&](const ThreadId &t, const std::string &why) {
    if (run.error.empty()) {
      run.error = why;
      run.errorThread = t;
    }
  };
  int64_t blockNo = 0;
  int64_t gridSteps = 0; // counted as they happen, so a thread that spins stops the run
  for (int64_t bz = 0; bz < env.grid.z && run.error.empty(); ++bz)
    for (int64_t by = 0; by < env.grid.y && run.error.empty(); ++by)
      for (int64_t bx = 0; bx < env.grid.x && run.error.empty(); ++bx, ++blockNo) {
        g.shared.clear();
        g.blockNo = blockNo;
        g.threads.clear();
        g.threads.resize(static_cast<size_t>(perBlock));
        size_t n = 0;
        for (int64_t tz = 0; tz < env.block.z; ++tz)
          for (int64_t ty = 0; ty < env.block.y; ++ty)
            for (int64_t tx = 0; tx < env.block.x; ++tx, ++n) {
              GridCtx::Thread &t = g.threads[n];
              t.id.block = {bx, by, bz};
              t.id.thread = {tx, ty, tz};
              t.linear = blockNo * perBlock + static_cast<int64_t>(n);
              t.warp = static_cast<int>(n / 32);
              t.m = std::make_unique<Machine>(k, env, &t.id);
              t.m->grid = &g;
              t.m->gridSteps = &gridSteps;
              if (g.stacks.size() <= n)
                g.stacks.emplace_back(new char[kStack]); // not zeroed: pages are touched on use
              t.stack = g.stacks[n].get();
              prepareContext(g, t);
            }
        // SEMANTICS (grid run): threads of a block run one at a time, in thread order, each
        // until it finishes or waits at a barrier. A __syncwarp releases once every unfinished
        // thread of the warp waits at a barrier; a __syncthreads once every unfinished thread
        // of the block waits at one. Nothing left to release with threads still waiting is
        // barrier divergence.
        while (true) {
          for (size_t i = 0; i < g.threads.size(); ++i) {
            if (g.threads[i].st != State::Run)
              continue;
            g.current = i;
            swapcontext(&g.sched, &g.threads[i].ctx);
          }
          bool waiting = false;
          for (const GridCtx::Thread &t : g.threads)
            waiting |= t.st != State::Done;
          if (!waiting)
            break;
          bool released = false;
          for (size_t w = 0; w * 32 < g.threads.size(); ++w) {
            bool all = true, any = false;
            for (size_t i = w * 32; i < std::min(g.threads.size(), w * 32 + 32); ++i) {
              all &= g.threads[i].st != State::Run;
              any |= g.threads[i].st == State::WarpWait;
            }
            if (all && any) {
              for (size_t i = w * 32; i < std::min(g.threads.size(), w * 32 + 32); ++i)
                if (g.threads[i].st == State::WarpWait)
                  g.threads[i].st = State::Run;
              released = true;
            }
          }
          if (!released) {
            bool all = true;
            for (const GridCtx::Thread &t : g.threads)
              all &= t.st == State::Done || t.st == State::BlockWait;
            if (all) {
              for (GridCtx::Thread &t : g.threads)
                if (t.st == State::BlockWait)
                  t.st = State::Run;
              released = true;
            }
          }
          if (!released) {
            // The waiting threads are abandoned on their stacks, which are never reused (a
            // small leak on this path: what their frames own).
            for (GridCtx::Thread &t : g.threads)
              if (t.st != State::Done) {
                fail(t.id, "barrier divergence: threads of a block wait at different barriers");
                break;
              }
            for (GridCtx::Thread &t : g.threads)
              if (t.st != State::Done)
                t.m.release();
            for (auto &st : g.stacks)
              st.release();
            break;
          }
        }
        for (GridCtx::Thread &t : g.threads) {
          if (!t.m)
            continue;
          run.steps += t.m->stepsTaken();
          for (Event &ev : t.m->trace.events)
            if (run.faults.size() < 16 && !definedWrap(ev))
              run.faults.push_back({t.id, std::move(ev)});
          if (!t.stop.empty())
            fail(t.id, t.stop);
        }
        if (run.steps > env.maxGridSteps)
          fail(ThreadId{}, "step limit of the grid run");
      }
  tGrid = saved;
  run.memory = std::move(g.global);
  for (auto &[key, l] : g.log)
    run.writers.emplace(key, CellWrites{std::move(l.threads), l.atomic});
  run.completed = run.error.empty();
  return run;
}

bool evalConstExpr(const Kernel &k, const Env &env, const ir::Expr &e, Value &out) {
  Machine m(k, env, nullptr);
  try {
    out = m.eval(e);
    return true;
  } catch (const CannotEval &) {
    return false;
  } catch (const Stop &) {
    return false;
  }
}

} // namespace ksynth::interp
