#include "verify/spec/check.h"
#include "verify/spec/parser.h"

#include <doctest/doctest.h>

using namespace ksynth::spec;

namespace {

std::vector<std::string> semanticErrors(const std::string &text) {
  ParseResult r = parse(text);
  REQUIRE_MESSAGE(r.spec, (r.errors.empty() ? "" : r.errors[0].message));
  CheckResult c = checkSpec(*r.spec);
  std::vector<std::string> out;
  for (const Diagnostic &d : c.errors)
    out.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message);
  return out;
}

} // namespace

TEST_CASE("a well-formed spec passes and yields example sizes") {
  ParseResult r = parse("(spec mm (dims M N K) (assume (<= M 64) (>= K 5)) (tensor A f32 (M K) in)"
                        " (tensor B f32 (K N) in) (tensor C f32 (M N) out)"
                        " (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))");
  REQUIRE(r.spec);
  CheckResult c = checkSpec(*r.spec);
  CHECK(c.errors.empty());
  CHECK(c.satisfiable);
  REQUIRE(c.example.count("K"));
  CHECK(c.example["K"] >= 5);
  CHECK(c.example["M"] >= 1);
  CHECK(c.example["M"] <= 64);
  CHECK(c.queries >= 5); // vacuity + two indices of A and of B
}

TEST_CASE("the spec's own sizes must satisfy its assumptions") {
  CHECK(semanticErrors("(spec t (dims N M)\n (assume (<= (* N M) 100))\n (tensor Y f32 (N M) out) (ensures (Y i j) 1.0)\n"
                       " (sizes (N 10) (M 10)))")
            .empty());
  CHECK(semanticErrors("(spec t (dims N M)\n (assume (<= (* N M) 100))\n (tensor Y f32 (N M) out) (ensures (Y i j) 1.0)\n"
                       " (sizes (N 10) (M 11)))") ==
        std::vector<std::string>{"4:2: the sizes (N = 10, M = 11) violate the assumptions"});
}

TEST_CASE("vacuous assumptions are an error") {
  CHECK(semanticErrors("(spec t (dims N)\n (assume (< N 1))\n (tensor Y f32 (N) out) (ensures (Y i) 1.0))") ==
        std::vector<std::string>{"1:1: the assumptions are unsatisfiable: no sizes satisfy them, so the spec says nothing"});
}

TEST_CASE("max-over needs a non-empty range that follows from the assumptions") {
  CHECK(semanticErrors("(spec t (dims N K) (tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                       " (ensures (Y i) (max-over k 0 (- K 1) (X 0))))") ==
        std::vector<std::string>{
            "2:17: the range of 'max-over' may be empty: cannot show K - 1 > 0 from the assumptions (fails for N = 1, K = 1)"});
  // The same with an assumption that makes it non-empty.
  CHECK(semanticErrors("(spec t (dims N K) (assume (>= K 2)) (tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                       " (ensures (Y i) (max-over k 0 (- K 1) (X 0))))")
            .empty());
  // A range over the ensures' own index: empty at i = 0.
  auto e = semanticErrors("(spec t (dims N) (tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                          " (ensures (Y i) (argmin-over k 0 i (X k))))");
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("2:17: the range of 'argmin-over' may be empty: cannot show i > 0") == 0);
  // sum over an empty range is fine (0).
  CHECK(semanticErrors("(spec t (dims N) (tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                       " (ensures (Y i) (sum k 0 i (X k))))")
            .empty());
}

TEST_CASE("reads must be inside the tensor, using guards in scope") {
  auto e = semanticErrors("(spec t (dims N) (tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                          " (ensures (Y i) (+ (X i) (X (+ i 1)))))");
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "2:29: index 1 of this read of 'X' may be out of bounds: cannot show 0 <= i + 1 < N from the "
                "assumptions (fails for N = 1)");
  // Guarded by ite: fine.
  CHECK(semanticErrors("(spec t (dims N) (tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                       " (ensures (Y i) (ite (< (+ i 1) N) (X (+ i 1)) 0.0)))")
            .empty());
  // Guarded by and/=>, through a define at its call site.
  CHECK(semanticErrors("(spec t (dims N) (tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                       " (define (nxt j) (X (+ j 1)))\n"
                       " (ensures (Y i) (ite (and (>= i 0) (< i (- N 1)) (> (nxt i) 0.0)) 1.0 0.0)))")
            .empty());
  auto d = semanticErrors("(spec t (dims N) (tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                          " (define (nxt j) (X (+ j 1)))\n"
                          " (ensures (Y i) (nxt i)))");
  REQUIRE(d.size() == 1);
  INFO(d[0]);
  CHECK(d[0].find("2:21: index 1 of this read of 'X' may be out of bounds: cannot show 0 <= j + 1 < N") == 0);
  CHECK(d[0].find("(in 'nxt' used at 3:17)") != std::string::npos);
}

TEST_CASE("Int division by a possibly-zero divisor is an error") {
  auto e = semanticErrors("(spec t (dims N) (tensor Y i32 (N) out)\n (ensures (Y i) (div N i)))");
  REQUIRE(e.size() == 1);
  CHECK(e[0].find("2:24: the divisor of 'div' may be zero: cannot show i != 0") == 0);
  CHECK(semanticErrors("(spec t (dims N) (tensor Y i32 (N) out)\n (ensures (Y i) (div i N)))").empty());
}
