// Named queries (verify/smt/solver.h): every query is recorded with its answer and time; a
// query with a header is written as a self-contained SMT-LIB2 file, a search step is not.
#include "verify/smt/solver.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ksynth::smt;
namespace fs = std::filesystem;

TEST_CASE("query log: answers, times, and the dumps of named queries only") {
  fs::path dir = fs::temp_directory_path() / "ksynth_query_log_test";
  fs::remove_all(dir);
  TermContext tc;
  Term x = tc.var("x", Sort::Int);
  Solver s(tc, 5000);
  QueryLog log(dir.string());
  s.setLog(&log);
  s.addBackground(tc.le(tc.intConst(0), x));
  Result r1 = s.check(tc.lt(x, tc.intConst(0)),
                      {"t.neg", [](Status st) { return std::string("x is never negative; ksynth got ") + statusName(st); }});
  CHECK(r1.status == Status::Unsat);
  REQUIRE(s.lastRecord() != nullptr);
  CHECK(s.lastRecord()->file == "t.neg.smt2");
  Result r2 = s.check(tc.eq(x, tc.intConst(7)), {"t.search", {}});
  CHECK(r2.status == Status::Sat);
  CHECK(s.lastRecord()->file.empty()); // a search step: recorded, not written
  REQUIRE(log.records().size() == 2);
  CHECK(log.records()[0].name == "t.neg");
  CHECK(log.records()[0].status == Status::Unsat);
  CHECK(log.records()[1].status == Status::Sat);
  CHECK(log.records()[1].ms >= 0);
  std::ifstream in(dir / "t.neg.smt2");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("x is never negative; ksynth got unsat") != std::string::npos);
  CHECK(text.str().find("(check-sat)") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "t.search.smt2"));
}

TEST_CASE("query log: without a directory nothing is written, everything recorded") {
  TermContext tc;
  Term x = tc.var("x", Sort::Int);
  Solver s(tc, 5000);
  QueryLog log;
  s.setLog(&log);
  s.check(tc.lt(x, x), {"t.never", [](Status) { return std::string("h"); }});
  REQUIRE(log.records().size() == 1);
  CHECK(log.records()[0].file.empty());
  // A solver with no log still says what its last query was.
  Solver alone(tc, 5000);
  alone.check(tc.tru(), {"t.alone", {}});
  REQUIRE(alone.lastRecord() != nullptr);
  CHECK(alone.lastRecord()->name == "t.alone");
}

TEST_CASE("solver: a query asked again is answered from memory, and still logged and written") {
  fs::path dir = fs::temp_directory_path() / "ksynth_query_repeat_test";
  fs::remove_all(dir);
  TermContext tc;
  Term x = tc.var("x", Sort::Int), y = tc.var("y", Sort::Int);
  Solver s(tc, 5000);
  QueryLog log(dir.string());
  s.setLog(&log);
  s.addBackground(tc.inRange(x, 0, 10));
  Term goal = tc.mkAnd(tc.eq(tc.add(x, y), tc.intConst(12)), tc.lt(y, x));
  auto header = [](Status) { return std::string("h"); };
  Result first = s.check(goal, {"t.first", header});
  REQUIRE(first.status == Status::Sat);
  CHECK_FALSE(first.repeated);
  Result again = s.check(goal, {"t.again", header});
  REQUIRE(again.status == Status::Sat);
  CHECK(again.repeated);
  CHECK(again.ms == 0);
  CHECK(again.model == first.model);
  // Every named query is a file of its own, a repeated one too (a bundle re-checks each).
  CHECK(log.records().back().repeated);
  CHECK(fs::exists(dir / "t.first.smt2"));
  CHECK(fs::exists(dir / "t.again.smt2"));
  // A fact added since makes it a new query: asked, and now unsat.
  s.addBackground(tc.le(x, tc.intConst(6)));
  Result after = s.check(goal, {"t.after", header});
  CHECK_FALSE(after.repeated);
  CHECK(after.status == Status::Unsat);
}

TEST_CASE("solver: an earlier unknown is reused only while the limit is no longer") {
  TermContext tc;
  Term x = tc.var("x", Sort::Int), y = tc.var("y", Sort::Int), z = tc.var("z", Sort::Int);
  Solver s(tc, 1);
  for (Term v : {x, y, z})
    s.addBackground(tc.inRange(v, 1, 1000000));
  auto cube = [&](Term v) { return tc.mul(v, tc.mul(v, v)); };
  Term goal = tc.eq(tc.add(cube(x), cube(y)), cube(z)); // no solution; far from 1 ms of work
  Result r1 = s.check(goal);
  REQUIRE(r1.status == Status::Unknown);
  Result r2 = s.check(goal);
  CHECK(r2.repeated);
  CHECK(r2.status == Status::Unknown);
  s.setTimeout(50);
  Result r3 = s.check(goal);
  CHECK_FALSE(r3.repeated); // asked again with the longer limit
}

TEST_CASE("query log: a file holds the goal's slice where the background is satisfiable, else all of it") {
  fs::path dir = fs::temp_directory_path() / "ksynth_query_slice_test";
  auto text = [&](const std::string &file) {
    std::ifstream in(dir / file);
    std::stringstream t;
    t << in.rdbuf();
    return t.str();
  };
  for (bool contradiction : {false, true}) {
    fs::remove_all(dir);
    TermContext tc;
    Term x = tc.var("ql.x", Sort::Int), p = tc.var("ql.p", Sort::Int), y = tc.var("ql.y", Sort::Int);
    Solver s(tc, 5000);
    QueryLog log(dir.string());
    s.setLog(&log);
    s.addBackground(tc.le(tc.intConst(0), x));
    s.addBackground(tc.eq(y, tc.intConst(3))); // shares no symbol with the goal
    if (contradiction) {
      s.addBackground(tc.lt(p, tc.intConst(0)));
      s.addBackground(tc.lt(tc.intConst(0), p));
    }
    Result r = s.check(tc.lt(x, tc.intConst(0)), {"t.slice", [](Status) { return std::string("x >= 0"); }});
    CHECK(r.status == Status::Unsat);
    std::string t = text("t.slice.smt2");
    CHECK(t.find("ql.x") != std::string::npos);
    if (!contradiction) {
      // The background was asked first and is satisfiable: y's fact is left out, and said so.
      CHECK(t.find("ql.y") == std::string::npos);
      CHECK(t.find("the 1 of 2 background facts that share no symbol with the goal are left out") != std::string::npos);
    } else {
      // The background is never satisfiable: the whole is written (a slice may be satisfiable
      // where only the facts it leaves out make the whole unsat).
      CHECK(t.find("ql.p") != std::string::npos);
      CHECK(t.find("ql.y") != std::string::npos);
      CHECK(t.find("left out") == std::string::npos);
    }
  }
}
