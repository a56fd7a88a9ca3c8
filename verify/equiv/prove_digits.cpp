// Equivalence proofs: a writer named by the digits of an address.
//
// An address made of a thread's coordinates in a mixed radix, such as a WMMA accumulator's
// cell in a shared tile,
//
//   512 (ty div 2) + 256 (lane div 16) + 32 e + 16 (ty mod 2) + lane mod 16,
//
// or an output row `32 by + 4 i + ty` (ty < 4, i < 8), names its writer: each term's value is
// a digit of the address, read off from the lowest coefficient upwards, as long as each
// coefficient exceeds the largest value of the terms below it. A quotient and a remainder of
// one value by one divisor give that value back (2 (ty div 2) + ty mod 2 = ty), which is
// read the same way in turn. The result is a guess: callers check that it stores the cell.
#include "verify/equiv/prover.h"

#include <algorithm>

namespace ksynth::equiv::prove_detail {

namespace {

constexpr int128 kNoBound = -1;

} // namespace

// The largest value of t, which is never negative, when the extents of its unknowns (values
// 0 .. extent - 1) and the known ranges bound it; kNoBound otherwise (t may be negative too).
static int128 largest(smt::TermContext &tc, Term t, const std::unordered_map<Term, int128> &ext) {
  int128 v = 0;
  if (tc.isConst(t, &v))
    return v >= 0 ? v : kNoBound;
  if (auto it = ext.find(t); it != ext.end())
    return it->second > 0 ? it->second - 1 : kNoBound;
  auto [lo, hi] = tc.range(t);
  bool known = lo >= 0 && hi < (static_cast<int128>(1) << 100);
  switch (t->kind) {
  case smt::Kind::Mod: {
    int128 D = 0;
    if (tc.isConst(t->kids[1], &D) && D > 0)
      return D - 1;
    break;
  }
  case smt::Kind::Div: {
    int128 D = 0, h = largest(tc, t->kids[0], ext);
    if (tc.isConst(t->kids[1], &D) && D > 0 && h != kNoBound)
      return h / D;
    break;
  }
  case smt::Kind::Add: {
    int128 s = 0;
    for (Term k : t->kids) {
      int128 h = largest(tc, k, ext);
      if (h == kNoBound)
        return known ? hi : kNoBound;
      s += h;
    }
    return s;
  }
  case smt::Kind::Mul: {
    int128 c = 0;
    if (t->kids.size() == 2 && tc.isConst(t->kids[0], &c) && c >= 0) {
      int128 h = largest(tc, t->kids[1], ext);
      if (h != kNoBound)
        return c * h;
    }
    break;
  }
  default:
    break;
  }
  return known ? hi : kNoBound;
}

bool Prover::invertDigits(Term F, Term v, const std::unordered_map<Term, int128> &ext,
                          std::unordered_map<Term, Term> &out, int depth) {
  if (depth > 4)
    return false;
  auto unknownIn = [&](Term t) {
    for (const auto &[x, n] : ext)
      if (tc_.mentions(t, x))
        return true;
    return false;
  };
  std::map<uint32_t, std::pair<Term, int128>> lin;
  int128 c0 = 0;
  tc_.linear(F, 1, lin, c0);
  std::vector<std::pair<int128, Term>> digits; // (coefficient, term)
  Term rest = tc_.intConst(c0);
  for (const auto &[id, p] : lin) {
    if (!unknownIn(p.first)) {
      rest = tc_.add(rest, tc_.mul(tc_.intConst(p.second), p.first));
      continue;
    }
    if (p.second <= 0)
      return false;
    digits.push_back({p.second, p.first});
  }
  if (digits.empty())
    return false;
  std::stable_sort(digits.begin(), digits.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  Term r = tc_.sub(v, rest);
  // (value, divisor) of the quotients and remainders of one term
  std::map<Term, std::pair<int128, Term>, smt::TermById> quot, rem;
  int128 below = 0; // the largest value of the digits so far
  for (size_t i = 0; i < digits.size(); ++i) {
    auto [a, x] = digits[i];
    int128 h = largest(tc_, x, ext);
    bool last = i + 1 == digits.size();
    if (!last) {
      if (h == kNoBound)
        return false;
      below += a * h;
      if (below >= digits[i + 1].first)
        return false; // not a mixed radix: two tuples of digits give one address
    }
    // Where a (h + 1) divides every higher coefficient, the digit is (r div a) mod (h + 1),
    // whose range the simplifier knows (so that 2 (ty div 2) + ty mod 2 folds back to ty);
    // otherwise (padded rows: 65 row + column) the part of r below the next coefficient.
    bool tight = !last;
    for (size_t k = i + 1; k < digits.size() && tight; ++k)
      tight = digits[k].first % (a * (h + 1)) == 0;
    Term X = last    ? tc_.div(r, tc_.intConst(a))
             : tight ? tc_.mod(tc_.div(r, tc_.intConst(a)), tc_.intConst(h + 1))
                     : tc_.div(tc_.mod(r, tc_.intConst(digits[i + 1].first)), tc_.intConst(a));
    int128 D = 0;
    if (ext.count(x)) {
      auto seen = out.find(x);
      if (seen != out.end() && seen->second != X)
        return false;
      out[x] = X;
    } else if ((x->kind == smt::Kind::Div || x->kind == smt::Kind::Mod) && tc_.isConst(x->kids[1], &D) && D > 1) {
      auto &parts = x->kind == smt::Kind::Div ? quot : rem;
      if (parts.count(x->kids[0]))
        return false;
      parts[x->kids[0]] = {D, X};
    } else {
      return false;
    }
  }
  for (const auto &[E, q] : quot) {
    auto r2 = rem.find(E);
    if (r2 == rem.end() || r2->second.first != q.first)
      return false; // the quotient alone leaves the low digits open
    if (!invertDigits(E, tc_.add(tc_.mul(tc_.intConst(q.first), q.second), r2->second.second), ext, out, depth + 1))
      return false;
  }
  for (const auto &[E, m] : rem) {
    if (quot.count(E))
      continue;
    int128 h = largest(tc_, E, ext);
    if (h == kNoBound || h >= m.first)
      return false; // the remainder alone leaves the high digits open
    if (!invertDigits(E, m.second, ext, out, depth + 1))
      return false;
  }
  return true;
}

} // namespace ksynth::equiv::prove_detail

namespace ksynth::equiv::prove_detail {

// The unknowns of a writer thread w of model m at site S, with their extents: its thread
// coordinates (the block size where the launch fixes it) and the site's loop iterations (the
// trip count where it is a constant).
std::unordered_map<Term, int128> Prover::writerExtents(const check::ThreadSyms &w, const check::ThreadModel &m,
                                                       const check::AccessSite &S) {
  std::unordered_map<Term, int128> ext;
  for (int d = 0; d < 3; ++d) {
    auto [lo, hi] = tc_.range(g_.blockDim[d]);
    ext[w.tid[d]] = lo == hi && lo > 0 ? lo : 0;
  }
  for (Term it : S.iters) {
    int128 n = 0;
    auto tr = m.trips.find(it);
    // (a count that is not a constant but bounded by one, min(N - j, 4) for a loop that stops
    // at the first of two bounds: that bound; a guess of the writer, checked like any other)
    if (tr != m.trips.end() && !tc_.isConst(tr->second, &n)) {
      auto [lo, hi] = tc_.range(tr->second);
      n = lo >= 0 && hi <= 64 ? hi : 0;
    }
    ext[it] = tr != m.trips.end() && n > 0 ? n : 0;
  }
  return ext;
}

} // namespace ksynth::equiv::prove_detail
