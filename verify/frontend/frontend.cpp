#include "verify/frontend/frontend.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/raw_ostream.h>

#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace ksynth::frontend {

using namespace clang;
using ir::ExprPtr;
using ir::Loc;
using ir::Op;
using ir::StmtKind;
using ir::Type;

static const char *kPrelude =
#include "prelude_data.inc"
    ;

const char *preludeText() { return kPrelude; }

static const char *kPreludePath = "/ksynth-prelude/ksynth_cuda.h";

namespace {

// What a C++ declaration is bound to in KIR.
struct Binding {
  enum Kind { Var, Array, Agg } kind = Var;
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
};

struct FnFrame {
  const FunctionDecl *fd = nullptr;
  int returnLabel = -1;
  int returnVar = -1;
  std::map<const ValueDecl *, Binding> bindings;
  std::optional<AggLV> thisObj; // methods: the object `this` points to
};

class Lowerer {
public:
  Lowerer(ASTContext &ctx, ir::Kernel &k, std::vector<Diagnostic> &notes,
          std::map<const VarDecl *, int> &globals, std::map<const FunctionDecl *, int64_t> &fnIds)
      : ctx_(ctx), sm_(ctx.getSourceManager()), k_(k), notes_(notes), globalArrays_(globals), fnIds_(fnIds) {}

  void lowerKernel(const FunctionDecl *fd) {
    k_.name = fd->getNameAsString();
    k_.loc = loc(fd->getLocation());
    FnFrame frame;
    frame.fd = fd;
    frame.returnLabel = 0;
    frames_.push_back(std::move(frame));
    std::set<const VarDecl *> reassigned;
    scanAssignedParams(fd->getBody(), reassigned);
    std::vector<std::pair<int, int>> pointerInits; // (var, array)
    for (unsigned i = 0; i < fd->getNumParams(); ++i) {
      const ParmVarDecl *p = fd->getParamDecl(i);
      QualType qt = p->getType();
      std::string name = p->getNameAsString();
      if (name.empty())
        name = "arg" + std::to_string(i);
      if (isRecord(qt) || pointsToRecord(qt)) {
        std::string why;
        auto lay = layoutOf(isRecord(qt) ? qt : qt->getPointeeType(), why);
        if (!lay) {
          unsupported(p->getLocation(), "parameter '" + name + "' of type '" + qt.getAsString() +
                                            "': " + why);
          continue;
        }
        AggStore st;
        st.layout = *lay;
        st.isPtr = !isRecord(qt);
        for (const Leaf &lf : *lay) {
          auto lt = scalarType(lf.type);
          if (!lf.dims.empty()) {
            unsupported(p->getLocation(), "array field '" + lf.path + "' in parameter '" + name + "'");
            st.leaves.push_back({Binding::Var, -1});
            continue;
          }
          if (st.isPtr || lt->isPtr()) {
            // A pointer to struct is one global array per field; a pointer field of a struct
            // passed by value is a pointer parameter of its own.
            ir::Array a;
            a.name = name + "." + lf.path;
            a.space = ir::Space::Global;
            a.elem = st.isPtr ? *lt : scalarType(lf.type->getPointeeType()).value_or(Type::i32());
            if (!st.isPtr && !scalarType(lf.type->getPointeeType()))
              unsupported(p->getLocation(), "pointer field '" + a.name + "' to type '" +
                                                lf.type->getPointeeType().getAsString() + "'");
            a.paramIndex = static_cast<int>(i);
            a.loc = loc(p->getLocation());
            if (st.isPtr && !st.leaves.empty())
              a.sameLength = st.leaves.front().id;
            int id = k_.addArray(a);
            k_.params.push_back({true, id});
            st.leaves.push_back({Binding::Array, id});
          } else {
            ir::Var v;
            v.name = name + "." + lf.path;
            v.type = *lt;
            v.paramIndex = static_cast<int>(i);
            v.loc = loc(p->getLocation());
            int id = k_.addVar(v);
            k_.params.push_back({false, id});
            st.leaves.push_back({Binding::Var, id});
          }
        }
        frames_.back().bindings[p] = {Binding::Agg, static_cast<int>(aggs_.size())};
        aggs_.push_back(std::move(st));
        continue;
      }
      if (qt->isPointerType() && !qt->isFunctionPointerType()) {
        auto et = scalarType(qt->getPointeeType());
        ir::Array a;
        a.name = name;
        a.space = ir::Space::Global;
        a.elem = et.value_or(Type::i32());
        a.paramIndex = static_cast<int>(i);
        a.loc = loc(p->getLocation());
        if (!et)
          unsupported(p->getLocation(), "pointer parameter '" + name + "' to type '" +
                                            qt->getPointeeType().getAsString() + "'");
        int id = k_.addArray(a);
        k_.params.push_back({true, id});
        frames_.back().bindings[p] = {Binding::Array, id};
        paramArray_[p] = id;
        if (reassigned.count(p)) {
          // The kernel assigns to the parameter: it is a pointer variable starting at the array.
          ir::Var v;
          v.name = name;
          v.type = Type::pointer();
          v.loc = a.loc;
          int vid = k_.addVar(v);
          frames_.back().bindings[p] = {Binding::Var, vid};
          pointerInits.push_back({vid, id});
        }
      } else {
        auto t = scalarType(qt);
        ir::Var v;
        v.name = name;
        v.type = t.value_or(Type::i32());
        v.paramIndex = static_cast<int>(i);
        v.loc = loc(p->getLocation());
        if (!t)
          unsupported(p->getLocation(), "parameter '" + name + "' of type '" + qt.getAsString() + "'");
        int id = k_.addVar(v);
        k_.params.push_back({false, id});
        frames_.back().bindings[p] = {Binding::Var, id};
      }
    }
    auto top = std::make_shared<ir::Stmt>();
    top->kind = StmtKind::Block;
    top->label = 0;
    top->loc = k_.loc;
    cur_ = &top->body;
    inKernelTop_ = true;
    // Whatever could not be modelled in the parameters makes every verdict unknown.
    for (const ir::StmtPtr &u : pendingUnsupported_)
      cur_->push_back(u);
    pendingUnsupported_.clear();
    for (auto [var, arr] : pointerInits) {
      auto s = emit(StmtKind::Assign, fd->getLocation());
      s->var = var;
      s->value = ir::mkArrayRef(arr);
    }
    scanAddressTaken(fd->getBody());
    // GPUVerify's file-scope `__axiom(e)` (see the prelude) holds in every kernel.
    for (const Decl *d : ctx_.getTranslationUnitDecl()->decls())
      if (const auto *ax = dyn_cast<FunctionDecl>(d);
          ax && ax->hasBody() && ax->getNameAsString().rfind("__ksynth_axiom_fn_", 0) == 0)
        stmt(ax->getBody());
    stmt(fd->getBody());
    k_.body.push_back(top);
  }

private:
  ASTContext &ctx_;
  SourceManager &sm_;
  ir::Kernel &k_;
  std::vector<Diagnostic> &notes_;
  std::map<const VarDecl *, int> &globalArrays_;
  std::vector<FnFrame> frames_;
  std::vector<std::pair<int, int>> loops_; // (break label, continue label)
  ir::Block *cur_ = nullptr;
  bool inKernelTop_ = false;
  int tmpCount_ = 0;
  std::vector<AggStore> aggs_;
  std::map<const VarDecl *, Binding> globalAggs_;
  std::set<std::string> bodilessSeen_;
  std::set<std::string> fnptrAssumed_;
  std::map<const LabelDecl *, int> gotoTargets_; // labels a forward goto may exit to now
  std::set<const VarDecl *> addressTaken_; // locals whose address is taken: kept in local memory
  std::map<const ValueDecl *, int> paramArray_; // pointer parameter -> its array (for __len)

  // Pointer parameters the kernel assigns to (`p = q`, `p += k`, `p++`).
  static void scanAssignedParams(const Stmt *s, std::set<const VarDecl *> &out) {
    if (!s)
      return;
    const Expr *target = nullptr;
    if (const auto *bo = dyn_cast<BinaryOperator>(s); bo && bo->isAssignmentOp())
      target = bo->getLHS();
    if (const auto *uo = dyn_cast<UnaryOperator>(s); uo && uo->isIncrementDecrementOp())
      target = uo->getSubExpr();
    if (target)
      if (const auto *dr = dyn_cast<DeclRefExpr>(target->IgnoreParens()))
        if (const auto *pv = dyn_cast<ParmVarDecl>(dr->getDecl()); pv && pv->getType()->isPointerType())
          out.insert(pv);
    for (const Stmt *c : s->children())
      scanAssignedParams(c, out);
  }

  void scanAddressTaken(const Stmt *s) {
    if (!s)
      return;
    if (const auto *uo = dyn_cast<UnaryOperator>(s); uo && uo->getOpcode() == UO_AddrOf)
      if (const auto *dr = dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParens()))
        if (const auto *vd = dyn_cast<VarDecl>(dr->getDecl()); vd && vd->hasLocalStorage())
          addressTaken_.insert(vd);
    for (const Stmt *c : s->children())
      scanAddressTaken(c);
  }

  // ---- utilities ----------------------------------------------------------------------

  Loc loc(SourceLocation l) {
    if (l.isInvalid())
      return {};
    SourceLocation e = sm_.getExpansionLoc(l);
    // Locations inside the prelude are reported at the nearest user location instead.
    if (sm_.getFileID(e) != sm_.getMainFileID())
      return {};
    return {sm_.getExpansionLineNumber(e), sm_.getExpansionColumnNumber(e)};
  }

  std::string text(SourceRange r) {
    if (r.isInvalid())
      return "";
    CharSourceRange cr = CharSourceRange::getTokenRange(sm_.getExpansionRange(r).getAsRange());
    return Lexer::getSourceText(cr, sm_, ctx_.getLangOpts()).str();
  }

  void note(SourceLocation l, const std::string &sev, const std::string &msg) {
    Diagnostic d;
    SourceLocation e = sm_.getExpansionLoc(l);
    d.file = sm_.getFilename(e).str();
    d.line = sm_.getExpansionLineNumber(e);
    d.col = sm_.getExpansionColumnNumber(e);
    d.severity = sev;
    d.message = msg;
    notes_.push_back(d);
  }

  void unsupported(SourceLocation l, const std::string &what) {
    note(l, "error", "unsupported: " + what);
    auto s = std::make_shared<ir::Stmt>();
    s->kind = StmtKind::Unsupported;
    s->loc = loc(l);
    s->text = what;
    if (cur_)
      cur_->push_back(s);
    else
      pendingUnsupported_.push_back(s); // e.g. a parameter: goes to the top of the kernel
  }
  std::vector<ir::StmtPtr> pendingUnsupported_;
  bool inAnnotation_ = false; // lowering the condition of __requires/__assume/__assert

  // A safety net: a memory location that could not be modelled is used here. Its cause was
  // reported where it was found; this makes sure the kernel cannot be proven through it.
  void unmodelled(SourceLocation l) {
    auto s = std::make_shared<ir::Stmt>();
    s->kind = StmtKind::Unsupported;
    s->loc = loc(l);
    s->text = "a value ksynth could not model is used here";
    if (cur_)
      cur_->push_back(s);
    else
      pendingUnsupported_.push_back(s);
  }

  ir::StmtPtr emit(StmtKind kind, SourceLocation l) {
    auto s = std::make_shared<ir::Stmt>();
    s->kind = kind;
    s->loc = loc(l);
    cur_->push_back(s);
    return s;
  }

  std::optional<Type> scalarType(QualType qt) {
    qt = qt.getCanonicalType().getUnqualifiedType();
    // A function pointer is a number naming a function of the file (0: null); see fnId.
    if (qt->isFunctionPointerType() || qt->isFunctionType())
      return Type::u64();
    if (qt->isPointerType())
      return Type::pointer();
    if (const auto *et = qt->getAs<EnumType>())
      qt = et->getDecl()->getIntegerType();
    if (qt->isBooleanType())
      return Type::boolean();
    if (qt->isIntegerType()) {
      unsigned bits = static_cast<unsigned>(ctx_.getTypeSize(qt));
      return Type::integer(bits, qt->isSignedIntegerType());
    }
    if (qt->isRealFloatingType()) {
      unsigned bits = static_cast<unsigned>(ctx_.getTypeSize(qt));
      Type t = Type::f32();
      t.bits = static_cast<uint8_t>(bits);
      return t;
    }
    return std::nullopt;
  }

  Type typeOr(QualType qt, SourceLocation l) {
    auto t = scalarType(qt);
    if (!t) {
      unsupported(l, "values of type '" + qt.getAsString() + "'");
      return Type::i32();
    }
    return *t;
  }

  int newTemp(Type t, const std::string &hint = "t") {
    ir::Var v;
    v.name = hint + "." + std::to_string(tmpCount_++);
    v.type = t;
    return k_.addVar(v);
  }

  std::optional<Binding> lookup(const ValueDecl *d) {
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
      auto f = it->bindings.find(d);
      if (f != it->bindings.end())
        return f->second;
      break; // only the innermost frame's locals are visible
    }
    if (const auto *vd = dyn_cast<VarDecl>(d)) {
      auto g = globalArrays_.find(vd->getCanonicalDecl());
      if (g != globalArrays_.end())
        return Binding{Binding::Array, g->second};
      auto ga = globalAggs_.find(vd->getCanonicalDecl());
      if (ga != globalAggs_.end())
        return ga->second;
      if (vd->hasGlobalStorage())
        return declareGlobal(vd);
    }
    return std::nullopt;
  }

  std::optional<Binding> declareGlobal(const VarDecl *vd) {
    ir::Array a;
    a.name = vd->getNameAsString();
    a.space = vd->hasAttr<CUDASharedAttr>()     ? ir::Space::Shared
              : vd->hasAttr<CUDAConstantAttr>() ? ir::Space::Constant
                                                : ir::Space::Global;
    QualType qt = vd->getType();
    while (const auto *at = ctx_.getAsConstantArrayType(qt)) {
      a.dims.push_back(at->getSize().getSExtValue());
      qt = at->getElementType();
    }
    if (isRecord(qt)) {
      auto b = declareAgg(vd, a.name, qt, a.dims, a.space);
      if (b)
        globalAggs_[vd->getCanonicalDecl()] = *b;
      if (b && vd->hasInit() && a.space != ir::Space::Shared && !isa<CXXConstructExpr>(vd->getInit()))
        note(vd->getLocation(), "warning",
             "initial value of '" + a.name + "' is not modelled (treated as unknown)");
      return b;
    }
    if (isa<IncompleteArrayType>(qt.getTypePtr())) {
      a.dynamicShared = true;
      qt = llvm::cast<IncompleteArrayType>(qt.getTypePtr())->getElementType();
    }
    auto et = scalarType(qt);
    if (!et) {
      unsupported(vd->getLocation(), "variable '" + a.name + "' of type '" +
                                         vd->getType().getAsString() + "'");
      return std::nullopt;
    }
    if (a.dims.empty() && !a.dynamicShared)
      a.dims.push_back(1);
    a.elem = *et;
    a.loc = loc(vd->getLocation());
    int id = k_.addArray(a);
    globalArrays_[vd->getCanonicalDecl()] = id;
    if (vd->hasInit() && a.space != ir::Space::Shared)
      note(vd->getLocation(), "warning",
           "initial value of '" + a.name + "' is not modelled (treated as unknown)");
    return Binding{Binding::Array, id};
  }

  // ---- aggregates (structs and classes) ---------------------------------------------------

  static bool isRecord(QualType qt) {
    return !qt.isNull() && qt.getCanonicalType()->isRecordType();
  }
  static bool pointsToRecord(QualType qt) {
    return !qt.isNull() && qt->isPointerType() && isRecord(qt->getPointeeType());
  }
  // The record type of an array of records, else null.
  QualType arrayOfRecordElem(QualType qt) {
    QualType et = qt;
    while (const auto *at = ctx_.getAsArrayType(et))
      et = at->getElementType();
    return et.getTypePtr() != qt.getTypePtr() && isRecord(et) ? et : QualType();
  }

  std::optional<Layout> layoutOf(QualType qt, std::string &why) {
    Layout out;
    const RecordDecl *rd = qt.getCanonicalType()->getAsRecordDecl();
    if (!rd || !flattenRecord(rd, "", out, why))
      return std::nullopt;
    return out;
  }

  bool flattenRecord(const RecordDecl *rd, const std::string &prefix, Layout &out, std::string &why,
                     int64_t base = 0) {
    const RecordDecl *def = rd->getDefinition();
    if (!def) {
      why = "incomplete type '" + rd->getNameAsString() + "'";
      return false;
    }
    if (def->isUnion()) {
      why = "union '" + def->getNameAsString() + "' (fields share storage)";
      return false;
    }
    if (const auto *cx = dyn_cast<CXXRecordDecl>(def)) {
      if (cx->isPolymorphic() || cx->getNumVBases() > 0) {
        why = "class '" + cx->getNameAsString() + "' with virtual functions or bases";
        return false;
      }
      const ASTRecordLayout &rl = ctx_.getASTRecordLayout(cx);
      for (const CXXBaseSpecifier &b : cx->bases()) {
        const auto *bd = b.getType()->getAsCXXRecordDecl();
        if (!bd || !flattenRecord(bd, prefix + bd->getNameAsString() + "::", out, why,
                                  base + rl.getBaseClassOffset(bd).getQuantity()))
          return false;
      }
    }
    const ASTRecordLayout &layout = ctx_.getASTRecordLayout(def);
    for (const FieldDecl *f : def->fields()) {
      if (f->isBitField()) {
        why = "bit-field '" + f->getNameAsString() + "'";
        return false;
      }
      std::string name = f->getNameAsString();
      if (name.empty())
        name = "anon" + std::to_string(f->getFieldIndex());
      if (!flattenType(f->getType(), prefix + name, out, why,
                       base + static_cast<int64_t>(layout.getFieldOffset(f->getFieldIndex()) / 8)))
        return false;
    }
    if (out.size() > 256) {
      why = "more than 256 fields";
      return false;
    }
    return true;
  }

  bool flattenType(QualType t, const std::string &path, Layout &out, std::string &why, int64_t offset) {
    t = t.getCanonicalType().getUnqualifiedType();
    if (scalarType(t)) {
      out.push_back({path, t, {}, offset, static_cast<int64_t>(ctx_.getTypeSizeInChars(t).getQuantity())});
      return true;
    }
    if (const RecordDecl *rd = t->getAsRecordDecl())
      return flattenRecord(rd, path + ".", out, why, offset);
    if (ctx_.getAsConstantArrayType(t)) {
      std::vector<int64_t> dims;
      QualType et = t;
      while (const auto *at = ctx_.getAsConstantArrayType(et)) {
        dims.push_back(at->getSize().getSExtValue());
        et = at->getElementType();
      }
      et = et.getCanonicalType().getUnqualifiedType();
      if (scalarType(et) && !et->isPointerType()) {
        out.push_back({path, et, dims, offset, static_cast<int64_t>(ctx_.getTypeSizeInChars(t).getQuantity())});
        return true;
      }
      int64_t esz = static_cast<int64_t>(ctx_.getTypeSizeInChars(et).getQuantity());
      // Arrays of pointers or structs: one leaf per element, reached by constant indices.
      if (dims.size() != 1 || dims[0] > 64) {
        why = "field '" + path + "' (an array of pointers or structs larger than 64)";
        return false;
      }
      for (int64_t i = 0; i < dims[0]; ++i)
        if (!flattenType(et, path + "[" + std::to_string(i) + "]", out, why, offset + i * esz))
          return false;
      return true;
    }
    why = "field '" + path + "' of type '" + t.getAsString() + "'";
    return false;
  }

  static size_t findLeaf(const Layout &lay, const std::string &path) {
    for (size_t i = 0; i < lay.size(); ++i)
      if (lay[i].path == path)
        return i;
    return lay.size();
  }

  // The part of `a` under `prefix` ("v." for member v, "s::" for base class s).
  // The leaves of `a` under `prefix`, with the prefix removed from their paths; `parts` is
  // the per-leaf member (LValues of an AggLV, pointers of an AggPtr).
  template <class Agg, class Part>
  static Agg restrictLeaves(const Agg &a, const std::vector<Part> &parts, std::vector<Part> Agg::*out,
                            const std::string &prefix) {
    Agg r;
    r.ok = a.ok;
    r.text = a.text;
    for (size_t i = 0; i < a.layout.size(); ++i) {
      if (a.layout[i].path.compare(0, prefix.size(), prefix) != 0)
        continue;
      Leaf lf = a.layout[i];
      lf.path = lf.path.substr(prefix.size());
      r.layout.push_back(lf);
      (r.*out).push_back(parts[i]);
    }
    if (r.layout.empty())
      r.ok = false;
    return r;
  }
  static AggLV restrictAgg(const AggLV &a, const std::string &prefix, const std::string &text) {
    AggLV r = restrictLeaves(a, a.leaves, &AggLV::leaves, prefix);
    r.text = text;
    return r;
  }
  static AggPtr restrictPtr(const AggPtr &a, const std::string &prefix) {
    return restrictLeaves(a, a.ptrs, &AggPtr::ptrs, prefix);
  }

  // The leaves of field `name` (a scalar, an array, or an array of structs or pointers).
  static AggLV fieldLeaves(const AggLV &a, const std::string &name) {
    AggLV r;
    r.ok = a.ok;
    r.text = a.text;
    for (size_t i = 0; i < a.layout.size(); ++i) {
      const std::string &p = a.layout[i].path;
      if (p == name || (p.size() > name.size() && p.compare(0, name.size(), name) == 0 &&
                        (p[name.size()] == '[' || p[name.size()] == '.'))) {
        r.layout.push_back(a.layout[i]);
        r.leaves.push_back(a.leaves[i]);
      }
    }
    return r;
  }

  // The prefix a derived-to-base conversion selects.
  static std::string basePrefix(const CastExpr *ce) {
    std::string prefix;
    for (const CXXBaseSpecifier *b : ce->path())
      if (const RecordDecl *bd = b->getType()->getAsRecordDecl())
        prefix += bd->getNameAsString() + "::";
    return prefix;
  }

  // Storage for a struct (or array of structs) declared here. `outer` are the extents of an
  // array of structs; `space` is where it lives when it is in memory.
  std::optional<Binding> declareAgg(const VarDecl *vd, const std::string &name, QualType rec,
                                    std::vector<int64_t> outer, std::optional<ir::Space> space) {
    std::string why;
    auto lay = layoutOf(rec, why);
    if (!lay) {
      unsupported(vd->getLocation(), "variable '" + name + "': " + why);
      return std::nullopt;
    }
    if (outer.size() > 1) {
      unsupported(vd->getLocation(), "multi-dimensional array of structs '" + name + "'");
      return std::nullopt;
    }
    AggStore st;
    st.layout = *lay;
    st.arrayDecl = !outer.empty();
    st.inMemory = space.has_value() || st.arrayDecl;
    for (const Leaf &lf : *lay) {
      Type lt = *scalarType(lf.type);
      if (!st.inMemory && lf.dims.empty()) {
        ir::Var v;
        v.name = name + "." + lf.path;
        v.type = lt;
        v.loc = loc(vd->getLocation());
        st.leaves.push_back({Binding::Var, k_.addVar(v)});
        continue;
      }
      if (st.inMemory && !lf.dims.empty()) {
        unsupported(vd->getLocation(), "array field '" + lf.path + "' in an array or __shared__ struct '" +
                                           name + "'");
        return std::nullopt;
      }
      ir::Array a;
      a.name = name + "." + lf.path;
      a.space = space.value_or(ir::Space::Local);
      a.elem = lt;
      a.dims = st.inMemory ? (outer.empty() ? std::vector<int64_t>{1} : outer) : lf.dims;
      a.loc = loc(vd->getLocation());
      st.leaves.push_back({Binding::Array, k_.addArray(a)});
    }
    aggs_.push_back(std::move(st));
    return Binding{Binding::Agg, static_cast<int>(aggs_.size() - 1)};
  }

  // Base classes that some pointer conversion in the file makes point into an array of a
  // larger derived class: pointers to them may only be used for element 0 (flow-insensitive,
  // so a use that comes before the conversion in the text is covered too).
  std::set<const clang::Type *> narrowedBases_;
  bool narrowedScanned_ = false;
  void scanNarrowing(const Stmt *s) {
    if (!s)
      return;
    if (const auto *ce = dyn_cast<CastExpr>(s);
        ce && (ce->getCastKind() == CK_DerivedToBase || ce->getCastKind() == CK_UncheckedDerivedToBase) &&
        ce->getType()->isPointerType() && ce->getSubExpr()->getType()->isPointerType()) {
      QualType from = ce->getSubExpr()->getType()->getPointeeType(), to = ce->getType()->getPointeeType();
      if (ctx_.getTypeSizeInChars(from) != ctx_.getTypeSizeInChars(to))
        narrowedBases_.insert(to.getCanonicalType().getUnqualifiedType().getTypePtr());
    }
    for (const Stmt *c : s->children())
      scanNarrowing(c);
  }
  bool narrowedBase(QualType rec) {
    if (!narrowedScanned_) {
      narrowedScanned_ = true;
      std::function<void(const DeclContext *)> walk = [&](const DeclContext *dc) {
        for (const Decl *d : dc->decls()) {
          if (const auto *f = dyn_cast<FunctionDecl>(d); f && f->hasBody())
            scanNarrowing(f->getBody());
          if (const auto *ft = dyn_cast<FunctionTemplateDecl>(d))
            for (const FunctionDecl *sp : ft->specializations())
              if (sp->hasBody())
                scanNarrowing(sp->getBody());
          if (const auto *inner = dyn_cast<DeclContext>(d);
              inner && (isa<NamespaceDecl>(d) || isa<LinkageSpecDecl>(d) || isa<CXXRecordDecl>(d)))
            walk(inner);
        }
      };
      walk(ctx_.getTranslationUnitDecl());
    }
    return narrowedBases_.count(rec.getCanonicalType().getUnqualifiedType().getTypePtr()) > 0;
  }

  // A local pointer-to-struct variable: one pointer variable per leaf.
  std::optional<Binding> declareAggPtr(SourceLocation sl, const std::string &name, QualType rec) {
    std::string why;
    auto lay = layoutOf(rec, why);
    if (!lay) {
      unsupported(sl, "pointer '" + name + "' to struct: " + why);
      return std::nullopt;
    }
    AggStore st;
    st.layout = *lay;
    st.isPtr = true;
    st.single = narrowedBase(rec);
    for (const Leaf &lf : *lay) {
      ir::Var v;
      v.name = name + "." + lf.path;
      v.type = Type::pointer();
      v.loc = loc(sl);
      st.leaves.push_back({Binding::Var, k_.addVar(v)});
    }
    aggs_.push_back(std::move(st));
    return Binding{Binding::Agg, static_cast<int>(aggs_.size() - 1)};
  }

  LValue leafLValue(const AggStore &st, size_t i, const std::string &text) {
    LValue lv;
    const Binding &b = st.leaves[i];
    if (b.id < 0) {
      unsupported(SourceLocation(), "field '" + text + "." + st.layout[i].path + "', which ksynth cannot model");
      lv.ok = false;
      return lv;
    }
    if (b.kind == Binding::Var) {
      lv.isVar = true;
      lv.var = b.id;
      return lv;
    }
    const ir::Array &a = k_.arrays[b.id];
    lv.mem.ptr = ir::mkArrayRef(b.id);
    lv.mem.elem = a.elem;
    lv.mem.text = text + "." + st.layout[i].path;
    if (st.inMemory && !st.arrayDecl)
      lv.mem.index.push_back(ir::mkConstInt(0, Type::i32()));
    return lv;
  }

  AggLV aggOfStore(const AggStore &st, const std::string &text) {
    AggLV r;
    r.ok = true;
    r.layout = st.layout;
    r.text = text;
    for (size_t i = 0; i < st.layout.size(); ++i) {
      r.leaves.push_back(leafLValue(st, i, text));
      if (!r.leaves.back().ok)
        r.ok = false;
    }
    return r;
  }

  AggLV deref(const AggPtr &p, ExprPtr idx, const std::string &text) {
    AggLV r;
    r.ok = p.ok;
    if (p.ok && p.single && !(idx->op == Op::Const && idx->ival == 0)) {
      unsupported(SourceLocation(), "indexing '" + p.text +
                                        "', a base-class pointer into an array of a larger derived class");
      r.ok = false;
    }
    r.layout = p.layout;
    r.text = text;
    for (size_t i = 0; i < p.layout.size(); ++i) {
      LValue lv;
      lv.mem.ptr = p.ptrs[i];
      lv.mem.index.push_back(idx);
      lv.mem.elem = *scalarType(p.layout[i].type);
      lv.mem.text = text + "." + p.layout[i].path;
      if (!p.layout[i].dims.empty())
        lv.ok = r.ok = false;
      r.leaves.push_back(lv);
    }
    return r;
  }

  // A struct-typed lvalue expression.
  AggLV aggLValue(const Expr *e) {
    e = e->IgnoreParens();
    SourceLocation sl = e->getExprLoc();
    std::string txt = text(e->getSourceRange());
    if (const auto *ic = dyn_cast<ImplicitCastExpr>(e)) {
      if (ic->getCastKind() == CK_NoOp || ic->getCastKind() == CK_LValueToRValue)
        return aggLValue(ic->getSubExpr());
      if (ic->getCastKind() == CK_DerivedToBase || ic->getCastKind() == CK_UncheckedDerivedToBase)
        return restrictAgg(aggLValue(ic->getSubExpr()), basePrefix(ic), txt);
    }
    if (const auto *mt = dyn_cast<MaterializeTemporaryExpr>(e))
      return aggLValue(mt->getSubExpr());
    if (const auto *dr = dyn_cast<DeclRefExpr>(e)) {
      auto b = lookup(dr->getDecl());
      if (b && b->kind == Binding::Agg && !aggs_[b->id].isPtr && !aggs_[b->id].arrayDecl)
        return aggOfStore(aggs_[b->id], txt);
    }
    if (const auto *me = dyn_cast<MemberExpr>(e)) {
      const auto *fd = dyn_cast<FieldDecl>(me->getMemberDecl());
      if (fd) {
        AggLV base = memberBase(me);
        if (!base.ok)
          return base;
        return restrictAgg(base, fd->getNameAsString() + ".", txt);
      }
    }
    if (const auto *as = dyn_cast<ArraySubscriptExpr>(e)) {
      // An element of an array-of-structs field, by a constant index: `q.a[2]`.
      const Expr *b = as->getBase()->IgnoreParenImpCasts();
      if (const auto *me = dyn_cast<MemberExpr>(b); me && isa<FieldDecl>(me->getMemberDecl())) {
        auto c = constInt(as->getIdx());
        AggLV base = memberBase(me);
        if (!base.ok)
          return base;
        if (!c) {
          unsupported(sl, "non-constant index into an array of structs inside a struct '" + txt + "'");
          return {};
        }
        return restrictAgg(base, me->getMemberDecl()->getNameAsString() + "[" + std::to_string(*c) + "].",
                           txt);
      }
      AggPtr p = aggPtr(as->getBase());
      if (!p.ok)
        return {};
      return deref(p, indexValue(as->getIdx()), txt);
    }
    if (const auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) {
      if (isa<CXXThisExpr>(uo->getSubExpr()->IgnoreParenImpCasts()) && frames_.back().thisObj)
        return *frames_.back().thisObj;
      AggPtr p = aggPtr(uo->getSubExpr());
      if (!p.ok)
        return {};
      return deref(p, ir::mkConstInt(0, Type::i32()), txt);
    }
    unsupported(sl, std::string("struct-valued expression '") + e->getStmtClassName() + "' (" + txt + ")");
    return {};
  }

  // The struct a member expression selects from: `b.f` -> b, `p->f` -> *p, `f` in a method -> *this.
  AggLV memberBase(const MemberExpr *me) {
    const Expr *b = me->getBase();
    std::string txt = text(b->getSourceRange());
    if (me->isArrow()) {
      if (isa<CXXThisExpr>(b->IgnoreParenImpCasts())) {
        if (frames_.back().thisObj)
          return *frames_.back().thisObj;
        unsupported(me->getExprLoc(), "'this' outside a method call ksynth inlines");
        return {};
      }
      AggPtr p = aggPtr(b);
      if (!p.ok)
        return {};
      return deref(p, ir::mkConstInt(0, Type::i32()), txt);
    }
    return aggLValue(b);
  }

  // A pointer-to-struct expression.
  AggPtr aggPtr(const Expr *e) {
    e = e->IgnoreParens();
    SourceLocation sl = e->getExprLoc();
    std::string txt = text(e->getSourceRange());
    if (const auto *ic = dyn_cast<ImplicitCastExpr>(e)) {
      switch (ic->getCastKind()) {
      case CK_NoOp:
      case CK_LValueToRValue:
        if (const auto *dr = dyn_cast<DeclRefExpr>(ic->getSubExpr()->IgnoreParens())) {
          auto b = lookup(dr->getDecl());
          if (b && b->kind == Binding::Agg && aggs_[b->id].isPtr) {
            const AggStore &st = aggs_[b->id];
            AggPtr r;
            r.ok = true;
            r.layout = st.layout;
            r.text = txt;
            r.single = st.single;
            for (const Binding &lb : st.leaves) {
              if (lb.id < 0)
                return {};
              r.ptrs.push_back(lb.kind == Binding::Array ? ir::mkArrayRef(lb.id)
                                                         : ir::mkVar(lb.id, Type::pointer()));
            }
            return r;
          }
        }
        return aggPtr(ic->getSubExpr());
      case CK_ArrayToPointerDecay: {
        const Expr *a = ic->getSubExpr()->IgnoreParens();
        if (const auto *dr = dyn_cast<DeclRefExpr>(a)) {
          auto b = lookup(dr->getDecl());
          if (b && b->kind == Binding::Agg && aggs_[b->id].arrayDecl) {
            const AggStore &st = aggs_[b->id];
            AggPtr r;
            r.ok = true;
            r.layout = st.layout;
            r.text = txt;
            for (const Binding &lb : st.leaves)
              r.ptrs.push_back(ir::mkArrayRef(lb.id));
            return r;
          }
        }
        break;
      }
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase: {
        AggPtr r = restrictPtr(aggPtr(ic->getSubExpr()), basePrefix(ic));
        QualType from = ic->getSubExpr()->getType()->getPointeeType(), to = ic->getType()->getPointeeType();
        if (!from.isNull() && !to.isNull() && ctx_.getTypeSizeInChars(from) != ctx_.getTypeSizeInChars(to))
          r.single = true;
        return r;
      }
      default: break;
      }
    }
    if (const auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_AddrOf) {
      AggLV a = aggLValue(uo->getSubExpr());
      if (!a.ok)
        return {};
      AggPtr r;
      r.ok = true;
      r.layout = a.layout;
      r.text = txt;
      for (const LValue &lv : a.leaves) {
        if (lv.isVar || lv.mem.index.size() != 1) {
          unsupported(sl, "address of a struct that is not in memory '" + txt + "'");
          return {};
        }
        r.ptrs.push_back(memAddress(lv.mem, uo));
      }
      return r;
    }
    if (const auto *bo = dyn_cast<BinaryOperator>(e);
        bo && (bo->getOpcode() == BO_Add || bo->getOpcode() == BO_Sub) && pointsToRecord(bo->getLHS()->getType())) {
      AggPtr p = aggPtr(bo->getLHS());
      if (!p.ok)
        return p;
      if (p.single) {
        unsupported(sl, "arithmetic on '" + p.text + "', a base-class pointer into an array of a larger derived class");
        return {};
      }
      ExprPtr off = cast(rvalue(bo->getRHS()), Type::i64());
      if (bo->getOpcode() == BO_Sub)
        off = ir::mkUnary(Op::Neg, Type::i64(), off);
      for (ExprPtr &q : p.ptrs)
        q = ir::mkPtrAdd(q, off, loc(sl));
      p.text = txt;
      return p;
    }
    if (const auto *co = dyn_cast<ConditionalOperator>(e)) {
      ExprPtr c = toBool(rvalue(co->getCond()));
      AggPtr a = aggPtr(co->getTrueExpr()), b = aggPtr(co->getFalseExpr());
      if (!a.ok || !b.ok || a.ptrs.size() != b.ptrs.size())
        return {};
      for (size_t i = 0; i < a.ptrs.size(); ++i)
        a.ptrs[i] = ir::mkSelect(Type::pointer(), c, a.ptrs[i], b.ptrs[i], loc(sl));
      a.text = txt;
      return a;
    }
    unsupported(sl, std::string("pointer-to-struct expression '") + e->getStmtClassName() + "' (" + txt + ")");
    return {};
  }

  void assignAggPtr(AggStore &st, const AggPtr &src, SourceLocation sl) {
    if (!src.ok)
      return;
    st.single |= src.single;
    if (src.ptrs.size() != st.leaves.size()) {
      unsupported(sl, "pointer conversion between structs of different layouts");
      return;
    }
    for (size_t i = 0; i < st.leaves.size(); ++i) {
      auto s = emit(StmtKind::Assign, sl);
      s->var = st.leaves[i].id;
      s->value = src.ptrs[i];
    }
  }

  ExprPtr readLeaf(const LValue &lv, Type t, SourceLocation sl) {
    if (!lv.ok) {
      unmodelled(sl);
      return ir::mkConstInt(0, t);
    }
    if (lv.isVar)
      return ir::mkVar(lv.var, k_.vars[lv.var].type, loc(sl));
    if (lv.mem.index.empty())
      return lv.mem.ptr;
    int tmp = newTemp(lv.mem.elem, "ld");
    auto s = emit(StmtKind::Load, sl);
    s->var = tmp;
    s->ptr = lv.mem.ptr;
    s->index = lv.mem.index;
    s->text = lv.mem.text;
    s->precondition = inAnnotation_;
    return ir::mkVar(tmp, lv.mem.elem);
  }

  // Whole-array leaves (array fields of a struct held in variables) are copied element by element.
  bool copyArrayLeaf(const LValue &dst, const LValue &src, const Leaf &lf, SourceLocation sl) {
    int64_t n = 1;
    for (int64_t d : lf.dims)
      n *= d;
    if (n > 256) {
      unsupported(sl, "copy of a struct with an array field of more than 256 elements");
      return false;
    }
    for (int64_t f = 0; f < n; ++f) {
      std::vector<ExprPtr> idx;
      int64_t rest = f;
      for (size_t d = lf.dims.size(); d-- > 0;) {
        idx.insert(idx.begin(), ir::mkConstInt(rest % lf.dims[d], Type::i32()));
        rest /= lf.dims[d];
      }
      LValue s = src, t = dst;
      s.mem.index = idx;
      t.mem.index = idx;
      writeLValue(t, readLeaf(s, s.mem.elem, sl), sl);
    }
    return true;
  }

  // dst = src, field by field (a trivial copy or assignment).
  void copyAgg(const AggLV &dst, const AggLV &src, SourceLocation sl) {
    if (!dst.ok || !src.ok)
      return;
    if (dst.layout.size() != src.layout.size()) {
      unsupported(sl, "copy between structs of different layouts");
      return;
    }
    // Read every field first: the source and destination may be the same struct.
    std::vector<ExprPtr> vals(dst.layout.size());
    for (size_t i = 0; i < src.layout.size(); ++i)
      if (src.layout[i].dims.empty())
        vals[i] = readLeaf(src.leaves[i], *scalarType(src.layout[i].type), sl);
    for (size_t i = 0; i < dst.layout.size(); ++i) {
      if (!dst.layout[i].dims.empty()) {
        if (dst.leaves[i].isVar || src.leaves[i].isVar || !dst.leaves[i].mem.index.empty() ||
            !src.leaves[i].mem.index.empty()) {
          unsupported(sl, "copy of array field '" + dst.layout[i].path + "'");
          return;
        }
        copyArrayLeaf(dst.leaves[i], src.leaves[i], dst.layout[i], sl);
        continue;
      }
      writeLeaf(dst.leaves[i], vals[i], sl);
    }
  }

  void writeLeaf(const LValue &lv, ExprPtr v, SourceLocation sl) {
    if (!lv.ok) {
      unmodelled(sl);
      return;
    }
    if (!lv.isVar && lv.mem.index.empty()) {
      unsupported(sl, "assignment to pointer field '" + lv.mem.text + "' of a struct parameter");
      return;
    }
    writeLValue(lv, v, sl);
  }

  // Every field takes some value (a default-initialised struct).
  void havocAgg(const AggLV &dst, SourceLocation sl, const std::string &why) {
    if (!dst.ok)
      return;
    for (size_t i = 0; i < dst.layout.size(); ++i) {
      const LValue &lv = dst.leaves[i];
      if (lv.isVar) {
        auto s = emit(StmtKind::Havoc, sl);
        s->var = lv.var;
        s->text = why + " '" + dst.text + "." + dst.layout[i].path + "'";
      } else if (!lv.mem.index.empty() || !dst.layout[i].dims.empty()) {
        // Memory: an unwritten struct in memory holds whatever was there. For local arrays
        // (array fields) nothing needs doing: unwritten local memory is already unknown.
        if (k_.arrays[lv.mem.ptr->id].space != ir::Space::Local) {
          int tmp = newTemp(lv.mem.elem, "uninit");
          auto h = emit(StmtKind::Havoc, sl);
          h->var = tmp;
          h->text = why + " '" + dst.text + "." + dst.layout[i].path + "'";
          writeLValue(lv, ir::mkVar(tmp, lv.mem.elem), sl);
        }
      }
    }
  }

  // Initialises struct `dst` (of type `qt`) from an initialiser expression.
  void initAgg(const AggLV &dst, QualType qt, const Expr *init, SourceLocation sl) {
    if (!dst.ok)
      return;
    if (dst.layout.empty()) { // no fields (a handle such as a cooperative group): only effects
      if (init && isa<CallExpr>(init->IgnoreParenImpCasts()))
        discard(init->IgnoreParenImpCasts());
      return;
    }
    if (!init) {
      havocAgg(dst, sl, "the value of uninitialised");
      return;
    }
    init = init->IgnoreParens();
    if (const auto *ew = dyn_cast<ExprWithCleanups>(init))
      return initAgg(dst, qt, ew->getSubExpr(), sl);
    if (const auto *ic = dyn_cast<ImplicitCastExpr>(init); ic && ic->getCastKind() == CK_NoOp)
      return initAgg(dst, qt, ic->getSubExpr(), sl);
    if (const auto *ce = dyn_cast<CXXConstructExpr>(init)) {
      const CXXConstructorDecl *cd = ce->getConstructor();
      if (cd->isDefaultConstructor() && cd->isTrivial()) {
        havocAgg(dst, sl, "the value of uninitialised");
        return;
      }
      if (cd->isCopyOrMoveConstructor() && (cd->isTrivial() || cd->isDefaulted()) && ce->getNumArgs() == 1) {
        copyAgg(dst, aggLValue(ce->getArg(0)), sl);
        return;
      }
      unsupported(sl, "constructor call '" + text(init->getSourceRange()) + "'");
      return;
    }
    if (isa<ImplicitValueInitExpr>(init) || isa<CXXScalarValueInitExpr>(init)) {
      zeroAgg(dst, sl);
      return;
    }
    if (const auto *il = dyn_cast<InitListExpr>(init)) {
      if (il->getNumInits() == 1 && isRecord(il->getInit(0)->getType()) &&
          ctx_.hasSameUnqualifiedType(il->getInit(0)->getType(), qt))
        return initAgg(dst, qt, il->getInit(0), sl);
      const RecordDecl *rd = qt.getCanonicalType()->getAsRecordDecl();
      if (!rd || !rd->getDefinition()) {
        unsupported(sl, "initialiser list '" + text(init->getSourceRange()) + "'");
        return;
      }
      rd = rd->getDefinition();
      unsigned n = 0;
      auto next = [&]() -> const Expr * { return n < il->getNumInits() ? il->getInit(n++) : nullptr; };
      if (const auto *cx = dyn_cast<CXXRecordDecl>(rd)) {
        for (const CXXBaseSpecifier &b : cx->bases()) {
          const RecordDecl *bd = b.getType()->getAsRecordDecl();
          const Expr *bi = next();
          AggLV sub = restrictAgg(dst, bd->getNameAsString() + "::", dst.text);
          if (bi)
            initAgg(sub, b.getType(), bi, sl);
          else
            zeroAgg(sub, sl);
        }
      }
      for (const FieldDecl *f : rd->fields()) {
        const Expr *fi = next();
        std::string name = f->getNameAsString();
        QualType ft = f->getType();
        if (isRecord(ft)) {
          AggLV sub = restrictAgg(dst, name + ".", dst.text + "." + name);
          if (fi)
            initAgg(sub, ft, fi, sl);
          else
            zeroAgg(sub, sl);
          continue;
        }
        size_t li = findLeaf(dst.layout, name);
        if (li == dst.layout.size() || !dst.layout[li].dims.empty()) {
          if (fi && !isa<ImplicitValueInitExpr>(fi)) {
            unsupported(sl, "initialiser of array field '" + name + "'");
            return;
          }
          zeroAgg(fieldLeaves(dst, name), sl);
          continue;
        }
        Type lt = *scalarType(dst.layout[li].type);
        ExprPtr v = fi && !isa<ImplicitValueInitExpr>(fi) ? rvalue(fi) : zeroOf(lt);
        writeLeaf(dst.leaves[li], cast(v, lt), sl);
      }
      return;
    }
    // Any other struct-valued expression: copy from it as an lvalue.
    copyAgg(dst, aggLValue(init), sl);
  }

  ExprPtr zeroOf(Type t) {
    if (t.isFloat())
      return ir::mkConstFloat(0, t);
    if (t.isBool())
      return ir::mkConstBool(false);
    if (t.isPtr()) {
      unsupported(SourceLocation(), "null pointer");
      return ir::mkConstInt(0, Type::pointer());
    }
    return ir::mkConstInt(0, t);
  }

  void zeroAgg(const AggLV &dst, SourceLocation sl) {
    if (!dst.ok)
      return;
    for (size_t i = 0; i < dst.layout.size(); ++i) {
      Type lt = *scalarType(dst.layout[i].type);
      if (!dst.layout[i].dims.empty()) {
        unsupported(sl, "zero-initialised array field '" + dst.layout[i].path + "'");
        continue;
      }
      writeLeaf(dst.leaves[i], zeroOf(lt), sl);
    }
  }

  // `a = b` on structs (a trivial copy assignment).
  bool isTrivialRecordAssign(const Expr *e, const Expr *&lhs, const Expr *&rhs) {
    if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e)) {
      if (oc->getOperator() != OO_Equal || oc->getNumArgs() != 2 || !isRecord(oc->getArg(0)->getType()))
        return false;
      const auto *md = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee());
      if (!md || !(md->isCopyAssignmentOperator() || md->isMoveAssignmentOperator()) ||
          !(md->isTrivial() || md->isDefaulted()))
        return false;
      lhs = oc->getArg(0);
      rhs = oc->getArg(1);
      return true;
    }
    if (const auto *bo = dyn_cast<BinaryOperator>(e);
        bo && bo->getOpcode() == BO_Assign && isRecord(bo->getLHS()->getType())) {
      lhs = bo->getLHS();
      rhs = bo->getRHS();
      return true;
    }
    return false;
  }

  // ---- expressions ----------------------------------------------------------------------

  ExprPtr cast(ExprPtr e, Type to, Loc l = {}) {
    if (e->type == to)
      return e;
    return ir::mkCast(to, std::move(e), l);
  }

  // Evaluates an integer constant expression (sizeof, enumerators, constexpr, literals).
  std::optional<int64_t> constInt(const Expr *e) {
    if (!e->getType()->isIntegralOrEnumerationType() || e->isValueDependent())
      return std::nullopt;
    Expr::EvalResult r;
    if (e->HasSideEffects(ctx_) || !e->EvaluateAsInt(r, ctx_))
      return std::nullopt;
    if (!r.Val.getInt().isRepresentableByInt64())
      return std::nullopt; // an unsigned 64-bit value past INT64_MAX (getExtValue would assert)
    return r.Val.getInt().getExtValue();
  }

  ExprPtr rvalue(const Expr *e) {
    e = e->IgnoreParens();
    SourceLocation sl = e->getExprLoc();
    if (const Expr *l = nullptr, *r = nullptr; isTrivialRecordAssign(e, l, r)) {
      AggLV src = aggLValue(r);
      AggLV dst = aggLValue(l);
      copyAgg(dst, src, sl);
      return ir::mkConstInt(0, Type::i32());
    }
    if (isRecord(e->getType()) && !isa<CallExpr>(e)) {
      unsupported(sl, "struct value '" + text(e->getSourceRange()) + "' in this position");
      return ir::mkConstInt(0, Type::i32());
    }
    if (pointsToRecord(e->getType())) {
      unsupported(sl, "pointer to struct '" + text(e->getSourceRange()) + "' in this position");
      return ir::mkConstInt(0, Type::pointer());
    }
    if (auto c = constInt(e)) {
      if (!containsBuiltinOrCall(e))
        return ir::mkConstInt(*c, typeOr(e->getType(), sl), loc(sl));
    }
    if (const auto *il = dyn_cast<IntegerLiteral>(e))
      return ir::mkConstInt(static_cast<int64_t>(il->getValue().getZExtValue()),
                            typeOr(e->getType(), sl), loc(sl));
    if (const auto *fl = dyn_cast<FloatingLiteral>(e))
      return ir::mkConstFloat(fl->getValueAsApproximateDouble(), typeOr(e->getType(), sl), loc(sl));
    if (const auto *bl = dyn_cast<CXXBoolLiteralExpr>(e))
      return ir::mkConstBool(bl->getValue());
    if (const auto *ce = dyn_cast<CharacterLiteral>(e))
      return ir::mkConstInt(ce->getValue(), typeOr(e->getType(), sl));
    if (const auto *ic = dyn_cast<ImplicitCastExpr>(e))
      return castExpr(ic, ic->getCastKind(), ic->getSubExpr());
    if (const auto *ec = dyn_cast<ExplicitCastExpr>(e))
      return castExpr(ec, ec->getCastKind(), ec->getSubExpr());
    if (const auto *dr = dyn_cast<DeclRefExpr>(e)) {
      if (const auto *ecd = dyn_cast<EnumConstantDecl>(dr->getDecl()))
        return ir::mkConstInt(ecd->getInitVal().getExtValue(), typeOr(e->getType(), sl));
      if (const auto *f = dyn_cast<FunctionDecl>(dr->getDecl()))
        return ir::mkConstInt(fnId(f), Type::u64(), loc(sl)); // a function used as a value
      auto b = lookup(dr->getDecl());
      if (!b) {
        unsupported(sl, "reference to '" + dr->getDecl()->getNameAsString() + "'");
        return ir::mkConstInt(0, Type::i32());
      }
      if (b->kind == Binding::Agg) {
        unsupported(sl, "struct '" + dr->getDecl()->getNameAsString() + "' used as a scalar");
        return ir::mkConstInt(0, Type::i32());
      }
      if (b->kind == Binding::Array)
        return ir::mkArrayRef(b->id, loc(sl));
      return ir::mkVar(b->id, k_.vars[b->id].type, loc(sl));
    }
    if (const auto *po = dyn_cast<PseudoObjectExpr>(e))
      return builtinVar(po);
    if (const auto *bo = dyn_cast<BinaryOperator>(e))
      return binary(bo);
    if (const auto *uo = dyn_cast<UnaryOperator>(e))
      return unary(uo);
    if (const auto *co = dyn_cast<ConditionalOperator>(e))
      return conditional(co->getCond(), co->getTrueExpr(), co->getFalseExpr(), e);
    if (const auto *call = dyn_cast<CallExpr>(e))
      return callExpr(call);
    if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e)) {
      LValue lv = lvalue(e);
      return readLValue(lv, e);
    }
    if (const auto *ew = dyn_cast<ExprWithCleanups>(e))
      return rvalue(ew->getSubExpr());
    if (const auto *mt = dyn_cast<MaterializeTemporaryExpr>(e))
      return rvalue(mt->getSubExpr());
    if (const auto *dae = dyn_cast<CXXDefaultArgExpr>(e))
      return rvalue(dae->getExpr());
    unsupported(sl, std::string("expression '") + e->getStmtClassName() + "' (" +
                        text(e->getSourceRange()) + ")");
    auto t = scalarType(e->getType());
    return ir::mkConstInt(0, t.value_or(Type::i32()));
  }

  // A subscript as an integer (C allows a bool subscript: false/true are 0/1).
  ExprPtr indexValue(const Expr *e) {
    ExprPtr v = rvalue(e);
    return v->type.isBool() ? ir::mkSelect(Type::i32(), v, ir::mkConstInt(1, Type::i32()), ir::mkConstInt(0, Type::i32()))
                            : v;
  }

  bool containsBuiltinOrCall(const Expr *e) {
    // EvaluateAsInt folds through nothing thread-dependent, but be explicit.
    return isa<CallExpr>(e->IgnoreParenImpCasts());
  }

  ExprPtr builtinVar(const PseudoObjectExpr *po) {
    const auto *pr = dyn_cast<MSPropertyRefExpr>(po->getSyntacticForm());
    if (pr) {
      const Expr *base = pr->getBaseExpr()->IgnoreImplicit();
      if (const auto *ov = dyn_cast<OpaqueValueExpr>(base))
        base = ov->getSourceExpr()->IgnoreImplicit();
      if (const auto *dr = dyn_cast<DeclRefExpr>(base)) {
        std::string var = dr->getDecl()->getNameAsString();
        std::string prop = pr->getPropertyDecl()->getNameAsString();
        int dim = prop == "x" ? 0 : prop == "y" ? 1 : prop == "z" ? 2 : -1;
        ir::Builtin b;
        bool known = true;
        if (var == "threadIdx")
          b = ir::Builtin::ThreadIdx;
        else if (var == "blockIdx")
          b = ir::Builtin::BlockIdx;
        else if (var == "blockDim")
          b = ir::Builtin::BlockDim;
        else if (var == "gridDim")
          b = ir::Builtin::GridDim;
        else
          known = false;
        if (known && dim >= 0)
          return ir::mkBuiltin(b, dim);
      }
    }
    unsupported(po->getExprLoc(), "builtin variable '" + text(po->getSourceRange()) + "'");
    return ir::mkConstInt(0, Type::u32());
  }

  ExprPtr castExpr(const Expr *whole, CastKind ck, const Expr *sub) {
    SourceLocation sl = whole->getExprLoc();
    switch (ck) {
    case CK_LValueToRValue: {
      const Expr *inner = sub->IgnoreParens();
      if (isa<ConditionalOperator>(inner) || isa<BinaryOperator>(inner) || isa<UnaryOperator>(inner) ||
          isa<CallExpr>(inner)) {
        if (!(isa<UnaryOperator>(inner) && llvm::cast<UnaryOperator>(inner)->getOpcode() == UO_Deref))
          return rvalue(inner); // an lvalue-valued expression: read its value
      }
      LValue lv = lvalue(sub);
      return readLValue(lv, sub);
    }
    case CK_FunctionToPointerDecay:
      if (const auto *dr = dyn_cast<DeclRefExpr>(sub->IgnoreParens()))
        if (const auto *f = dyn_cast<FunctionDecl>(dr->getDecl()))
          return ir::mkConstInt(fnId(f), Type::u64(), loc(sl));
      return rvalue(sub);
    case CK_NoOp:
    case CK_ToVoid:
      return rvalue(sub);
    case CK_ArrayToPointerDecay: {
      // `c ? s1 : s2` of two arrays: a choice between the two decayed pointers.
      if (const auto *co = dyn_cast<ConditionalOperator>(sub->IgnoreParens())) {
        ExprPtr c = toBool(rvalue(co->getCond()));
        auto decay = [&](const Expr *x) {
          LValue l = lvalue(x);
          if (!l.ok || l.isVar) {
            unmodelled(sl);
            return ir::mkConstInt(0, Type::pointer());
          }
          return memAddress(l.mem, x);
        };
        ExprPtr a = decay(co->getTrueExpr()), b = decay(co->getFalseExpr());
        return ir::mkSelect(Type::pointer(), c, a, b, loc(sl));
      }
      LValue lv = lvalue(sub);
      if (!lv.ok || lv.isVar)
        return ir::mkConstInt(0, Type::pointer());
      // `a` or `s[i]` of a multi-dimensional array: pointer to the first element.
      return memAddress(lv.mem, sub);
    }
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_FloatingCast:
    case CK_FloatingToBoolean:
    case CK_BooleanToSignedIntegral: {
      ExprPtr v = rvalue(sub);
      Type to = typeOr(whole->getType(), sl);
      if (to.isBool() && !v->type.isBool()) {
        ExprPtr zero = v->type.isFloat() ? ir::mkConstFloat(0, v->type) : ir::mkConstInt(0, v->type);
        return ir::mkBinary(Op::Ne, Type::boolean(), v, zero, loc(sl));
      }
      ExprPtr c = cast(v, to, loc(sl));
      if (auto *m = const_cast<ir::Expr *>(c.get()); m != v.get())
        m->text = text(whole->getSourceRange());
      return c;
    }
    case CK_PointerToBoolean: {
      ExprPtr v = rvalue(sub);
      (void)v;
      unsupported(sl, "pointer used as a boolean");
      return ir::mkConstBool(true);
    }
    case CK_NullToPointer:
      if (whole->getType()->isFunctionPointerType())
        return ir::mkConstInt(0, Type::u64(), loc(sl));
      [[fallthrough]];
    case CK_BitCast:
    case CK_IntegralToPointer:
    case CK_PointerToIntegral:
    default:
      unsupported(sl, std::string("cast '") + CastExpr::getCastKindName(ck) + "' (" +
                          text(whole->getSourceRange()) + ")");
      return ir::mkConstInt(0, scalarType(whole->getType()).value_or(Type::i32()));
    }
  }

  // The address of a memory lvalue as a pointer expression.
  ExprPtr memAddress(const Mem &m, const Expr *src) {
    if (m.index.empty())
      return m.ptr;
    if (m.index.size() == 1 && m.ptr->op != Op::ArrayRef)
      return ir::mkPtrAdd(m.ptr, m.index[0]);
    // Flatten the given leading indices of a multi-dimensional array.
    const ir::Array &a = k_.arrays[m.ptr->id];
    ExprPtr off;
    for (size_t i = 0; i < m.index.size(); ++i) {
      int64_t stride = 1;
      for (size_t j = i + 1; j < a.dims.size(); ++j)
        stride *= a.dims[j];
      ExprPtr idx = cast(m.index[i], Type::i64());
      ExprPtr term = stride == 1 ? idx
                                 : ir::mkBinary(Op::Mul, Type::i64(), idx,
                                                ir::mkConstInt(stride, Type::i64()));
      off = off ? ir::mkBinary(Op::Add, Type::i64(), off, term) : term;
    }
    return ir::mkPtrAdd(m.ptr, off);
  }

  ExprPtr readLValue(const LValue &lv, const Expr *src) {
    if (!lv.ok) {
      unmodelled(src->getExprLoc());
      return ir::mkConstInt(0, scalarType(src->getType()).value_or(Type::i32()));
    }
    if (lv.isVar)
      return ir::mkVar(lv.var, k_.vars[lv.var].type, loc(src->getExprLoc()));
    if (lv.mem.index.empty())
      return lv.mem.ptr; // the value of a pointer parameter or an array name
    int t = newTemp(lv.mem.elem, "ld");
    auto s = emit(StmtKind::Load, src->getExprLoc());
    s->var = t;
    s->ptr = lv.mem.ptr;
    s->index = lv.mem.index;
    s->text = lv.mem.text;
    s->precondition = inAnnotation_;
    return ir::mkVar(t, lv.mem.elem);
  }

  void writeLValue(const LValue &lv, ExprPtr v, SourceLocation sl) {
    if (!lv.ok) {
      unmodelled(sl);
      return;
    }
    if (lv.isVar) {
      auto s = emit(StmtKind::Assign, sl);
      s->var = lv.var;
      s->value = cast(v, k_.vars[lv.var].type);
      return;
    }
    if (lv.mem.index.empty()) {
      unsupported(sl, "assignment to pointer parameter or array '" + lv.mem.text + "'");
      return;
    }
    if (lv.mem.ptr->op == Op::ArrayRef && k_.arrays[lv.mem.ptr->id].space == ir::Space::Constant) {
      unsupported(sl, "write to __constant__ memory '" + lv.mem.text + "' (read-only for kernels)");
      return;
    }
    auto s = emit(StmtKind::Store, sl);
    s->ptr = lv.mem.ptr;
    s->index = lv.mem.index;
    s->value = cast(v, lv.mem.elem);
    s->text = lv.mem.text;
  }

  LValue lvalue(const Expr *e) {
    e = e->IgnoreParens();
    SourceLocation sl = e->getExprLoc();
    LValue lv;
    if (const auto *dr = dyn_cast<DeclRefExpr>(e)) {
      auto b = lookup(dr->getDecl());
      if (!b) {
        unsupported(sl, "reference to '" + dr->getDecl()->getNameAsString() + "'");
        lv.ok = false;
        return lv;
      }
      if (b->kind == Binding::Agg) {
        unsupported(sl, "struct '" + dr->getDecl()->getNameAsString() + "' used as a scalar");
        lv.ok = false;
        return lv;
      }
      if (b->kind == Binding::Var) {
        lv.isVar = true;
        lv.var = b->id;
        return lv;
      }
      const ir::Array &a = k_.arrays[b->id];
      lv.mem.ptr = ir::mkArrayRef(b->id, loc(sl));
      lv.mem.elem = a.elem;
      lv.mem.text = a.name;
      // A scalar global variable is the single element of its array.
      if (a.paramIndex < 0 && a.dims.size() == 1 && a.dims[0] == 1 &&
          !dr->getType()->isArrayType())
        lv.mem.index.push_back(ir::mkConstInt(0, Type::i32()));
      return lv;
    }
    if (const auto *me = dyn_cast<MemberExpr>(e); me && isa<FieldDecl>(me->getMemberDecl())) {
      AggLV base = memberBase(me);
      if (!base.ok) {
        lv.ok = false;
        return lv;
      }
      size_t i = findLeaf(base.layout, me->getMemberDecl()->getNameAsString());
      if (i < base.layout.size())
        return base.leaves[i];
      unsupported(sl, "member '" + text(e->getSourceRange()) + "' used as a value");
      lv.ok = false;
      return lv;
    }
    if (const auto *as = dyn_cast<ArraySubscriptExpr>(e)) {
      // An element of a struct's array of pointers, by a constant index: `q.p[4]`.
      if (const auto *me = dyn_cast<MemberExpr>(as->getBase()->IgnoreParenImpCasts());
          me && isa<FieldDecl>(me->getMemberDecl()) && me->getType()->isArrayType() &&
          !ctx_.getAsArrayType(me->getType())->getElementType()->isArrayType()) {
        std::string nm = me->getMemberDecl()->getNameAsString();
        AggLV base = memberBase(me);
        if (!base.ok) {
          lv.ok = false;
          return lv;
        }
        if (findLeaf(base.layout, nm) == base.layout.size()) {
          auto c = constInt(as->getIdx());
          size_t li = c ? findLeaf(base.layout, nm + "[" + std::to_string(*c) + "]") : base.layout.size();
          if (li == base.layout.size()) {
            unsupported(sl, "non-constant or out-of-range index into a struct's array of pointers '" +
                                text(e->getSourceRange()) + "'");
            lv.ok = false;
            return lv;
          }
          return base.leaves[li];
        }
      }
      // Collect a chain a[i][j]... down to a declared multi-dimensional array.
      std::vector<const Expr *> idx;
      const Expr *base = as;
      while (const auto *s = dyn_cast<ArraySubscriptExpr>(base->IgnoreParens())) {
        idx.push_back(s->getIdx());
        const Expr *b = s->getBase()->IgnoreParens();
        if (const auto *ic = dyn_cast<ImplicitCastExpr>(b);
            ic && ic->getCastKind() == CK_ArrayToPointerDecay &&
            isa<ArraySubscriptExpr>(ic->getSubExpr()->IgnoreParens())) {
          base = ic->getSubExpr();
          continue;
        }
        base = b;
        break;
      }
      std::reverse(idx.begin(), idx.end());
      // base is now the pointer-valued (or decayed array) expression.
      const Expr *arr = base;
      if (const auto *ic = dyn_cast<ImplicitCastExpr>(arr);
          ic && ic->getCastKind() == CK_ArrayToPointerDecay)
        arr = ic->getSubExpr()->IgnoreParens();
      if (const auto *dr = dyn_cast<DeclRefExpr>(arr); dr && dr->getType()->isArrayType()) {
        auto b = lookup(dr->getDecl());
        if (b && b->kind == Binding::Array) {
          const ir::Array &a = k_.arrays[b->id];
          lv.mem.ptr = ir::mkArrayRef(b->id, loc(sl));
          lv.mem.elem = a.elem;
          for (const Expr *i : idx)
            lv.mem.index.push_back(indexValue(i));
          lv.mem.text = text(e->getSourceRange());
          if (a.dims.size() > 1 && lv.mem.index.size() != a.dims.size()) {
            // Partial subscript of a multi-dimensional array: a pointer to a row; the
            // caller decays it. Keep it as is.
          }
          return lv;
        }
      }
      if (isa<MemberExpr>(arr) && arr->getType()->isArrayType()) {
        // An array field of a struct held in variables: a local array of its own.
        LValue blv = lvalue(arr);
        if (!blv.ok || blv.isVar || !blv.mem.index.empty() || blv.mem.ptr->op != Op::ArrayRef) {
          if (blv.ok)
            unsupported(sl, "subscript of an array field '" + text(e->getSourceRange()) + "'");
          lv.ok = false;
          return lv;
        }
        lv.mem = blv.mem;
        for (const Expr *i : idx)
          lv.mem.index.push_back(indexValue(i));
        lv.mem.text = text(e->getSourceRange());
        return lv;
      }
      // Pointer subscript: p[i] (p possibly itself computed).
      ExprPtr p = rvalue(base);
      if (idx.size() != 1) {
        unsupported(sl, "multi-level pointer subscript '" + text(e->getSourceRange()) + "'");
        lv.ok = false;
        return lv;
      }
      lv.mem.ptr = p;
      lv.mem.index.push_back(indexValue(idx[0]));
      lv.mem.elem = typeOr(e->getType(), sl);
      lv.mem.text = text(e->getSourceRange());
      return lv;
    }
    if (const auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) {
      lv.mem.ptr = rvalue(uo->getSubExpr());
      lv.mem.index.push_back(ir::mkConstInt(0, Type::i32()));
      lv.mem.elem = typeOr(e->getType(), sl);
      lv.mem.text = text(e->getSourceRange());
      return lv;
    }
    if (const auto *ic = dyn_cast<ImplicitCastExpr>(e); ic && ic->getCastKind() == CK_NoOp)
      return lvalue(ic->getSubExpr());
    if (const auto *po = dyn_cast<PseudoObjectExpr>(e)) {
      (void)po;
    }
    unsupported(sl, std::string("lvalue '") + e->getStmtClassName() + "' (" +
                        text(e->getSourceRange()) + ")");
    lv.ok = false;
    return lv;
  }

  static std::optional<Op> binOp(BinaryOperatorKind k) {
    switch (k) {
    case BO_Add: case BO_AddAssign: return Op::Add;
    case BO_Sub: case BO_SubAssign: return Op::Sub;
    case BO_Mul: case BO_MulAssign: return Op::Mul;
    case BO_Div: case BO_DivAssign: return Op::Div;
    case BO_Rem: case BO_RemAssign: return Op::Rem;
    case BO_Shl: case BO_ShlAssign: return Op::Shl;
    case BO_Shr: case BO_ShrAssign: return Op::Shr;
    case BO_And: case BO_AndAssign: return Op::BitAnd;
    case BO_Or: case BO_OrAssign: return Op::BitOr;
    case BO_Xor: case BO_XorAssign: return Op::BitXor;
    case BO_EQ: return Op::Eq;
    case BO_NE: return Op::Ne;
    case BO_LT: return Op::Lt;
    case BO_LE: return Op::Le;
    case BO_GT: return Op::Gt;
    case BO_GE: return Op::Ge;
    default: return std::nullopt;
    }
  }

  ExprPtr arith(Op op, Type t, ExprPtr a, ExprPtr b, const Expr *src) {
    if (a->type.isPtr() && (op == Op::Add || op == Op::Sub)) {
      if (op == Op::Sub) {
        if (b->type.isPtr()) {
          unsupported(src->getExprLoc(), "pointer difference");
          return ir::mkConstInt(0, Type::i64());
        }
        b = ir::mkUnary(Op::Neg, Type::i64(), cast(b, Type::i64()));
      }
      return ir::mkPtrAdd(a, b, loc(src->getExprLoc()));
    }
    if (b->type.isPtr() && op == Op::Add)
      return ir::mkPtrAdd(b, a, loc(src->getExprLoc()));
    if (a->type.isPtr() || b->type.isPtr()) {
      unsupported(src->getExprLoc(), "pointer comparison or arithmetic '" + text(src->getSourceRange()) + "'");
      return ir::mkConstInt(0, t);
    }
    auto e = std::const_pointer_cast<ir::Expr>(
        ir::mkBinary(op, t, std::move(a), std::move(b), loc(src->getExprLoc())));
    e->text = text(src->getSourceRange());
    return e;
  }

  ExprPtr binary(const BinaryOperator *bo) {
    SourceLocation sl = bo->getOperatorLoc();
    BinaryOperatorKind k = bo->getOpcode();
    if (k == BO_Comma) {
      discard(bo->getLHS());
      return rvalue(bo->getRHS());
    }
    if (k == BO_LAnd || k == BO_LOr)
      return logical(bo);
    if (k == BO_Assign && pointsToRecord(bo->getLHS()->getType())) {
      AggPtr src = aggPtr(bo->getRHS());
      const auto *dr = dyn_cast<DeclRefExpr>(bo->getLHS()->IgnoreParens());
      auto b = dr ? lookup(dr->getDecl()) : std::nullopt;
      if (!b || b->kind != Binding::Agg || !aggs_[b->id].isPtr ||
          aggs_[b->id].leaves.empty() || aggs_[b->id].leaves[0].kind != Binding::Var) {
        unsupported(sl, "assignment to pointer-to-struct '" + text(bo->getLHS()->getSourceRange()) + "'");
        return ir::mkConstInt(0, Type::i32());
      }
      assignAggPtr(aggs_[b->id], src, sl);
      return ir::mkConstInt(0, Type::i32());
    }
    if (k == BO_Assign) {
      ExprPtr v = rvalue(bo->getRHS());
      LValue lv = lvalue(bo->getLHS());
      writeLValue(lv, v, sl);
      return lv.isVar ? ir::mkVar(lv.var, k_.vars[lv.var].type) : v;
    }
    if (const auto *ca = dyn_cast<CompoundAssignOperator>(bo)) {
      ExprPtr rhs = rvalue(bo->getRHS());
      LValue lv = lvalue(bo->getLHS());
      ExprPtr old = readLValue(lv, bo->getLHS());
      Op op = *binOp(k);
      ExprPtr res;
      if (old->type.isPtr()) {
        res = arith(op, Type::pointer(), old, rhs, bo);
      } else {
        Type ct = typeOr(ca->getComputationResultType(), sl);
        Type lt = typeOr(ca->getComputationLHSType(), sl);
        res = arith(op, ct, cast(old, lt), (op == Op::Shl || op == Op::Shr) ? rhs : cast(rhs, ct), bo);
      }
      writeLValue(lv, res, sl);
      return lv.isVar ? ir::mkVar(lv.var, k_.vars[lv.var].type) : res;
    }
    auto op = binOp(k);
    if (!op) {
      unsupported(sl, std::string("operator '") + bo->getOpcodeStr().str() + "'");
      return ir::mkConstInt(0, Type::i32());
    }
    ExprPtr a = rvalue(bo->getLHS());
    ExprPtr b = rvalue(bo->getRHS());
    return arith(*op, typeOr(bo->getType(), sl), a, b, bo);
  }

  // `a && b`, `a || b`: b is evaluated only when needed; if b reads memory or has effects,
  // that is made explicit with an If.
  ExprPtr logical(const BinaryOperator *bo) {
    SourceLocation sl = bo->getOperatorLoc();
    bool isAnd = bo->getOpcode() == BO_LAnd;
    ExprPtr a = toBool(rvalue(bo->getLHS()));
    ir::Block rhsBlock;
    ir::Block *saved = cur_;
    cur_ = &rhsBlock;
    ExprPtr b = toBool(rvalue(bo->getRHS()));
    cur_ = saved;
    if (rhsBlock.empty())
      return ir::mkBinary(isAnd ? Op::LAnd : Op::LOr, Type::boolean(), a, b, loc(sl));
    int t = newTemp(Type::boolean(), "sc");
    auto s0 = emit(StmtKind::Assign, sl);
    s0->var = t;
    s0->value = a;
    auto s = emit(StmtKind::If, sl);
    s->cond = isAnd ? a : ir::mkUnary(Op::Not, Type::boolean(), a);
    s->body = std::move(rhsBlock);
    auto as = std::make_shared<ir::Stmt>();
    as->kind = StmtKind::Assign;
    as->var = t;
    as->value = b;
    s->body.push_back(as);
    return ir::mkVar(t, Type::boolean());
  }

  ExprPtr toBool(ExprPtr e) {
    if (e->type.isBool())
      return e;
    ExprPtr zero = e->type.isFloat() ? ir::mkConstFloat(0, e->type) : ir::mkConstInt(0, e->type);
    return ir::mkBinary(Op::Ne, Type::boolean(), e, zero);
  }

  ExprPtr conditional(const Expr *c, const Expr *t, const Expr *f, const Expr *whole) {
    SourceLocation sl = whole->getExprLoc();
    ExprPtr cv = toBool(rvalue(c));
    ir::Block tb, fb;
    ir::Block *saved = cur_;
    cur_ = &tb;
    ExprPtr tv = rvalue(t);
    cur_ = &fb;
    ExprPtr fv = rvalue(f);
    cur_ = saved;
    Type ty = typeOr(whole->getType(), sl);
    if (tb.empty() && fb.empty())
      return ir::mkSelect(ty, cv, cast(tv, ty), cast(fv, ty), loc(sl));
    int tmp = newTemp(ty, "sel");
    auto s = emit(StmtKind::If, sl);
    s->cond = cv;
    s->body = std::move(tb);
    s->elseBody = std::move(fb);
    auto a1 = std::make_shared<ir::Stmt>();
    a1->kind = StmtKind::Assign;
    a1->var = tmp;
    a1->value = cast(tv, ty);
    s->body.push_back(a1);
    auto a2 = std::make_shared<ir::Stmt>();
    a2->kind = StmtKind::Assign;
    a2->var = tmp;
    a2->value = cast(fv, ty);
    s->elseBody.push_back(a2);
    return ir::mkVar(tmp, ty);
  }

  ExprPtr unary(const UnaryOperator *uo) {
    SourceLocation sl = uo->getOperatorLoc();
    switch (uo->getOpcode()) {
    case UO_Plus: return rvalue(uo->getSubExpr());
    case UO_Minus: {
      auto e = std::const_pointer_cast<ir::Expr>(
          ir::mkUnary(Op::Neg, typeOr(uo->getType(), sl), rvalue(uo->getSubExpr()), loc(sl)));
      e->text = text(uo->getSourceRange());
      return e;
    }
    case UO_LNot: return ir::mkUnary(Op::Not, Type::boolean(), toBool(rvalue(uo->getSubExpr())), loc(sl));
    case UO_Not: return ir::mkUnary(Op::BitNot, typeOr(uo->getType(), sl), rvalue(uo->getSubExpr()), loc(sl));
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      LValue lv = lvalue(uo->getSubExpr());
      ExprPtr old = readLValue(lv, uo->getSubExpr());
      bool inc = uo->isIncrementOp();
      ExprPtr res;
      if (old->type.isPtr()) {
        res = ir::mkPtrAdd(old, ir::mkConstInt(inc ? 1 : -1, Type::i64()), loc(sl));
      } else if (old->type.isBool()) {
        unsupported(sl, "increment of a bool");
        return old;
      } else {
        // Integer promotion: the arithmetic happens in at least int.
        Type t = old->type;
        Type at = (t.isInt() && t.bits < 32) ? Type::i32() : t;
        ExprPtr one = at.isFloat() ? ir::mkConstFloat(1, at) : ir::mkConstInt(1, at);
        auto e = std::const_pointer_cast<ir::Expr>(
            ir::mkBinary(inc ? Op::Add : Op::Sub, at, cast(old, at), one, loc(sl)));
        e->text = text(uo->getSourceRange());
        res = cast(e, t);
      }
      // Keep the old value if the expression's value is used after the write.
      ExprPtr oldKept = old;
      if (uo->isPostfix() && lv.isVar) {
        int t = newTemp(old->type, "old");
        auto s = emit(StmtKind::Assign, sl);
        s->var = t;
        s->value = old;
        oldKept = ir::mkVar(t, old->type);
      }
      writeLValue(lv, res, sl);
      if (uo->isPostfix())
        return oldKept;
      return lv.isVar ? ir::mkVar(lv.var, k_.vars[lv.var].type) : res;
    }
    case UO_AddrOf: {
      LValue lv = lvalue(uo->getSubExpr());
      if (!lv.ok) {
        unmodelled(sl);
        return ir::mkConstInt(0, Type::pointer());
      }
      if (lv.isVar) {
        unsupported(sl, "address of a local variable '" + text(uo->getSourceRange()) + "'");
        return ir::mkConstInt(0, Type::pointer());
      }
      return memAddress(lv.mem, uo);
    }
    case UO_Deref: {
      LValue lv = lvalue(uo);
      return readLValue(lv, uo);
    }
    default:
      unsupported(sl, "unary operator '" + text(uo->getSourceRange()) + "'");
      return ir::mkConstInt(0, Type::i32());
    }
  }

  // ---- calls ------------------------------------------------------------------------------

  ExprPtr callExpr(const CallExpr *call) {
    SourceLocation sl = call->getExprLoc();
    const FunctionDecl *fd = call->getDirectCallee();
    if (!fd)
      return indirectCall(call);
    std::string name = fd->getNameAsString();
    if (const Expr *l = nullptr, *r = nullptr; isTrivialRecordAssign(call, l, r))
      return rvalue(call);
    std::optional<AggLV> thisObj;
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(call)) {
      const CXXMethodDecl *md = mc->getMethodDecl();
      if (!md || md->isVirtual()) {
        unsupported(sl, "virtual call '" + text(call->getSourceRange()) + "'");
        return ir::mkConstInt(0, Type::i32());
      }
      const Expr *obj = mc->getImplicitObjectArgument();
      bool preludeMethod = !sm_.isInMainFile(sm_.getExpansionLoc(md->getLocation()));
      if (!md->isStatic() && !md->hasBody() && !preludeMethod) {
        unsupported(sl, "call to method '" + md->getNameAsString() + "', which has no body (it could change the object)");
        return ir::mkConstInt(0, Type::i32());
      }
      if (!md->isStatic() && obj && !preludeMethod) {
        if (isa<CXXThisExpr>(obj->IgnoreParenImpCasts()) && frames_.back().thisObj)
          thisObj = frames_.back().thisObj;
        else if (obj->getType()->isPointerType())
          thisObj = deref(aggPtr(obj), ir::mkConstInt(0, Type::i32()), text(obj->getSourceRange()));
        else
          thisObj = aggLValue(obj);
        if (!thisObj->ok)
          return ir::mkConstInt(0, Type::i32());
      }
    } else if (isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(fd)) {
      unsupported(sl, "overloaded operator '" + text(call->getSourceRange()) + "'");
      return ir::mkConstInt(0, Type::i32());
    }
    // A struct result is handled by the struct code (or refused there), not as a scalar.
    Type rt = call->getType()->isVoidType() || isRecord(call->getType()) ? Type{} : typeOr(call->getType(), sl);
    auto arg = [&](unsigned i) { return rvalue(call->getArg(i)); };

    bool fromPrelude = !sm_.isInMainFile(sm_.getExpansionLoc(fd->getLocation()));
    if (fromPrelude || !fd->hasBody()) {
      if (name == "__syncthreads" || name == "__syncwarp") {
        for (unsigned i = 0; i < call->getNumArgs(); ++i)
          discard(call->getArg(i));
        if (name == "__syncwarp" && call->getNumArgs() == 1 && !call->getArg(0)->isDefaultArgument()) {
          auto m = constInt(call->getArg(0));
          if (!m || (static_cast<uint64_t>(*m) & 0xffffffffu) != 0xffffffffu)
            unsupported(sl, "__syncwarp with a partial mask");
        }
        auto s = emit(StmtKind::Barrier, sl);
        s->barrier = name == "__syncthreads" ? ir::BarrierKind::Block : ir::BarrierKind::Warp;
        return ir::mkConstInt(0, Type::i32());
      }
      if (name == "__threadfence" || name == "__threadfence_block" || name == "__threadfence_system")
        return ir::mkConstInt(0, Type::i32()); // fences order, they do not synchronise
      // Cooperative groups: g.sync() / synchronize(g) on a thread_block or grid_group.
      if (name == "sync" || name == "synchronize") {
        QualType gt;
        if (const auto *mc = dyn_cast<CXXMemberCallExpr>(call))
          gt = mc->getObjectType();
        else if (call->getNumArgs() == 1)
          gt = call->getArg(0)->getType();
        const RecordDecl *rd = gt.isNull() ? nullptr : gt.getCanonicalType()->getAsRecordDecl();
        std::string group = rd ? rd->getNameAsString() : "";
        if (group == "thread_block" || group == "grid_group") {
          auto s = emit(StmtKind::Barrier, sl);
          s->barrier = group == "grid_group" ? ir::BarrierKind::Grid : ir::BarrierKind::Block;
          return ir::mkConstInt(0, Type::i32());
        }
      }
      if ((name == "this_grid" || name == "this_thread_block") && call->getNumArgs() == 0)
        return ir::mkConstInt(0, Type::i32()); // a handle without state
      if (name == "curand_init" || name == "curand" || name == "curand_uniform" || name == "curand_normal")
        return curandCall(call, name, rt);
      if ((name == "__mul24" || name == "__umul24") && call->getNumArgs() == 2)
        return mul24(call, name == "__mul24");
      if (name == "tex1Dfetch" && call->getNumArgs() == 2) {
        discard(call->getArg(1));
        int t = newTemp(rt, "tex");
        auto s = emit(StmtKind::Havoc, sl);
        s->var = t;
        s->text = "the texture fetch '" + text(call->getSourceRange()) + "'";
        return ir::mkVar(t, rt);
      }
      if (name == "__ksynth_axiom") {
        auto s = emit(StmtKind::Assume, sl);
        s->cond = toBool(arg(0));
        s->precondition = true;
        s->text = "__axiom(" + text(call->getArg(0)->getSourceRange()) + ")";
        return ir::mkConstInt(0, Type::i32());
      }
      if (name.rfind("atomic", 0) == 0)
        return atomic(call, name, rt);
      if (name == "__requires" || name == "__assume" || name == "__assert") {
        bool saved = inAnnotation_;
        inAnnotation_ = true; // reads here state facts; they are not accesses of the program
        ExprPtr c = toBool(arg(0));
        inAnnotation_ = saved;
        bool isAssert = name == "__assert" || (name == "__requires" && frames_.size() > 1);
        auto s = emit(isAssert ? StmtKind::Assert : StmtKind::Assume, sl);
        s->cond = c;
        s->precondition = name == "__requires";
        s->text = text(call->getSourceRange());
        return ir::mkConstInt(0, Type::i32());
      }
      if (name == "__invariant" || name == "__global_invariant") {
        note(sl, "note", "loop invariant '" + text(call->getSourceRange()) +
                             "' ignored: ksynth summarises loops itself and does not rely on it");
        return ir::mkConstBool(true);
      }
      if (name == "__ensures") {
        note(sl, "warning", "postcondition '" + text(call->getSourceRange()) +
                                "' not checked: the function is inlined and its body is verified instead");
        return ir::mkConstInt(0, Type::i32());
      }
      if (name == "__implies") {
        ExprPtr a = toBool(arg(0)), b = toBool(arg(1));
        return ir::mkBinary(Op::LOr, Type::boolean(), ir::mkUnary(Op::Not, Type::boolean(), a), b);
      }
      if (name == "__enabled")
        return ir::mkConstBool(true); // inlined: the code runs exactly when it is enabled
      if (name == "__len") {
        const Expr *p = call->getArg(0)->IgnoreParenImpCasts();
        if (const auto *dr = dyn_cast<DeclRefExpr>(p)) {
          auto b = lookup(dr->getDecl());
          if (b && b->kind == Binding::Array && k_.arrays[b->id].paramIndex >= 0)
            return ir::mkLen(b->id);
          if (auto pa = paramArray_.find(dr->getDecl()); pa != paramArray_.end() && frames_.size() == 1)
            return ir::mkLen(pa->second); // a parameter the kernel reassigns: its original array
          if (b && b->kind == Binding::Agg && aggs_[b->id].isPtr && !aggs_[b->id].leaves.empty() &&
              aggs_[b->id].leaves[0].kind == Binding::Array)
            return ir::mkLen(aggs_[b->id].leaves[0].id); // all fields share one length
        }
        if (isa<MemberExpr>(p)) {
          LValue lv = lvalue(p);
          if (lv.ok && !lv.isVar && lv.mem.index.empty() && lv.mem.ptr->op == Op::ArrayRef &&
              k_.arrays[lv.mem.ptr->id].paramIndex >= 0)
            return ir::mkLen(lv.mem.ptr->id);
        }
        unsupported(sl, "__len of something other than a pointer parameter");
        return ir::mkConstInt(0, Type::u64());
      }
      if (name == "min" || name == "max" || name == "fminf" || name == "fmaxf" || name == "fmin" ||
          name == "fmax") {
        bool isMin = name.find("min") != std::string::npos;
        return ir::mkBinary(isMin ? Op::Min : Op::Max, rt, cast(arg(0), rt), cast(arg(1), rt), loc(sl));
      }
      if (name == "abs" && rt.isInt()) {
        ExprPtr a = arg(0);
        auto neg = std::const_pointer_cast<ir::Expr>(ir::mkUnary(Op::Neg, rt, a, loc(sl)));
        neg->text = text(call->getSourceRange());
        return ir::mkSelect(rt, ir::mkBinary(Op::Lt, Type::boolean(), a, ir::mkConstInt(0, rt)), neg, a);
      }
      if (rt.isFloat() && fd->getNumParams() >= 1 && fd->getNumParams() <= 3) {
        std::vector<ExprPtr> args;
        for (unsigned i = 0; i < call->getNumArgs(); ++i)
          args.push_back(cast(arg(i), rt));
        return ir::mkCall(name, rt, std::move(args), loc(sl));
      }
      if (name == "memcpy" || name == "__builtin_memcpy" || name == "memset" || name == "__builtin_memset")
        return memOp(call, name.find("memset") != std::string::npos);
      if (name == "__requires_fresh_array")
        return ir::mkConstInt(0, Type::i32()); // distinct pointer parameters never alias anyway
      if (name.rfind("__", 0) == 0 && fromPrelude) {
        unsupported(sl, "annotation or intrinsic '" + name + "' in this position");
        return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
      }
      if (!fromPrelude)
        return callWithoutBody(call, fd, rt);
      unsupported(sl, "call to '" + name + "', which has no body");
      return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
    }
    return inlineCall(call, fd, rt, thisObj);
  }

  ExprPtr atomic(const CallExpr *call, const std::string &name, Type rt) {
    SourceLocation sl = call->getExprLoc();
    static const std::map<std::string, ir::AtomicOp> ops = {
        {"atomicAdd", ir::AtomicOp::Add}, {"atomicSub", ir::AtomicOp::Sub},
        {"atomicMin", ir::AtomicOp::Min}, {"atomicMax", ir::AtomicOp::Max},
        {"atomicExch", ir::AtomicOp::Exch}, {"atomicCAS", ir::AtomicOp::CAS},
        {"atomicAnd", ir::AtomicOp::And}, {"atomicOr", ir::AtomicOp::Or},
        {"atomicXor", ir::AtomicOp::Xor}, {"atomicInc", ir::AtomicOp::Inc},
        {"atomicDec", ir::AtomicOp::Dec}};
    auto it = ops.find(name);
    if (it == ops.end() || call->getNumArgs() < 2) {
      unsupported(sl, "atomic '" + name + "'");
      return ir::mkConstInt(0, rt);
    }
    // The operands are lowered (their loads emitted) before the atomic statement itself.
    ExprPtr p = rvalue(call->getArg(0));
    ExprPtr v1 = cast(rvalue(call->getArg(1)), rt), v2;
    if (it->second == ir::AtomicOp::CAS && call->getNumArgs() >= 3)
      v2 = cast(rvalue(call->getArg(2)), rt);
    auto s = emit(StmtKind::Atomic, sl);
    s->atomic = it->second;
    s->ptr = p;
    s->index.push_back(ir::mkConstInt(0, Type::i32()));
    s->value = v1;
    if (v2) {
      s->value2 = v1;
      s->value = v2;
    }
    s->text = text(call->getArg(0)->getSourceRange());
    if (s->text.size() > 1 && s->text[0] == '&')
      s->text = s->text.substr(1);
    int t = newTemp(rt, "old");
    s->var = t;
    return ir::mkVar(t, rt);
  }

  // Function types equal up to the exception specification.
  bool sameFnType(QualType a, QualType b) {
    const auto *fa = a->getAs<FunctionProtoType>(), *fb = b->getAs<FunctionProtoType>();
    if (!fa || !fb)
      return ctx_.hasSameType(a, b);
    if (!ctx_.hasSameType(fa->getReturnType(), fb->getReturnType()) ||
        fa->getNumParams() != fb->getNumParams() || fa->isVariadic() != fb->isVariadic())
      return false;
    for (unsigned i = 0; i < fa->getNumParams(); ++i)
      if (!ctx_.hasSameType(fa->getParamType(i), fb->getParamType(i)))
        return false;
    return true;
  }

  // Every non-member or static member function defined in the file (incl. template instances).
  std::vector<const FunctionDecl *> fileFunctions() {
    std::vector<const FunctionDecl *> out;
    std::function<void(const DeclContext *)> walk = [&](const DeclContext *dc) {
      for (const Decl *d : dc->decls()) {
        if (const auto *ft = dyn_cast<FunctionTemplateDecl>(d)) {
          for (const FunctionDecl *sp : ft->specializations())
            out.push_back(sp);
          continue;
        }
        if (const auto *md = dyn_cast<CXXMethodDecl>(d)) {
          if (md->isStatic())
            out.push_back(md);
          continue;
        }
        if (const auto *f = dyn_cast<FunctionDecl>(d)) {
          if (sm_.isInMainFile(sm_.getExpansionLoc(f->getLocation())))
            out.push_back(f);
          continue;
        }
        if (const auto *inner = dyn_cast<DeclContext>(d);
            inner && (isa<NamespaceDecl>(d) || isa<LinkageSpecDecl>(d) || isa<CXXRecordDecl>(d)))
          walk(inner);
      }
    };
    walk(ctx_.getTranslationUnitDecl());
    return out;
  }

  // Function pointers are numbers: each function of the file gets one (from 1), null is 0.
  std::map<const FunctionDecl *, int64_t> &fnIds_;
  int64_t fnId(const FunctionDecl *f) {
    f = f->getCanonicalDecl();
    auto it = fnIds_.find(f);
    if (it != fnIds_.end())
      return it->second;
    int64_t id = static_cast<int64_t>(fnIds_.size()) + 1;
    fnIds_[f] = id;
    return id;
  }

  // A call through a function pointer: a choice among the file's functions of that type;
  // a value naming none of them fails an assertion (GPUVerify: "possible null pointer
  // access"), so a proof never rests on calling an unknown function.
  ExprPtr indirectCall(const CallExpr *call) {
    SourceLocation sl = call->getExprLoc();
    const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
    if (const auto *uo = dyn_cast<UnaryOperator>(callee); uo && uo->getOpcode() == UO_Deref)
      callee = uo->getSubExpr();
    QualType ft;
    if (const auto *pt = callee->getType()->getAs<PointerType>())
      ft = pt->getPointeeType();
    if (ft.isNull() || !ft->isFunctionType() || !callee->getType()->isFunctionPointerType()) {
      unsupported(sl, "indirect call '" + text(call->getSourceRange()) + "'");
      return ir::mkConstInt(0, scalarType(call->getType()).value_or(Type::i32()));
    }
    ExprPtr f = cast(rvalue(callee), Type::u64());
    int fv = newTemp(Type::u64(), "fn");
    auto a = emit(StmtKind::Assign, sl);
    a->var = fv;
    a->value = f;
    Type rt = call->getType()->isVoidType() || isRecord(call->getType()) ? Type{} : typeOr(call->getType(), sl);
    int ret = rt.kind == ir::TypeKind::Void ? -1 : newTemp(rt, "icall");
    // Every function of the file a pointer of this type can hold: free functions at any
    // namespace depth, static member functions, template instances (`noexcept` ignored: such
    // a function converts to the plain pointer type).
    std::vector<const FunctionDecl *> targets;
    for (const FunctionDecl *g : fileFunctions())
      if (g->doesThisDeclarationHaveABody() && !g->hasAttr<CUDAGlobalAttr>() && sameFnType(g->getType(), ft))
        targets.push_back(g);
    ir::Block *saved = cur_;
    std::vector<ExprPtr> misses;
    for (const FunctionDecl *g : targets) {
      ExprPtr is = ir::mkBinary(Op::Eq, Type::boolean(), ir::mkVar(fv, Type::u64()),
                                ir::mkConstInt(fnId(g), Type::u64()));
      misses.push_back(ir::mkBinary(Op::Ne, Type::boolean(), ir::mkVar(fv, Type::u64()),
                                    ir::mkConstInt(fnId(g), Type::u64())));
      auto br = emit(StmtKind::If, sl);
      br->cond = is;
      cur_ = &br->body;
      ExprPtr r = inlineCall(call, g, rt);
      if (ret >= 0) {
        auto as = emit(StmtKind::Assign, sl);
        as->var = ret;
        as->value = cast(r, rt);
      }
      cur_ = saved;
    }
    // Functions whose address the file takes but that ksynth cannot inline here (no body,
    // e.g. `cos`, or of another type): a call through them is not modelled.
    for (const auto &[g, id] : fnIds_) {
      if (std::any_of(targets.begin(), targets.end(),
                      [&](const FunctionDecl *t) { return t->getCanonicalDecl() == g; }))
        continue;
      auto br = emit(StmtKind::If, sl);
      br->cond = ir::mkBinary(Op::Eq, Type::boolean(), ir::mkVar(fv, Type::u64()), ir::mkConstInt(id, Type::u64()));
      cur_ = &br->body;
      unsupported(sl, "call through a function pointer to '" + g->getNameAsString() + "', which ksynth cannot inline");
      cur_ = saved;
      misses.push_back(ir::mkBinary(Op::Ne, Type::boolean(), ir::mkVar(fv, Type::u64()), ir::mkConstInt(id, Type::u64())));
    }
    ExprPtr none = ir::mkConstBool(true);
    for (const ExprPtr &m : misses)
      none = ir::mkBinary(Op::LAnd, Type::boolean(), none, m);
    auto as = emit(StmtKind::Assert, sl);
    as->cond = ir::mkBinary(Op::Ne, Type::boolean(), ir::mkVar(fv, Type::u64()), ir::mkConstInt(0, Type::u64()));
    as->text = "call through function pointer '" + text(callee->getSourceRange()) + "' is not null";
    // A non-null value naming none of them would be a function of another file: assumed not to happen.
    auto other = emit(StmtKind::Assume, sl);
    other->cond = ir::mkUnary(Op::Not, Type::boolean(),
                              ir::mkBinary(Op::LAnd, Type::boolean(), none,
                                           ir::mkBinary(Op::Ne, Type::boolean(), ir::mkVar(fv, Type::u64()),
                                                        ir::mkConstInt(0, Type::u64()))));
    other->text = "'" + text(callee->getSourceRange()) + "' is null or names a function of this file";
    if (fnptrAssumed_.insert("called").second)
      k_.assumptions.push_back("a function pointer that is called is null or names a function defined in this file");
    if (ret >= 0) {
      auto br = emit(StmtKind::If, sl);
      br->cond = none;
      cur_ = &br->body;
      auto h = emit(StmtKind::Havoc, sl);
      h->var = ret;
      h->text = "the result of a call through an invalid function pointer";
      cur_ = saved;
      return ir::mkVar(ret, rt);
    }
    return ir::mkConstInt(0, Type::i32());
  }

  // Whether `vd` is assigned, incremented or has its address taken anywhere in `s`.
  static bool modifiedIn(const Stmt *s, const VarDecl *vd) {
    if (!s)
      return false;
    const Expr *target = nullptr;
    if (const auto *bo = dyn_cast<BinaryOperator>(s); bo && bo->isAssignmentOp())
      target = bo->getLHS();
    if (const auto *uo = dyn_cast<UnaryOperator>(s);
        uo && (uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf))
      target = uo->getSubExpr();
    if (target)
      if (const auto *dr = dyn_cast<DeclRefExpr>(target->IgnoreParens()); dr && dr->getDecl() == vd)
        return true;
    for (const Stmt *c : s->children())
      if (modifiedIn(c, vd))
        return true;
    return false;
  }

  // An integer constant, or a local initialised with one and never changed (`size_t len = 4;`).
  std::optional<int64_t> constIntThroughLocals(const Expr *e) {
    if (auto c = constInt(e))
      return c;
    const auto *dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto *vd = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    if (!vd || !vd->hasLocalStorage() || isa<ParmVarDecl>(vd) || !vd->getInit() ||
        modifiedIn(frames_.back().fd->getBody(), vd))
      return std::nullopt;
    return constInt(vd->getInit());
  }

  // memcpy/memset with a length ksynth can evaluate: the bytes [0, len) of the destination
  // (and the source) are mapped onto the fields of the elements they overlap. A field
  // copied whole between identical layouts keeps its value (memset 0 gives 0); a field
  // touched in part gets some value. Reads and writes are real accesses (races, bounds).
  ExprPtr memOp(const CallExpr *call, bool isSet) {
    SourceLocation sl = call->getExprLoc();
    std::string nm = isSet ? "memset" : "memcpy";
    auto fail = [&](const std::string &why) {
      unsupported(sl, nm + " " + why);
      return ir::mkConstInt(0, Type::i32());
    };
    if (call->getNumArgs() != 3)
      return fail("with an unexpected number of arguments");
    auto len = constIntThroughLocals(call->getArg(2));
    if (!len || *len < 0)
      return fail("with a length ksynth cannot evaluate ('" + text(call->getArg(2)->getSourceRange()) + "')");
    struct View {
      Layout lay;
      int64_t elem = 0;
      std::vector<ExprPtr> ptrs;
      bool ok = false;
      std::string text;
    };
    auto view = [&](const Expr *e) {
      View v;
      const Expr *x = e->IgnoreParenImpCasts(); // the conversion to void *
      v.text = text(x->getSourceRange());
      if (x->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull)) {
        fail("through a null pointer");
        return v;
      }
      QualType pointee = x->getType()->isPointerType() ? x->getType()->getPointeeType() : QualType();
      if (pointee.isNull() || pointee->isVoidType() || pointee->isIncompleteType()) {
        fail("through '" + v.text + "', whose element type is not known");
        return v;
      }
      v.elem = static_cast<int64_t>(ctx_.getTypeSizeInChars(pointee).getQuantity());
      if (isRecord(pointee)) {
        AggPtr p = aggPtr(x);
        if (!p.ok)
          return v;
        for (const Leaf &lf : p.layout)
          if (!lf.dims.empty()) {
            fail("of a struct with an array field");
            return v;
          }
        v.lay = p.layout;
        v.ptrs = p.ptrs;
      } else if (scalarType(pointee) && !pointee->isPointerType()) {
        v.lay = {Leaf{"", pointee.getCanonicalType(), {}, 0, v.elem}};
        v.ptrs = {rvalue(x)};
      } else {
        fail("through '" + v.text + "'");
        return v;
      }
      v.ok = v.elem > 0;
      return v;
    };
    View dst = view(call->getArg(0));
    if (!dst.ok)
      return ir::mkConstInt(0, Type::i32());
    View src;
    ExprPtr setVal;
    if (isSet) {
      setVal = rvalue(call->getArg(1)); // evaluated for its effects; the bytes are modelled below
      (void)setVal;
    } else {
      src = view(call->getArg(1));
      if (!src.ok)
        return ir::mkConstInt(0, Type::i32());
    }
    auto cells = [&](const View &v, auto &&fn) {
      int64_t n = (*len + v.elem - 1) / v.elem;
      if (n > 64)
        return false;
      for (int64_t j = 0; j < n; ++j)
        for (size_t f = 0; f < v.lay.size(); ++f) {
          int64_t lo = j * v.elem + v.lay[f].offset, hi = lo + v.lay[f].size;
          if (hi > 0 && lo < *len) {
            LValue lv;
            lv.mem.ptr = v.ptrs[f];
            lv.mem.index.push_back(ir::mkConstInt(j, Type::i64()));
            lv.mem.elem = *scalarType(v.lay[f].type);
            lv.mem.text = v.text + (v.lay[f].path.empty() ? "" : "->" + v.lay[f].path) +
                          (j ? " (element " + std::to_string(j) + ")" : "");
            fn(j, f, lv, lo >= 0 && hi <= *len);
          }
        }
      return true;
    };
    bool same = !isSet && src.elem == dst.elem && src.lay.size() == dst.lay.size();
    for (size_t f = 0; same && f < dst.lay.size(); ++f)
      same = src.lay[f].offset == dst.lay[f].offset && src.lay[f].size == dst.lay[f].size &&
             ctx_.hasSameType(src.lay[f].type, dst.lay[f].type);
    std::map<std::pair<int64_t, size_t>, ExprPtr> copied;
    if (!isSet && !cells(src, [&](int64_t j, size_t f, const LValue &lv, bool whole) {
          ExprPtr v = readLeaf(lv, lv.mem.elem, sl);
          if (whole)
            copied[{j, f}] = v;
        }))
      return fail("of more than 64 elements");
    bool zero = false;
    if (isSet)
      if (auto c = constInt(call->getArg(1)))
        zero = *c == 0;
    if (!cells(dst, [&](int64_t j, size_t f, const LValue &lv, bool whole) {
          ExprPtr v;
          if (isSet && whole && zero && !lv.mem.elem.isPtr())
            v = zeroOf(lv.mem.elem);
          else if (same && whole && copied.count({j, f}))
            v = copied[{j, f}];
          if (!v) {
            int t = newTemp(lv.mem.elem, "bytes");
            auto h = emit(StmtKind::Havoc, sl);
            h->var = t;
            h->text = "the bytes " + nm + " leaves in '" + lv.mem.text + "'";
            v = ir::mkVar(t, lv.mem.elem);
          }
          writeLValue(lv, v, sl);
        }))
      return fail("of more than 64 elements");
    return ir::mkConstInt(0, Type::i32());
  }

  // __mul24 / __umul24: the product of the low 24 bits of each operand (sign-extended for
  // __mul24), truncated to 32 bits. Written with exact 64-bit arithmetic.
  ExprPtr mul24(const CallExpr *call, bool isSigned) {
    SourceLocation sl = call->getExprLoc();
    Type w = isSigned ? Type::i64() : Type::u64();
    auto c = [&](int64_t v) { return ir::mkConstInt(v, w); };
    auto low24 = [&](ExprPtr a) {
      ExprPtr x = cast(a, w);
      if (isSigned) // (a + 2^31) mod 2^24 == a mod 2^24, and a + 2^31 >= 0
        x = ir::mkBinary(Op::Add, w, x, c(int64_t(1) << 31));
      ExprPtr lo = ir::mkBinary(Op::Rem, w, x, c(int64_t(1) << 24));
      if (!isSigned)
        return lo;
      return ir::mkSelect(w, ir::mkBinary(Op::Ge, Type::boolean(), lo, c(int64_t(1) << 23)),
                          ir::mkBinary(Op::Sub, w, lo, c(int64_t(1) << 24)), lo);
    };
    ExprPtr a = low24(cast(rvalue(call->getArg(0)), isSigned ? Type::i32() : Type::u32()));
    ExprPtr b = low24(cast(rvalue(call->getArg(1)), isSigned ? Type::i32() : Type::u32()));
    auto p = std::const_pointer_cast<ir::Expr>(ir::mkBinary(Op::Mul, w, a, b, loc(sl)));
    p->text = text(call->getSourceRange());
    return cast(p, isSigned ? Type::i32() : Type::u32(), loc(sl));
  }

  // cuRAND (XORWOW): curand_init writes the whole state; drawing a number reads and then
  // writes every field of *state. The numbers themselves are some values.
  ExprPtr curandCall(const CallExpr *call, const std::string &name, Type rt) {
    SourceLocation sl = call->getExprLoc();
    const Expr *stArg = call->getArg(call->getNumArgs() - 1);
    QualType pt = stArg->getType();
    const RecordDecl *rd = pointsToRecord(pt) ? pt->getPointeeType()->getAsRecordDecl() : nullptr;
    if (!rd || rd->getNameAsString() != "curandStateXORWOW") {
      unsupported(sl, "'" + name + "' on a generator state ksynth does not model");
      return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
    }
    for (unsigned i = 0; i + 1 < call->getNumArgs(); ++i)
      discard(call->getArg(i));
    AggLV st = deref(aggPtr(stArg), ir::mkConstInt(0, Type::i32()), text(stArg->getSourceRange()));
    if (!st.ok)
      return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
    for (size_t f = 0; f < st.layout.size(); ++f) {
      Type lt = *scalarType(st.layout[f].type);
      if (name != "curand_init")
        (void)readLeaf(st.leaves[f], lt, sl);
      int t = newTemp(lt, "rng");
      auto h = emit(StmtKind::Havoc, sl);
      h->var = t;
      h->text = "the generator state after '" + text(call->getSourceRange()) + "'";
      writeLeaf(st.leaves[f], ir::mkVar(t, lt), sl);
    }
    if (rt.kind == ir::TypeKind::Void)
      return ir::mkConstInt(0, Type::i32());
    int t = newTemp(rt, "rand");
    auto h = emit(StmtKind::Havoc, sl);
    h->var = t;
    h->text = "the random number '" + text(call->getSourceRange()) + "'";
    return ir::mkVar(t, rt);
  }

  // A device function declared in the kernel's file without a body (defined in another
  // translation unit, or a stand-in for "some value"). It is assumed to touch no memory the
  // kernel can see; its arguments are evaluated and its result is some value. A function that
  // is handed a pointer could write through it, so that is refused.
  ExprPtr callWithoutBody(const CallExpr *call, const FunctionDecl *fd, Type rt) {
    SourceLocation sl = call->getExprLoc();
    std::string name = fd->getNameAsString();
    for (unsigned i = 0; i < call->getNumArgs(); ++i) {
      const Expr *a = call->getArg(i);
      QualType at = a->getType();
      bool hasPtr = at->isPointerType() || at->isReferenceType() || at->isArrayType();
      if (isRecord(at)) {
        std::string why;
        auto lay = layoutOf(at, why);
        if (!lay) {
          unsupported(sl, "argument of type '" + at.getAsString() + "' to '" + name + "': " + why);
          continue;
        }
        for (const Leaf &lf : *lay)
          hasPtr = hasPtr || lf.type->isPointerType();
      }
      if (hasPtr) {
        unsupported(sl, "call to '" + name + "', which has no body, with a pointer argument (it could write through it)");
        continue;
      }
      if (isRecord(at)) {
        // Passing a struct by value reads every field.
        const Expr *src = a->IgnoreParens();
        if (const auto *ce = dyn_cast<CXXConstructExpr>(src); ce && ce->getNumArgs() == 1)
          src = ce->getArg(0);
        AggLV v = aggLValue(src);
        for (size_t f = 0; v.ok && f < v.layout.size(); ++f)
          if (v.layout[f].dims.empty())
            (void)readLeaf(v.leaves[f], *scalarType(v.layout[f].type), sl);
        continue;
      }
      discard(a);
    }
    std::string what = "call to '" + name + "', which has no body";
    if (bodilessSeen_.insert(name).second) {
      note(sl, "warning", what + ": assumed to have no effect on memory; its result is unknown");
      k_.assumptions.push_back("'" + name + "' (declared without a body) has no effect on memory");
    }
    if (rt.kind == ir::TypeKind::Void)
      return ir::mkConstInt(0, Type::i32());
    int t = newTemp(rt, name + ".ret");
    auto s = emit(StmtKind::Havoc, sl);
    s->var = t;
    s->text = "the result of '" + text(call->getSourceRange()) + "'";
    return ir::mkVar(t, rt);
  }

  ExprPtr inlineCall(const CallExpr *call, const FunctionDecl *fd, Type rt,
                     std::optional<AggLV> thisObj = std::nullopt) {
    SourceLocation sl = call->getExprLoc();
    for (const FnFrame &f : frames_)
      if (f.fd == fd->getCanonicalDecl() || f.fd == fd) {
        unsupported(sl, "recursive call to '" + fd->getNameAsString() + "'");
        return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
      }
    if (frames_.size() > 32) {
      unsupported(sl, "call nesting deeper than 32");
      return ir::mkConstInt(0, Type::i32());
    }
    const FunctionDecl *def = fd;
    fd->hasBody(def);
    FnFrame frame;
    frame.fd = def;
    frame.thisObj = std::move(thisObj);
    // Arguments are evaluated in the caller's frame.
    std::vector<std::pair<const ParmVarDecl *, ExprPtr>> args;
    // Operator calls written as methods have the object as argument 0.
    unsigned argBase = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(def) ? 1 : 0;
    for (unsigned i = 0; i < def->getNumParams() && i + argBase < call->getNumArgs(); ++i) {
      const ParmVarDecl *p = def->getParamDecl(i);
      const Expr *argE = call->getArg(i + argBase);
      std::string pname = def->getNameAsString() + "." + p->getNameAsString();
      if (isRecord(p->getType())) {
        auto b = declareAgg(p, pname, p->getType(), {}, std::nullopt);
        if (!b)
          return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
        initAgg(aggOfStore(aggs_[b->id], pname), p->getType(), argE, sl);
        frame.bindings[p] = *b;
        continue;
      }
      if (pointsToRecord(p->getType())) {
        auto b = declareAggPtr(p->getLocation(), pname, p->getType()->getPointeeType());
        if (!b)
          return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
        assignAggPtr(aggs_[b->id], aggPtr(argE), sl);
        frame.bindings[p] = *b;
        continue;
      }
      if (p->getType()->isReferenceType()) {
        unsupported(sl, "reference parameter '" + p->getNameAsString() + "' of '" +
                            def->getNameAsString() + "'");
        return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
      }
      args.push_back({p, rvalue(argE)});
    }
    for (auto &[p, v] : args) {
      Type t = typeOr(p->getType(), sl);
      ir::Var var;
      var.name = def->getNameAsString() + "." + p->getNameAsString();
      var.type = t;
      int id = k_.addVar(var);
      auto s = emit(StmtKind::Assign, sl);
      s->var = id;
      s->value = cast(v, t);
      frame.bindings[p] = {Binding::Var, id};
    }
    if (rt.kind != ir::TypeKind::Void)
      frame.returnVar = newTemp(rt, def->getNameAsString() + ".ret");
    frame.returnLabel = k_.newLabel();
    int retVar = frame.returnVar;
    auto blk = emit(StmtKind::Block, sl);
    blk->label = frame.returnLabel;
    frames_.push_back(std::move(frame));
    auto savedLoops = std::move(loops_);
    loops_.clear();
    ir::Block *saved = cur_;
    bool savedTop = inKernelTop_;
    inKernelTop_ = false;
    cur_ = &blk->body;
    scanAddressTaken(def->getBody());
    stmt(def->getBody());
    cur_ = saved;
    inKernelTop_ = savedTop;
    loops_ = std::move(savedLoops);
    frames_.pop_back();
    if (retVar >= 0)
      return ir::mkVar(retVar, rt);
    return ir::mkConstInt(0, Type::i32());
  }

  void discard(const Expr *e) {
    if (!e)
      return;
    (void)rvalue(e);
  }

  // ---- statements -------------------------------------------------------------------------

  void stmt(const Stmt *s) {
    if (!s)
      return;
    SourceLocation sl = s->getBeginLoc();
    if (const auto *cs = dyn_cast<CompoundStmt>(s)) {
      std::vector<const Stmt *> kids(cs->body_begin(), cs->body_end());
      stmtRange(kids, kids.size());
      return;
    }
    if (isa<NullStmt>(s))
      return;
    if (const auto *ds = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : ds->decls())
        decl(d);
      return;
    }
    if (const auto *is = dyn_cast<IfStmt>(s)) {
      if (is->getInit())
        stmt(is->getInit());
      if (is->getConditionVariableDeclStmt())
        stmt(is->getConditionVariableDeclStmt());
      ExprPtr c = toBool(rvalue(is->getCond()));
      auto st = emit(StmtKind::If, sl);
      st->cond = c;
      ir::Block *saved = cur_;
      cur_ = &st->body;
      stmt(is->getThen());
      cur_ = &st->elseBody;
      stmt(is->getElse());
      cur_ = saved;
      return;
    }
    if (const auto *fs = dyn_cast<ForStmt>(s)) {
      stmt(fs->getInit());
      loop(sl, fs->getCond(), fs->getBody(), fs->getInc(), true, fs->getConditionVariableDeclStmt());
      return;
    }
    if (const auto *ws = dyn_cast<WhileStmt>(s)) {
      loop(sl, ws->getCond(), ws->getBody(), nullptr, true, ws->getConditionVariableDeclStmt());
      return;
    }
    if (const auto *dos = dyn_cast<DoStmt>(s)) {
      loop(sl, dos->getCond(), dos->getBody(), nullptr, false, nullptr);
      return;
    }
    if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) {
      if (loops_.empty()) {
        unsupported(sl, "break/continue outside a loop (switch is not supported)");
        return;
      }
      auto e = emit(StmtKind::Exit, sl);
      e->label = isa<BreakStmt>(s) ? loops_.back().first : loops_.back().second;
      return;
    }
    if (const auto *rs = dyn_cast<ReturnStmt>(s)) {
      FnFrame &f = frames_.back();
      if (rs->getRetValue()) {
        ExprPtr v = rvalue(rs->getRetValue());
        if (f.returnVar >= 0) {
          auto a = emit(StmtKind::Assign, sl);
          a->var = f.returnVar;
          a->value = cast(v, k_.vars[f.returnVar].type);
        }
      }
      auto e = emit(StmtKind::Exit, sl);
      e->label = f.returnLabel;
      return;
    }
    if (isa<GCCAsmStmt>(s) || isa<MSAsmStmt>(s)) {
      unsupported(sl, "inline assembly");
      return;
    }
    if (isa<SwitchStmt>(s)) {
      unsupported(sl, "switch statement");
      return;
    }
    if (const auto *ls = dyn_cast<LabelStmt>(s)) {
      stmt(ls->getSubStmt()); // reached by falling through; forward gotos exit the block before it
      return;
    }
    if (const auto *gs = dyn_cast<GotoStmt>(s)) {
      auto it = gotoTargets_.find(gs->getLabel());
      if (it == gotoTargets_.end()) {
        unsupported(sl, "goto '" + gs->getLabel()->getNameAsString() +
                            "' backwards or into a block (only forward gotos to a later statement of an enclosing block are supported)");
        return;
      }
      auto e = emit(StmtKind::Exit, sl);
      e->label = it->second;
      return;
    }
    if (isa<IndirectGotoStmt>(s)) {
      unsupported(sl, "computed goto");
      return;
    }
    if (const auto *as = dyn_cast<AttributedStmt>(s)) {
      stmt(as->getSubStmt());
      return;
    }
    if (const auto *e = dyn_cast<Expr>(s)) {
      discard(e);
      return;
    }
    unsupported(sl, std::string("statement '") + s->getStmtClassName() + "'");
  }

  // The first `end` statements of a block. A label among them that a goto before it targets
  // splits the block: everything before the label goes into a KIR Block the goto exits.
  void stmtRange(const std::vector<const Stmt *> &kids, size_t end) {
    for (size_t j = end; j-- > 0;) {
      const auto *ls = dyn_cast<LabelStmt>(kids[j]);
      if (!ls)
        continue;
      bool targeted = false;
      for (size_t i = 0; i < j && !targeted; ++i)
        targeted = gotoIn(kids[i], ls->getDecl());
      if (!targeted)
        continue;
      auto blk = emit(StmtKind::Block, kids[j]->getBeginLoc());
      blk->label = k_.newLabel();
      ir::Block *saved = cur_;
      cur_ = &blk->body;
      gotoTargets_[ls->getDecl()] = blk->label;
      // Loops inside keep their own break/continue targets; a goto leaves them.
      stmtRange(kids, j);
      gotoTargets_.erase(ls->getDecl());
      cur_ = saved;
      for (size_t i = j; i < end; ++i)
        stmt(kids[i]);
      return;
    }
    for (size_t i = 0; i < end; ++i)
      stmt(kids[i]);
  }

  static bool gotoIn(const Stmt *s, const LabelDecl *l) {
    if (!s)
      return false;
    if (const auto *g = dyn_cast<GotoStmt>(s); g && g->getLabel() == l)
      return true;
    for (const Stmt *c : s->children())
      if (gotoIn(c, l))
        return true;
    return false;
  }

  void loop(SourceLocation sl, const Expr *cond, const Stmt *body, const Expr *inc, bool testFirst,
            const DeclStmt *condVar) {
    auto st = emit(StmtKind::Loop, sl);
    st->label = k_.newLabel();
    st->contLabel = k_.newLabel();
    st->testFirst = testFirst;
    ir::Block *saved = cur_;
    cur_ = &st->pre;
    if (condVar)
      stmt(condVar);
    st->cond = cond ? toBool(rvalue(cond)) : ir::mkConstBool(true);
    loops_.push_back({st->label, st->contLabel});
    auto bodyBlock = std::make_shared<ir::Stmt>();
    bodyBlock->kind = StmtKind::Block;
    bodyBlock->label = st->contLabel;
    bodyBlock->loc = loc(sl);
    st->body.push_back(bodyBlock);
    cur_ = &bodyBlock->body;
    stmt(body);
    loops_.pop_back();
    cur_ = &st->step;
    if (inc)
      discard(inc);
    cur_ = saved;
  }

  void decl(const Decl *d) {
    const auto *vd = dyn_cast<VarDecl>(d);
    if (!vd) {
      if (isa<TypedefNameDecl>(d) || isa<TagDecl>(d) || isa<StaticAssertDecl>(d))
        return;
      unsupported(d->getLocation(), "declaration");
      return;
    }
    QualType qt = vd->getType();
    if (vd->hasAttr<CUDASharedAttr>() || vd->isStaticLocal() || vd->hasAttr<CUDAConstantAttr>()) {
      auto b = declareGlobal(vd);
      if (b)
        frames_.back().bindings[vd] = *b;
      return;
    }
    if (isRecord(qt) || !arrayOfRecordElem(qt).isNull()) {
      std::vector<int64_t> outer;
      QualType rec = qt;
      while (const auto *at = ctx_.getAsConstantArrayType(rec)) {
        outer.push_back(at->getSize().getSExtValue());
        rec = at->getElementType();
      }
      if (!isRecord(rec)) {
        unsupported(vd->getLocation(), "local array of structs '" + vd->getNameAsString() + "' of type '" +
                                           qt.getAsString() + "'");
        return;
      }
      auto b = declareAgg(vd, vd->getNameAsString(), rec, outer,
                          outer.empty() ? std::nullopt : std::optional<ir::Space>(ir::Space::Local));
      if (!b)
        return;
      frames_.back().bindings[vd] = *b;
      if (outer.empty()) {
        initAgg(aggOfStore(aggs_[b->id], vd->getNameAsString()), rec, vd->getInit(), vd->getLocation());
      } else if (const auto *ce = dyn_cast_or_null<CXXConstructExpr>(vd->getInit());
                 vd->hasInit() && !(ce && ce->getConstructor()->isTrivial())) {
        unsupported(vd->getLocation(), "initialiser of local array of structs '" + vd->getNameAsString() + "'");
      }
      return;
    }
    if (pointsToRecord(qt)) {
      auto b = declareAggPtr(vd->getLocation(), vd->getNameAsString(), qt->getPointeeType());
      if (!b)
        return;
      frames_.back().bindings[vd] = *b;
      if (vd->getInit())
        assignAggPtr(aggs_[b->id], aggPtr(vd->getInit()), vd->getLocation());
      return;
    }
    if (qt->isArrayType()) {
      ir::Array a;
      a.name = vd->getNameAsString();
      a.space = ir::Space::Local;
      QualType et = qt;
      while (const auto *at = ctx_.getAsConstantArrayType(et)) {
        a.dims.push_back(at->getSize().getSExtValue());
        et = at->getElementType();
      }
      auto t = scalarType(et);
      if (!t || a.dims.empty()) {
        unsupported(vd->getLocation(), "local array '" + a.name + "' of type '" + qt.getAsString() + "'");
        return;
      }
      a.elem = *t;
      a.loc = loc(vd->getLocation());
      int id = k_.addArray(a);
      frames_.back().bindings[vd] = {Binding::Array, id};
      if (const auto *il = dyn_cast_or_null<InitListExpr>(vd->getInit())) {
        if (a.dims.size() != 1) {
          unsupported(vd->getLocation(), "initialiser of a multi-dimensional local array");
          return;
        }
        for (unsigned i = 0; i < il->getNumInits(); ++i) {
          ExprPtr v = cast(rvalue(il->getInit(i)), a.elem); // its loads come first
          auto s = emit(StmtKind::Store, vd->getLocation());
          s->ptr = ir::mkArrayRef(id);
          s->index.push_back(ir::mkConstInt(i, Type::i32()));
          s->value = v;
          s->text = a.name + "[" + std::to_string(i) + "]";
        }
      } else if (vd->hasInit()) {
        unsupported(vd->getLocation(), "initialiser of local array '" + a.name + "'");
      }
      return;
    }
    Type t = typeOr(qt, vd->getLocation());
    if (addressTaken_.count(vd)) {
      // Its address is taken: a one-element array in thread-local memory.
      ir::Array a;
      a.name = vd->getNameAsString();
      a.space = ir::Space::Local;
      a.elem = t;
      a.dims = {1};
      a.loc = loc(vd->getLocation());
      int id = k_.addArray(a);
      frames_.back().bindings[vd] = {Binding::Array, id};
      if (const Expr *init = vd->getInit()) {
        ExprPtr v = cast(rvalue(init), t); // its loads come first
        auto s = emit(StmtKind::Store, vd->getLocation());
        s->ptr = ir::mkArrayRef(id);
        s->index.push_back(ir::mkConstInt(0, Type::i32()));
        s->value = v;
        s->text = a.name;
      }
      return;
    }
    ir::Var v;
    v.name = vd->getNameAsString();
    v.type = t;
    v.loc = loc(vd->getLocation());
    int id = k_.addVar(v);
    frames_.back().bindings[vd] = {Binding::Var, id};
    if (const Expr *init = vd->getInit()) {
      if (const auto *il = dyn_cast<InitListExpr>(init); il && il->getNumInits() == 1)
        init = il->getInit(0); // `int x{e}` / `int x = {e}`
      if (isa<InitListExpr>(init) || isa<CXXConstructExpr>(init)) {
        unsupported(vd->getLocation(), "initialiser of '" + v.name + "'");
        return;
      }
      ExprPtr val = rvalue(init);
      auto s = emit(StmtKind::Assign, vd->getLocation());
      s->var = id;
      s->value = cast(val, t);
    } else {
      // An uninitialised variable holds some value until it is assigned.
      auto s = emit(StmtKind::Havoc, vd->getLocation());
      s->var = id;
      s->text = "the value of uninitialised '" + v.name + "'";
    }
  }
};

struct Collector {
  std::vector<const FunctionDecl *> kernels;
  void visit(const DeclContext *dc, SourceManager &sm) {
    for (const Decl *d : dc->decls()) {
      if (const auto *ns = dyn_cast<NamespaceDecl>(d)) {
        visit(ns, sm);
        continue;
      }
      if (const auto *ls = dyn_cast<LinkageSpecDecl>(d)) {
        visit(ls, sm);
        continue;
      }
      const auto *fd = dyn_cast<FunctionDecl>(d);
      if (const auto *ft = dyn_cast<FunctionTemplateDecl>(d)) {
        if (ft->getTemplatedDecl()->hasAttr<CUDAGlobalAttr>())
          templates.push_back(ft);
        continue;
      }
      if (!fd || !fd->hasAttr<CUDAGlobalAttr>() || !fd->doesThisDeclarationHaveABody())
        continue;
      if (!sm.isInMainFile(sm.getExpansionLoc(fd->getLocation())))
        continue;
      kernels.push_back(fd);
    }
  }
  std::vector<const FunctionTemplateDecl *> templates;
};

} // namespace

ParseResult parseSource(const std::string &code, const std::string &fileName, const Options &opts) {
  ParseResult res;
  std::vector<std::string> args = {
      "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-path=/nonexistent",
      "--cuda-gpu-arch=sm_80", "-std=c++17", "-resource-dir=/usr/lib/llvm-19/lib/clang/19",
      "-Wno-unknown-cuda-version", "-Wno-everything", "-ferror-limit=50",
      "-I/ksynth-prelude", "-include", kPreludePath, "-D__KSYNTH__=1",
      // GPUVerify kernels include these; the prelude stands in for them.
  };
  for (const std::string &d : opts.defines)
    args.push_back("-D" + d);
  for (const std::string &i : opts.includeDirs)
    args.push_back("-I" + i);
  tooling::FileContentMappings files = {
      {kPreludePath, kPrelude},
      {"/ksynth-prelude/cuda.h", "#pragma once\n"},
      {"/ksynth-prelude/cuda_runtime.h", "#pragma once\n"},
      {"/ksynth-prelude/cuda_runtime_api.h", "#pragma once\n"},
      {"/ksynth-prelude/device_launch_parameters.h", "#pragma once\n"},
      {"/ksynth-prelude/cuda_fp16.h", "#pragma once\n"},
      {"/ksynth-prelude/cooperative_groups.h", "#pragma once\n"},
      {"/ksynth-prelude/curand.h", "#pragma once\n"},
      {"/ksynth-prelude/curand_kernel.h", "#pragma once\n"},
      {"/ksynth-prelude/device_functions.h", "#pragma once\n"},
      {"/ksynth-prelude/sm_20_atomic_functions.h", "#pragma once\n"},
      {"/ksynth-prelude/cstdio", "#pragma once\n"},
      {"/ksynth-prelude/stdio.h", "#pragma once\nextern \"C\" int printf(const char *, ...);\n"},
      {"/ksynth-prelude/cstdlib", "#pragma once\n"},
      {"/ksynth-prelude/stdlib.h", "#pragma once\n"},
      {"/ksynth-prelude/math.h", "#pragma once\n"},
      {"/ksynth-prelude/cmath", "#pragma once\n"},
      {"/ksynth-prelude/assert.h", "#pragma once\n"},
      {"/ksynth-prelude/stdint.h", "#pragma once\ntypedef int int32_t; typedef unsigned uint32_t; "
                                   "typedef long long int64_t; typedef unsigned long long uint64_t;\n"},
      {"/ksynth-prelude/cstdint", "#pragma once\n#include <stdint.h>\n"},
  };
  std::string diagText;
  llvm::raw_string_ostream diagStream(diagText);
  auto diagOpts = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
  TextDiagnosticPrinter printer(diagStream, diagOpts.get());
  std::unique_ptr<ASTUnit> ast = tooling::buildASTFromCodeWithArgs(
      code, args, fileName, "ksynth", std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), files, &printer);
  diagStream.flush();
  res.clangOutput = diagText;
  if (!ast || ast->getDiagnostics().hasErrorOccurred()) {
    res.parsed = false;
    return res;
  }
  res.parsed = true;
  ASTContext &ctx = ast->getASTContext();
  Collector col;
  col.visit(ctx.getTranslationUnitDecl(), ctx.getSourceManager());
  std::map<const FunctionDecl *, int64_t> fnIds; // one numbering of functions per file
  for (const FunctionDecl *fd : col.kernels) {
    ir::Kernel k;
    k.file = fileName;
    std::vector<Diagnostic> notes;
    std::map<const VarDecl *, int> globals;
    Lowerer lw(ctx, k, notes, globals, fnIds);
    lw.lowerKernel(fd);
    res.kernels.push_back(std::move(k));
    res.notes.push_back(std::move(notes));
  }
  return res;
}

ParseResult parseFile(const std::string &path, const Options &opts) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ParseResult r;
    r.clangOutput = "error: cannot read '" + path + "'\n";
    return r;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return parseSource(ss.str(), path, opts);
}

} // namespace ksynth::frontend
