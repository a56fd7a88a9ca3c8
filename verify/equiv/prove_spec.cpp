// Equivalence proofs: the spec as terms, and kernel values under the spec's names.
#include "verify/equiv/prover.h"

#include <cmath>

namespace ksynth::equiv::prove_detail {

namespace {

const char *kMath[] = {"exp", "log", "sqrt", "rsqrt", "tanh", "erf", "pow"};

// The spec's name for a kernel math function ("expf", "__expf", "std::exp" -> "exp"), or "".
std::string canonicalMath(std::string n, bool &approx) {
  approx = false;
  if (n.rfind("std::", 0) == 0)
    n = n.substr(5);
  if (n.rfind("__", 0) == 0) {
    n = n.substr(2);
    approx = true; // fast-math intrinsics (__expf, __logf, __powf)
  }
  for (const char *m : kMath) {
    std::string s = m;
    if (n == s || n == s + "f")
      return s;
  }
  return "";
}

} // namespace

// ---- the spec as terms -----------------------------------------------------------------

// The exact binary value of a double rounded to float, or nullptr.
Term Prover::floatValue(double v) {
  float f = static_cast<float>(v);
  int exp = 0;
  double m = std::frexp(static_cast<double>(f), &exp);
  auto mant = static_cast<smt::int128>(std::ldexp(m, 53));
  exp -= 53;
  while (mant != 0 && mant % 2 == 0 && exp < 0) {
    mant /= 2;
    ++exp;
  }
  if (mant == 0)
    return tc_.realConst(0);
  if (exp >= 0 && exp < 60)
    return tc_.realConst(mant * (static_cast<smt::int128>(1) << exp));
  if (exp < 0 && exp > -100)
    return tc_.realConst(mant, static_cast<smt::int128>(1) << -exp);
  return nullptr;
}

Term Prover::realLiteral(const spec::Term &t) {
  // The spec's constant is exact. DESIGN: a float literal of the kernel equals a spec
  // constant when both round to the same float, so the kernel's literal (the float's
  // exact value) is later read as this constant (canonicalKernel).
  Term exact = tc_.realConst(t.num, t.den);
  Term asFloat = floatValue(static_cast<double>(t.num) / static_cast<double>(t.den));
  if (asFloat && asFloat != exact) {
    auto it = literalOf_.find(asFloat);
    if (it != literalOf_.end() && it->second != exact)
      throw GiveUp{"two spec constants round to the same float"};
    literalOf_[asFloat] = exact;
  }
  return exact;
}

Term Prover::flatOf(int tensor, const std::vector<Term> &idx) {
  const spec::Tensor &T = s_.tensors[tensor];
  Term flat = tc_.intConst(0);
  std::vector<Term> none;
  for (size_t d = 0; d < idx.size(); ++d)
    flat = d == 0 ? idx[0] : tc_.add(tc_.mul(flat, tr(*T.extents[d], none)), idx[d]);
  return flat;
}

// A spec fold over a range (sum, max-over, min-over) as an application prefix.N(lo, hi,
// params...) whose meaning is specSums_[prefix.N]: the fold over k in [lo, hi) of the body.
Term Prover::foldApp(const spec::Term &t, const std::string &prefix, std::vector<Term> &slots) {
  Term lo = tr(*t.args[0], slots), hi = tr(*t.args[1], slots);
  Term kv = tc_.fresh("spec.k", Sort::Int);
  slots.at(static_cast<size_t>(t.ref)) = kv;
  Term body = tr(*t.args[2], slots);
  std::vector<Term> syms, params;
  tc_.collectSymbols(body, syms);
  for (Term x : syms)
    if (x->kind == smt::Kind::Var && x != kv)
      params.push_back(x);
  std::vector<Term> args{lo, hi};
  args.insert(args.end(), params.begin(), params.end());
  // One application for one fold, however often the spec writes it (a define used twice).
  for (const auto &[known, e] : specSums_)
    if (known.rfind(prefix, 0) == 0 && e.params == params && tc_.substitute(body, {{kv, e.k}}) == e.body)
      return tc_.app(known, foldSort(prefix, body), args);
  std::string name = prefix + std::to_string(specSums_.size());
  specSums_[name] = SpecSum{kv, body, params};
  return tc_.app(name, foldSort(prefix, body), args);
}

Term Prover::tr(const spec::Term &t, std::vector<Term> &slots) {
  using spec::Op;
  auto a = [&](size_t i) { return tr(*t.args[i], slots); };
  auto chain = [&](auto mk) {
    std::vector<Term> parts;
    for (size_t i = 0; i + 1 < t.args.size(); ++i)
      parts.push_back(mk(a(i), a(i + 1)));
    return tc_.mkAnd(parts);
  };
  auto fold = [&](auto mk) {
    Term r = a(0);
    for (size_t i = 1; i < t.args.size(); ++i)
      r = mk(r, a(i));
    return r;
  };
  switch (t.op) {
  case Op::IntLit: return tc_.intConst(t.ival);
  case Op::BoolLit: return tc_.boolConst(t.ival != 0);
  case Op::RealLit: return realLiteral(t);
  case Op::Dim: {
    auto it = dimTerm_.find(t.ref);
    if (it == dimTerm_.end())
      throw GiveUp{"size '" + s_.dims[t.ref].name + "' is not a parameter of the kernel"};
    return it->second;
  }
  case Op::Scalar: {
    auto it = scalarTerm_.find(t.ref);
    if (it == scalarTerm_.end())
      throw GiveUp{"scalar '" + s_.scalars[t.ref].name + "' is not a parameter of the kernel"};
    return it->second;
  }
  case Op::Const: {
    auto it = constCache_.find(t.ref);
    if (it != constCache_.end())
      return it->second;
    std::vector<Term> e(static_cast<size_t>(s_.defines[t.ref].numSlots));
    Term v = tr(*s_.defines[t.ref].body, e);
    constCache_[t.ref] = v;
    return v;
  }
  case Op::Var: return slots.at(static_cast<size_t>(t.ref));
  case Op::Read: {
    auto it = arrayOf_.find(t.ref);
    if (it == arrayOf_.end())
      throw GiveUp{"tensor '" + s_.tensors[t.ref].name + "' is not a kernel parameter"};
    if (!g_.readOnly.count(it->second))
      throw GiveUp{"the spec reads '" + s_.tensors[t.ref].name + "', which the kernel may store to"};
    std::vector<Term> idx;
    for (size_t i = 0; i < t.args.size(); ++i)
      idx.push_back(a(i));
    const ir::Array &arr = k_.arrays[it->second];
    return tc_.app(check::memName(k_, it->second), arr.elem.isFloat() ? Sort::Real : arr.elem.isBool() ? Sort::Bool : Sort::Int,
                   {flatOf(t.ref, idx)});
  }
  case Op::Old: {
    auto it = arrayOf_.find(t.ref);
    if (it == arrayOf_.end())
      throw GiveUp{"tensor '" + s_.tensors[t.ref].name + "' is not a kernel parameter"};
    std::vector<Term> idx;
    for (size_t i = 0; i < t.args.size(); ++i)
      idx.push_back(a(i));
    const ir::Array &arr = k_.arrays[it->second];
    return tc_.app(check::memName(k_, it->second), arr.elem.isFloat() ? Sort::Real : arr.elem.isBool() ? Sort::Bool : Sort::Int,
                   {flatOf(t.ref, idx)});
  }
  case Op::Call: {
    const spec::Define &d = s_.defines[t.ref];
    std::vector<Term> e(static_cast<size_t>(d.numSlots));
    for (size_t i = 0; i < t.args.size(); ++i)
      e[i] = a(i);
    return tr(*d.body, e);
  }
  case Op::Ite: return tc_.ite(a(0), a(1), a(2));
  case Op::Let: {
    size_t n = t.letVars.size();
    std::vector<Term> vals;
    for (size_t i = 0; i < n; ++i)
      vals.push_back(a(i));
    for (size_t i = 0; i < n; ++i)
      slots.at(static_cast<size_t>(t.ref) + i) = vals[i];
    return a(n);
  }
  case Op::And: return fold([&](Term x, Term y) { return tc_.mkAnd(x, y); });
  case Op::Or: return fold([&](Term x, Term y) { return tc_.mkOr(x, y); });
  case Op::Not: return tc_.mkNot(a(0));
  case Op::Implies: return tc_.implies(a(0), a(1));
  case Op::Eq: return chain([&](Term x, Term y) { return tc_.eq(x, y); });
  case Op::Lt: return chain([&](Term x, Term y) { return tc_.lt(x, y); });
  case Op::Le: return chain([&](Term x, Term y) { return tc_.le(x, y); });
  case Op::Gt: return chain([&](Term x, Term y) { return tc_.gt(x, y); });
  case Op::Ge: return chain([&](Term x, Term y) { return tc_.ge(x, y); });
  case Op::Add: return fold([&](Term x, Term y) { return tc_.add(x, y); });
  case Op::Sub: return fold([&](Term x, Term y) { return tc_.sub(x, y); });
  case Op::Mul: return fold([&](Term x, Term y) { return tc_.mul(x, y); });
  case Op::Neg: return tc_.neg(a(0));
  case Op::Div: return fold([&](Term x, Term y) { return tc_.realDiv(x, y); });
  case Op::IntDiv: return tc_.div(a(0), a(1));
  case Op::Mod: return tc_.mod(a(0), a(1));
  case Op::ToReal: return tc_.toReal(a(0));
  case Op::Abs: {
    Term x = a(0);
    Term zero = x->sort == Sort::Real ? tc_.realConst(0) : tc_.intConst(0);
    return tc_.ite(tc_.le(zero, x), x, tc_.neg(x));
  }
  case Op::Max: return fold([&](Term x, Term y) { return tc_.ite(tc_.ge(x, y), x, y); });
  case Op::Min: return fold([&](Term x, Term y) { return tc_.ite(tc_.le(x, y), x, y); });
  case Op::Sum: return foldApp(t, "ssum.", slots);
  case Op::Prod: return foldApp(t, "sprod.", slots);
  case Op::ArgmaxOver: return foldApp(t, "sarg.", slots);
  case Op::ArgminOver: return foldApp(t, "sargmin.", slots);
  case Op::MaxOver:
  case Op::MinOver: {
    // A range of constant, small length: the max (min) of its terms, written out; else an
    // application smax.N(lo, hi, params) (smin.N), matched by extremaEqual.
    Term lo = a(0), hi = a(1);
    int128 l = 0, h = 0;
    if (!tc_.isConst(lo, &l) || !tc_.isConst(hi, &h) || h <= l || h - l > 64)
      return foldApp(t, t.op == Op::MaxOver ? "smax." : "smin.", slots);
    Term acc = nullptr;
    for (int128 i = l; i < h; ++i) {
      slots.at(static_cast<size_t>(t.ref)) = tc_.intConst(i);
      Term v = a(2);
      acc = !acc ? v
            : t.op == Op::MaxOver ? tc_.ite(tc_.ge(acc, v), acc, v)
                                  : tc_.ite(tc_.le(acc, v), acc, v);
    }
    return acc;
  }
  case Op::Fn: {
    std::vector<Term> args;
    for (size_t i = 0; i < t.args.size(); ++i)
      args.push_back(a(i));
    return tc_.app("fn." + t.name, Sort::Real, args);
  }
  default: throw GiveUp{std::string("the spec uses '") + spec::opKeyword(t.op) + "', not proven yet"};
  }
}

// Kernel math calls under the spec's names (fast-math intrinsics are stated).
Term Prover::canonicalKernel(Term t) {
  if (!oldLoads_.empty())
    t = tc_.substitute(t, oldLoads_);
  if (!literalOf_.empty()) {
    Term r = tc_.substitute(t, literalOf_);
    if (r != t)
      assumed_.insert("float literals of the kernel stand for the spec constants they round to");
    t = r;
  }
  std::vector<Term> syms;
  tc_.collectSymbols(t, syms);
  std::unordered_map<Term, Term> sub;
  for (Term x : syms) {
    if (x->kind != smt::Kind::App || x->name.rfind("fn.", 0) != 0)
      continue;
    bool approx = false;
    std::string c = canonicalMath(x->name.substr(3), approx);
    if (c.empty())
      continue;
    if (approx)
      assumed_.insert("'" + x->name.substr(3) + "' is taken as the spec's '" + c + "' (an approximation on the GPU)");
    std::vector<Term> args;
    for (Term kid : x->kids)
      args.push_back(tc_.substitute(kid, sub));
    sub[x] = tc_.app("fn." + c, x->sort, args);
  }
  return sub.empty() ? t : tc_.substitute(t, sub);
}

} // namespace ksynth::equiv::prove_detail
