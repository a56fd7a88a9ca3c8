// KIR — ksynth's kernel IR: one CUDA kernel as seen by one thread, with device functions
// inlined, expressions typed, memory accesses explicit and control flow structured.
//
// Canonical form (what the frontend guarantees and every consumer may rely on):
//  - Expressions are side-effect free and never read memory. A memory read is a `Load`
//    statement into a variable; `&&`, `||` and `?:` whose right side reads memory are
//    lowered to `If`s so no access happens that the source would not make.
//  - Every implicit C conversion is an explicit `Cast`; arithmetic is done in the
//    expression's own type (usual arithmetic conversions already applied).
//  - Control flow is `If`, `Loop` and labelled `Block`s; `break`, `continue`, `return`
//    (from the kernel or an inlined function) are all `Exit label` to the end of an
//    enclosing `Block`.
//  - Pointers are (array, element offset); a pointer-typed expression is built from
//    `ArrayRef`, `PtrAdd`, `Select` and pointer variables only.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ksynth::ir {

struct Loc {
  unsigned line = 0;
  unsigned col = 0;
  std::string file; // empty: the kernel's own file; else a header of the user's it includes
  bool valid() const { return line != 0; }
};

enum class TypeKind : uint8_t { Void, Bool, Int, Float, Ptr };

struct Type {
  TypeKind kind = TypeKind::Void;
  uint8_t bits = 0;
  bool isSigned = false;
  // Float, 16 bits: bfloat16 (8 exponent bits, 8 significant) rather than IEEE half.
  bool bfloat = false;

  static Type boolean() { return {TypeKind::Bool, 1, false}; }
  static Type integer(unsigned bits, bool isSigned) {
    return {TypeKind::Int, static_cast<uint8_t>(bits), isSigned};
  }
  static Type i32() { return integer(32, true); }
  static Type u32() { return integer(32, false); }
  static Type i64() { return integer(64, true); }
  static Type u64() { return integer(64, false); }
  static Type f32() { return {TypeKind::Float, 32, true}; }
  static Type f64() { return {TypeKind::Float, 64, true}; }
  static Type f16() { return {TypeKind::Float, 16, true}; }
  static Type bf16() { return {TypeKind::Float, 16, true, true}; }
  static Type pointer() { return {TypeKind::Ptr, 64, false}; }

  bool isInt() const { return kind == TypeKind::Int; }
  bool isFloat() const { return kind == TypeKind::Float; }
  bool isBool() const { return kind == TypeKind::Bool; }
  bool isPtr() const { return kind == TypeKind::Ptr; }
  // Smallest and largest value of an integer type (as 128-bit to hold u64's range).
  // (Inline: the concrete interpreter asks at every integer operation.)
  __int128 minValue() const {
    if (kind == TypeKind::Bool || !isSigned)
      return 0;
    return -(static_cast<__int128>(1) << (bits - 1));
  }
  __int128 maxValue() const {
    if (kind == TypeKind::Bool)
      return 1;
    if (!isSigned)
      return (static_cast<__int128>(1) << bits) - 1;
    return (static_cast<__int128>(1) << (bits - 1)) - 1;
  }
  // Largest finite value of a float type (FLT_MAX for f32, 65504 for f16, ...).
  double largestFinite() const;
  bool operator==(const Type &o) const {
    return kind == o.kind && bits == o.bits && isSigned == o.isSigned && bfloat == o.bfloat;
  }
  std::string str() const;
};

enum class Space : uint8_t { Global, Shared, Local, Constant };
const char *spaceName(Space s);

// A memory object: a pointer parameter (global memory of unknown extent), a __shared__
// array, or a thread-local array.
struct Array {
  std::string name;
  Space space = Space::Global;
  Type elem;
  std::vector<int64_t> dims; // static extents, outermost first; empty for pointer params
  int paramIndex = -1;       // position in the kernel's parameter list, or -1
  bool dynamicShared = false; // `extern __shared__ T s[];` (extent from the launch)
  int sameLength = -1; // another array whose __len this one shares (the fields of one
                       // pointer-to-struct parameter are one array per field)
  // Bytes the array's first element is known to be aligned to: a pointer parameter 256 (what
  // cudaMalloc returns, assumed), a declared array its declared alignment; 1 where unknown.
  int64_t align = 1;
  // The frontend's cells for warp-level primitives (lower_warp.cpp): each lane stores its
  // value to its own cell and the lanes read each other's between two __syncwarp()s.
  bool warpExchange = false;
  Loc loc;
  int64_t elementCount() const;
};

// A scalar variable: a kernel parameter, a local, or a frontend temporary.
struct Var {
  std::string name;
  Type type;
  int paramIndex = -1;
  Loc loc;
};

enum class Builtin : uint8_t { ThreadIdx, BlockIdx, BlockDim, GridDim };

enum class Op : uint8_t {
  Const,    // ival (Int/Bool) or fval (Float)
  VarRef,   // id = variable
  ArrayRef, // id = array; pointer to its first element
  Builtin,  // id = Builtin, dim = 0..2
  Len,      // id = array: elements accessible through a pointer parameter (`__len(p)`)
  Neg, Not, BitNot,
  Add, Sub, Mul, Div, Rem, Shl, Shr, BitAnd, BitOr, BitXor,
  LAnd, LOr, Eq, Ne, Lt, Le, Gt, Ge,
  Min, Max,
  Select, // args: cond, then, else
  Cast,   // args: operand; `type` is the target
  Call,   // name = math function (exp, sqrt, ...), args; a pure function of its arguments
  PtrAdd, // args: pointer, element offset
  PtrOffset, // args: pointer; its element offset from the start of its array (i64)
  PtrBaseAlign, // args: pointer; Array::align of its array (i64)
};
const char *opName(Op op);

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  Op op = Op::Const;
  Type type;
  int64_t ival = 0;
  double fval = 0;
  int id = -1;
  int dim = 0;
  std::string name; // Call: function name
  std::vector<ExprPtr> args;
  Loc loc;
  std::string text; // source text of the operation, for diagnostics (may be empty)
  // Set by the mk* functions below: the number of nodes of an integer (or bool) expression
  // whose value depends on nothing but integer constants, thread and block indices and the
  // launch's dimensions (a shuffle's lane arithmetic), capped at 255; 0 for every other
  // expression. One thread's concrete run evaluates such an expression once.
  uint8_t launchOnly = 0;
};

ExprPtr mkConstInt(int64_t v, Type t, Loc loc = {});
ExprPtr mkConstBool(bool v);
ExprPtr mkConstFloat(double v, Type t, Loc loc = {});
ExprPtr mkVar(int id, Type t, Loc loc = {});
ExprPtr mkArrayRef(int id, Loc loc = {});
ExprPtr mkBuiltin(Builtin b, int dim);
ExprPtr mkLen(int array);
ExprPtr mkUnary(Op op, Type t, ExprPtr a, Loc loc = {});
ExprPtr mkBinary(Op op, Type t, ExprPtr a, ExprPtr b, Loc loc = {});
ExprPtr mkSelect(Type t, ExprPtr c, ExprPtr a, ExprPtr b, Loc loc = {});
ExprPtr mkCast(Type t, ExprPtr a, Loc loc = {});
ExprPtr mkCall(std::string name, Type t, std::vector<ExprPtr> args, Loc loc = {});
ExprPtr mkPtrAdd(ExprPtr p, ExprPtr off, Loc loc = {});

enum class StmtKind : uint8_t {
  Assign,      // var = value
  Load,        // var = ptr[index...]
  Store,       // ptr[index...] = value
  Atomic,      // [var =] atomicOp(&ptr[index...], value)
  If,          // if (cond) body else elseBody
  Loop,        // label: { while (true) { pre; if (!cond) break; body(label2); step } }
  Block,       // label: body  (target of Exit)
  Exit,        // jump to the end of Block `label`
  Barrier,     // __syncthreads() / __syncwarp(); a warp barrier's `value`: its mask (below)
  Assume,      // __requires / __assume: executions violating it are not considered
  Assert,      // __assert: an obligation
  Havoc,       // var = some value of its type (uninitialised variable, result of a call
               // to a function without a body); `text` says where it comes from; `value`,
               // if set: the value concrete runs take, one the choice may really make
               // (`__activemask()`: the calling lane alone), a fact, not an invented value
  Unsupported, // a construct ksynth cannot model; reaching it makes the verdict unknown
};

// Grid: cooperative groups' grid-wide barrier (this_grid().sync()); it also orders the
// threads of each block, like a block barrier.
enum class BarrierKind : uint8_t { Block, Warp, Grid };
enum class AtomicOp : uint8_t { Add, Sub, Min, Max, Exch, CAS, And, Or, Xor, Inc, Dec };
// What an Assert states: the program's own `__assert`, or a rule of a warp-level primitive that
// the frontend made explicit (a shuffle reads a lane that exists; its width is valid).
// Align: a vector access (`reinterpret_cast<float4 *>(p)`) is at an offset that is a multiple of
// the vector's alignment.
// Uniform: `cond` is an integer value (not a condition) that every lane of the warp must hold
// alike when it reaches the statement: an argument of a warp-wide operation (a WMMA pointer).
// Modelled: a premise of ksynth's own model of a construct (a warp primitive's mask that is not
// a constant must be the full mask); where it can fail, every obligation is unknown.
enum class AssertKind : uint8_t { User, Warp, Align, Uniform, Modelled };
const char *atomicOpName(AtomicOp op);

struct Stmt;
using StmtPtr = std::shared_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

struct Stmt {
  StmtKind kind = StmtKind::Assign;
  Loc loc;
  int var = -1;        // Assign/Load/Atomic destination (-1: none)
  ExprPtr value;       // Assign/Store/Atomic operand; CAS: compare value in `value2`
  ExprPtr value2;
  ExprPtr ptr;         // Load/Store/Atomic base pointer
  std::vector<ExprPtr> index; // per dimension when `ptr` is a multi-dimensional array
  ExprPtr cond;        // If/Loop/Assume/Assert
  AtomicOp atomic = AtomicOp::Add;
  BarrierKind barrier = BarrierKind::Block;
  AssertKind assertKind = AssertKind::User;
  int label = -1;      // Block/Loop: own label (Loop: break target); Exit: target
  int contLabel = -1;  // Loop: label of the body block (continue target)
  bool testFirst = true; // Loop: false for do-while
  Block pre, body, elseBody, step;
  std::string text;    // source text (accesses, asserts) or reason (Unsupported)
  bool precondition = false; // Assume: from __requires (a precondition) rather than __assume;
                             // Load: a read in an annotation's condition (__requires, __assume,
                             // __assert): it states a fact and is not an access of the program
  // Load/Store: an access of a warp-wide operation (WMMA), whose lane CUDA does not specify:
  // for races it counts as any lane's of the warp, the accessing lane's own included.
  // Havoc: a mask the lanes it names chose together (`__activemask()`): each of them holds the
  // same value from that call.
  bool warpCollective = false;
};

// A warp barrier with a partial mask (`__syncwarp(0xffff)`, the barriers of a shuffle or vote
// whose mask is a constant other than the full mask) holds the mask as an i64 constant in
// `value`; one with a mask computed at run time (a ballot's result, a parameter) holds an i64
// expression there: only the lanes it names meet there, and they order only each other. Without
// `value`, every lane of the warp meets there (the full mask). warpMask: the constant, if one.
std::optional<uint32_t> warpMask(const Stmt &s);
// Whether lane (0..31) is named in mask m.
inline bool laneInMask(uint32_t m, int64_t lane) { return lane >= 0 && lane < 32 && ((m >> lane) & 1u) != 0; }
// m as reports write it: 0x0000ffff.
std::string maskHex(uint32_t m);
// The runs of set bits of m, as half-open lane ranges [first, second).
std::vector<std::pair<int64_t, int64_t>> maskRuns(uint32_t m);

struct Param {
  bool isArray = false;
  int id = -1;
};

struct Kernel {
  std::string name;
  std::string file;
  Loc loc;
  std::vector<Var> vars;
  std::vector<Array> arrays;
  std::vector<Param> params;
  Block body; // a Block statement with label 0 is the kernel's top; `return` exits it
  int numLabels = 1;
  // Assumptions the frontend made that are part of what a proof means (e.g. about a called
  // function whose body it cannot see); reported with every verdict.
  std::vector<std::string> assumptions;

  int addVar(Var v);
  int addArray(Array a);
  int newLabel() { return numLabels++; }
  // Variable or array parameter by name; -1 if none.
  int findParamVar(const std::string &name) const;
  int findParamArray(const std::string &name) const;
  // The array whose length symbol `array` uses (itself unless it shares one).
  int lengthRoot(int array) const {
    return arrays[array].sameLength >= 0 ? arrays[array].sameLength : array;
  }
};

// Text form for tests and --dump-kir.
std::string print(const Kernel &k);
std::string print(const Kernel &k, const Expr &e);

// Structural queries shared by the checker and the interpreter.
bool containsBarrier(const Block &b);
bool containsGridBarrier(const Block &b);
// The strongest barrier `b` may execute: none, only __syncwarp()s, or a block or grid barrier.
// Ordered, so that std::max joins two.
enum class SyncLevel : uint8_t { None, Warp, Block };
// masked: count warp barriers with a partial mask (ir::warpMask) too. A condition that
// decides whether lanes reach them need not be uniform in the warp (only the lanes named meet
// there, each checked on its own), except a loop's: the symbolic executor's path condition
// of a loop's iteration may over-approximate whether it is reached, so lanes a mask names must
// agree on the loop's tests and exits.
SyncLevel strongestBarrier(const Block &b, bool masked = false);
// Labels targeted by an Exit inside `b` that are not labels of Blocks/Loops inside `b`.
std::vector<int> exitsLeaving(const Block &b);

} // namespace ksynth::ir
