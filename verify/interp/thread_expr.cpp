// Concrete interpreter: one thread's expressions (arithmetic, comparisons, conversions, calls).

#include "verify/interp/interp_internal.h"

#include <algorithm>
#include <cmath>

namespace ksynth::interp::detail {

// An Int-typed result: Overflow if `exact` is outside the type, then `wrapped` wrapped.
Value Machine::intResult(const Expr &e, __int128 exact, __int128 wrapped, std::string taint) {
  if (!inRange(exact, e.type)) {
    overflowEvent(e, exact, taint);
    // Signed arithmetic overflow is undefined behaviour: nothing after it is a fact about
    // the kernel (and a wrapped loop variable could spin for millions of steps).
    if (e.type.isSigned && e.op != Op::Cast)
      throw Stop{"signed integer overflow (undefined behaviour)"};
  }
  return intVal(wrapTo(wrapped, e.type), std::move(taint));
}

// An expression of the thread's coordinates and the launch alone (Expr::launchOnly): evaluated
// once per thread in a grid run (a shuffle's lowering repeats the block-linear thread id in
// every index and condition: warp reductions spent most of their concrete tests there). Kept
// only where the first evaluation recorded no event.
Value Machine::evalLaunchOnly(const Expr &e) {
  auto it = launchSlots->find(&e);
  if (it == launchSlots->end())
    return evalNode(e);
  if (launchValues.empty()) {
    launchValues.resize(launchSlots->size());
    launchKnown.resize(launchSlots->size());
  }
  size_t slot = static_cast<size_t>(it->second);
  if (launchKnown[slot])
    return intVal(launchValues[slot]);
  size_t events = trace.events.size();
  Value v = evalNode(e);
  if (trace.events.size() == events && v.kind == Value::Kind::Int && v.taint.empty() && v.sym < 0) {
    launchValues[slot] = v.i;
    launchKnown[slot] = 1;
  }
  return v;
}

Value Machine::evalNode(const Expr &e) {
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
  case Op::PtrOffset:
  case Op::PtrBaseAlign: {
    Value p = eval(*e.args[0]);
    if (p.kind != Value::Kind::Ptr || p.array < 0 || p.array >= static_cast<int>(k.arrays.size()))
      malformed("ptroffset of a non-pointer");
    return intVal(e.op == Op::PtrOffset ? p.offset : k.arrays[p.array].align, p.taint);
  }
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
  std::string t = join(std::move(a.taint), std::move(b.taint));
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
    return withSym(intVal(r ? 1 : 0, std::move(t)), cmpNames[ci], {&a, &b});
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
    return withSym(floatVal(roundTo(r, e.type), std::move(t)), name, {&a, &b});
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
      return withSym(intResult(e, r, r, std::move(t)), name, {&a, &b});
    }
  }

  if (a.kind != Value::Kind::Int || b.kind != Value::Kind::Int)
    malformed(std::string("operator ") + ir::opName(e.op) + " on pointers");
  __int128 x = a.i, y = b.i;
  using U = unsigned __int128;
  switch (e.op) {
  case Op::Add: return intResult(e, x + y, x + y, std::move(t));
  case Op::Sub: return intResult(e, x - y, x - y, std::move(t));
  case Op::Mul: {
    __int128 exact;
    if (__builtin_mul_overflow(x, y, &exact))
      exact = ((x < 0) != (y < 0)) ? kMin128 : kMax128;
    return intResult(e, exact, static_cast<__int128>(U(x) * U(y)), std::move(t));
  }
  case Op::Div:
  case Op::Rem: {
    if (y == 0) {
      if (constMode())
        throw CannotEval{};
      Event ev = mkEvent(EventKind::DivByZero);
      ev.expr = &e;
      ev.taint = join(t, ctrl());
      record(std::move(ev));
      throw Stop{"division by zero"};
    }
    // C: truncation toward zero, the remainder has the dividend's sign (as __int128 does).
    __int128 r = e.op == Op::Div ? x / y : x % y;
    return intResult(e, r, r, std::move(t));
  }
  case Op::Shl:
  case Op::Shr: {
    if (y < 0 || y >= e.type.bits) {
      overflowEvent(e, y, t);
      return intVal(0, std::move(t));
    }
    if (e.op == Op::Shr)
      return intVal(wrapTo(x >> static_cast<int>(y), e.type), std::move(t)); // arithmetic if signed
    __int128 exact;
    if (__builtin_mul_overflow(x, static_cast<__int128>(1) << static_cast<int>(y), &exact))
      exact = x < 0 ? kMin128 : kMax128;
    return intResult(e, exact, static_cast<__int128>(U(x) << static_cast<int>(y)), std::move(t));
  }
  case Op::BitAnd: return intVal(wrapTo(x & y, e.type), std::move(t));
  case Op::BitOr: return intVal(wrapTo(x | y, e.type), std::move(t));
  case Op::BitXor: return intVal(wrapTo(x ^ y, e.type), std::move(t));
  case Op::Min: return intVal(x < y ? x : y, std::move(t));
  case Op::Max: return intVal(x < y ? y : x, std::move(t));
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
    return withSym(intVal(truthy(a) ? 1 : 0, std::move(a.taint)), "bool", {&a});
  if (to.isFloat()) {
    if (a.kind == Value::Kind::Float) {
      Value r = floatVal(roundTo(a.f, to), std::move(a.taint));
      r.sym = a.sym; // SEMANTICS (symbolic): values are reals; conversions between floats are exact
      return r;
    }
    // Direct conversion (no double rounding through double for wide integers).
    double f = to.bits == 32   ? static_cast<double>(static_cast<float>(a.i))
               : to.bits == 16 ? roundTo(static_cast<double>(a.i), to)
                               : static_cast<double>(a.i);
    Value r = floatVal(f, std::move(a.taint));
    if (symOn()) // SEMANTICS (symbolic): an integer converts to the same real
      r.sym = env.symbolic->op("toreal", {symOf(a)});
    return r;
  }
  if (!to.isInt())
    malformed("cast to " + to.str());
  if (a.kind == Value::Kind::Int) { // int/bool -> int: Overflow if the value changes
    Value r = intResult(e, a.i, a.i, std::move(a.taint));
    r.sym = symOn() ? a.sym : -1;
    checkNarrowing(a, e.args[0]->type, to);
    return r;
  }
  if (symVar(a)) {
    double tr = std::trunc(a.f);
    __int128 x = std::isfinite(tr) && std::fabs(tr) < 1e30 ? static_cast<__int128>(tr) : 0;
    return withSym(intResult(e, x, x, std::move(a.taint)), "toint", {&a});
  }
  // float -> int: truncate; out of range (or NaN) is an Overflow and saturates.
  double tr = std::trunc(a.f);
  if (std::isnan(tr)) {
    overflowEvent(e, 0, a.taint);
    return intVal(0, a.taint);
  }
  __int128 exact = tr >= 1.7e38 ? kMax128 : tr <= -1.7e38 ? kMin128 : static_cast<__int128>(tr);
  __int128 sat = exact < to.minValue() ? to.minValue() : exact > to.maxValue() ? to.maxValue() : exact;
  return intResult(e, exact, sat, std::move(a.taint));
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

} // namespace ksynth::interp::detail
