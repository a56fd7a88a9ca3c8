// cli/options.h: the one option reader of every command.
#include "cli/options.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace ksynth::cli;

TEST_CASE("options: --flag VALUE, --flag=VALUE, switches and positionals") {
  Options o({"k.cu", "--spec", "s.smt", "--timeout=5", "--json", "--kernel"});
  REQUIRE(o.next());
  CHECK_FALSE(o.isOption());
  CHECK(o.arg() == "k.cu");
  REQUIRE(o.next());
  CHECK(o.is("--spec"));
  CHECK_FALSE(o.is("--spe"));
  CHECK(o.value("--spec") == "s.smt");
  REQUIRE(o.next());
  CHECK(o.is("--timeout"));
  CHECK(o.value("--timeout") == "5");
  REQUIRE(o.next());
  CHECK(o.arg() == "--json");
  CHECK_FALSE(o.value("--spec").has_value()); // not this flag
  REQUIRE(o.next());
  CHECK(o.is("--kernel"));
  CHECK_FALSE(o.value("--kernel").has_value()); // no value follows
  CHECK_FALSE(o.next());
}

TEST_CASE("options: -DNAME and -D NAME, and a missing value") {
  Options o({"-DX=1", "-D", "Y", "-I", "--bound-budget"});
  bool missing = true;
  REQUIRE(o.next());
  CHECK(o.attached("-D", missing) == "X=1");
  CHECK_FALSE(missing);
  REQUIRE(o.next());
  CHECK(o.attached("-D", missing) == "Y");
  REQUIRE(o.next());
  CHECK_FALSE(o.attached("-D", missing).has_value());
  CHECK_FALSE(missing); // not -D at all
  CHECK(o.attached("-I", missing) == "--bound-budget"); // a value may look like an option
  Options last({"-I"});
  REQUIRE(last.next());
  CHECK_FALSE(last.attached("-I", missing).has_value());
  CHECK(missing);
}

TEST_CASE("options: NAME=VALUE lists stop at the first option or plain argument") {
  Options o({"--size", "M=4", "N=8", "k.cu", "K=2"});
  REQUIRE(o.next());
  CHECK(o.assignmentsFollowing() == std::vector<std::string>{"M=4", "N=8"});
  REQUIRE(o.next());
  CHECK(o.arg() == "k.cu");
}

TEST_CASE("options: numbers are read whole, finite and in range") {
  CHECK(parseNumber("2.5", 0, 10) == 2.5);
  CHECK(parseNumber("1e3", 0, 1e6) == 1000);
  CHECK_FALSE(parseNumber("10s", 0, 100).has_value());
  CHECK_FALSE(parseNumber("nan", 0, 100).has_value());
  CHECK_FALSE(parseNumber("inf", 0, 1e308).has_value());
  CHECK_FALSE(parseNumber("", 0, 1).has_value());
  CHECK_FALSE(parseNumber("-1", 0, 1).has_value());
  CHECK_FALSE(parseNumber("1e400", 0, 1e308).has_value());
  CHECK(std::isinf(*parseDouble("inf")));
  CHECK(parseDouble("-2.5") == -2.5);
  CHECK_FALSE(parseDouble("2.5x").has_value());
  CHECK_FALSE(parseDouble(" 1").has_value());
  CHECK(parseInteger("42", 0, 100) == 42);
  CHECK_FALSE(parseInteger("4.2", 0, 100).has_value());
  CHECK_FALSE(parseInteger("99999999999999999999", 0, 100).has_value());
  CHECK_FALSE(parseInteger("101", 0, 100).has_value());
}
