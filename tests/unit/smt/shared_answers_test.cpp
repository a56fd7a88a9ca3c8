// Answers shared between solvers by the goal's slice (verify/smt/solver.h, Solver::check): a
// query whose slice another solver found unsat is unsat at no cost, and nothing a slice leaves
// out may turn a satisfiable query unsat. Each case uses symbol names of its own: the memory is
// the process's, shared by every case of this executable.
#include "verify/smt/solver.h"

#include <doctest/doctest.h>

using namespace ksynth::smt;

namespace {

// lo <= t <= hi, the form of a loaded value's range fact.
Term range(TermContext &tc, Term t, int128 lo, int128 hi) {
  return tc.mkAnd(tc.le(tc.intConst(lo), t), tc.le(t, tc.intConst(hi)));
}

// A satisfiable first query, so the solver knows its background satisfiable.
void warmUp(TermContext &tc, Solver &s) { CHECK(s.check(tc.tru()).status == Status::Sat); }

// One question asked of two solvers, each in a context of its own, the first variant first:
// `ask(tc, s, first)` gives the solver its facts and returns its answer.
template <class Ask> std::vector<Status> firstThenSecond(Ask ask) {
  std::vector<Status> got;
  for (bool first : {true, false}) {
    TermContext tc;
    Solver s(tc, 5000);
    got.push_back(ask(tc, s, first));
  }
  return got;
}
const std::vector<Status> kUnsatThenSat{Status::Unsat, Status::Sat};

} // namespace

TEST_CASE("shared answers: a fact the goal never reads does not keep another solver from the answer") {
  // The widths of signed char, unsigned char and unsigned long (a 64-bit bound is a range too).
  Status second;
  bool repeated = false;
  for (int128 width : {int128{127}, int128{255}, (int128{1} << 64) - 1}) {
    TermContext tc;
    Term t = tc.var("sa1.t", Sort::Int);
    Term v = tc.app("sa1.mem", Sort::Int, {t});
    Solver s(tc, 5000);
    s.addBackground(range(tc, t, 0, 63));
    s.addBackground(range(tc, v, 0, width)); // differs between the two solvers; v is free
    warmUp(tc, s);
    Result r = s.check(tc.lt(tc.intConst(63), t));
    CHECK(r.status == Status::Unsat);
    second = r.status;
    repeated = r.repeated;
  }
  CHECK(second == Status::Unsat);
  CHECK(repeated); // the last solver's answer came from the first's
}

TEST_CASE("shared answers: a range the goal reads is part of the slice") {
  // v <= 127 makes v > 127 unsat; v <= 255 does not: the second must not reuse the first.
  CHECK(firstThenSecond([](TermContext &tc, Solver &s, bool first) {
          Term v = tc.app("sa2.mem", Sort::Int, {tc.var("sa2.t", Sort::Int)});
          s.addBackground(range(tc, v, 0, first ? 127 : 255));
          warmUp(tc, s);
          return s.check(tc.lt(tc.intConst(127), v)).status;
        }) == kUnsatThenSat);
}

TEST_CASE("shared answers: a range of a value used elsewhere is part of the slice") {
  // y = mem(t) ties y to the range of mem: y > 127 is unsat under the first range only.
  CHECK(firstThenSecond([](TermContext &tc, Solver &s, bool first) {
          Term v = tc.app("sa3.mem", Sort::Int, {tc.var("sa3.t", Sort::Int)});
          Term y = tc.var("sa3.y", Sort::Int);
          s.addBackground(range(tc, v, 0, first ? 127 : 255));
          s.addBackground(tc.eq(y, v));
          warmUp(tc, s);
          return s.check(tc.lt(tc.intConst(127), y)).status;
        }) == kUnsatThenSat);
}

TEST_CASE("shared answers: ranges with no common value tie their operands together") {
  // mem(a) in [0, 1] and mem(b) in [5, 6] force a != b: a = b is unsat here, and must not be
  // remembered as the answer for a = b alone, which a solver without these facts asks next.
  CHECK(firstThenSecond([](TermContext &tc, Solver &s, bool first) {
          Term a = tc.var("sa4.a", Sort::Int), b = tc.var("sa4.b", Sort::Int);
          if (first) {
            s.addBackground(range(tc, tc.app("sa4.mem", Sort::Int, {a}), 0, 1));
            s.addBackground(range(tc, tc.app("sa4.mem", Sort::Int, {b}), 5, 6));
          }
          warmUp(tc, s);
          return s.check(tc.eq(a, b)).status;
        }) == kUnsatThenSat);
}

TEST_CASE("shared answers: an unsat answer over a background never shown satisfiable is not shared") {
  // The first background is contradictory (x < 0 and x > 0), so every query over it is unsat,
  // whatever its slice; z > 5 is satisfiable on its own and must be so for the second solver.
  CHECK(firstThenSecond([](TermContext &tc, Solver &s, bool first) {
          Term x = tc.var("sa5.x", Sort::Int), z = tc.var("sa5.z", Sort::Int);
          if (first) {
            s.addBackground(tc.lt(x, tc.intConst(0)));
            s.addBackground(tc.lt(tc.intConst(0), x));
          }
          return s.check(tc.lt(tc.intConst(5), z)).status;
        }) == kUnsatThenSat);
}

TEST_CASE("shared answers: a value used before its range is given is not free") {
  // y = v comes first, then v's ranges: the second range makes y > 127 unsat, and a solver
  // without it must get sat.
  CHECK(firstThenSecond([](TermContext &tc, Solver &s, bool first) {
          Term v = tc.app("sa6.mem", Sort::Int, {tc.var("sa6.t", Sort::Int)});
          Term y = tc.var("sa6.y", Sort::Int);
          s.addBackground(tc.eq(y, v));
          s.addBackground(range(tc, v, 0, 255));
          if (first)
            s.addBackground(range(tc, v, 0, 127));
          warmUp(tc, s);
          return s.check(tc.lt(tc.intConst(127), y)).status;
        }) == kUnsatThenSat);
}

TEST_CASE("shared answers: the goal reading a free value brings in what its operands are tied to") {
  // mem(t) <= 127 with t = 5 makes mem(5) > 127 unsat; without t = 5 it is sat.
  CHECK(firstThenSecond([](TermContext &tc, Solver &s, bool first) {
          Term t = tc.var("sa7.t", Sort::Int);
          s.addBackground(range(tc, tc.app("sa7.mem", Sort::Int, {t}), 0, 127));
          if (first)
            s.addBackground(tc.eq(t, tc.intConst(5)));
          warmUp(tc, s);
          return s.check(tc.lt(tc.intConst(127), tc.app("sa7.mem", Sort::Int, {tc.intConst(5)}))).status;
        }) == kUnsatThenSat);
}

TEST_CASE("shared answers: a fact added after the last sat answer stops the sharing") {
  // Satisfiable, then a contradiction: z > 5 is unsat over it, and sat on its own.
  CHECK(firstThenSecond([](TermContext &tc, Solver &s, bool first) {
          Term x = tc.var("sa8.x", Sort::Int), z = tc.var("sa8.z", Sort::Int);
          s.addBackground(tc.lt(x, tc.intConst(0)));
          warmUp(tc, s);
          if (first)
            s.addBackground(tc.lt(tc.intConst(0), x));
          return s.check(tc.lt(tc.intConst(5), z)).status;
        }) == kUnsatThenSat);
}

TEST_CASE("shared answers: divisions by zero are one function of the whole query") {
  // y = 5 and y div 0 = 1 fix div0(5) = 1, so x = 5 and x div 0 = 2 is unsat; alone it is sat.
  CHECK(firstThenSecond([](TermContext &tc, Solver &s, bool first) {
          Term x = tc.var("sa9.x", Sort::Int), y = tc.var("sa9.y", Sort::Int);
          if (first) {
            s.addBackground(tc.eq(y, tc.intConst(5)));
            s.addBackground(tc.eq(tc.div(y, tc.intConst(0)), tc.intConst(1)));
          }
          warmUp(tc, s);
          return s.check(tc.mkAnd(tc.eq(x, tc.intConst(5)), tc.eq(tc.div(x, tc.intConst(0)), tc.intConst(2))))
              .status;
        }) == kUnsatThenSat);
}
