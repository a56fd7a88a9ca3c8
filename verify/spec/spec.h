// Spec files (DESIGN.md "Spec files"): the typed AST of a parsed, elaborated spec, its
// canonical printer and its plain-language rendering. A Spec is what a kernel is verified
// against; the parser (parser.h) builds it, eval.h computes it concretely, check.h decides its
// well-formedness facts with Z3 and bind.h binds it to a kernel's parameters.
//
// Canonical form of a Term (what the parser guarantees and consumers may rely on):
//  - every term has a sort (Bool, Int, Real); an Int used where a Real is expected is wrapped
//    in `ToReal` with `implicit = true` (the printer omits those, the parser re-inserts them);
//  - names are resolved: `ref` indexes the spec's dims / scalars / tensors / defines, or is
//    the slot of a bound variable (index variables of an ensures, parameters of a define,
//    binder and let variables; slots are numbered per ensures/define from 0, params first);
//  - n-ary operators keep their arguments (`(<= 0 i N)` is one Le with three arguments, a
//    chain), `-` with one argument is `Neg`.
// Adding an operator: add it to Op, to opKeyword(), to the parser's table, to the evaluator,
// to the Z3 translation in check.cpp and to the renderers below.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::spec {

struct Loc {
  unsigned line = 0, col = 0;
  bool valid() const { return line != 0; }
};

struct Diagnostic {
  Loc loc;
  std::string message;
};
// `file:line:col: error: message`
std::string format(const std::string &file, const Diagnostic &d);

enum class Sort : uint8_t { Bool, Int, Real };
const char *sortName(Sort s);

enum class ElemType : uint8_t { F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64 };
const char *elemTypeName(ElemType t);
std::optional<ElemType> parseElemType(const std::string &s);
bool isFloat(ElemType t);
bool isSigned(ElemType t);
unsigned bitsOf(ElemType t);
// v rounded to the nearest value of type t (floats: to nearest, ties to even; integers and
// f64: unchanged), e.g. a test input drawn for a bf16 tensor.
double representable(ElemType t, double v);
inline Sort sortOf(ElemType t) { return isFloat(t) ? Sort::Real : Sort::Int; }

enum class Mode : uint8_t { In, Out, InOut };
const char *modeName(Mode m);

enum class Op : uint8_t {
  IntLit,  // ival
  RealLit, // num/den (exact), text as written
  BoolLit, // ival 0/1
  Dim,     // ref: spec.dims
  Scalar,  // ref: spec.scalars
  Const,   // ref: spec.defines (a define without parameters)
  Var,     // ref: slot
  Read,    // ref: spec.tensors; args: indices
  Old,     // ref: spec.tensors (inout); args: indices
  Call,    // ref: spec.defines (with parameters); args
  Ite, Let, And, Or, Not, Implies, Eq, Distinct, Lt, Le, Gt, Ge,
  Add, Sub, Neg, Mul, Div /* real / */, IntDiv, Mod, Abs, Max, Min, ToReal,
  Sum, Prod, MaxOver, MinOver, ArgmaxOver, ArgminOver, // name: variable, ref: its slot; args: lo, hi, body
  Fn, // name: exp log sqrt rsqrt tanh erf pow (uninterpreted in proofs); args
};
// The spec-language keyword of an operator ("+", "max-over", ...); empty for leaves.
const char *opKeyword(Op op);
bool isRangeBinder(Op op);
// max-over, min-over and their arg- forms: the range must not be empty.
bool needsNonEmptyRange(Op op);

struct Term;
using TermPtr = std::shared_ptr<const Term>;

struct Term {
  Op op = Op::IntLit;
  Sort sort = Sort::Int;
  Loc loc;
  std::string name;                 // symbol, binder variable or function name
  std::vector<std::string> letVars; // Let: variable names (slots ref .. ref + n - 1)
  int ref = -1;
  int64_t ival = 0;
  __int128 num = 0, den = 1; // RealLit
  std::string text;          // RealLit: the literal as written
  bool implicit = false;     // ToReal inserted by Int -> Real promotion
  std::vector<TermPtr> args; // Let: the bound values, then the body
};

struct Dim {
  std::string name;
  Loc loc;
};
struct Scalar {
  std::string name;
  ElemType type = ElemType::F32;
  Loc loc;
};
struct Tensor {
  std::string name;
  ElemType type = ElemType::F32;
  std::vector<TermPtr> extents; // Int terms over dims and constant defines
  Mode mode = Mode::In;
  Loc loc;
  int ensures = -1; // index into spec.ensures (out/inout tensors)
};
struct Define {
  std::string name;
  bool function = false;           // (define (F i ...) TERM) rather than (define NAME TERM)
  std::vector<std::string> params; // Int, slots 0 .. n-1
  TermPtr body;
  int numSlots = 0;
  Loc loc;
};
struct Ensures {
  int tensor = -1;
  std::vector<std::string> index; // slots 0 .. rank-1
  TermPtr body;
  int numSlots = 0;
  Loc loc;
};

struct Spec {
  std::string name;
  std::string doc;
  Loc loc;
  std::vector<Dim> dims;
  std::vector<Scalar> scalars;
  std::vector<TermPtr> assumes; // Bool terms over dims, scalars and constant defines
  std::vector<Tensor> tensors;
  std::vector<Define> defines;
  std::vector<Ensures> ensures;
  // (sizes (D V) ...): the problem's own sizes (e.g. a benchmark's shapes), used by
  // `ksynth run` where --size does not give a dim; proofs stay over every admitted size.
  std::vector<std::pair<std::string, int64_t>> sizes;
  Loc sizesLoc;

  int findDim(const std::string &n) const;
  int findScalar(const std::string &n) const;
  int findTensor(const std::string &n) const;
  int findDefine(const std::string &n) const;
};

// Structural equality, ignoring source locations and the text of real literals.
bool equal(const Term &a, const Term &b);
bool equal(const Spec &a, const Spec &b);

// The canonical spec text: parses back to an equal Spec.
std::string print(const Spec &s);
// One term in spec syntax; `slots` names the bound variables in scope (by slot).
std::string print(const Spec &s, const Term &t, const std::vector<std::string> &slots);

// Plain-language rendering for people and prompts: sizes, assumptions, inputs, outputs and
// one line per ensures in infix notation ("C[i][j] = sum over k in [0, K) of A[i][k] * B[k][j],
// for 0 <= i < M, 0 <= j < N").
std::string explain(const Spec &s);
// One term in infix notation.
std::string infix(const Spec &s, const Term &t, const std::vector<std::string> &slots);

} // namespace ksynth::spec
