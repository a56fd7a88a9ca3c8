// Frontend: lowering of a kernel (its parameters and body) and the utilities the lowerer shares.
#include "verify/frontend/lowerer.h"
#include "verify/ir/scalarise.h"

#include <clang/Lex/Lexer.h>

namespace ksynth::frontend::detail {

Lowerer::Lowerer(ASTContext &ctx, ir::Kernel &k, std::vector<Diagnostic> &notes,
                 std::map<const VarDecl *, int> &globals, std::map<const FunctionDecl *, int64_t> &fnIds)
    : ctx_(ctx), sm_(ctx.getSourceManager()), k_(k), notes_(notes), globalArrays_(globals), fnIds_(fnIds) {}

void Lowerer::lowerKernel(const FunctionDecl *fd) {
  k_.name = fd->getNameAsString();
  if (fd->getTemplateSpecializationArgs()) { // an instance of a template kernel: k<256, float>
    std::string full;
    llvm::raw_string_ostream os(full);
    fd->getNameForDiagnostic(os, ctx_.getPrintingPolicy(), /*Qualified=*/false);
    k_.name = os.str();
  }
  k_.loc = loc(fd->getLocation());
  FnFrame frame;
  frame.fd = fd;
  frame.returnLabel = 0;
  frames_.push_back(std::move(frame));
  std::set<const VarDecl *> reassigned;
  scanAssignedParams(fd->getBody(), reassigned);
  std::vector<std::pair<int, int>> pointerInits; // (var, array)
  std::vector<std::pair<int, const EnumDecl *>> enumParams; // (var, its enum)
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
        if (!lf.dims.empty() && !st.isPtr) {
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
          a.align = 256; // cudaMalloc's
          a.loc = loc(p->getLocation());
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
      // A pointer to structs: its scalar fields' arrays have one length (the number of structs),
      // that of the first one, which comes before the others among the parameters. An array
      // field's array has a length of its own (nothing is known of it): it is modelled only as
      // the whole of a one-array struct (Lowerer::ptrArrayField), whose __len is refused.
      size_t root = 0;
      while (root < st.layout.size() && !st.layout[root].dims.empty())
        ++root;
      if (st.isPtr && root < st.layout.size())
        for (size_t j = root + 1; j < st.leaves.size(); ++j)
          if (st.layout[j].dims.empty() && st.leaves[j].kind == Binding::Array)
            k_.arrays[st.leaves[j].id].sameLength = st.leaves[root].id;
      frames_.back().bindings[p] = {Binding::Agg, static_cast<int>(aggs_.size())};
      aggs_.push_back(std::move(st));
      continue;
    }
    if (qt->isPointerType() && !qt->isFunctionPointerType()) {
      // A pointer to rows (`float x[][N]`) is one array of scalars, subscripted row by row.
      QualType rowScalar;
      auto et = rowDims(qt->getPointeeType(), &rowScalar).empty() ? scalarType(qt->getPointeeType())
                                                                 : scalarType(rowScalar);
      ir::Array a;
      a.name = name;
      a.space = ir::Space::Global;
      a.elem = et.value_or(Type::i32());
      a.paramIndex = static_cast<int>(i);
      a.align = 256; // cudaMalloc's
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
      if (const auto *et = qt.getCanonicalType()->getAs<EnumType>(); et && t)
        enumParams.push_back({id, et->getDecl()});
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
  // An enum parameter holds a value from its enum's declared range (the host passes one of
  // its enumerators): a precondition, reported with every verdict. Values made inside the
  // kernel (casts from integers, loads) are assumed nothing.
  for (auto [var, ed] : enumParams) {
    std::optional<int64_t> lo, hi;
    bool fits = true;
    for (const EnumConstantDecl *c : ed->enumerators()) {
      if (!c->getInitVal().isRepresentableByInt64()) {
        fits = false;
        break;
      }
      int64_t v = c->getInitVal().getExtValue();
      lo = lo ? std::min(*lo, v) : v;
      hi = hi ? std::max(*hi, v) : v;
    }
    if (!lo || !fits)
      continue; // no enumerators (or past 64 bits): any value of the underlying type
    const ir::Var &pv = k_.vars[var];
    ExprPtr x = ir::mkVar(var, pv.type);
    ExprPtr c = ir::mkBinary(Op::LAnd, Type::boolean(),
                             ir::mkBinary(Op::Le, Type::boolean(), ir::mkConstInt(*lo, pv.type), x),
                             ir::mkBinary(Op::Le, Type::boolean(), x, ir::mkConstInt(*hi, pv.type)));
    auto s = emit(StmtKind::Assume, ed->getLocation());
    s->cond = c;
    s->precondition = true;
    s->text = "enum parameter '" + pv.name + "' holds a value of " + ed->getNameAsString() + "'s declared range " +
              std::to_string(*lo) + ".." + std::to_string(*hi);
  }
  scanAddressTaken(fd->getBody());
  // GPUVerify's file-scope `__axiom(e)` (see the prelude) holds in every kernel.
  for (const Decl *d : ctx_.getTranslationUnitDecl()->decls())
    if (const auto *ax = dyn_cast<FunctionDecl>(d);
        ax && ax->hasBody() && ax->getNameAsString().rfind("__ksynth_axiom_fn_", 0) == 0)
      stmt(ax->getBody());
  stmt(fd->getBody());
  k_.body.push_back(top);
  // Register tiles: local arrays accessed only at constant indices become scalars.
  ir::scalariseLocalArrays(k_, localArrayDecls_);
}

// Pointer parameters the kernel assigns to (`p = q`, `p += k`, `p++`).
void Lowerer::scanAssignedParams(const Stmt *s, std::set<const VarDecl *> &out) {
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

void Lowerer::scanAddressTaken(const Stmt *s) {
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

Loc Lowerer::loc(SourceLocation l) {
  if (l.isInvalid())
    return {};
  SourceLocation e = sm_.getExpansionLoc(l);
  if (sm_.getFileID(e) == sm_.getMainFileID())
    return {sm_.getExpansionLineNumber(e), sm_.getExpansionColumnNumber(e), ""};
  // A header of the user's project keeps its name and lines; locations inside ksynth's own
  // headers or system headers are reported at the nearest user location instead.
  if (!userCode(sm_, e))
    return {};
  return {sm_.getExpansionLineNumber(e), sm_.getExpansionColumnNumber(e), sm_.getFilename(e).str()};
}

std::string Lowerer::text(SourceRange r) {
  if (r.isInvalid())
    return "";
  CharSourceRange cr = CharSourceRange::getTokenRange(sm_.getExpansionRange(r).getAsRange());
  return Lexer::getSourceText(cr, sm_, ctx_.getLangOpts()).str();
}

void Lowerer::note(SourceLocation l, const std::string &sev, const std::string &msg) {
  Diagnostic d;
  SourceLocation e = sm_.getExpansionLoc(l);
  d.file = sm_.getFilename(e).str();
  d.line = sm_.getExpansionLineNumber(e);
  d.col = sm_.getExpansionColumnNumber(e);
  d.severity = sev;
  d.message = msg;
  notes_.push_back(d);
}

void Lowerer::unsupported(SourceLocation l, const std::string &what) {
  note(l, "error", "unsupported: " + what);
  ++unsupportedCount_;
  auto s = std::make_shared<ir::Stmt>();
  s->kind = StmtKind::Unsupported;
  s->loc = loc(l);
  s->text = what;
  if (cur_)
    cur_->push_back(s);
  else
    pendingUnsupported_.push_back(s); // e.g. a parameter: goes to the top of the kernel
}

// A safety net: a memory location that could not be modelled is used here. Its cause was
// reported where it was found; this makes sure the kernel cannot be proven through it.
void Lowerer::unmodelled(SourceLocation l) {
  auto s = std::make_shared<ir::Stmt>();
  s->kind = StmtKind::Unsupported;
  s->loc = loc(l);
  s->text = "a value ksynth could not model is used here";
  if (cur_)
    cur_->push_back(s);
  else
    pendingUnsupported_.push_back(s);
}

ir::StmtPtr Lowerer::emit(StmtKind kind, SourceLocation l) {
  auto s = std::make_shared<ir::Stmt>();
  s->kind = kind;
  s->loc = loc(l);
  cur_->push_back(s);
  return s;
}

std::optional<Type> Lowerer::scalarType(QualType qt) {
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
  if (qt->isBFloat16Type())
    return Type::bf16();
  if (qt->isFloat16Type())
    return Type::f16();
  if (qt->isRealFloatingType()) {
    unsigned bits = static_cast<unsigned>(ctx_.getTypeSize(qt));
    Type t = Type::f32();
    t.bits = static_cast<uint8_t>(bits);
    return t;
  }
  return std::nullopt;
}

Type Lowerer::typeOr(QualType qt, SourceLocation l) {
  auto t = scalarType(qt);
  if (!t) {
    unsupported(l, "values of type '" + qt.getAsString() + "'");
    return Type::i32();
  }
  return *t;
}

int Lowerer::newTemp(Type t, const std::string &hint) {
  ir::Var v;
  v.name = hint + "." + std::to_string(tmpCount_++);
  v.type = t;
  return k_.addVar(v);
}

std::optional<Binding> Lowerer::lookup(const ValueDecl *d) {
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

std::optional<Binding> Lowerer::declareGlobal(const VarDecl *vd) {
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
  bool viewed = false;
  if (isa<IncompleteArrayType>(qt.getTypePtr())) {
    a.dynamicShared = true;
    qt = llvm::cast<IncompleteArrayType>(qt.getTypePtr())->getElementType();
    if (std::optional<QualType> v = soleView(vd); v && a.space == ir::Space::Shared) {
      qt = *v; // bytes used only as floats (say): an array of floats
      viewedAs_[vd->getCanonicalDecl()] = *v;
      viewed = true;
    }
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
  a.align = ctx_.getDeclAlign(vd).getQuantity();
  if (viewed) // a view of the array as T needs T's alignment: the casts promise it
    a.align = std::max<int64_t>(a.align, ctx_.getTypeAlignInChars(qt).getQuantity());
  a.loc = loc(vd->getLocation());
  int id = k_.addArray(a);
  globalArrays_[vd->getCanonicalDecl()] = id;
  if (vd->hasInit() && a.space != ir::Space::Shared)
    note(vd->getLocation(), "warning",
         "initial value of '" + a.name + "' is not modelled (treated as unknown)");
  return Binding{Binding::Array, id};
}

} // namespace ksynth::frontend::detail
