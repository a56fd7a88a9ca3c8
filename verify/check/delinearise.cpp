// Symbolic execution: delinearisation facts relating flat addresses to per-dimension indices.

#include "verify/check/symexec.h"

#include <algorithm>
#include <vector>

namespace ksynth::check {

using smt::Sort;
using smt::TermContext;

// m = X * f for a monomial m: X in rest.
bool factorOut(TermContext &tc, Term m, Term f, Term &rest) {
  if (m == f) {
    rest = tc.intConst(1);
    return true;
  }
  if (m->kind != smt::Kind::Mul)
    return false;
  for (size_t i = 0; i < m->kids.size(); ++i) {
    Term r;
    if (!factorOut(tc, m->kids[i], f, r))
      continue;
    for (size_t j = 0; j < m->kids.size(); ++j)
      if (j != i)
        r = tc.mul(r, m->kids[j]);
    rest = r;
    return true;
  }
  return false;
}

// t = X * f + Y, splitting t's monomials by whether f is one of their factors.
bool splitBy(TermContext &tc, Term t, Term f, Term &X, Term &Y) {
  std::vector<Term> mons = t->kind == smt::Kind::Add ? t->kids : std::vector<Term>{t};
  X = tc.intConst(0);
  Y = tc.intConst(0);
  bool any = false;
  for (Term m : mons) {
    Term r;
    if (factorOut(tc, m, f, r)) {
      X = tc.add(X, r);
      any = true;
    } else {
      Y = tc.add(Y, m);
    }
  }
  return any;
}

void delinearise(TermContext &tc, Term f1, Term f2, const std::vector<Term> &ext, std::vector<Term> &facts) {
  for (size_t d = ext.size(); d-- > 1;) {
    Term N = ext[d], X1, Y1, X2, Y2;
    if (!splitBy(tc, f1, N, X1, Y1) || !splitBy(tc, f2, N, X2, Y2))
      return;
    Term zero = tc.intConst(0);
    Term pre = tc.mkAnd({tc.le(tc.intConst(1), N), tc.le(zero, Y1), tc.lt(Y1, N), tc.le(zero, Y2),
                         tc.lt(Y2, N), tc.eq(tc.add(tc.mul(X1, N), Y1), tc.add(tc.mul(X2, N), Y2))});
    facts.push_back(tc.implies(pre, tc.mkAnd(tc.eq(X1, X2), tc.eq(Y1, Y2))));
    f1 = X1;
    f2 = X2;
  }
}

namespace {

// The factors of a product (nested products flattened), or d itself.
void factorsOf(Term d, std::vector<Term> &out) {
  if (d->kind == smt::Kind::Mul) {
    for (Term k : d->kids)
      factorsOf(k, out);
    return;
  }
  out.push_back(d);
}

// q as X div D1 div D2 ... (nested quotients, each divisor's product factors listed): X and
// the factors, sorted by creation number so that two spellings of one product compare equal.
void asQuotient(Term q, Term &X, std::vector<Term> &factors) {
  factors.clear();
  std::vector<Term> stack;
  while (q->kind == smt::Kind::Div && q->kids.size() == 2) {
    stack.push_back(q->kids[1]);
    q = q->kids[0];
  }
  X = q;
  while (!stack.empty()) {
    Term d = stack.back();
    stack.pop_back();
    factorsOf(d, factors);
  }
  std::sort(factors.begin(), factors.end(), smt::TermById{});
}

// Whether y is X div (the product of `factors`) written as the kernel splits an index: that
// quotient itself, or `(Z mod d) + d * Y'` with Z that quotient and Y' the quotient by d more.
// `all`: the factors of the last quotient, every divisor met (the identity needs each >= 1).
bool isQuotient(Term y, Term X, const std::vector<Term> &factors, std::vector<Term> &all, int depth) {
  if (depth > 8)
    return false;
  Term yx;
  std::vector<Term> yf;
  asQuotient(y, yx, yf);
  if (yx == X && yf == factors) { // (X itself when factors is empty)
    all = factors;
    return true;
  }
  if (y->kind != smt::Kind::Add || y->kids.size() != 2)
    return false;
  for (int i = 0; i < 2; ++i) {
    Term m = y->kids[i], p = y->kids[1 - i];
    if (m->kind != smt::Kind::Mod || m->kids.size() != 2 || p->kind != smt::Kind::Mul || p->kids.size() != 2)
      continue;
    Term d = m->kids[1], zx;
    std::vector<Term> zf;
    asQuotient(m->kids[0], zx, zf);
    if (zx != X || zf != factors)
      continue;
    for (int k = 0; k < 2; ++k) {
      if (p->kids[k] != d)
        continue;
      std::vector<Term> more = factors;
      factorsOf(d, more);
      std::sort(more.begin(), more.end(), smt::TermById{});
      if (isQuotient(p->kids[1 - k], X, more, all, depth + 1))
        return true;
    }
  }
  return false;
}

} // namespace

Term recomposedIndex(TermContext &tc, Term flat, Term &positive) {
  if (flat->kind != smt::Kind::Add || flat->kids.size() != 2)
    return nullptr;
  for (Term m : flat->kids) {
    if (m->kind != smt::Kind::Mod || m->kids.size() != 2)
      continue;
    Term X;
    std::vector<Term> f, all;
    asQuotient(m->kids[0], X, f);
    if (!f.empty() || !isQuotient(flat, X, {}, all, 0) || all.empty())
      continue;
    std::vector<Term> pos;
    for (Term d : all)
      pos.push_back(tc.le(tc.intConst(1), d));
    positive = tc.mkAnd(pos);
    return X;
  }
  return nullptr;
}

void recomposition(TermContext &tc, Term flat, std::vector<Term> &facts) {
  Term positive;
  if (Term X = recomposedIndex(tc, flat, positive))
    facts.push_back(tc.implies(positive, tc.eq(flat, X)));
}

std::vector<Term> coordinates(TermContext &tc, Term flat, const std::vector<Term> &ext) {
  std::vector<Term> out(ext.size());
  for (size_t d = ext.size(); d-- > 1;) {
    Term X, Y;
    if (!splitBy(tc, flat, ext[d], X, Y))
      return {};
    out[d] = Y;
    flat = X;
  }
  if (!ext.empty())
    out[0] = flat;
  return out;
}

namespace {
// The non-constant Int factors of the monomials of f: symbols, and sums such as a row length
// computed as `W - KW + 1` (a product of two non-constants is kept unexpanded).
void strideFactors(Term m, std::vector<Term> &out) {
  if (m->kind != smt::Kind::Mul)
    return;
  for (Term k : m->kids) {
    if (k->kind == smt::Kind::Mul) {
      strideFactors(k, out);
      continue;
    }
    bool factor = k->kind == smt::Kind::Var || k->kind == smt::Kind::App || k->kind == smt::Kind::Add ||
                  k->kind == smt::Kind::Div || k->kind == smt::Kind::Mod;
    if (factor && k->sort == Sort::Int && std::find(out.begin(), out.end(), k) == out.end())
      out.push_back(k);
  }
}
} // namespace

std::vector<Term> strideSymbols(TermContext &tc, Term f) {
  std::vector<Term> out;
  std::vector<Term> mons = f->kind == smt::Kind::Add ? f->kids : std::vector<Term>{f};
  for (Term m : mons)
    strideFactors(m, out);
  (void)tc;
  return out;
}

void boundLemmas(TermContext &tc, Term f, Term E, std::vector<Term> &facts, int depth) {
  if (depth <= 0)
    return;
  for (Term N : strideSymbols(tc, f)) {
    Term X, Y, A;
    if (!splitBy(tc, f, N, X, Y) || !factorOut(tc, E, N, A))
      continue;
    Term zero = tc.intConst(0);
    Term pre = tc.mkAnd({tc.le(tc.intConst(1), N), tc.le(zero, Y), tc.lt(Y, N), tc.le(zero, X), tc.lt(X, A)});
    facts.push_back(tc.implies(pre, tc.mkAnd(tc.le(zero, f), tc.lt(f, E))));
    boundLemmas(tc, X, A, facts, depth - 1);
    return;
  }
}

void delineariseNested(TermContext &tc, Term f1, Term f2, std::vector<Term> &facts, int depth, size_t limit) {
  if (depth <= 0)
    return;
  for (Term N : strideSymbols(tc, f1)) {
    if (facts.size() >= limit)
      return;
    Term X1, Y1, X2, Y2;
    if (!splitBy(tc, f1, N, X1, Y1) || !splitBy(tc, f2, N, X2, Y2))
      continue;
    size_t before = facts.size();
    delinearise(tc, f1, f2, {nullptr, N}, facts);
    if (facts.size() > before)
      delineariseNested(tc, X1, X2, facts, depth - 1, limit);
  }
}

} // namespace ksynth::check
