// Symbolic execution: expressions (integer and float arithmetic, pointers, conversions).

#include "verify/check/symexec_internal.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ksynth::check::detail {

void Exec::arithCheck(const ir::Expr &e, ArithKind kind, Term pc, Term ok) {
  if (dry_ || ok == tc_.tru())
    return;
  out_.arith.push_back({&e, kind, pc, ok});
}

Term Exec::rangeOk(Term v, ir::Type t) {
  if (!t.isInt() || !t.isSigned)
    return tc_.tru();
  return tc_.inRange(v, t.minValue(), t.maxValue());
}

// Unsigned results wrap modulo 2^bits (exactly); signed ones must not overflow (checked).
Term Exec::wrapUnsigned(Term r, ir::Type t) {
  if (!t.isInt() || t.isSigned || noWrap_)
    return r;
  int128 m = static_cast<int128>(1) << t.bits;
  auto [lo, hi] = tc_.range(r);
  if (lo >= 0 && hi < m)
    return r;
  if (lo >= -m && hi < 2 * m)
    return tc_.ite(tc_.lt(r, tc_.intConst(0)), tc_.add(r, tc_.intConst(m)),
                   tc_.ite(tc_.ge(r, tc_.intConst(m)), tc_.sub(r, tc_.intConst(m)), r));
  return tc_.mod(r, tc_.intConst(m));
}

Term Exec::convertInt(Term v, ir::Type to) {
  if (to.isBool())
    return tc_.ne(v, tc_.intConst(0));
  int128 lo = to.minValue(), hi = to.maxValue();
  auto [a, b] = tc_.range(v);
  if ((a >= lo && b <= hi) || noWrap_)
    return v;
  int128 m = static_cast<int128>(1) << to.bits;
  Term w = tc_.mod(v, tc_.intConst(m)); // in [0, 2^bits)
  if (!to.isSigned)
    return w;
  return tc_.ite(tc_.gt(w, tc_.intConst(hi)), tc_.sub(w, tc_.intConst(m)), w);
}

Term Exec::pow2(Term e, int maxExp) {
  int128 v;
  if (tc_.isConst(e, &v))
    return tc_.intConst(v >= 0 && v <= 120 ? (static_cast<int128>(1) << v) : 0);
  Term r = tc_.intConst(0);
  for (int i = maxExp; i >= 0; --i)
    r = tc_.ite(tc_.eq(e, tc_.intConst(i)), tc_.intConst(static_cast<int128>(1) << i), r);
  return r;
}

// Whether a >= 0 follows from its range or is a conjunct of pc. A value computed under pc is
// only ever used where pc holds (a merge takes it under its branch's condition), so reading
// it as pc allows is exact there.
bool Exec::nonNegative(Term a, Term pc) {
  if (tc_.range(a).first >= 0)
    return true;
  if (!pc)
    return false;
  Term zero = tc_.intConst(0);
  Term facts[] = {tc_.le(zero, a), tc_.mkNot(tc_.lt(a, zero))};
  auto isFact = [&](Term c) { return c == facts[0] || c == facts[1]; };
  if (isFact(pc))
    return true;
  if (pc->kind == smt::Kind::And)
    for (Term c : pc->kids)
      if (isFact(c))
        return true;
  return false;
}

Term Exec::truncDiv(Term a, Term b, Term pc) {
  // For a >= 0 and any b != 0, Euclidean division (remainder 0 <= r < |b|) rounds toward zero
  // too: 7 div -2 = -3. (b = 0 is the division-by-zero obligation's.)
  if (nonNegative(a, pc))
    return tc_.div(a, b);
  Term zero = tc_.intConst(0);
  Term q = tc_.div(a, b); // Euclidean
  // Euclidean and truncating division differ only for a < 0 with a non-zero remainder.
  Term r = tc_.mod(a, b);
  Term adj = tc_.ite(tc_.gt(b, zero), tc_.add(q, tc_.intConst(1)), tc_.sub(q, tc_.intConst(1)));
  return tc_.ite(tc_.mkAnd(tc_.lt(a, zero), tc_.ne(r, zero)), adj, q);
}

Term Exec::realConst(double v) {
  if (v == 0)
    return tc_.realConst(0);
  if (!std::isfinite(v)) { // no real number: an unknown (the equivalence prover refuses these)
    abstraction("infinite or NaN floating-point constants as unknown reals");
    return tc_.app(std::isnan(v) ? "fconst.nan" : v > 0 ? "fconst.inf" : "fconst.-inf", Sort::Real, {});
  }
  int exp = 0;
  double m = std::frexp(v, &exp); // v = m * 2^exp, 0.5 <= |m| < 1
  auto mant = static_cast<int128>(std::ldexp(m, 53));
  exp -= 53;
  while (mant % 2 == 0 && exp < 0) {
    mant /= 2;
    ++exp;
  }
  if (exp >= 0 && exp < 60)
    return tc_.realConst(mant * (static_cast<int128>(1) << exp));
  if (exp < 0 && exp > -100)
    return tc_.realConst(mant, static_cast<int128>(1) << -exp);
  // The largest finite floats are named (kLowestF32...): the equivalence prover knows that
  // no finite value of the type is below the lowest (the start of a max fold).
  const char *named = v == -static_cast<double>(std::numeric_limits<float>::max())  ? kLowestF32
                      : v == static_cast<double>(std::numeric_limits<float>::max()) ? kHighestF32
                      : v == -std::numeric_limits<double>::max()                    ? kLowestF64
                      : v == std::numeric_limits<double>::max()                     ? kHighestF64
                                                                                    : nullptr;
  if (named) {
    abstraction("FLT_MAX and DBL_MAX (and their negations) as named unknown reals, known only to be at least "
                "(at most) every finite input of their type");
    return tc_.app(named, Sort::Real, {});
  }
  abstraction("floating-point constants of extreme magnitude as unknown reals");
  return tc_.app("fconst." + std::to_string(v), Sort::Real, {});
}

SVal Exec::evalPtr(const ir::Expr &e, const State &s, Term pc) {
  switch (e.op) {
  case Op::ArrayRef: return {nullptr, e.id, tc_.intConst(0)};
  case Op::VarRef: {
    const SVal &v = s.vars[e.id];
    if (v.array == -1 || v.array == -4) // not a pointer's value, or read before any assignment
      return {nullptr, -2, tc_.intConst(0)};
    return v;
  }
  case Op::PtrAdd: {
    SVal p = evalPtr(*e.args[0], s, pc);
    Term off = eval(*e.args[1], s, pc);
    if (p.array == -3) {
      for (SVal::Alt &a : p.alts)
        a.off = tc_.add(a.off, off);
      return p;
    }
    return {nullptr, p.array, p.off ? tc_.add(p.off, off) : off};
  }
  case Op::Select: {
    Term c = eval(*e.args[0], s, pc);
    SVal a = evalPtr(*e.args[1], s, tc_.mkAnd(pc, c));
    SVal b = evalPtr(*e.args[2], s, tc_.mkAnd(pc, tc_.mkNot(c)));
    return choosePtr(c, a, b);
  }
  default: return {nullptr, -2, tc_.intConst(0)};
  }
}

// `c ? a : b` for pointers: one array with a chosen offset, or a choice of arrays.
SVal Exec::choosePtr(Term c, const SVal &a, const SVal &b) {
  if (a.array == -2 || b.array == -2 || a.array == -1 || b.array == -1 || a.array == -4 || b.array == -4)
    return {nullptr, -2, tc_.intConst(0)};
  if (a.array == b.array && a.array >= 0)
    return {nullptr, a.array, tc_.ite(c, a.off, b.off)};
  auto altsOf = [&](const SVal &p, Term g) {
    std::vector<SVal::Alt> r;
    if (p.array >= 0)
      r.push_back({p.array, g, p.off});
    else
      for (const SVal::Alt &x : p.alts)
        r.push_back({x.array, tc_.mkAnd(g, x.guard), x.off});
    return r;
  };
  SVal r{nullptr, -3, tc_.intConst(0)};
  r.alts = altsOf(a, c);
  for (const SVal::Alt &x : altsOf(b, tc_.mkNot(c)))
    r.alts.push_back(x);
  if (r.alts.size() > 16)
    return {nullptr, -2, tc_.intConst(0)};
  return r;
}

Term Exec::eval(const ir::Expr &e, const State &s, Term pc) {
  const ir::Type &ty = e.type;
  switch (e.op) {
  case Op::Const:
    if (ty.isFloat())
      return realConst(e.fval);
    if (ty.isBool())
      return tc_.boolConst(e.ival != 0);
    if (ty.isInt() && !ty.isSigned && e.ival < 0) // a u64 past INT64_MAX is stored wrapped
      return tc_.intConst(static_cast<int128>(e.ival) + (static_cast<int128>(1) << ty.bits));
    return tc_.intConst(e.ival);
  case Op::VarRef: {
    const SVal &v = s.vars[e.id];
    if (!v.t) // a pointer variable used as a value
      return tc_.intConst(0);
    return v.t;
  }
  case Op::Builtin: {
    auto b = static_cast<ir::Builtin>(e.id);
    switch (b) {
    case ir::Builtin::ThreadIdx: return t_.tid[e.dim];
    case ir::Builtin::BlockIdx: return t_.bid[e.dim];
    case ir::Builtin::BlockDim: return g_.blockDim[e.dim];
    case ir::Builtin::GridDim: return g_.gridDim[e.dim];
    }
    return tc_.intConst(0);
  }
  case Op::Len: {
    auto it = g_.lens.find(e.id);
    return it != g_.lens.end() ? it->second : tc_.intConst(0);
  }
  case Op::ArrayRef:
  case Op::PtrAdd: return tc_.intConst(0);
  case Op::PtrOffset:
  case Op::PtrBaseAlign: {
    SVal p = evalPtr(*e.args[0], s, pc);
    bool off = e.op == Op::PtrOffset;
    if (p.array >= 0)
      return off ? p.off : tc_.intConst(k_.arrays[p.array].align);
    if (p.array == -3) {
      auto of = [&](const SVal::Alt &a) { return off ? a.off : tc_.intConst(k_.arrays[a.array].align); };
      Term r = of(p.alts.back());
      for (size_t i = p.alts.size() - 1; i-- > 0;)
        r = tc_.ite(p.alts[i].guard, of(p.alts[i]), r);
      return r;
    }
    abstraction("the offset of a pointer ksynth cannot follow as an unknown");
    return fresh("ptroffset", Sort::Int);
  }
  default: break;
  }
  if (e.op == Op::LAnd || e.op == Op::LOr) {
    Term a = eval(*e.args[0], s, pc);
    Term b = eval(*e.args[1], s, tc_.mkAnd(pc, e.op == Op::LAnd ? a : tc_.mkNot(a)));
    return e.op == Op::LAnd ? tc_.mkAnd(a, b) : tc_.mkOr(a, b);
  }
  if (e.op == Op::Select) {
    if (ty.isPtr())
      return tc_.intConst(0);
    Term c = eval(*e.args[0], s, pc);
    Term a = eval(*e.args[1], s, tc_.mkAnd(pc, c));
    Term b = eval(*e.args[2], s, tc_.mkAnd(pc, tc_.mkNot(c)));
    return tc_.ite(c, a, b);
  }
  if (e.op == Op::Call) {
    std::vector<Term> args;
    for (const auto &a : e.args)
      args.push_back(eval(*a, s, pc));
    return tc_.app("fn." + e.name, Sort::Real, args);
  }
  if (e.op == Op::Cast) {
    Term v = eval(*e.args[0], s, pc);
    ir::Type from = e.args[0]->type;
    if (from.isPtr())
      return tc_.intConst(0);
    if (ty.isFloat() && from.isFloat() && from.largestFinite() > ty.largestFinite())
      abstraction("a float converted to a narrower float type keeps its value (beyond the type's largest finite "
                  "value, e.g. FLT_MAX or 65504 for half, it becomes infinity on the GPU)");
    if (ty.isFloat())
      return from.isBool() ? tc_.ite(v, tc_.realConst(1), tc_.realConst(0)) : tc_.toReal(v);
    if (from.isFloat()) {
      abstraction("float-to-integer conversions as uninterpreted functions");
      Term r = tc_.app("fn.f2i." + ty.str(), Sort::Int, {v});
      if (ty.isBool())
        return tc_.ne(v, tc_.realConst(0));
      if (!dry_)
        out_.facts.push_back(tc_.inRange(r, ty.minValue(), ty.maxValue()));
      tc_.setBounds(r, ty.minValue(), ty.maxValue());
      return r;
    }
    if (from.isBool())
      return ty.isBool() ? v : tc_.ite(v, tc_.intConst(1), tc_.intConst(0));
    // A widening conversion keeps the value: a value of the source type is in its range
    // (unsigned values are kept reduced; signed arithmetic that leaves it is an overflow,
    // an obligation of its own), so `(long long)OH` needs no wrap-around even where the
    // simplifier's intervals cannot bound OH.
    if (from.isInt() && ty.isInt() && !ty.isBool() && from.minValue() >= ty.minValue() &&
        from.maxValue() <= ty.maxValue())
      return v;
    return convertInt(v, ty);
  }
  if (e.op == Op::Not)
    return tc_.mkNot(eval(*e.args[0], s, pc));
  if (e.op == Op::Neg) {
    Term a = eval(*e.args[0], s, pc);
    if (ty.isFloat())
      return tc_.neg(a);
    Term r = tc_.neg(a);
    arithCheck(e, ArithKind::SignedOverflow, pc, rangeOk(r, ty));
    return wrapUnsigned(r, ty);
  }
  if (e.op == Op::BitNot) {
    Term a = eval(*e.args[0], s, pc);
    if (ty.isSigned)
      return tc_.sub(tc_.neg(a), tc_.intConst(1));
    return tc_.sub(tc_.intConst(ty.maxValue()), a);
  }
  Term a = eval(*e.args[0], s, pc);
  Term b = eval(*e.args[1], s, pc);
  ir::Type at = e.args[0]->type;
  bool real = at.isFloat();
  switch (e.op) {
  case Op::Eq: return tc_.eq(a, b);
  case Op::Ne: return tc_.ne(a, b);
  case Op::Lt: return tc_.lt(a, b);
  case Op::Le: return tc_.le(a, b);
  case Op::Gt: return tc_.gt(a, b);
  case Op::Ge: return tc_.ge(a, b);
  case Op::Min: return tc_.ite(tc_.le(a, b), a, b);
  case Op::Max: return tc_.ite(tc_.ge(a, b), a, b);
  default: break;
  }
  if (real) {
    switch (e.op) {
    case Op::Add: return tc_.add(a, b);
    case Op::Sub: return tc_.sub(a, b);
    case Op::Mul: return tc_.mul(a, b);
    case Op::Div: return tc_.realDiv(a, b);
    default:
      abstraction(std::string("floating-point '") + ir::opName(e.op) + "' as an uninterpreted function");
      return tc_.app(std::string("fn.f") + ir::opName(e.op), Sort::Real, {a, b});
    }
  }
  switch (e.op) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul: {
    Term r = e.op == Op::Add ? tc_.add(a, b) : e.op == Op::Sub ? tc_.sub(a, b) : tc_.mul(a, b);
    arithCheck(e, ArithKind::SignedOverflow, pc, rangeOk(r, ty));
    return wrapUnsigned(r, ty);
  }
  case Op::Div:
  case Op::Rem: {
    arithCheck(e, ArithKind::DivByZero, pc, tc_.ne(b, tc_.intConst(0)));
    Term q = truncDiv(a, b, pc);
    if (e.op == Op::Div) {
      arithCheck(e, ArithKind::SignedOverflow, pc, tc_.implies(tc_.ne(b, tc_.intConst(0)), rangeOk(q, ty)));
      return wrapUnsigned(q, ty);
    }
    if (nonNegative(a, pc)) // a - b (a div b) with a >= 0: Euclidean and C agree (truncDiv)
      return tc_.mod(a, b);
    return tc_.sub(a, tc_.mul(b, q));
  }
  case Op::Shl:
  case Op::Shr: {
    arithCheck(e, ArithKind::ShiftAmount, pc, tc_.inRange(b, 0, ty.bits - 1));
    if (!tc_.isConst(b)) {
      // A shift by a variable amount, arm by arm (b == k: a * 2^k, a div 2^k): linear in
      // each arm, where a product or quotient by an ite of powers is not (`(m >> lane) & 1`).
      // Beyond [0, bits - 1] (undefined: the shift-amount check fails there) some value.
      auto [lo, hi] = tc_.range(b);
      int64_t from = static_cast<int64_t>(std::max<int128>(lo, 0));
      int64_t to = static_cast<int64_t>(std::min<int128>(hi, ty.bits - 1));
      if (from <= to && to - from < 64) {
        auto arm = [&](int64_t k) {
          Term p = tc_.intConst(static_cast<int128>(1) << k);
          return e.op == Op::Shl ? tc_.mul(a, p) : tc_.div(a, p);
        };
        bool inside = lo >= 0 && hi <= ty.bits - 1;
        Term r = inside ? arm(to--) : fresh("shift.undefined", Sort::Int);
        for (int64_t k = to; k >= from; --k) {
          r = tc_.ite(tc_.eq(b, tc_.intConst(k)), arm(k), r);
        }
        if (e.op == Op::Shr)
          return r;
        if (ty.isSigned)
          arithCheck(e, ArithKind::SignedOverflow, pc, tc_.implies(tc_.inRange(b, 0, ty.bits - 1), rangeOk(r, ty)));
        return wrapUnsigned(r, ty);
      }
    }
    Term p = pow2(b, ty.bits - 1);
    if (e.op == Op::Shl) {
      Term r = tc_.mul(a, p);
      if (ty.isSigned)
        arithCheck(e, ArithKind::SignedOverflow, pc, tc_.implies(tc_.inRange(b, 0, ty.bits - 1), rangeOk(r, ty)));
      return wrapUnsigned(r, ty);
    }
    return tc_.div(a, p); // arithmetic shift = floor division
  }
  case Op::BitAnd:
  case Op::BitOr:
  case Op::BitXor:
    // Bits (e.g. comparisons cast to int, `f == a | f == b`): exact as boolean logic.
    if (tc_.range(a).first >= 0 && tc_.range(a).second <= 1 && tc_.range(b).first >= 0 &&
        tc_.range(b).second <= 1) {
      Term x = tc_.eq(a, tc_.intConst(1)), y = tc_.eq(b, tc_.intConst(1));
      Term c = e.op == Op::BitAnd ? tc_.mkAnd(x, y) : e.op == Op::BitOr ? tc_.mkOr(x, y) : tc_.ne(a, b);
      return tc_.ite(c, tc_.intConst(1), tc_.intConst(0));
    }
    if (e.op != Op::BitAnd)
      return bitwiseOrXor(e, a, b, ty);
    {
    int128 m;
    auto [alo, ahi] = tc_.range(a);
    if (tc_.isConst(a, &m) && !tc_.isConst(b)) {
      std::swap(a, b);
      std::tie(alo, ahi) = tc_.range(a);
    }
    // Masks are exact for negative operands too: two's complement bits are Euclidean
    // div/mod by powers of two (SMT-LIB's div and mod).
    (void)alo;
    if (tc_.isConst(b, &m) && m < 0 && ((-m) & (-m - 1)) == 0) // a & ~(2^k - 1)
      return tc_.sub(a, tc_.mod(a, tc_.intConst(-m)));
    if (tc_.isConst(b, &m) && m > 0 && (m & (m - 1)) == 0) { // one bit
      int k = 0;
      while ((static_cast<int128>(1) << k) < m)
        ++k;
      return tc_.mul(tc_.intConst(m), tc_.range(a).first >= 0 ? bitOf(tc_, a, k)
                                                               : tc_.mod(tc_.div(a, tc_.intConst(m)), tc_.intConst(2)));
    }
    if (tc_.isConst(b, &m) && m >= 0 && ((m + 1) & m) == 0) // a & (2^k - 1), incl. a & 0
      return tc_.mod(a, tc_.intConst(m + 1));
    return bitwiseOrXor(e, a, b, ty);
    }
  default: break;
  }
  abstraction(std::string("operator '") + ir::opName(e.op) + "' as an uninterpreted function");
  return tc_.app(std::string("fn.") + ir::opName(e.op), sortOf(ty), {a, b});
}

// |, ^ (and & when nothing better applies): single bits exactly, else an uninterpreted function.
Term Exec::bitwiseOrXor(const ir::Expr &e, Term a, Term b, const ir::Type &ty) {
  {
    int128 m;
    if (tc_.isConst(a, &m) && !tc_.isConst(b))
      std::swap(a, b);
    // An ite over constants 0 and powers of two (a loop's halving offset, `lane ^ off`): the
    // operation arm by arm.
    std::function<bool(Term)> bitLeaves = [&](Term t) {
      int128 c;
      if (tc_.isConst(t, &c))
        return c >= 0 && (c & (c - 1)) == 0;
      return t->kind == smt::Kind::Ite && bitLeaves(t->kids[1]) && bitLeaves(t->kids[2]);
    };
    if (e.op != Op::BitAnd && b->kind == smt::Kind::Ite && tc_.range(a).first >= 0 && bitLeaves(b)) {
      std::function<Term(Term)> arm = [&](Term t) -> Term {
        if (t->kind == smt::Kind::Ite)
          return tc_.ite(t->kids[0], arm(t->kids[1]), arm(t->kids[2]));
        return bitwiseOrXor(e, a, t, ty);
      };
      return arm(b);
    }
    if (e.op != Op::BitAnd && tc_.isConst(b, &m) && m == 0)
      return a;
    if (e.op != Op::BitAnd && tc_.isConst(b, &m) && m > 0 && (m & (m - 1)) == 0 && tc_.range(a).first >= 0) {
      Term bit = tc_.mod(tc_.div(a, tc_.intConst(m)), tc_.intConst(2));
      Term r = e.op == Op::BitXor ? tc_.add(a, tc_.sub(tc_.intConst(m), tc_.mul(tc_.intConst(2 * m), bit)))
                                  : tc_.add(a, tc_.sub(tc_.intConst(m), tc_.mul(tc_.intConst(m), bit)));
      return r;
    }
    abstraction(std::string("bitwise '") + ir::opName(e.op) + "' as an uninterpreted function");
    Term r = tc_.app(std::string("fn.bv") + ir::opName(e.op) + ty.str(), Sort::Int, {a, b});
    if (!dry_)
      out_.facts.push_back(tc_.inRange(r, ty.minValue(), ty.maxValue()));
    tc_.setBounds(r, ty.minValue(), ty.maxValue());
    return r;
  }
}

} // namespace ksynth::check::detail
