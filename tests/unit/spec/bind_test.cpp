#include "verify/ir/cexpr.h"
#include "verify/spec/bind.h"
#include "verify/spec/parser.h"

#include <doctest/doctest.h>

using namespace ksynth;
using namespace ksynth::spec;

namespace {

const char *kMatmul = "(spec matmul (dims M N K) (assume (<= M 65536) (and (<= N 4096) (>= K 2)) (> 1.0 0.5))\n"
                      " (tensor A f32 (M K) in) (tensor B f32 (K N) in) (tensor C f32 (M N) out)\n"
                      " (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))";

Spec mustParse(const std::string &text) {
  ParseResult r = parse(text);
  REQUIRE_MESSAGE(r.spec, (r.errors.empty() ? "" : r.errors[0].message));
  return *r.spec;
}

struct KernelBuilder {
  ir::Kernel k;
  unsigned line = 1;
  KernelBuilder() {
    k.name = "mm";
    k.loc = {1, 17};
  }
  KernelBuilder &ptr(const std::string &name, ir::Type elem) {
    ir::Array a;
    a.name = name;
    a.elem = elem;
    a.paramIndex = static_cast<int>(k.params.size());
    a.loc = {line++, 5};
    k.params.push_back({true, k.addArray(a)});
    return *this;
  }
  KernelBuilder &val(const std::string &name, ir::Type t) {
    ir::Var v;
    v.name = name;
    v.type = t;
    v.paramIndex = static_cast<int>(k.params.size());
    v.loc = {line++, 5};
    k.params.push_back({false, k.addVar(v)});
    return *this;
  }
};

// All errors, one a line (strings print in doctest's failure messages).
std::string errors(const Binding &b) {
  std::string out;
  for (const BindError &e : b.errors)
    out += std::to_string(e.line) + ":" + std::to_string(e.col) + ": " + e.message + "\n";
  return out;
}

std::string lines(const std::vector<std::string> &v) {
  std::string out;
  for (const std::string &x : v)
    out += x + "\n";
  return out;
}

} // namespace

TEST_CASE("a matching kernel binds in any order and gets the spec's preconditions") {
  Spec s = mustParse(kMatmul);
  KernelBuilder kb;
  kb.val("K", ir::Type::i32()).ptr("C", ir::Type::f32()).ptr("A", ir::Type::f32()).val("M", ir::Type::i32())
      .ptr("B", ir::Type::f32()).val("N", ir::Type::u32());
  Binding b = bind(s, kb.k);
  REQUIRE(errors(b) == "");
  std::vector<std::string> texts;
  for (const Precondition &p : b.preconditions)
    texts.push_back(p.text);
  CHECK(lines(texts) == lines({"M >= 1", "N >= 1", "K >= 1", "M <= 65536", "N <= 4096", "K >= 2",
                                          "__len(A) == (M * K)", "__len(B) == (K * N)", "__len(C) == (M * N)"}));
  REQUIRE(b.unused.size() == 1);
  CHECK(b.unused[0] == "assumption 1.0 > 0.5 is not used by the safety checks (it is real-valued)");
  CHECK(b.tensorOfArray.at(0) == 2); // array 0 is C
  CHECK(b.tensorOfArray.at(1) == 0); // array 1 is A
  CHECK(b.dimOfVar.at(0) == 2);      // var 0 is K
  // The texts are valid --assume expressions for the same kernel.
  for (const Precondition &p : b.preconditions) {
    std::string err;
    INFO(p.text, ": ", err);
    CHECK(ir::parseCExpr(kb.k, p.text, err) != nullptr);
  }
}

TEST_CASE("missing, extra and mistyped parameters are reported, all of them") {
  Spec s = mustParse(kMatmul);
  KernelBuilder kb;
  kb.ptr("A", ir::Type::f64()).ptr("C", ir::Type::f32()).val("M", ir::Type::f32()).val("N", ir::Type::i32())
      .val("K", ir::Type::i32()).val("alpha", ir::Type::f32()).ptr("B", ir::Type::f32()).val("extra", ir::Type::i32());
  CHECK(errors(bind(s, kb.k)) ==
        lines({"1:5: parameter 'A' points to f64, but tensor 'A' of spec 'matmul' is f32",
                                 "3:5: parameter 'M' is f32, but 'M' is a dim (an integer size) of spec 'matmul'",
                                 "6:5: parameter 'alpha' of kernel 'mm' is not in spec 'matmul' (parameters are named "
                                 "like its tensors, dims and scalars)",
                                 "8:5: parameter 'extra' of kernel 'mm' is not in spec 'matmul' (parameters are named "
                                 "like its tensors, dims and scalars)"}));
  KernelBuilder k2;
  k2.ptr("A", ir::Type::f32()).ptr("C", ir::Type::f32()).val("M", ir::Type::i32()).ptr("N", ir::Type::i32());
  CHECK(errors(bind(s, k2.k)) ==
        lines({
            "4:5: pointer parameter 'N' of kernel 'mm' is not a tensor of spec 'matmul' (it is a dim there)",
            "1:17: kernel 'mm' has no parameter for tensor 'B' of spec 'matmul' (declared at 2:34)",
            "1:17: kernel 'mm' has no parameter for dim 'K' of spec 'matmul' (declared at 1:24)"}));
}

TEST_CASE("a tensor passed by value and scalars of the wrong type") {
  Spec s = mustParse("(spec ax (dims N) (scalar alpha f32) (tensor X f32 (N) in) (tensor Y f32 (N) out)"
                     " (ensures (Y i) (* alpha (X i))))");
  KernelBuilder kb;
  kb.val("X", ir::Type::f32()).ptr("Y", ir::Type::f32()).val("N", ir::Type::i32()).val("alpha", ir::Type::f64());
  CHECK(errors(bind(s, kb.k)) ==
        lines({"1:5: parameter 'X' is a value (f32), but 'X' is a tensor of spec 'ax': it must be a pointer",
                                 "4:5: parameter 'alpha' is f64, but scalar 'alpha' of spec 'ax' is f32"}));
}

TEST_CASE("extents over defines, and div/mod/max in assumptions, become KIR") {
  Spec s = mustParse("(spec c (dims H K) (define OH (+ (- H K) 1)) (assume (>= H K) (= (mod H 2) 0)"
                     " (<= (max H K) 100)) (tensor X f32 (H) in) (tensor Y f32 (OH) out) (tensor L f32 () out)"
                     " (ensures (Y i) (X i)) (ensures (L) 0.0))");
  KernelBuilder kb;
  kb.ptr("X", ir::Type::f32()).ptr("Y", ir::Type::f32()).ptr("L", ir::Type::f32()).val("H", ir::Type::i32())
      .val("K", ir::Type::i64());
  Binding b = bind(s, kb.k);
  REQUIRE(errors(b) == "");
  std::vector<std::string> texts;
  for (const Precondition &p : b.preconditions)
    texts.push_back(p.text);
  CHECK(lines(texts) == lines({"H >= 1", "K >= 1", "H >= K", "(H % 2) == 0", "((K > H) ? K : H) <= 100",
                                          "__len(X) == H", "__len(Y) == ((H - K) + 1)", "__len(L) == 1"}));
  CHECK(b.unused.empty());
}
