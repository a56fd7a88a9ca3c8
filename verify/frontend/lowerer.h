// Frontend: the Lowerer (clang AST to KIR) and its structs; private to verify/frontend.
#pragma once

#include "verify/frontend/frontend.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ksynth::frontend {

using namespace clang;
using ir::ExprPtr;
using ir::Loc;
using ir::Op;
using ir::StmtKind;
using ir::Type;

namespace detail {

// What a C++ declaration is bound to in KIR.
struct Binding {
  // Ref: a C++ reference to a memory location (an array element); id indexes Lowerer::refs_.
  // A reference to a variable, an array or a struct is bound to its referent's own binding.
  enum Kind { Var, Array, Agg, Ref } kind = Var;
  int id = -1; // Agg: index into Lowerer::aggs_
};

// A memory location being read or written: ptr[index...].
struct Mem {
  ExprPtr ptr;
  std::vector<ExprPtr> index;
  Type elem;
  std::string text;
};

struct LValue {
  bool isVar = false;
  int var = -1;
  Mem mem;
  bool ok = true;
};

// Structs and classes are modelled field by field ("scalarised"): their layout is flattened
// to leaves, each a scalar, a pointer or a constant-size array of scalars, and each leaf is
// its own KIR variable or array. Distinct fields never share storage (unions, bit-fields
// and virtual classes are refused), so this is exact as long as a struct's bytes are never
// reinterpreted through another type, and every such cast is refused.
struct Leaf {
  std::string path;          // "x", "v.p" (nested), "s::x" (base class s), "p[4]"
  QualType type;             // scalar or pointer type
  std::vector<int64_t> dims; // a constant-size array of scalars: its extents
  int64_t offset = 0;        // bytes from the start of the struct
  int64_t size = 0;          // bytes (the whole array for an array leaf)
};
using Layout = std::vector<Leaf>;

// The storage of a struct-typed declaration, or the pointer bundle of a pointer to struct.
struct AggStore {
  Layout layout;
  std::vector<Binding> leaves;
  bool isPtr = false;    // leaves are pointers (one per field), all at the same offset
  bool inMemory = false; // leaves are arrays (of `outer` elements) in shared/global/... memory
  bool arrayDecl = false; // declared as an array of structs
  bool single = false;    // isPtr: has held a base-class pointer into a derived array (AggPtr::single)
  // isPtr: AggPtr::stride of what it holds; 0 until its first assignment (or a use before one)
  // fixes it, and every assignment must then agree (a variable never changes kind).
  int64_t stride = 1;
};

// A struct-typed lvalue: one scalar lvalue per leaf.
struct AggLV {
  Layout layout;
  std::vector<LValue> leaves;
  std::string text;
  bool ok = false;
};

// A pointer to struct: one pointer per leaf.
struct AggPtr {
  Layout layout;
  std::vector<ExprPtr> ptrs;
  std::string text;
  bool ok = false;
  bool single = false; // a base-class pointer into an array of a larger derived class: only
                       // element 0 is the object it points to (b[1] steps by the base's size)
  // Elements of the leaves' arrays per struct: 1 for a struct scalarised field by field; n for
  // a vector type viewing an array of scalars (`reinterpret_cast<float4 *>(p)`: leaf f of
  // element i is p[n * i + f]).
  int64_t stride = 1;
};

// A warp primitive's mask: `ok` false where it is not modelled; `mask` null for the full
// mask, else an i64 expression: a constant (a partial mask) or a temporary holding the value
// the call computed once (a computed mask); `text` names it in messages.
struct WarpMask {
  bool ok = true;
  ir::ExprPtr mask;
  std::string text;
};

struct FnFrame {
  const FunctionDecl *fd = nullptr;
  int returnLabel = -1;
  int returnVar = -1;
  std::map<const ValueDecl *, Binding> bindings;
  std::optional<AggLV> thisObj; // methods: the object `this` points to
  std::optional<AggLV> returnAgg; // a function returning a struct: where `return` puts it
  QualType returnType;
};

// The kernel file itself, or a header of the user's project it includes (where many programs
// keep their kernels and shared device functions): not a system header, not one of ksynth's
// own (the prelude, its CUDA headers, its host-library declarations). Defined in frontend.cpp.
bool userCode(const SourceManager &sm, SourceLocation loc);

// Lowers one kernel to KIR (parseSource makes one per kernel). Its members are defined, each
// with its comment, section by section: lower_kernel.cpp (the kernel and the utilities),
// lower_aggregates.cpp, lower_expr.cpp, lower_calls.cpp and lower_stmt.cpp.
class Lowerer {
public:
  Lowerer(ASTContext &ctx, ir::Kernel &k, std::vector<Diagnostic> &notes,
          std::map<const VarDecl *, int> &globals, std::map<const FunctionDecl *, int64_t> &fnIds);

  void lowerKernel(const FunctionDecl *fd);

private:
  ASTContext &ctx_;
  SourceManager &sm_;
  ir::Kernel &k_;
  std::vector<Diagnostic> &notes_;
  std::map<const VarDecl *, int> &globalArrays_;
  static constexpr int kMaxInlinedCalls = 4096; // per kernel
  int inlinedCalls_ = 0;
  std::deque<FnFrame> frames_; // a deque: a frame's references outlive the inlining of calls below it
  std::vector<std::pair<int, int>> loops_; // (break label, continue label)
  ir::Block *cur_ = nullptr;
  bool inKernelTop_ = false;
  int tmpCount_ = 0;
  std::vector<AggStore> aggs_;
  std::vector<LValue> refs_; // Binding::Ref: the location, its indexes fixed when bound
  std::map<const VarDecl *, Binding> globalAggs_;
  std::set<std::string> bodilessSeen_;
  std::set<std::string> fnptrAssumed_;
  std::map<const LabelDecl *, int> gotoTargets_; // labels a forward goto may exit to now
  std::set<const VarDecl *> addressTaken_; // locals whose address is taken: kept in local memory
  std::map<const ValueDecl *, int> paramArray_; // pointer parameter -> its array (for __len)

  static void scanAssignedParams(const Stmt *s, std::set<const VarDecl *> &out);
  void scanAddressTaken(const Stmt *s);

  // ---- utilities ----------------------------------------------------------------------

  Loc loc(SourceLocation l);
  std::string text(SourceRange r);
  void note(SourceLocation l, const std::string &sev, const std::string &msg);
  void unsupported(SourceLocation l, const std::string &what);
  size_t unsupportedCount_ = 0; // how many unsupported() calls so far
  // Binds reference `d` of type `refType` to `init` in `frame` (C++ binds once: the referent's
  // indexes are evaluated now); false, with the reason recorded as unsupported, if it cannot.
  bool bindReference(const ValueDecl *d, QualType refType, const Expr *init, FnFrame &frame,
                     SourceLocation sl);

  std::vector<ir::StmtPtr> pendingUnsupported_;
  bool inAnnotation_ = false; // lowering the condition of __requires/__assume/__assert

  void unmodelled(SourceLocation l);
  ir::StmtPtr emit(StmtKind kind, SourceLocation l);
  std::optional<Type> scalarType(QualType qt);
  // A pointer to an array (`float (*p)[N][M]`, or the parameter `float p[][N][M]`): the
  // constant extents of its pointee, outermost first, and its scalar element type; empty dims
  // when the pointee is no array of constant extent (or an array of something other than a
  // scalar). Subscripts and pointer arithmetic step by whole rows.
  std::vector<int64_t> rowDims(QualType pointee, QualType *scalar = nullptr);
  std::optional<LValue> ptrArrayField(const MemberExpr *me, const std::vector<const Expr *> &idx);
  // How many scalars one step of a pointer of type `ptr` covers: the product of rowDims of
  // its pointee (1 for a pointer to a scalar).
  int64_t pointerStep(QualType ptr);
  Type typeOr(QualType qt, SourceLocation l);
  int newTemp(Type t, const std::string &hint = "t");
  std::optional<Binding> lookup(const ValueDecl *d);
  std::optional<Binding> declareGlobal(const VarDecl *vd);

  // ---- aggregates (structs and classes) ---------------------------------------------------

  static bool isRecord(QualType qt);
  static bool pointsToRecord(QualType qt);
  QualType arrayOfRecordElem(QualType qt);
  std::optional<Layout> layoutOf(QualType qt, std::string &why);
  bool flattenRecord(const RecordDecl *rd, const std::string &prefix, Layout &out, std::string &why,
                     int64_t base = 0);
  bool flattenType(QualType t, const std::string &path, Layout &out, std::string &why, int64_t offset);
  static size_t findLeaf(const Layout &lay, const std::string &path);
  template <class Agg, class Part>
  static Agg restrictLeaves(const Agg &a, const std::vector<Part> &parts, std::vector<Part> Agg::*out,
                            const std::string &prefix);
  static AggLV restrictAgg(const AggLV &a, const std::string &prefix, const std::string &text);
  static AggPtr restrictPtr(const AggPtr &a, const std::string &prefix);
  static AggLV fieldLeaves(const AggLV &a, const std::string &name);
  static std::string basePrefix(const CastExpr *ce);
  // (vd may be null for a temporary: `at` then locates it.)
  std::optional<Binding> declareAgg(const VarDecl *vd, const std::string &name, QualType rec,
                                    std::vector<int64_t> outer, std::optional<ir::Space> space,
                                    SourceLocation at = {});
  AggLV structCall(const CallExpr *call); // a call returning a struct, into a temporary
  std::optional<AggLV> nextReturnAgg_;    // structCall -> inlineCall: the frame's returnAgg

  // Base classes that some pointer conversion in the file makes point into an array of a
  // larger derived class: pointers to them may only be used for element 0 (flow-insensitive,
  // so a use that comes before the conversion in the text is covered too).
  std::set<const clang::Type *> narrowedBases_;
  bool narrowedScanned_ = false;

  void scanNarrowing(const Stmt *s);
  bool narrowedBase(QualType rec);
  std::optional<Binding> declareAggPtr(SourceLocation sl, const std::string &name, QualType rec);
  LValue leafLValue(const AggStore &st, size_t i, const std::string &text);
  AggLV aggOfStore(const AggStore &st, const std::string &text);
  AggLV deref(const AggPtr &p, ExprPtr idx, const std::string &text);
  AggLV aggLValue(const Expr *e);
  AggLV memberBase(const MemberExpr *me);
  AggPtr aggPtr(const Expr *e);
  AggPtr vectorView(const ExplicitCastExpr *ce); // lower_vector.cpp
  // A dynamic shared array used in the kernel (and the functions it calls) only through casts
  // to one pointer-to-scalar type (`extern __shared__ unsigned char smem[]; float *s =
  // reinterpret_cast<float *>(smem);`): that scalar type, with which the array is declared, so
  // that each cast is the array's address (lower_vector.cpp).
  std::optional<QualType> soleView(const VarDecl *vd);
  void viewUses(const Stmt *s, const VarDecl *vd, std::vector<QualType> &views, bool &other,
                std::set<const FunctionDecl *> &seen);
  std::map<const VarDecl *, QualType> viewedAs_;
  bool vectorAssumed_ = false;
  void alignAssert(SourceLocation sl, ExprPtr p, int64_t align, int64_t es, const std::string &violation);                  // its assumption is in the kernel's list
  void assignAggPtr(AggStore &st, const AggPtr &src, SourceLocation sl);
  ExprPtr readLeaf(const LValue &lv, Type t, SourceLocation sl);
  bool copyArrayLeaf(const LValue &dst, const LValue &src, const Leaf &lf, SourceLocation sl);
  void copyAgg(const AggLV &dst, const AggLV &src, SourceLocation sl);
  void writeLeaf(const LValue &lv, ExprPtr v, SourceLocation sl);
  void havocAgg(const AggLV &dst, SourceLocation sl, const std::string &why);
  void initAgg(const AggLV &dst, QualType qt, const Expr *init, SourceLocation sl);
  ExprPtr zeroOf(Type t);
  void zeroAgg(const AggLV &dst, SourceLocation sl);
  bool isTrivialRecordAssign(const Expr *e, const Expr *&lhs, const Expr *&rhs);

  // ---- expressions ----------------------------------------------------------------------

  ExprPtr cast(ExprPtr e, Type to, Loc l = {});
  std::optional<int64_t> constInt(const Expr *e);
  ExprPtr rvalue(const Expr *e);
  ExprPtr rvalueOf(const Expr *e); // rvalue() without its check of the result's type
  ExprPtr indexValue(const Expr *e);
  bool containsBuiltinOrCall(const Expr *e);
  ExprPtr builtinVar(const PseudoObjectExpr *po);
  ExprPtr castExpr(const Expr *whole, CastKind ck, const Expr *sub);
  ExprPtr memAddress(const Mem &m, const Expr *src);
  // Row-major offset in scalars of the leading indices `idx` into an array whose extents after
  // the first are `inner` (index i steps by the product of inner[i..]); i64.
  ExprPtr flatOffset(const std::vector<ExprPtr> &idx, const std::vector<int64_t> &inner);
  ExprPtr readLValue(const LValue &lv, const Expr *src);
  void writeLValue(const LValue &lv, ExprPtr v, SourceLocation sl);
  LValue lvalue(const Expr *e);
  static std::optional<Op> binOp(BinaryOperatorKind k);
  ExprPtr arith(Op op, Type t, ExprPtr a, ExprPtr b, const Expr *src);
  ExprPtr binary(const BinaryOperator *bo);
  ExprPtr logical(const BinaryOperator *bo);
  ExprPtr toBool(ExprPtr e);
  ExprPtr conditional(const Expr *c, const Expr *t, const Expr *f, const Expr *whole);
  ExprPtr unary(const UnaryOperator *uo);

  // ---- calls ------------------------------------------------------------------------------

  ExprPtr callExpr(const CallExpr *call);
  ExprPtr atomic(const CallExpr *call, const std::string &name, Type rt);
  ExprPtr exactIntrinsic(const CallExpr *call, const std::string &name, Type rt);
  bool sameFnType(QualType a, QualType b);
  std::vector<const FunctionDecl *> fileFunctions();

  // Function pointers are numbers: each function of the file gets one (from 1), null is 0.
  std::map<const FunctionDecl *, int64_t> &fnIds_;

  int64_t fnId(const FunctionDecl *f);
  ExprPtr indirectCall(const CallExpr *call);
  static bool modifiedIn(const Stmt *s, const VarDecl *vd);
  std::optional<int64_t> constIntThroughLocals(const Expr *e);
  ExprPtr memOp(const CallExpr *call, bool isSet);
  ExprPtr mul24(const CallExpr *call, bool isSigned);
  ExprPtr curandCall(const CallExpr *call, const std::string &name, Type rt);
  ExprPtr callWithoutBody(const CallExpr *call, const FunctionDecl *fd, Type rt);
  ExprPtr inlineCall(const CallExpr *call, const FunctionDecl *fd, Type rt,
                     std::optional<AggLV> thisObj = std::nullopt);
  void discard(const Expr *e);

  // ---- warp-level primitives (lower_warp.cpp) ------------------------------------------------

  std::map<std::string, int> exchange_; // virtual shared array per element type
  static bool isWarpPrimitive(const std::string &name);
  ExprPtr linearTid();
  ExprPtr blockThreads();
  int exchangeArray(Type t);
  WarpMask maskOf(const CallExpr *call, const std::string &name);
  WarpMask maskValue(const Expr *arg);
  static WarpMask constMask(uint32_t m);
  ExprPtr inMask(SourceLocation sl, const ExprPtr &mask, ExprPtr lane);
  static ExprPtr laneBit(const ExprPtr &mask, int64_t j);
  void callerInMask(SourceLocation sl, const WarpMask &mask, const std::string &callText);
  void warpBarrier(SourceLocation sl, ExprPtr mask = nullptr);
  int offerToLanes(SourceLocation sl, Type t, ExprPtr tid, ExprPtr v, const std::string &name,
                   ExprPtr mask = nullptr);
  void warpAssert(SourceLocation sl, ExprPtr cond, const std::string &violation);
  ExprPtr vote(SourceLocation sl, const std::string &name, Type rt, ExprPtr v, int64_t size,
               const WarpMask &mask = WarpMask(), const std::string &callText = "",
               const Expr *operand = nullptr);
  ExprPtr laneView(const Expr *e, const std::array<ExprPtr, 3> &tid);
  ExprPtr warpCall(const CallExpr *call, const std::string &name, Type rt);
  ExprPtr shuffle(SourceLocation sl, const std::string &name, Type rt, ExprPtr v, ExprPtr x, int64_t width,
                  const std::string &callText, const WarpMask &mask = WarpMask());
  static int64_t tileSize(QualType t);
  ExprPtr tileCall(const CallExpr *call, const std::string &name, Type rt, int64_t size);
  ExprPtr tileReduce(const CallExpr *call, Type rt, int64_t size);

  // ---- tensor-core fragments (lower_wmma.cpp) ------------------------------------------------

  struct FragType {
    bool ok = false;
    std::string why; // !ok: why it is not modelled
    std::string use; // matrix_a, matrix_b, accumulator
    int64_t shape[3] = {0, 0, 0};
    QualType elemQt;
    Type elem;
    std::string layout; // row_major, col_major or "" (accumulator)
    int64_t count = 0;  // elements per lane in ksynth's model
  };
  struct Frag {
    FragType type;
    std::vector<int> vars;
  };
  std::map<const VarDecl *, Frag> frags_;
  std::optional<FragType> fragType(QualType t);
  bool wmmaDecl(const VarDecl *vd);
  static bool isWmmaCall(const FunctionDecl *fd);
  Frag *fragArg(const Expr *e, SourceLocation sl);
  void uniformAssert(SourceLocation sl, ExprPtr v, const std::string &violation);
  ExprPtr wmmaCall(const CallExpr *call, const std::string &name);

  // ---- unrolled loops around warp primitives (lower_unroll.cpp) ---------------------------

  bool usesWarpPrimitive(const Stmt *s, int depth);
  bool indexesLocalArrayBy(const Stmt *s, const VarDecl *var);
  static bool stagesSharedBy(const Stmt *body, const VarDecl *var);
  std::optional<std::vector<int64_t>> unrollValues(const ForStmt *fs, const VarDecl *&var);
  bool unrolledLoop(const ForStmt *fs);
  // Copies of loop bodies the unrolled loops around the one being lowered make (their trip
  // counts' product), to keep nested unrolling small.
  int64_t unrollCopies_ = 1;
  // Local arrays' declarations: the array and an empty Block where it is declared, for the
  // split into scalars (ir/scalarise.h) after the kernel is lowered.
  std::vector<std::pair<int, ir::StmtPtr>> localArrayDecls_;
  void initLocalArray(const VarDecl *vd, int id);

  // ---- statements -------------------------------------------------------------------------

  void stmt(const Stmt *s);
  void stmtRange(const std::vector<const Stmt *> &kids, size_t end);
  static bool gotoIn(const Stmt *s, const LabelDecl *l);
  void switchStmt(const SwitchStmt *ss);
  void loop(SourceLocation sl, const Expr *cond, const Stmt *body, const Expr *inc, bool testFirst,
            const DeclStmt *condVar);
  void decl(const Decl *d);
};

} // namespace detail
} // namespace ksynth::frontend
