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
