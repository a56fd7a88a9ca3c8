// Queries asked over their slice (verify/smt/solver.h, Solver::check): a goal that reads a
// small part of a large background is asked over that part alone, and its answers must be
// those of the whole query: unsat only where the whole is unsat, sat with a model that
// satisfies every background fact. Each case uses symbol names of its own: answers are shared
// by every solver of the process (shared_answers_test.cpp).
#include "verify/smt/solver.h"

#include <doctest/doctest.h>

#include <string>

using namespace ksynth::smt;

namespace {

// n facts `prefix_k = k`, each a slice of its own: the background a slice leaves out.
void filler(TermContext &tc, Solver &s, const std::string &prefix, int n) {
  for (int k = 0; k < n; ++k)
    s.addBackground(tc.eq(tc.var(prefix + "_" + std::to_string(k), Sort::Int), tc.intConst(k)));
}

// Whether m makes every background fact and the goal true (a symbol m lacks fails).
bool satisfiesAll(const Solver &s, Term goal, const Assignment &m) {
  for (Term f : s.background()) {
    auto v = eval(f, m);
    if (!v || v->num == 0)
      return false;
  }
  auto v = eval(goal, m);
  return v && v->num != 0;
}

// x in [0, 10] and 300 filler facts, then a sat answer over all of them (the model of the
// whole background that sat answers over a slice need). Returns x.
Term xAmongMany(TermContext &tc, Solver &s, const std::string &prefix) {
  Term x = tc.var(prefix + ".x", Sort::Int);
  s.addBackground(tc.inRange(x, 0, 10));
  filler(tc, s, prefix + ".y", 300);
  CHECK(s.check(tc.tru()).status == Status::Sat);
  return x;
}

} // namespace

TEST_CASE("slices: a goal about a few of many facts is asked over those, unsat and sat alike") {
  TermContext tc;
  Solver s(tc, 5000);
  Term x = xAmongMany(tc, s, "sl1");

  Result unsat = s.check(tc.lt(tc.intConst(10), x));
  CHECK(unsat.status == Status::Unsat);
  CHECK(unsat.sliced);
  Result again = s.check(tc.lt(tc.intConst(10), x));
  CHECK(again.repeated);
  CHECK_FALSE(again.sliced); // answered from memory, not asked: not counted as asked over a slice

  Term goal = tc.lt(tc.intConst(5), x);
  Result sat = s.check(goal);
  REQUIRE(sat.status == Status::Sat);
  CHECK(sat.sliced);
  CHECK(satisfiesAll(s, goal, sat.model)); // x from the slice, every y_k from the whole's model
}

TEST_CASE("slices: sat over a slice is not taken before the whole background is known satisfiable") {
  // p < 0 and p > 0 share no symbol with x > 5: its slice is satisfiable, the whole is not.
  TermContext tc;
  Solver s(tc, 5000);
  Term x = tc.var("sl2.x", Sort::Int), p = tc.var("sl2.p", Sort::Int);
  s.addBackground(tc.inRange(x, 0, 10));
  s.addBackground(tc.lt(p, tc.intConst(0)));
  s.addBackground(tc.lt(tc.intConst(0), p));
  filler(tc, s, "sl2.y", 300);
  Result r = s.check(tc.lt(tc.intConst(5), x));
  CHECK(r.status == Status::Unsat);
  CHECK_FALSE(r.sliced); // the slice said sat; the whole was asked
}

TEST_CASE("slices: a fact added after the whole background's last model makes sat ask the whole") {
  SUBCASE("a satisfiable fact: its value is in the model") {
    TermContext tc;
    Solver s(tc, 5000);
    Term x = xAmongMany(tc, s, "sl3"), z = tc.var("sl3.z", Sort::Int);
    s.addBackground(tc.eq(z, tc.intConst(7)));
    Term goal = tc.lt(tc.intConst(5), x);
    Result first = s.check(goal);
    REQUIRE(first.status == Status::Sat);
    CHECK_FALSE(first.sliced);
    CHECK(satisfiesAll(s, goal, first.model));
    // Now the whole background's model is of its present size: the slice is enough.
    Term goal2 = tc.lt(tc.intConst(6), x);
    Result second = s.check(goal2);
    REQUIRE(second.status == Status::Sat);
    CHECK(second.sliced);
    CHECK(satisfiesAll(s, goal2, second.model));
  }
  SUBCASE("a contradiction: the query is unsat") {
    TermContext tc;
    Solver s(tc, 5000);
    Term x = xAmongMany(tc, s, "sl4"), p = tc.var("sl4.p", Sort::Int);
    s.addBackground(tc.lt(p, tc.intConst(0)));
    s.addBackground(tc.lt(tc.intConst(0), p));
    CHECK(s.check(tc.lt(tc.intConst(5), x)).status == Status::Unsat);
  }
}

TEST_CASE("slices: queries over different slices in turn, each answered as the whole would be") {
  // The slice solver keeps the facts of earlier slices; a model takes only the slice's values
  // from it. w + v = 10 ties w and v; x is on its own.
  TermContext tc;
  Solver s(tc, 5000);
  Term x = tc.var("sl5.x", Sort::Int), w = tc.var("sl5.w", Sort::Int), v = tc.var("sl5.v", Sort::Int);
  s.addBackground(tc.inRange(x, 0, 10));
  s.addBackground(tc.inRange(w, 0, 10));
  s.addBackground(tc.eq(tc.add(w, v), tc.intConst(10)));
  filler(tc, s, "sl5.y", 300);
  CHECK(s.check(tc.tru()).status == Status::Sat);
  for (int round = 0; round < 3; ++round) {
    Term gw = tc.lt(tc.intConst(7 + round), w), gx = tc.lt(tc.intConst(6 + round), x);
    Result rw = s.check(gw), rx = s.check(gx);
    REQUIRE(rw.status == Status::Sat);
    REQUIRE(rx.status == Status::Sat);
    CHECK(rw.sliced);
    CHECK(rx.sliced);
    CHECK(satisfiesAll(s, gw, rw.model));
    CHECK(satisfiesAll(s, gx, rx.model));
    CHECK(s.check(tc.lt(v, tc.intConst(0))).status == Status::Unsat);
  }
}

TEST_CASE("slices: an unsat answer of a slice solver holding a contradiction is not shared") {
  // The first solver's background is contradictory (p < 0, p > 0): asked about p first, its
  // slice solver holds the contradiction, and x > 5 is then unsat there too. That answer is
  // right for its background but not for x's slice: a second solver with the same x facts and
  // no contradiction must get sat.
  std::vector<Status> got;
  for (bool first : {true, false}) {
    TermContext tc;
    Solver s(tc, 5000);
    Term x = tc.var("sl6.x", Sort::Int), p = tc.var("sl6.p", Sort::Int);
    s.addBackground(tc.inRange(x, 0, 10));
    if (first) {
      s.addBackground(tc.lt(p, tc.intConst(0)));
      s.addBackground(tc.lt(tc.intConst(0), p));
      filler(tc, s, "sl6.y", 300);
      CHECK(s.check(tc.lt(tc.intConst(5), p)).status == Status::Unsat);
    } else {
      filler(tc, s, "sl6.y", 300);
      CHECK(s.check(tc.tru()).status == Status::Sat);
    }
    got.push_back(s.check(tc.lt(tc.intConst(5), x)).status);
  }
  CHECK(got == std::vector<Status>{Status::Unsat, Status::Sat});
}
