#include "verify/spec/parser.h"

#include <doctest/doctest.h>

using namespace ksynth::spec;

namespace {

const char *kMatmul = R"((spec matmul
  (doc "Dense matrix product C = A B (row-major).")
  (dims M N K)                                   ; symbolic sizes
  (assume (<= M 65536) (<= N 65536) (<= K 65536))
  (tensor A f32 (M K) in)
  (tensor B f32 (K N) in)
  (tensor C f32 (M N) out)
  (ensures (C i j) (sum k 0 K (* (A i k) (B k j)))))
)";

// All diagnostics as "line:col: message", for exact comparisons.
std::vector<std::string> diags(const std::string &text) {
  ParseResult r = parse(text);
  std::vector<std::string> out;
  for (const Diagnostic &d : r.errors)
    out.push_back(std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + ": " + d.message);
  return out;
}

// A spec with the given items after a standard header (line 1 is the header).
std::string withItems(const std::string &items) {
  return "(spec t (dims N M)\n" + items + ")";
}

} // namespace

TEST_CASE("the DESIGN.md matmul spec parses into a typed AST") {
  ParseResult r = parse(kMatmul);
  REQUIRE(r.errors.empty());
  REQUIRE(r.spec);
  const Spec &s = *r.spec;
  CHECK(s.name == "matmul");
  CHECK(s.doc == "Dense matrix product C = A B (row-major).");
  REQUIRE(s.dims.size() == 3);
  CHECK(s.dims[2].name == "K");
  CHECK(s.dims[2].loc.line == 3);
  CHECK(s.assumes.size() == 3);
  REQUIRE(s.tensors.size() == 3);
  CHECK(s.tensors[2].mode == Mode::Out);
  CHECK(s.tensors[2].ensures == 0);
  REQUIRE(s.ensures.size() == 1);
  const Term &body = *s.ensures[0].body;
  CHECK(body.op == Op::Sum);
  CHECK(body.sort == Sort::Real);
  CHECK(body.name == "k");
  CHECK(body.ref == 2); // slots 0, 1 are i, j
  CHECK(s.ensures[0].numSlots == 3);
  const Term &mul = *body.args[2];
  CHECK(mul.op == Op::Mul);
  CHECK(mul.args[0]->op == Op::Read);
  CHECK(mul.args[0]->ref == 0);
  CHECK(mul.args[0]->args[1]->op == Op::Var);
  CHECK(mul.args[0]->args[1]->ref == 2);
}

TEST_CASE("(sizes ...) gives every dim a positive literal, once") {
  const std::string body = "(tensor Y f32 (N M) out) (ensures (Y i j) 1.0)\n";
  ParseResult r = parse(withItems(body + "(sizes (N 3) (M 4096))"));
  REQUIRE(r.spec);
  CHECK(r.spec->sizes == std::vector<std::pair<std::string, int64_t>>{{"N", 3}, {"M", 4096}});
  CHECK(diags(withItems(body + "(sizes (N 3))")) ==
        std::vector<std::string>{"3:1: (sizes ...) gives no value for dim 'M' (it must give every dim)"});
  CHECK(diags(withItems(body + "(sizes (N 3) (M 0))")) ==
        std::vector<std::string>{"3:17: the size of 'M' must be an integer literal between 1 and 10^12, got '0'"});
  CHECK(diags(withItems(body + "(sizes (N 3) (M 2.5))")) ==
        std::vector<std::string>{"3:17: the size of 'M' must be an integer literal between 1 and 10^12, got '2.5'"});
  CHECK(diags(withItems(body + "(sizes (N 3) (N 4) (M 1))")) ==
        std::vector<std::string>{"3:15: 'N' is given twice in (sizes ...)"});
  CHECK(diags(withItems(body + "(sizes (N 3) (K 4) (M 1))")) ==
        std::vector<std::string>{"3:15: 'K' is not a dim of the spec (sizes give dims only)"});
  CHECK(diags(withItems(body + "(sizes N 3)")) ==
        std::vector<std::string>{"3:8: expected (DIM VALUE) in (sizes ...), e.g. (M 4096)",
                                 "3:10: expected (DIM VALUE) in (sizes ...), e.g. (M 4096)",
                                 "3:1: (sizes ...) gives no value for dim 'N' (it must give every dim)"});
  CHECK(diags(withItems(body + "(sizes (N 1) (M 1)) (sizes (N 1) (M 1))")) ==
        std::vector<std::string>{"3:21: more than one (sizes ...)"});
}

TEST_CASE("Int is promoted to Real where a Real is expected") {
  ParseResult r = parse(withItems("(tensor X f32 (N) in) (tensor Y f32 (N) out)\n"
                                  "(ensures (Y i) (/ (sum k 0 N (X k)) N))"));
  REQUIRE(r.spec);
  const Term &div = *r.spec->ensures[0].body;
  CHECK(div.op == Op::Div);
  CHECK(div.args[1]->op == Op::ToReal);
  CHECK(div.args[1]->implicit);
  CHECK(div.args[1]->args[0]->op == Op::Dim);
  // An Int ensures of a float tensor is promoted too.
  ParseResult r2 = parse(withItems("(tensor Y f32 (N) out) (ensures (Y i) i)"));
  REQUIRE(r2.spec);
  CHECK(r2.spec->ensures[0].body->op == Op::ToReal);
}

TEST_CASE("chains, n-ary operators, unary minus, let, old, defines") {
  ParseResult r = parse(withItems("(assume (<= 1 N M 4096))\n"
                                  "(tensor X f32 (N M) inout)\n"
                                  "(define half (div N 2))\n"
                                  "(define (rowmax i) (max-over j 0 M (old X i j)))\n"
                                  "(ensures (X i j) (let ((m (rowmax i))) (- (old X i j) m (- 1.5))))"));
  REQUIRE(r.errors.empty());
  const Spec &s = *r.spec;
  CHECK(s.assumes[0]->op == Op::Le);
  CHECK(s.assumes[0]->args.size() == 4);
  CHECK(s.defines[0].body->sort == Sort::Int);
  CHECK_FALSE(s.defines[0].function);
  CHECK(s.defines[1].function);
  CHECK(s.defines[1].body->op == Op::MaxOver);
  CHECK(s.defines[1].body->sort == Sort::Real);
  const Term &let = *s.ensures[0].body;
  CHECK(let.op == Op::Let);
  CHECK(let.ref == 2);
  CHECK(let.args[0]->op == Op::Call);
  const Term &sub = *let.args[1];
  CHECK(sub.op == Op::Sub);
  CHECK(sub.args.size() == 3);
  CHECK(sub.args[0]->op == Op::Old);
  CHECK(sub.args[2]->op == Op::Neg);
  CHECK(sub.args[2]->args[0]->op == Op::RealLit);
  CHECK(sub.args[2]->args[0]->num == 3);
  CHECK(sub.args[2]->args[0]->den == 2);
}

TEST_CASE("unbound names, unknown functions and arity errors are pinned to line:col") {
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) (+ i q))")) ==
        std::vector<std::string>{"3:21: unbound name 'q'"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) (foo i))")) ==
        std::vector<std::string>{"3:17: unknown function 'foo'"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) (ite (< i 1) 0))")) ==
        std::vector<std::string>{"3:16: 'ite' takes 3 arguments, got 2"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) (+ i))")) ==
        std::vector<std::string>{"3:16: '+' takes at least 2 arguments, got 1"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) (exp 1.0 2.0))")) ==
        std::vector<std::string>{"3:16: 'exp' takes 1 argument, got 2"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(define (f a b) (+ a b))\n(ensures (Y i) (f i))")) ==
        std::vector<std::string>{"4:16: 'f' takes 2 arguments, got 1"});
}

TEST_CASE("tensor reads need exactly one index per dimension") {
  CHECK(diags(withItems("(tensor X f32 (N M) in) (tensor Y f32 (N) out)\n(ensures (Y i) (X i))")) ==
        std::vector<std::string>{"3:16: tensor 'X' has 2 dimensions but is read with 1 index"});
  CHECK(diags(withItems("(tensor X f32 (N) in) (tensor Y f32 (N) out)\n(ensures (Y i) (X i i i))")) ==
        std::vector<std::string>{"3:16: tensor 'X' has 1 dimension but is read with 3 indices"});
  CHECK(diags(withItems("(tensor Y f32 (N M) out)\n(ensures (Y i) 0.0)")) ==
        std::vector<std::string>{"3:10: tensor 'Y' has 2 dimensions but the ensures names 1 index"});
  CHECK(diags(withItems("(tensor X f32 (N) in) (tensor Y f32 (N) out)\n(ensures (Y i) (+ X 1.0))")) ==
        std::vector<std::string>{"3:19: tensor 'X' is read with indices: (X i ...)"});
}

TEST_CASE("outputs need an ensures, exactly one, and cannot be read") {
  CHECK(diags(withItems("(tensor X f32 (N) in)\n(tensor Y f32 (N) out)")) ==
        std::vector<std::string>{"3:9: output tensor 'Y' has no ensures"});
  CHECK(diags(withItems("(tensor Y f32 (N) inout)")) ==
        std::vector<std::string>{"2:9: inout tensor 'Y' has no ensures"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) 1.0)\n(ensures (Y j) 2.0)")) ==
        std::vector<std::string>{"4:1: second ensures for 'Y' (first at 3:1)"});
  CHECK(diags(withItems("(tensor Y f32 (N) out) (tensor Z f32 (N) out)\n(ensures (Y i) 1.0)\n(ensures (Z i) (Y i))")) ==
        std::vector<std::string>{"4:16: 'Y' is an output; its value is what the ensures defines, it cannot be read"});
  CHECK(diags(withItems("(tensor X f32 (N) in) (tensor Y f32 (N) out)\n(ensures (Y i) (old X i))")) ==
        std::vector<std::string>{"3:16: (old X ...) needs an inout tensor; 'X' is in"});
  CHECK(diags(withItems("(tensor X f32 (N) inout)\n(ensures (X i) (* 2.0 (X i)))")) ==
        std::vector<std::string>{"3:23: 'X' is inout: read its value before the kernel as (old X ...)"});
  CHECK(diags(withItems("(tensor X f32 (N) in)\n(ensures (X i) 1.0)")) ==
        std::vector<std::string>{"3:11: 'X' is an input (in) tensor; ensures is for out and inout tensors"});
}

TEST_CASE("duplicate names and reserved words") {
  CHECK(diags(withItems("(scalar N f32)")) ==
        std::vector<std::string>{"2:9: duplicate name 'N' (first declared as a dim at 1:15)"});
  CHECK(diags(withItems("(tensor sum f32 (N) in)")) ==
        std::vector<std::string>{"2:9: 'sum' is reserved and cannot name a tensor"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y N) 1.0)")) ==
        std::vector<std::string>{"3:13: variable 'N' has the name of a dim (declared at 1:15)"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) (sum i 0 N 1.0))")) ==
        std::vector<std::string>{"3:21: variable 'i' is already bound here"});
}

TEST_CASE("Int, Real and Bool are not mixed up") {
  CHECK(diags(withItems("(tensor X f32 (N) in) (tensor Y f32 (N) out)\n(ensures (Y i) (X (/ i 2)))")) ==
        std::vector<std::string>{"3:19: expected Int, got Real"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) (div 1.0 2))")) ==
        std::vector<std::string>{"3:21: expected Int, got Real"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(ensures (Y i) (+ (< i 1) 2))")) ==
        std::vector<std::string>{"3:19: expected a number (Int or Real), got Bool"});
  CHECK(diags(withItems("(assume (+ N 1))")) == std::vector<std::string>{"2:9: expected Bool, got Int"});
  CHECK(diags(withItems("(tensor Y i32 (N) out)\n(ensures (Y i) (* i 0.5))")) ==
        std::vector<std::string>{"3:16: tensor 'Y' holds i32 values: its ensures must be Int, got Real"});
  CHECK(diags(withItems("(tensor X f32 (N) in)\n(tensor Y f32 ((* N 0.5)) in)")) ==
        std::vector<std::string>{"3:16: expected Int, got Real"});
}

TEST_CASE("assumptions and extents cannot read tensors; defines come before use") {
  CHECK(diags(withItems("(tensor X f32 (N) in)\n(assume (> (X 0) 0.0))")) ==
        std::vector<std::string>{"3:12: tensor 'X' cannot be read in an assumption"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(define a (+ b 1))\n(define b 2)\n(ensures (Y i) a)")) ==
        std::vector<std::string>{"3:14: 'b' is used before its definition"});
  CHECK(diags(withItems("(tensor Y f32 (N) out)\n(define (f i) (f i))\n(ensures (Y i) (f i))")) ==
        std::vector<std::string>{"3:15: 'f' is used before its definition (a define cannot refer to itself)"});
}

TEST_CASE("syntax errors: unbalanced parentheses, stray tokens, unknown items") {
  CHECK(diags("(spec t (dims N)\n  (tensor X f32 (N) in)") ==
        std::vector<std::string>{"1:1: '(' is never closed"});
  CHECK(diags("(spec t (dims N)))") == std::vector<std::string>{"1:18: unexpected ')'"});
  CHECK(diags("(spec t (dims N) (tensr X f32 (N) in))") ==
        std::vector<std::string>{"1:19: unknown spec item 'tensr' (expected doc, dims, scalar, assume, tensor, define, sizes or ensures)"});
  CHECK(diags("(spec t (dims N) (tensor X float (N) in))") ==
        std::vector<std::string>{"1:28: unknown type 'float' (f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64)"});
  CHECK(diags("") == std::vector<std::string>{"1:1: empty spec file: expected (spec NAME ...)"});
  CHECK(diags("(spec t (dims N)) (spec u)") ==
        std::vector<std::string>{"1:19: only one (spec ...) form is allowed per file"});
}

TEST_CASE("several errors are all reported, not only the first") {
  auto d = diags(withItems("(tensor Y f32 (N) out)\n(tensor Z f32 (N) out)\n(ensures (Y i) (+ q 1.0))"));
  CHECK(d == std::vector<std::string>{"4:19: unbound name 'q'", "3:9: output tensor 'Z' has no ensures"});
}
