#include "verify/spec/parser.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ksynth::spec;

namespace {

const char *kSoftmax = R"((spec softmax
  (doc "Row-wise softmax; uses ""max"" for stability.")
  (dims R C)
  (scalar scale f32)
  (assume (<= R 4096) (<= 1 C 1024) (> scale 0.0))
  (tensor X f32 (R C) in)
  (tensor Y f32 (R C) out)
  (define (rowmax r) (max-over c 0 C (* scale (X r c))))
  (define (denom r) (sum c 0 C (exp (- (* scale (X r c)) (rowmax r)))))
  (ensures (Y r c) (/ (exp (- (* scale (X r c)) (rowmax r))) (denom r))))
)";

void roundTrip(const std::string &text) {
  ParseResult a = parse(text);
  REQUIRE_MESSAGE(a.spec, (a.errors.empty() ? "" : a.errors[0].message));
  std::string printed = print(*a.spec);
  ParseResult b = parse(printed);
  REQUIRE_MESSAGE(b.spec, printed);
  CHECK_MESSAGE(equal(*a.spec, *b.spec), printed);
  // Printing is a fixed point after one round.
  CHECK(print(*b.spec) == printed);
}

} // namespace

TEST_CASE("print(parse(x)) parses to the same AST") {
  roundTrip(kSoftmax);
  roundTrip("(spec t (dims N M) (assume (=> (> N 2) (distinct N M)) (not (= (mod N 2) 1)))\n"
            "(tensor X i32 (N M) inout) (tensor I i64 (N) out) (tensor L f32 () out)\n"
            "(define half (div N 2))\n"
            "(ensures (X i j) (ite (and (< i half) (>= j 0)) (abs (- (old X i j))) (max 1 (old X i j) (min 2 3))))\n"
            "(ensures (I i) (argmax-over j 0 M (old X i j)))\n"
            "(ensures (L) (let ((a 1.5) (b 2)) (+ a b (prod k 0 N (to_real k)) (pow 2.0 (tanh 1e-3))))))");
}

TEST_CASE("sizes print, compare and explain") {
  const char *text = "(spec t (dims N M) (tensor X f32 (N M) in) (tensor Y f32 (N M) out)"
                     " (ensures (Y i j) (X i j)) (sizes (M 4096) (N 16)))";
  roundTrip(text);
  ParseResult a = parse(text);
  ParseResult b = parse("(spec t (dims N M) (tensor X f32 (N M) in) (tensor Y f32 (N M) out)"
                        " (ensures (Y i j) (X i j)) (sizes (M 4096) (N 17)))");
  REQUIRE((a.spec && b.spec));
  CHECK_FALSE(equal(*a.spec, *b.spec));
  CHECK(print(*a.spec).find("(sizes (M 4096) (N 16))") != std::string::npos);
  CHECK(explain(*a.spec).find("The problem's own sizes (the kernel must still be right for every admitted size): M = 4096, "
                              "N = 16.\n") != std::string::npos);
}

TEST_CASE("the printer omits implicit promotions and keeps explicit ones") {
  ParseResult r = parse("(spec t (dims N) (tensor Y f32 (N) out) (ensures (Y i) (+ i (to_real N))))");
  REQUIRE(r.spec);
  std::string p = print(*r.spec);
  CHECK(p.find("(ensures (Y i) (+ i (to_real N)))") != std::string::npos);
}

TEST_CASE("equal() tells different specs apart") {
  ParseResult a = parse("(spec t (dims N) (tensor Y f32 (N) out) (ensures (Y i) (+ i 1)))");
  ParseResult b = parse("(spec t (dims N) (tensor Y f32 (N) out) (ensures (Y i) (+ i 2)))");
  ParseResult c = parse("(spec t (dims N) (tensor Y f32 (N) out) (ensures (Y i) (+ i 1.0)))");
  REQUIRE((a.spec && b.spec && c.spec));
  CHECK_FALSE(equal(*a.spec, *b.spec));
  CHECK_FALSE(equal(*a.spec, *c.spec)); // 1 promoted vs a Real literal
  CHECK(equal(*a.spec, *a.spec));
}

TEST_CASE("plain-language rendering") {
  ParseResult r = parse(R"((spec matmul (doc "C = A B.") (dims M N K) (assume (<= M 65536))
    (tensor A f32 (M K) in) (tensor B f32 (K N) in) (tensor C f32 (M N) out)
    (ensures (C i j) (sum k 0 K (* (A i k) (B k j))))))");
  REQUIRE(r.spec);
  std::string e = explain(*r.spec);
  CHECK(e.find("Spec 'matmul': C = A B.\n") == 0);
  CHECK(e.find("Sizes (integers, each at least 1): M, N, K.\n") != std::string::npos);
  CHECK(e.find("Assumptions: M <= 65536.\n") != std::string::npos);
  CHECK(e.find("Inputs: A: f32[M][K]; B: f32[K][N].\n") != std::string::npos);
  CHECK(e.find("Outputs: C: f32[M][N].\n") != std::string::npos);
  CHECK(e.find("Result: C[i][j] = sum over k in [0, K) of A[i][k] * B[k][j], for 0 <= i < M, 0 <= j < N.\n") !=
        std::string::npos);
}

TEST_CASE("infix rendering parenthesises by precedence") {
  ParseResult r = parse("(spec t (dims N) (tensor Y f32 (N) out)"
                        " (ensures (Y i) (* (+ i 1) (- N (- i 2)) (ite (< i 2) 1 (sum k 0 i k)))))");
  REQUIRE(r.spec);
  CHECK(infix(*r.spec, *r.spec->ensures[0].body, r.spec->ensures[0].index) ==
        "(i + 1) * (N - (i - 2)) * (if i < 2 then 1 else sum over k in [0, i) of k)");
}

TEST_CASE("every spec in specs/ round-trips") {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(KSYNTH_SOURCE_DIR) / "specs";
  int n = 0;
  for (const auto &entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".smt")
      continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    INFO(entry.path().string());
    roundTrip(ss.str());
    ++n;
  }
  CHECK(n >= 20);
}
