// Bounded equivalence: the spec at concrete sizes, in the same DAG (SpecTerms).
#include "verify/equiv/bounded_detail.h"

namespace ksynth::equiv::bounded_detail {

// ---- the spec at concrete sizes, in the same DAG ------------------------------------------

SpecTerms::SpecTerms(const spec::Spec &s, const spec::Binding &b, const ir::Kernel &k, Store &st, const Sizes &sz)
    : s_(s), k_(k), st_(st) {
  for (const spec::Dim &d : s.dims)
    dims_.push_back(sz.at(d.name));
  for (const auto &[a, t] : b.tensorOfArray)
    arrayOf_[t] = a;
  scalars_.assign(s.scalars.size(), -1);
  for (const auto &[var, x] : b.scalarOfVar)
    if (spec::isFloat(s.scalars[x].type))
      scalars_[x] = st.param(k.vars[var]);
  consts_.assign(s.defines.size(), -1);
}

// Whether the sizes are admitted by the assumptions over dims; those over scalars become
// facts (for the solver: the scalars are unknown).
bool SpecTerms::admitted() {
  for (const spec::TermPtr &a : s_.assumes) {
    std::vector<int> env;
    int v = eval(*a, env);
    auto c = st_.constOf(v);
    if (!c)
      facts.push_back(v);
    else if (c->n == 0)
      return false;
  }
  return true;
}

std::vector<int64_t> SpecTerms::shape(int t) {
  std::vector<int64_t> sh;
  for (const spec::TermPtr &e : s_.tensors[t].extents) {
    std::vector<int> env;
    sh.push_back(concrete(eval(*e, env)));
  }
  return sh;
}

int SpecTerms::element(int t, const std::vector<int64_t> &idx) {
  const spec::Ensures &e = s_.ensures[s_.tensors[t].ensures];
  std::vector<int> env(static_cast<size_t>(e.numSlots), -1);
  for (size_t i = 0; i < idx.size(); ++i)
    env[i] = st_.intConst(idx[i]);
  return eval(*e.body, env);
}

int64_t SpecTerms::concrete(int id) {
  auto c = st_.constOf(id);
  if (!c || c->d != 1)
    throw Fail{"an index or range of the spec depends on tensor values"};
  return static_cast<int64_t>(c->n);
}

int SpecTerms::op(const std::string &name, std::vector<int> a) {
  int r = st_.op(name, a);
  if (r < 0)
    throw Fail{"the spec's '" + name + "' has no symbolic form"};
  return r;
}

int SpecTerms::read(const spec::Term &t, std::vector<int> &env) {
  auto sh = shapes_.find(t.ref);
  if (sh == shapes_.end())
    sh = shapes_.emplace(t.ref, shape(t.ref)).first;
  int64_t flat = 0;
  for (size_t i = 0; i < t.args.size(); ++i) {
    int64_t x = concrete(eval(*t.args[i], env));
    if (x < 0 || x >= sh->second[i])
      throw Fail{"the spec reads " + s_.tensors[t.ref].name + " outside its shape"};
    flat = flat * sh->second[i] + x;
  }
  auto a = arrayOf_.find(t.ref);
  if (a == arrayOf_.end())
    throw Fail{"tensor '" + s_.tensors[t.ref].name + "' is bound to no kernel parameter"};
  return st_.cell(k_.arrays[a->second], flat, false, -1);
}

int SpecTerms::eval(const spec::Term &t, std::vector<int> &env) {
  using spec::Op;
  auto a = [&](size_t i) { return eval(*t.args[i], env); };
  switch (t.op) {
  case Op::IntLit: return st_.intConst(t.ival);
  case Op::RealLit: return st_.ratConst(*mkRat(t.num, t.den), Sort::Real);
  case Op::BoolLit: return st_.boolConst(t.ival != 0);
  case Op::Dim: return st_.intConst(dims_[t.ref]);
  case Op::Scalar:
    if (scalars_[t.ref] < 0)
      throw Fail{"Int scalar '" + s_.scalars[t.ref].name + "' (its values are not enumerated)"};
    return scalars_[t.ref];
  case Op::Var: return env[t.ref];
  case Op::Const:
    if (consts_[t.ref] < 0) {
      std::vector<int> e2(static_cast<size_t>(s_.defines[t.ref].numSlots), -1);
      consts_[t.ref] = eval(*s_.defines[t.ref].body, e2);
    }
    return consts_[t.ref];
  case Op::Call: {
    const spec::Define &d = s_.defines[t.ref];
    std::vector<int> e2(static_cast<size_t>(d.numSlots), -1);
    std::vector<int> key{t.ref};
    for (size_t i = 0; i < t.args.size(); ++i) {
      e2[i] = a(i);
      key.push_back(e2[i]);
    }
    auto hit = calls_.find(key);
    if (hit != calls_.end())
      return hit->second;
    int v = eval(*d.body, e2);
    calls_.emplace(std::move(key), v);
    return v;
  }
  case Op::Read:
  case Op::Old: return read(t, env);
  case Op::Ite: {
    int c = a(0);
    if (auto cv = st_.constOf(c))
      return cv->n != 0 ? a(1) : a(2);
    return op("ite", {c, a(1), a(2)});
  }
  case Op::Let: {
    size_t n = t.letVars.size();
    std::vector<int> vals;
    for (size_t i = 0; i < n; ++i)
      vals.push_back(a(i));
    for (size_t i = 0; i < n; ++i)
      env[static_cast<size_t>(t.ref) + i] = vals[i];
    return a(n);
  }
  case Op::And:
  case Op::Or: {
    std::vector<int> xs;
    for (size_t i = 0; i < t.args.size(); ++i)
      xs.push_back(a(i));
    return op(t.op == Op::And ? "and" : "or", xs);
  }
  case Op::Not: return op("not", {a(0)});
  case Op::Implies: {
    int r = a(t.args.size() - 1);
    for (size_t i = t.args.size() - 1; i-- > 0;)
      r = op("or", {op("not", {a(i)}), r});
    return r;
  }
  case Op::Eq:
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge: {
    const char *name = t.op == Op::Eq ? "==" : t.op == Op::Lt ? "<" : t.op == Op::Le ? "<=" : t.op == Op::Gt ? ">" : ">=";
    std::vector<int> parts;
    for (size_t i = 0; i + 1 < t.args.size(); ++i)
      parts.push_back(op(name, {a(i), a(i + 1)}));
    return parts.size() == 1 ? parts[0] : op("and", parts);
  }
  case Op::Distinct: {
    std::vector<int> vs, parts;
    for (size_t i = 0; i < t.args.size(); ++i)
      vs.push_back(a(i));
    for (size_t x = 0; x < vs.size(); ++x)
      for (size_t y = x + 1; y < vs.size(); ++y)
        parts.push_back(op("!=", {vs[x], vs[y]}));
    return op("and", parts);
  }
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div: {
    const char *name = t.op == Op::Add ? "+" : t.op == Op::Sub ? "-" : t.op == Op::Mul ? "*" : "/";
    int acc = a(0);
    for (size_t i = 1; i < t.args.size(); ++i) {
      int x = a(i);
      if (t.op == Op::Div)
        if (auto c = st_.constOf(x); c && c->n == 0)
          throw Fail{"a division by zero in the spec"};
      acc = op(name, {acc, x});
    }
    return acc;
  }
  case Op::Neg: return op("neg", {a(0)});
  case Op::IntDiv:
  case Op::Mod: {
    i128 x = concrete(a(0)), y = concrete(a(1));
    if (y == 0)
      throw Fail{"div or mod by zero in the spec"};
    i128 q = x / y, r = x % y; // SMT-LIB: Euclidean
    if (r < 0) {
      r += y < 0 ? -y : y;
      q = y < 0 ? q + 1 : q - 1;
    }
    return st_.intConst(t.op == Op::IntDiv ? q : r);
  }
  case Op::Abs: return op("abs", {a(0)});
  case Op::Max:
  case Op::Min: {
    std::vector<int> xs;
    for (size_t i = 0; i < t.args.size(); ++i)
      xs.push_back(a(i));
    return op(t.op == Op::Max ? "max" : "min", xs);
  }
  case Op::ToReal: return op("toreal", {a(0)});
  case Op::Fn: {
    std::vector<int> xs;
    for (size_t i = 0; i < t.args.size(); ++i)
      xs.push_back(a(i));
    return op(t.name, xs);
  }
  default: break;
  }
  // Range binders, unrolled.
  int64_t lo = concrete(a(0)), hi = concrete(a(1));
  if (lo >= hi && spec::needsNonEmptyRange(t.op))
    throw Fail{std::string(spec::opKeyword(t.op)) + " over an empty range"};
  if (hi - lo > 100000)
    throw Fail{"a range of over 100000 terms"};
  const spec::Term &body = *t.args[2];
  bool real = body.sort == Sort::Real;
  std::vector<int> vals;
  for (int64_t x = lo; x < hi; ++x) {
    env[t.ref] = st_.intConst(x);
    vals.push_back(eval(body, env));
  }
  switch (t.op) {
  case Op::Sum:
  case Op::Prod: {
    int acc = t.op == Op::Sum ? (real ? st_.ratConst(Rat{0, 1}, Sort::Real) : st_.intConst(0))
                              : (real ? st_.ratConst(Rat{1, 1}, Sort::Real) : st_.intConst(1));
    for (int v : vals)
      acc = op(t.op == Op::Sum ? "+" : "*", {acc, v});
    return acc;
  }
  case Op::MaxOver:
  case Op::MinOver: return vals.size() == 1 ? vals[0] : op(t.op == Op::MaxOver ? "max" : "min", vals);
  default: {
    // argmax/argmin: the first index attaining the extreme (strict comparison), as a chain
    // of ites in index order.
    bool isMax = t.op == Op::ArgmaxOver;
    int best = vals[0], at = st_.intConst(lo);
    for (size_t i = 1; i < vals.size(); ++i) {
      int better = op(isMax ? ">" : "<", {vals[i], best});
      best = op("ite", {better, vals[i], best});
      at = op("ite", {better, st_.intConst(lo + static_cast<int64_t>(i)), at});
    }
    return at;
  }
  }
}

} // namespace ksynth::equiv::bounded_detail
