// The exponential's law as a rewrite (smt/exp_law.h): what combines, what cancels, and what
// is left as it is.
#include "verify/smt/exp_law.h"

#include <doctest/doctest.h>

using namespace ksynth::smt;

namespace {

struct Reals {
  TermContext tc;
  Term x = tc.var("x", Sort::Real), m = tc.var("m", Sort::Real), p = tc.var("p", Sort::Real);
  Term d1 = tc.var("d1", Sort::Real), d2 = tc.var("d2", Sort::Real);
  Term exp(Term a, const char *name = "fn.__expf") { return tc.app(name, Sort::Real, {a}); }
};

} // namespace

TEST_CASE("exp law: products of exponentials combine and what cancels does") {
  Reals r;
  TermContext &tc = r.tc;
  // exp(x - m) exp(m - p) = exp(x - p): m cancels.
  Term c = combineExps(tc, tc.mul(r.exp(tc.sub(r.x, r.m)), r.exp(tc.sub(r.m, r.p))));
  CHECK(c == r.exp(realLinear(tc, tc.sub(r.x, r.p))));
  CHECK(!tc.mentions(c, r.m));
  // exp(a) exp(-a) = exp(0) = 1, and a factor beside them stays.
  CHECK(combineExps(tc, tc.mul(r.d1, tc.mul(r.exp(r.x), r.exp(tc.neg(r.x))))) == r.d1);
  // expf, __expf and exp are one function; the spec's name is kept.
  Term mixed = combineExps(tc, tc.mul(r.exp(r.x, "fn.__expf"), r.exp(r.m, "fn.exp")));
  REQUIRE(mixed->kind == Kind::App);
  CHECK(mixed->name == "fn.exp");
  // A term without two exponentials in one product is left as it is (its exponent not
  // rewritten), and so is a product of an exponential and something else.
  Term lone = tc.add(r.exp(tc.sub(r.x, r.m)), r.d1);
  CHECK(combineExps(tc, lone) == lone);
  Term other = tc.mul(r.exp(r.x), tc.app("fn.logf", Sort::Real, {r.x}));
  CHECK(combineExps(tc, other) == other);
  // Two different functions do not combine.
  CHECK(!isExpFunction("fn.exp2f"));
  CHECK(!isExpFunction("fn.expm1f"));
  CHECK(isExpFunction("fn.std::exp"));
}

TEST_CASE("exp law: a merge of two running sums is multiplied out, choices case by case") {
  Reals r;
  TermContext &tc = r.tc;
  // (d1 exp(x - m) + d2 exp(p - m)) exp(m - q) = d1 exp(x - q) + d2 exp(p - q).
  Term q = tc.var("q", Sort::Real);
  Term merged = tc.add(tc.mul(r.d1, r.exp(tc.sub(r.x, r.m))), tc.mul(r.d2, r.exp(tc.sub(r.p, r.m))));
  Term c = combineExps(tc, tc.mul(merged, r.exp(tc.sub(r.m, q))));
  CHECK(c == tc.add(tc.mul(r.d1, r.exp(realLinear(tc, tc.sub(r.x, q)))),
                    tc.mul(r.d2, r.exp(realLinear(tc, tc.sub(r.p, q))))));
  // ite(b, u exp(x - m), d2) * exp(ite(b, m, p) - q): in the case b the choice inside the
  // other factor is decided too, so m cancels there.
  Term b = tc.var("b", Sort::Bool);
  Term choice = tc.ite(b, tc.mul(r.d1, r.exp(tc.sub(r.x, r.m))), r.d2);
  Term c2 = combineExps(tc, tc.mul(choice, r.exp(tc.sub(tc.ite(b, r.m, r.p), q))));
  REQUIRE(c2->kind == Kind::Ite);
  CHECK(c2->kids[1] == tc.mul(r.d1, r.exp(realLinear(tc, tc.sub(r.x, q)))));
  CHECK(c2->kids[2] == tc.mul(r.d2, r.exp(tc.sub(r.p, q))));
}

TEST_CASE("exp law: real linear forms") {
  Reals r;
  TermContext &tc = r.tc;
  Term half = tc.realConst(1, 2);
  // x/2 + m + x/2 - m + 3 = x + 3
  Term t = tc.add(tc.add(tc.mul(half, r.x), r.m), tc.add(tc.mul(half, r.x), tc.sub(tc.realConst(3), r.m)));
  CHECK(realLinear(tc, t) == tc.add(r.x, tc.realConst(3)));
  CHECK(realLinear(tc, tc.sub(r.x, r.x)) == tc.realConst(0));
  // the same form whatever the order the sum was written in
  CHECK(realLinear(tc, tc.add(r.m, r.x)) == realLinear(tc, tc.add(r.x, r.m)));
  CHECK(linearExpArgs(tc, r.exp(tc.add(r.m, r.x))) == linearExpArgs(tc, r.exp(tc.add(r.x, r.m))));
}
