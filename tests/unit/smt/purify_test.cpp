// Divisions by constants as shared linear chains (smt/purify.h): the result is satisfiable
// exactly where the original is, value by value, and the digits of one number relate.
#include "verify/smt/purify.h"
#include "verify/smt/solver.h"

#include <doctest/doctest.h>

using namespace ksynth::smt;

namespace {

// Whether t holds at x = v, by evaluation.
bool holdsAt(Term t, Term x, int128 v) {
  Assignment a{{x, Value{v, 1}}};
  std::optional<Value> r = eval(t, a);
  REQUIRE(r.has_value());
  return r->num != 0;
}

} // namespace

TEST_CASE("purify: satisfiable exactly where the original holds, for every value") {
  TermContext tc;
  Term x = tc.var("x", Sort::Int);
  auto c = [&](int128 v) { return tc.intConst(v); };
  std::vector<Term> formulas = {
      // the digits of x: 4 ((x div 4) mod 8) + 32 (x div 32) + x mod 4 = x (true everywhere)
      tc.eq(tc.add(tc.add(tc.mul(c(4), tc.mod(tc.div(x, c(4)), c(8))), tc.mul(c(32), tc.div(x, c(32)))),
                   tc.mod(x, c(4))),
            x),
      // a wrong digit (coefficient 16 for the middle one): false for some x
      tc.eq(tc.add(tc.add(tc.mul(c(16), tc.mod(tc.div(x, c(4)), c(8))), tc.mul(c(32), tc.div(x, c(32)))),
                   tc.mod(x, c(4))),
            x),
      // divisors that are not a chain (3 and 4), and x - 1 beside x
      tc.eq(tc.div(x, c(3)), tc.sub(tc.div(x, c(4)), tc.div(tc.sub(x, c(1)), c(4)))),
      // (x mod 12) div 4 taken apart; (x mod 12) div 5 left (5 does not divide 12)
      tc.lt(tc.add(tc.div(tc.mod(x, c(12)), c(4)), tc.div(tc.mod(x, c(12)), c(5))), tc.div(x, c(6))),
      // nested: (x div 4) div 3 is x div 12; beside x div 8
      tc.lt(tc.div(tc.div(x, c(4)), c(3)), tc.sub(tc.div(x, c(8)), c(1))),
  };
  int holdsSomewhere = 0, failsSomewhere = 0;
  for (Term f : formulas) {
    Term p = purifyDivMod(tc, f);
    CHECK_MESSAGE(p != f, show(f)); // each has something to share
    for (int128 v = -30; v <= 30; ++v) {
      Solver s(tc, 5000);
      Result r = s.check(tc.mkAnd(p, tc.eq(x, c(v))));
      bool holds = holdsAt(f, x, v);
      CHECK_MESSAGE((r.status == (holds ? Status::Sat : Status::Unsat)), show(f), " at x = ",
                    static_cast<long long>(v));
      holdsSomewhere += holds;
      failsSomewhere += !holds;
    }
  }
  // (both answers occur: the check above is not one-sided)
  CHECK(holdsSomewhere > 0);
  CHECK(failsSomewhere > 0);
}

TEST_CASE("purify: a coverage query by the digits of an element is answered") {
  // Every e in [0, N) is 4 t + 1024 b + 65536 i + c with t < 256, b < 64, c < 4: the writer of
  // a float4 grid-stride loop (64 blocks of 256) named by the digits of e - c, for each c.
  TermContext tc;
  Term e = tc.var("e", Sort::Int), N = tc.var("N", Sort::Int);
  auto c = [&](int128 v) { return tc.intConst(v); };
  auto covers = [&](int128 lane, int128 blockCoef) {
    Term r = tc.sub(e, c(lane));
    Term t = tc.mod(tc.div(r, c(4)), c(256)), b = tc.mod(tc.div(r, c(1024)), c(64)), i = tc.div(r, c(65536));
    return tc.mkAnd({tc.eq(e, tc.add(tc.add(tc.add(tc.mul(c(4), t), tc.mul(c(blockCoef), b)), tc.mul(c(65536), i)),
                                     c(lane))),
                     tc.le(c(0), i)});
  };
  Term elem = tc.mkAnd({tc.le(c(0), e), tc.lt(e, N), tc.le(N, c(2147467264))});
  Term all = tc.mkAnd(elem, tc.mkNot(tc.mkOr({covers(0, 1024), covers(1, 1024), covers(2, 1024), covers(3, 1024)})));
  Solver s(tc, 10000);
  CHECK(s.check(purifyDivMod(tc, all)).status == Status::Unsat);
  // Lane 3 left out: sat, and the model's e is one no guess stores.
  Term three = tc.mkAnd(elem, tc.mkNot(tc.mkOr({covers(0, 1024), covers(1, 1024), covers(2, 1024)})));
  Result r = s.check(purifyDivMod(tc, three));
  REQUIRE(r.status == Status::Sat);
  REQUIRE(r.model.count(e));
  CHECK(r.model.at(e).num % 4 == 3);
  // A wrong block coefficient (1000): some element is left.
  Term wrong = tc.mkAnd(elem, tc.mkNot(tc.mkOr({covers(0, 1000), covers(1, 1000), covers(2, 1000), covers(3, 1000)})));
  CHECK(s.check(purifyDivMod(tc, wrong)).status == Status::Sat);
}

TEST_CASE("purify: nothing to share, nothing changed") {
  TermContext tc;
  Term x = tc.var("x", Sort::Int), y = tc.var("y", Sort::Int);
  Term lone = tc.lt(tc.div(x, tc.intConst(4)), tc.mod(y, tc.intConst(8))); // one divisor per dividend
  CHECK(purifyDivMod(tc, lone) == lone);
  Term symbolic = tc.eq(tc.div(x, y), tc.div(x, tc.add(y, tc.intConst(1)))); // not constants
  CHECK(purifyDivMod(tc, symbolic) == symbolic);
  Term negative = tc.eq(tc.div(x, tc.intConst(-4)), tc.div(x, tc.intConst(-8))); // not positive
  CHECK(purifyDivMod(tc, negative) == negative);
}
