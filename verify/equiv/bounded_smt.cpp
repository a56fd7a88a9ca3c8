// Bounded equivalence: Z3 terms for elements whose canonical forms differ (ToSmt).
#include "verify/equiv/bounded_detail.h"

#include <algorithm>
#include <cmath>

namespace ksynth::equiv::bounded_detail {

// ---- Z3, for elements whose canonical forms differ -----------------------------------------

smt::Term ToSmt::bigConst(double v) {
  // v = m * 2^e with |m| < 2^53: a product of constants that fit.
  int e = 0;
  double m = std::frexp(v, &e);
  i128 mant = static_cast<i128>(std::ldexp(m, 53));
  e -= 53;
  smt::Term t = tc_.realConst(mant);
  while (e > 0) {
    int step = std::min(e, 60);
    t = tc_.mul(t, tc_.realConst(static_cast<i128>(1) << step));
    e -= step;
  }
  if (e < 0)
    throw Fail{"a tiny constant"};
  return t;
}

smt::Term ToSmt::asSort(smt::Term t, Sort s) {
  Sort have = sortOf(t);
  if (have == s)
    return t;
  if (have == Sort::Bool)
    return s == Sort::Int ? tc_.ite(t, tc_.intConst(1), tc_.intConst(0))
                          : tc_.ite(t, tc_.realConst(1), tc_.realConst(0));
  if (s == Sort::Bool)
    return tc_.ne(t, have == Sort::Int ? tc_.intConst(0) : tc_.realConst(0));
  if (s == Sort::Real)
    return tc_.toReal(t);
  throw Fail{"a real value where an integer is needed"};
}

smt::Term ToSmt::compute(int node) {
  const SNode &n = st_.nodes[node];
  switch (n.kind) {
  case NK::Leaf: {
    smt::Term v = tc_.var("in!" + std::to_string(node), n.sort == Sort::Int ? smt::Sort::Int : smt::Sort::Real);
    if (n.input)
      leaves_.emplace(node, v);
    return v;
  }
  case NK::Const:
    if (n.sort == Sort::Bool)
      return tc_.boolConst(n.q.n != 0);
    if (n.sort == Sort::Int)
      return tc_.intConst(n.q.n);
    return tc_.realConst(n.q.n, n.q.d);
  case NK::Big:
    if (!std::isfinite(n.big))
      throw Fail{"an infinite constant"};
    return bigConst(n.big);
  case NK::Op: break;
  }
  const std::string &o = n.name;
  bool real = n.sort == Sort::Real;
  std::vector<smt::Term> k;
  for (int c : n.kids)
    k.push_back(get(c));
  auto R = [&](size_t i) { return num(k[i], real); };
  auto B = [&](size_t i) { return asSort(k[i], Sort::Bool); };
  auto cmpReal = [&]() {
    bool r = sortOf(k[0]) == Sort::Real || sortOf(k[1]) == Sort::Real;
    return std::make_pair(num(k[0], r), num(k[1], r));
  };
  if (o == "+" || o == "-" || o == "*") {
    smt::Term acc = R(0);
    for (size_t i = 1; i < k.size(); ++i)
      acc = o == "+" ? tc_.add(acc, R(i)) : o == "-" ? tc_.sub(acc, R(i)) : tc_.mul(acc, R(i));
    return acc;
  }
  if (o == "neg")
    return tc_.neg(R(0));
  if (o == "/")
    return tc_.realDiv(num(k[0], true), num(k[1], true));
  if (o == "toreal")
    return num(k[0], true);
  if (o == "abs") {
    smt::Term x = R(0);
    return tc_.ite(tc_.lt(x, real ? tc_.realConst(0) : tc_.intConst(0)), tc_.neg(x), x);
  }
  if (o == "min" || o == "max") {
    smt::Term acc = R(0);
    for (size_t i = 1; i < k.size(); ++i) {
      smt::Term x = R(i);
      acc = tc_.ite(o == "max" ? tc_.gt(x, acc) : tc_.lt(x, acc), x, acc);
    }
    return acc;
  }
  if (o == "<" || o == "<=" || o == ">" || o == ">=" || o == "==" || o == "!=") {
    auto [x, y] = cmpReal();
    if (o == "<")
      return tc_.lt(x, y);
    if (o == "<=")
      return tc_.le(x, y);
    if (o == ">")
      return tc_.gt(x, y);
    if (o == ">=")
      return tc_.ge(x, y);
    return o == "==" ? tc_.eq(x, y) : tc_.ne(x, y);
  }
  if (o == "not")
    return tc_.mkNot(B(0));
  if (o == "bool")
    return B(0);
  if (o == "and" || o == "or") {
    std::vector<smt::Term> xs;
    for (size_t i = 0; i < k.size(); ++i)
      xs.push_back(B(i));
    return o == "and" ? tc_.mkAnd(xs) : tc_.mkOr(xs);
  }
  if (o == "ite") {
    Sort s = n.sort;
    if (sortOf(k[1]) == Sort::Bool && sortOf(k[2]) == Sort::Bool)
      s = Sort::Bool;
    return tc_.ite(B(0), asSort(k[1], s), asSort(k[2], s));
  }
  if (o == "toint")
    return tc_.app("toint", smt::Sort::Int, {num(k[0], true)});
  std::vector<smt::Term> args;
  for (size_t i = 0; i < k.size(); ++i)
    args.push_back(num(k[i], true));
  return tc_.app(o, smt::Sort::Real, args);
}

} // namespace ksynth::equiv::bounded_detail
