#include "verify/spec/eval.h"
#include "verify/spec/parser.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace ksynth::spec;

namespace {

Spec mustParse(const std::string &text) {
  ParseResult r = parse(text);
  REQUIRE_MESSAGE(r.spec, (r.errors.empty() ? "" : r.errors[0].message));
  return *r.spec;
}

} // namespace

TEST_CASE("matmul on a 2x3 by 3x2 input") {
  Spec s = mustParse("(spec mm (dims M N K) (tensor A f32 (M K) in) (tensor B f32 (K N) in) (tensor C f32 (M N) out)"
                     " (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))");
  Inputs in;
  in.dims = {{"M", 2}, {"N", 2}, {"K", 3}};
  in.tensors["A"] = {{2, 3}, {1, 2, 3, 4, 5, 6}};
  in.tensors["B"] = {{3, 2}, {7, 8, 9, 10, 11, 12}};
  EvalResult r = evaluate(s, in);
  REQUIRE_MESSAGE(r.ok(), r.error);
  CHECK(r.outputs["C"].shape == std::vector<int64_t>{2, 2});
  CHECK(r.outputs["C"].data == std::vector<double>{58, 64, 139, 154});
  std::string err;
  auto v = evaluateElement(s, in, "C", {1, 0}, err);
  REQUIRE(v);
  CHECK(*v == 139);
}

TEST_CASE("softmax rows sum to one and use the row max") {
  Spec s = mustParse("(spec sm (dims R C) (tensor X f32 (R C) in) (tensor Y f32 (R C) out)"
                     " (define (m r) (max-over c 0 C (X r c)))"
                     " (define (d r) (sum c 0 C (exp (- (X r c) (m r)))))"
                     " (ensures (Y r c) (/ (exp (- (X r c) (m r))) (d r))))");
  Inputs in;
  in.dims = {{"R", 1}, {"C", 3}};
  in.tensors["X"] = {{1, 3}, {1000, 1001, 1002}}; // would overflow exp without the max
  EvalResult r = evaluate(s, in);
  REQUIRE_MESSAGE(r.ok(), r.error);
  const auto &y = r.outputs["Y"].data;
  CHECK(y[0] + y[1] + y[2] == doctest::Approx(1.0));
  CHECK(y[2] == doctest::Approx(std::exp(0.0) / (std::exp(-2.0) + std::exp(-1.0) + 1.0)));
}

TEST_CASE("inout with old, argmax takes the first maximum, Int arithmetic is Euclidean") {
  Spec s = mustParse("(spec t (dims N) (tensor X f32 (N) inout) (tensor I i32 () out) (tensor Q i32 (N) out)"
                     " (ensures (X i) (* 2 (old X i)))"
                     " (ensures (I) (argmax-over k 0 N (old X k)))"
                     " (ensures (Q i) (+ (* 10 (div (- i 3) 2)) (mod (- i 3) 2))))");
  Inputs in;
  in.dims = {{"N", 4}};
  in.tensors["X"] = {{4}, {1.5, 7, 7, -2}};
  EvalResult r = evaluate(s, in);
  REQUIRE_MESSAGE(r.ok(), r.error);
  CHECK(r.outputs["X"].data == std::vector<double>{3, 14, 14, -4});
  CHECK(r.outputs["I"].shape.empty());
  CHECK(r.outputs["I"].data == std::vector<double>{1});
  // i - 3 = -3, -2, -1, 0: div = -2, -1, -1, 0; mod = 1, 0, 1, 0
  CHECK(r.outputs["Q"].data == std::vector<double>{-19, -10, -9, 0});
}

TEST_CASE("inputs are checked: assumptions, dims, shapes, reads outside a tensor, empty max") {
  Spec s = mustParse("(spec t (dims N) (assume (<= N 3)) (tensor X f32 (N) in) (tensor Y f32 (N) out)"
                     " (ensures (Y i) (X (+ i 1))))");
  Inputs in;
  in.dims = {{"N", 4}};
  in.tensors["X"] = {{4}, {1, 2, 3, 4}};
  CHECK(evaluate(s, in).error == "assumption N <= 3 does not hold");
  in.dims["N"] = 0;
  CHECK(evaluate(s, in).error == "dim 'N' = 0 (dims are at least 1)");
  in.dims["N"] = 2;
  CHECK(evaluate(s, in).error == "input tensor 'X' has shape [4], the spec says [2]");
  in.tensors["X"] = {{2}, {1, 2}};
  CHECK(evaluate(s, in).error == "the spec reads X[2], outside its shape [2]");

  Spec m = mustParse("(spec t (dims N) (tensor Y f32 (N) out) (ensures (Y i) (max-over k 0 i 1.0)))");
  Inputs in2;
  in2.dims = {{"N", 2}};
  CHECK(evaluate(m, in2).error == "max-over over the empty range [0, 0)");
}

TEST_CASE("Int overflow and division by zero are errors, not wrong values") {
  Spec s = mustParse("(spec t (dims N) (tensor Y i64 (N) out) (ensures (Y i) (prod k 0 200 (+ N 1))))");
  Inputs in;
  in.dims = {{"N", 2}};
  CHECK(evaluate(s, in).error == "Int overflow in the spec's arithmetic");
  Spec d = mustParse("(spec t (dims N) (tensor Y i64 (N) out) (ensures (Y i) (div N i)))");
  CHECK(evaluate(d, in).error == "div by zero");
}

TEST_CASE("shapeOf evaluates extents from dims alone") {
  Spec s = mustParse("(spec t (dims H K) (define OH (+ (- H K) 1)) (assume (>= H K))"
                     " (tensor X f32 (H) in) (tensor Y f32 (OH) out) (ensures (Y i) (X i)))");
  Inputs in;
  in.dims = {{"H", 10}, {"K", 3}};
  std::string err;
  auto sh = shapeOf(s, s.findTensor("Y"), in, err);
  REQUIRE(sh);
  CHECK(*sh == std::vector<int64_t>{8});
}

TEST_CASE("Int sums and products are exact") {
  Spec s = mustParse("(spec t (dims N) (tensor Y i64 (N) out) (tensor P i64 (N) out)"
                     " (ensures (Y i) (sum k 0 (+ i 1) (* k k))) (ensures (P i) (prod k 1 (+ i 2) k)))");
  Inputs in;
  in.dims = {{"N", 4}};
  EvalResult r = evaluate(s, in);
  REQUIRE_MESSAGE(r.ok(), r.error);
  CHECK(r.outputs["Y"].data == std::vector<double>{0, 1, 5, 14});
  CHECK(r.outputs["P"].data == std::vector<double>{1, 2, 6, 24});
}
