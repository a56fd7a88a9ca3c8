#include "verify/smt/solver.h"
#include "verify/smt/term.h"
#include "util/deadline.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <chrono>

using namespace ksynth::smt;

TEST_CASE("linear normal form makes equal sums the same term") {
  TermContext tc;
  Term x = tc.var("x", Sort::Int), y = tc.var("y", Sort::Int);
  Term a = tc.add(tc.add(x, y), tc.intConst(3));
  Term b = tc.add(tc.intConst(1), tc.add(y, tc.add(x, tc.intConst(2))));
  CHECK(a == b);
  CHECK(tc.sub(a, x) == tc.add(y, tc.intConst(3)));
  CHECK(tc.sub(tc.mul(tc.intConst(4), x), tc.add(x, tc.add(x, tc.add(x, x)))) == tc.intConst(0));
}

TEST_CASE("bounds fold comparisons, and are exported as facts") {
  TermContext tc;
  Term t = tc.var("t", Sort::Int);
  tc.setBounds(t, 0, 255);
  CHECK(tc.lt(t, tc.intConst(256)) == tc.tru());
  CHECK(tc.lt(t, tc.intConst(0)) == tc.fls());
  CHECK(tc.lt(t, tc.intConst(100))->kind == Kind::Le);
  REQUIRE(tc.boundFacts().size() == 1);
  // The fact is not folded away by the simplifier that relies on it.
  CHECK(tc.boundFacts()[0]->kind == Kind::And);
}

// min(p, q) written as a choice is at most both ranges' tops (a loop stopping at the first of
// two bounds runs min of their counts); max(p, q) at least both bottoms. A choice that is not
// min or max keeps the union.
TEST_CASE("range: a choice that is min or max of its arms is within both arms' bounds") {
  TermContext tc;
  Term p = tc.var("p", Sort::Int), q = tc.var("q", Sort::Int);
  tc.setBounds(p, 0, 1000);
  tc.setBounds(q, 2, 4);
  auto top = [&](Term t) { return tc.range(t).second; };
  auto bottom = [&](Term t) { return tc.range(t).first; };
  CHECK(top(tc.ite(tc.lt(p, q), p, q)) == 4);  // min
  CHECK(top(tc.ite(tc.le(p, q), p, q)) == 4);  // min
  CHECK(top(tc.ite(tc.lt(q, p), q, p)) == 4);  // min, the other way round
  CHECK(bottom(tc.ite(tc.lt(q, p), p, q)) == 2); // max
  CHECK(bottom(tc.ite(tc.le(q, p), p, q)) == 2); // max
  // Not min: p picked up to q + 1 (could be 5), or p picked where p + 2 <= q (q could be p + 1).
  CHECK(top(tc.ite(tc.le(p, tc.add(q, tc.intConst(1))), p, q)) == 1000);
  CHECK(top(tc.ite(tc.le(tc.add(p, tc.intConst(2)), q), p, q)) == 1000);
  CHECK(bottom(tc.ite(tc.le(tc.add(q, tc.intConst(2)), p), p, q)) == 0);
}

TEST_CASE("eq: a constant against a sum with a constant term has the term moved over") {
  TermContext tc;
  Term j = tc.var("j", Sort::Int), k = tc.var("k", Sort::Int);
  Term eightJ = tc.mul(tc.intConst(8), j);
  // 1 = 8 j + 1 and 0 = 8 j are one term (either side, either order)
  CHECK(tc.eq(tc.intConst(1), tc.add(eightJ, tc.intConst(1))) == tc.eq(tc.intConst(0), eightJ));
  CHECK(tc.eq(tc.add(eightJ, tc.intConst(1)), tc.intConst(1)) == tc.eq(eightJ, tc.intConst(0)));
  CHECK(tc.eq(tc.intConst(5), tc.add(j, tc.intConst(3))) == tc.eq(j, tc.intConst(2)));
  // not the same comparison: 1 = 8 j + 2, 1 = 8 j + k + 1 (k is not constant)
  CHECK(tc.eq(tc.intConst(1), tc.add(eightJ, tc.intConst(2))) != tc.eq(tc.intConst(0), eightJ));
  CHECK(tc.eq(tc.intConst(1), tc.add(tc.add(eightJ, k), tc.intConst(1))) == tc.eq(tc.intConst(0), tc.add(eightJ, k)));
  CHECK(tc.eq(tc.intConst(1), tc.add(tc.add(eightJ, k), tc.intConst(1))) != tc.eq(tc.intConst(0), eightJ));
}

TEST_CASE("a term compared with itself folds (integers and reals have no NaN)") {
  TermContext tc;
  Term x = tc.var("x", Sort::Real), f = tc.app("f", Sort::Real, {tc.var("i", Sort::Int)});
  for (Term t : {x, f, tc.mul(tc.realConst(-1), f)}) {
    CHECK(tc.lt(t, t) == tc.fls());
    CHECK(tc.le(t, t) == tc.tru());
  }
  CHECK(tc.lt(x, f)->kind == Kind::Lt);
  CHECK(tc.le(f, x)->kind == Kind::Le);
}

TEST_CASE("conjuncts: the leaves of nested conjunctions, last operand first; a non-conjunction is its own") {
  TermContext tc;
  Term a = tc.var("a", Sort::Bool), b = tc.var("b", Sort::Bool), c = tc.var("c", Sort::Bool);
  Term ab = tc.mkOr(a, b);
  CHECK(conjuncts(ab) == std::vector<Term>{ab});
  std::vector<Term> got = conjuncts(tc.mkAnd(a, tc.mkAnd(ab, c)));
  REQUIRE(got.size() == 3);
  CHECK(std::find(got.begin(), got.end(), a) != got.end());
  CHECK(std::find(got.begin(), got.end(), ab) != got.end());
  CHECK(std::find(got.begin(), got.end(), c) != got.end());
}

TEST_CASE("Euclidean division and modulo fold like SMT-LIB") {
  TermContext tc;
  CHECK(tc.div(tc.intConst(-7), tc.intConst(2)) == tc.intConst(-4));
  CHECK(tc.mod(tc.intConst(-7), tc.intConst(2)) == tc.intConst(1));
  Assignment a;
  CHECK(eval(tc.div(tc.intConst(7), tc.intConst(-2)), a)->num == -3);
}

TEST_CASE("a mod and its div recombine; a mod of a mod by a divisor folds; each checked on values") {
  TermContext tc;
  Term x = tc.var("x", Sort::Int), y = tc.var("y", Sort::Int);
  Term m8 = tc.mod(x, tc.intConst(8)), d8 = tc.div(x, tc.intConst(8));
  CHECK(tc.add(m8, tc.mul(tc.intConst(8), d8)) == x);
  // With other terms around, scaled, and with the pair's halves added in separate steps.
  Term t = tc.add(tc.add(tc.mul(tc.intConst(3), m8), y), tc.add(tc.mul(tc.intConst(24), d8), tc.intConst(5)));
  CHECK(t == tc.add(tc.add(tc.mul(tc.intConst(3), x), y), tc.intConst(5)));
  // Not a pair: the div's coefficient is not m times the mod's.
  Term u = tc.add(m8, tc.mul(tc.intConst(4), d8));
  CHECK(u != x);
  CHECK(tc.mod(tc.mod(x, tc.intConst(32)), tc.intConst(2)) == tc.mod(x, tc.intConst(2)));
  CHECK(tc.mod(tc.mod(x, tc.intConst(6)), tc.intConst(4))->kids[0]->kind == Kind::Mod); // 4 does not divide 6
  // Each identity on values, negative ones included (Euclidean div and mod).
  for (int v : {-17, -8, -1, 0, 5, 8, 31, 33}) {
    Assignment a;
    a[x] = Value{v, 1};
    a[y] = Value{7, 1};
    CHECK(eval(tc.add(m8, tc.mul(tc.intConst(8), d8)), a)->num == v);
    CHECK(eval(u, a)->num == ((v % 8) + 8) % 8 + 4 * ((v - (((v % 8) + 8) % 8)) / 8));
    CHECK(eval(tc.mod(tc.mod(x, tc.intConst(6)), tc.intConst(4)), a)->num == (((v % 6) + 6) % 6) % 4);
  }
}

TEST_CASE("solver: unsat proves, sat returns a model that evaluates the goal to true") {
  TermContext tc;
  Solver s(tc, 5000);
  Term x = tc.var("x", Sort::Int), y = tc.var("y", Sort::Int);
  s.addBackground(tc.inRange(x, 0, 10));
  s.addBackground(tc.inRange(y, 0, 10));
  Result r = s.check(tc.gt(tc.add(x, y), tc.intConst(20)));
  CHECK(r.status == Status::Unsat);
  Term goal = tc.mkAnd(tc.eq(tc.add(x, y), tc.intConst(17)), tc.lt(x, y));
  r = s.check(goal);
  REQUIRE(r.status == Status::Sat);
  auto v = eval(goal, r.model);
  REQUIRE(v.has_value());
  CHECK(v->num == 1);
}

TEST_CASE("SMT-LIB dump declares every symbol") {
  TermContext tc;
  Term x = tc.var("x", Sort::Int);
  Term f = tc.app("fn.f", Sort::Real, {tc.toReal(x)});
  std::string s = toSmtLib2({tc.lt(f, tc.realConst(-3, 2))}, "test");
  CHECK(s.find("(declare-fun fn.f (Real) Real)") != std::string::npos);
  CHECK(s.find("(declare-const x Int)") != std::string::npos);
  CHECK(s.find("(- (/ 3.0 2.0))") != std::string::npos);
  CHECK(s.find("(check-sat)") != std::string::npos);
}

TEST_CASE("SMT-LIB dump: a term with much sharing is written with its shared subterms defined once") {
  TermContext tc;
  // max(x0, ..., x39) as nested ites: each max repeats its operands, so the tree doubles per
  // step while the DAG stays small.
  Term m = tc.var("x0", Sort::Real);
  for (int i = 1; i < 40; ++i) {
    Term x = tc.var("x" + std::to_string(i), Sort::Real);
    m = tc.ite(tc.le(x, m), m, x);
  }
  Term goal = tc.lt(m, tc.var("x7", Sort::Real)); // never: the max is at least x7
  std::string s = toSmtLib2({goal}, "shared");
  CHECK(s.size() < 20000);
  CHECK(s.find("(define-fun ksynth.s.0 () Real ") != std::string::npos);
  // The same goal decides the same in process and, where the z3 executable exists, when the
  // written file is read back.
  Solver solver(tc, 5000);
  CHECK(solver.check(goal).status == Status::Unsat);
  if (std::system("command -v z3 > /dev/null 2>&1") == 0) {
    std::string path = "/tmp/ksynth_term_test_shared.smt2";
    std::ofstream(path) << s;
    FILE *p = popen(("z3 " + path).c_str(), "r");
    REQUIRE(p);
    char buf[64] = {0};
    CHECK(fgets(buf, sizeof buf, p) != nullptr);
    pclose(p);
    CHECK(std::string(buf) == "unsat\n");
  }
  // A small query is written plain.
  std::string plain = toSmtLib2({tc.lt(tc.var("a", Sort::Int), tc.intConst(3))}, "plain");
  CHECK(plain.find("define-fun") == std::string::npos);
}

TEST_CASE("a term shared many times evaluates and prints in time linear in its nodes") {
  // t(i+1) = ite(t(i) < 5, t(i), t(i) + 1): 40 levels, 2^40 nodes as a tree, 40 as a DAG.
  TermContext tc;
  Term x = tc.var("x", Sort::Int);
  Term t = x;
  for (int i = 0; i < 40; ++i)
    t = tc.ite(tc.lt(t, tc.intConst(5)), t, tc.add(t, tc.intConst(1)));
  Assignment a;
  a[x] = Value{2, 1};
  std::optional<Value> v = eval(t, a);
  REQUIRE(v.has_value());
  CHECK(v->num == 2);
  a[x] = Value{7, 1};
  v = eval(t, a);
  REQUIRE(v.has_value());
  CHECK(v->num == 47);
  std::string s = show(t, 200);
  CHECK(s.size() <= 203);
  CHECK(s.substr(s.size() - 3) == "...");
  CHECK(show(x, 200) == "x");
}

TEST_CASE("solver: a query runs within the command's time limit, none after it") {
  TermContext tc;
  Term x = tc.var("x", Sort::Int);
  Solver s(tc, 10000);
  ksynth::util::setDeadline(30);
  CHECK(s.check(tc.lt(x, tc.intConst(0))).status == Status::Sat);
  ksynth::util::setDeadline(0.01);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  CHECK_THROWS_AS(s.check(tc.lt(x, tc.intConst(0))), ksynth::util::TimeLimit);
  ksynth::util::clearDeadline();
  CHECK(s.check(tc.lt(x, tc.intConst(0))).status == Status::Sat);
}
