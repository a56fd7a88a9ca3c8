// tightenBounds (symexec.h): ranges narrowed from preconditions must contain every value the
// fact admits (soundness) and, for a single symbol, be exact.
#include "verify/check/symexec.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

using namespace ksynth;
using smt::int128;
using smt::Term;

TEST_CASE("tightenBounds: a v + c (<=, <, =) 0 gives exactly the admitted range of v") {
  struct Case {
    int kind; // 0: <=, 1: <, 2: =
    int64_t a, c, lo0, hi0;
  };
  const Case cases[] = {{0, 1, -40, -1000, 1000}, {1, 1, -10, -1000, 1000}, {0, -1, 11, -1000, 1000},
                        {1, -1, 3, -1000, 1000},  {0, 3, -10, -1000, 1000}, {0, -3, 10, -1000, 1000},
                        {1, 2, -7, -1000, 1000},  {1, -2, -7, -1000, 1000}, {2, 1, 5, -1000, 1000},
                        {0, -1, -5, 0, 100},      {0, -1, 5, -1000, 1000},  {1, -3, -7, -1000, 1000}};
  for (const Case &k : cases) {
    CAPTURE(k.kind);
    CAPTURE(k.a);
    CAPTURE(k.c);
    smt::TermContext tc;
    Term v = tc.var("N", smt::Sort::Int);
    tc.setBounds(v, k.lo0, k.hi0);
    Term lhs = tc.add(tc.mul(tc.intConst(k.a), v), tc.intConst(k.c));
    Term zero = tc.intConst(0);
    Term f = k.kind == 0 ? tc.le(lhs, zero) : k.kind == 1 ? tc.lt(lhs, zero) : tc.eq(lhs, zero);
    check::tightenBounds(tc, {f});
    auto [lo, hi] = tc.range(v);
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (int64_t x = k.lo0; x <= k.hi0; ++x) {
      int64_t val = k.a * x + k.c;
      if (k.kind == 0 ? val <= 0 : k.kind == 1 ? val < 0 : val == 0) {
        first = std::min(first, x);
        last = std::max(last, x);
      }
    }
    REQUIRE(first <= last);
    CHECK(lo == static_cast<int128>(first));
    CHECK(hi == static_cast<int128>(last));
  }
}

TEST_CASE("tightenBounds: facts over two symbols, or none, leave the ranges alone") {
  smt::TermContext tc;
  Term n = tc.var("N", smt::Sort::Int), m = tc.var("M", smt::Sort::Int);
  tc.setBounds(n, 0, 100);
  tc.setBounds(m, 0, 100);
  check::tightenBounds(tc, {tc.le(n, m), tc.le(tc.mul(n, m), tc.intConst(10))});
  CHECK(tc.range(n) == std::pair<int128, int128>{0, 100});
  CHECK(tc.range(m) == std::pair<int128, int128>{0, 100});
}

TEST_CASE("recomposedIndex: an address rebuilt from an index's quotients and remainders is the index; "
          "near misses are not") {
  smt::TermContext tc;
  Term X = tc.add(tc.var("tid", smt::Sort::Int), tc.mul(tc.intConst(256), tc.var("bid", smt::Sort::Int)));
  Term W = tc.var("W", smt::Sort::Int), H = tc.var("H", smt::Sort::Int), C = tc.var("C", smt::Sort::Int);
  // (X mod W) + W ((X div W mod H) + H ((X div (H W) mod C) + C (X div (C H W))))
  auto build = [&](Term cDiv, Term nDiv) {
    Term inner = tc.add(tc.mod(cDiv, C), tc.mul(C, nDiv));
    Term mid = tc.add(tc.mod(tc.div(X, W), H), tc.mul(H, inner));
    return tc.add(tc.mod(X, W), tc.mul(W, mid));
  };
  Term positive;
  Term good = build(tc.div(X, tc.mul(H, W)), tc.div(X, tc.mul(C, tc.mul(H, W))));
  CHECK(check::recomposedIndex(tc, good, positive) == X);
  REQUIRE(positive);
  for (Term v : {W, H, C})
    CHECK(tc.mentions(positive, v));
  // Nested quotients are the same quotient: (X div W) div H is X div (H W).
  Term nested = build(tc.div(tc.div(X, W), H), tc.div(tc.div(tc.div(X, W), H), C));
  CHECK(check::recomposedIndex(tc, nested, positive) == X);
  // The channel from X div W (not div H W), the batch from X div (H W) (not C H W), a divisor
  // that is not the next remainder's: none is the index.
  CHECK(check::recomposedIndex(tc, build(tc.div(X, W), tc.div(X, tc.mul(C, tc.mul(H, W)))), positive) == nullptr);
  CHECK(check::recomposedIndex(tc, build(tc.div(X, tc.mul(H, W)), tc.div(X, tc.mul(H, W))), positive) == nullptr);
  CHECK(check::recomposedIndex(tc, tc.add(tc.mod(X, W), tc.mul(H, tc.div(X, W))), positive) == nullptr);
  std::vector<Term> facts;
  check::recomposition(tc, good, facts);
  CHECK(facts.size() == 1);
  check::recomposition(tc, tc.add(X, tc.intConst(1)), facts);
  CHECK(facts.size() == 1);
}
