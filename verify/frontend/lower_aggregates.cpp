// Frontend: lowering of structs and classes (flattened layouts, struct lvalues and pointers, copies).
#include "verify/frontend/lowerer.h"

#include <clang/AST/RecordLayout.h>

#include <functional>

namespace ksynth::frontend::detail {

bool Lowerer::isRecord(QualType qt) {
  return !qt.isNull() && qt.getCanonicalType()->isRecordType();
}

bool Lowerer::pointsToRecord(QualType qt) {
  return !qt.isNull() && qt->isPointerType() && isRecord(qt->getPointeeType());
}

// The record type of an array of records, else null.
QualType Lowerer::arrayOfRecordElem(QualType qt) {
  QualType et = qt;
  while (const auto *at = ctx_.getAsArrayType(et))
    et = at->getElementType();
  return et.getTypePtr() != qt.getTypePtr() && isRecord(et) ? et : QualType();
}

std::optional<Layout> Lowerer::layoutOf(QualType qt, std::string &why) {
  Layout out;
  const RecordDecl *rd = qt.getCanonicalType()->getAsRecordDecl();
  if (!rd || !flattenRecord(rd, "", out, why))
    return std::nullopt;
  return out;
}

bool Lowerer::flattenRecord(const RecordDecl *rd, const std::string &prefix, Layout &out, std::string &why,
                            int64_t base) {
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

bool Lowerer::flattenType(QualType t, const std::string &path, Layout &out, std::string &why, int64_t offset) {
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

size_t Lowerer::findLeaf(const Layout &lay, const std::string &path) {
  for (size_t i = 0; i < lay.size(); ++i)
    if (lay[i].path == path)
      return i;
  return lay.size();
}

// The part of `a` under `prefix` ("v." for member v, "s::" for base class s).
// The leaves of `a` under `prefix`, with the prefix removed from their paths; `parts` is
// the per-leaf member (LValues of an AggLV, pointers of an AggPtr).
template <class Agg, class Part>
Agg Lowerer::restrictLeaves(const Agg &a, const std::vector<Part> &parts, std::vector<Part> Agg::*out,
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

AggLV Lowerer::restrictAgg(const AggLV &a, const std::string &prefix, const std::string &text) {
  AggLV r = restrictLeaves(a, a.leaves, &AggLV::leaves, prefix);
  r.text = text;
  return r;
}

AggPtr Lowerer::restrictPtr(const AggPtr &a, const std::string &prefix) {
  return restrictLeaves(a, a.ptrs, &AggPtr::ptrs, prefix);
}

// The leaves of field `name` (a scalar, an array, or an array of structs or pointers).
AggLV Lowerer::fieldLeaves(const AggLV &a, const std::string &name) {
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
std::string Lowerer::basePrefix(const CastExpr *ce) {
  std::string prefix;
  for (const CXXBaseSpecifier *b : ce->path())
    if (const RecordDecl *bd = b->getType()->getAsRecordDecl())
      prefix += bd->getNameAsString() + "::";
  return prefix;
}

// Storage for a struct (or array of structs) declared here. `outer` are the extents of an
// array of structs; `space` is where it lives when it is in memory.
std::optional<Binding> Lowerer::declareAgg(const VarDecl *vd, const std::string &name, QualType rec,
                                           std::vector<int64_t> outer, std::optional<ir::Space> space,
                                           SourceLocation at) {
  SourceLocation where = vd ? vd->getLocation() : at;
  std::string why;
  auto lay = layoutOf(rec, why);
  if (!lay) {
    unsupported(where, "variable '" + name + "': " + why);
    return std::nullopt;
  }
  if (outer.size() > 1) {
    unsupported(where, "multi-dimensional array of structs '" + name + "'");
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
      v.loc = loc(where);
      st.leaves.push_back({Binding::Var, k_.addVar(v)});
      continue;
    }
    if (st.inMemory && !lf.dims.empty()) {
      unsupported(where, "array field '" + lf.path + "' in an array or __shared__ struct '" +
                                         name + "'");
      return std::nullopt;
    }
    ir::Array a;
    a.name = name + "." + lf.path;
    a.space = space.value_or(ir::Space::Local);
    a.elem = lt;
    a.dims = st.inMemory ? (outer.empty() ? std::vector<int64_t>{1} : outer) : lf.dims;
    a.loc = loc(where);
    st.leaves.push_back({Binding::Array, k_.addArray(a)});
  }
  aggs_.push_back(std::move(st));
  return Binding{Binding::Agg, static_cast<int>(aggs_.size() - 1)};
}

void Lowerer::scanNarrowing(const Stmt *s) {
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

bool Lowerer::narrowedBase(QualType rec) {
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
std::optional<Binding> Lowerer::declareAggPtr(SourceLocation sl, const std::string &name, QualType rec) {
  std::string why;
  auto lay = layoutOf(rec, why);
  if (!lay) {
    unsupported(sl, "pointer '" + name + "' to struct: " + why);
    return std::nullopt;
  }
  AggStore st;
  st.layout = *lay;
  st.isPtr = true;
  st.stride = 0; // fixed by its first assignment, or by a use before any
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

LValue Lowerer::leafLValue(const AggStore &st, size_t i, const std::string &text) {
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

AggLV Lowerer::aggOfStore(const AggStore &st, const std::string &text) {
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

AggLV Lowerer::deref(const AggPtr &p, ExprPtr idx, const std::string &text) {
  AggLV r;
  r.ok = p.ok;
  if (p.ok && p.single && !(idx->op == Op::Const && idx->ival == 0)) {
    unsupported(SourceLocation(), "indexing '" + p.text +
                                      "', a base-class pointer into an array of a larger derived class");
    r.ok = false;
  }
  r.layout = p.layout;
  r.text = text;
  if (p.stride != 1)
    idx = ir::mkBinary(Op::Mul, Type::i64(), cast(idx, Type::i64()), ir::mkConstInt(p.stride, Type::i64()));
  for (size_t i = 0; i < p.layout.size(); ++i) {
    LValue lv;
    lv.mem.ptr = p.ptrs[i];
    lv.mem.index.push_back(idx);
    lv.mem.elem = *scalarType(p.layout[i].type);
    lv.mem.text = text + "." + p.layout[i].path;
    // An array field: its array holds |field| scalars per struct, so `idx` is not its index.
    // Only ptrArrayField's subscripts reach one; any other use is unmodelled (read or written
    // through this leaf, its decay to a pointer). Its other fields stay usable.
    if (!p.layout[i].dims.empty())
      lv.ok = false;
    r.leaves.push_back(lv);
  }
  return r;
}

// A struct-typed lvalue expression.
AggLV Lowerer::aggLValue(const Expr *e) {
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
  if (const auto *call = dyn_cast<CallExpr>(e))
    return structCall(call);
  // A temporary built in place (`SharedMemory<T>()`, `Pair{a, b}`, `float2(x, y)`): a fresh
  // struct, initialised as a local variable with that initialiser would be.
  if (isa<CXXTemporaryObjectExpr>(e) || isa<CXXConstructExpr>(e) || isa<InitListExpr>(e) ||
      isa<CXXFunctionalCastExpr>(e)) {
    auto b = declareAgg(nullptr, "tmp." + std::to_string(tmpCount_++), e->getType(), {}, std::nullopt, sl);
    if (!b)
      return {};
    AggLV dst = aggOfStore(aggs_[b->id], txt);
    initAgg(dst, e->getType(), e, sl);
    return dst;
  }
  unsupported(sl, std::string("struct-valued expression '") + e->getStmtClassName() + "' (" + txt + ")");
  return {};
}

// A call that returns a struct (a device function of the file, or a prelude intrinsic with a
// body such as __hadd2 or make_float4): the callee is inlined and its `return` statements
// initialise a fresh temporary, which is the call's value.
AggLV Lowerer::structCall(const CallExpr *call) {
  SourceLocation sl = call->getExprLoc();
  std::string txt = text(call->getSourceRange());
  const FunctionDecl *fd = call->getDirectCallee();
  if (fd && !fd->hasBody() && !isa<CXXMethodDecl>(fd)) {
    // A function declared without a body (`tex2D<float4>(...)`): its arguments are read as for
    // a scalar result (a pointer argument is refused), and each field of the result is some
    // value, invented as a scalar result's is (no refutation may rest on one).
    (void)callWithoutBody(call, fd, Type{});
    auto b = declareAgg(nullptr, fd->getNameAsString() + ".ret." + std::to_string(tmpCount_++), call->getType(), {},
                        std::nullopt, sl);
    if (!b)
      return {};
    AggLV dst = aggOfStore(aggs_[b->id], txt);
    havocAgg(dst, sl, "the result of");
    return dst;
  }
  if (!fd || !fd->hasBody() || isa<CXXMethodDecl>(fd)) {
    unsupported(sl, "call '" + txt + "' returning a struct" +
                        (fd && !fd->hasBody() ? " from a function without a body" : ""));
    return {};
  }
  auto b = declareAgg(nullptr, fd->getNameAsString() + ".ret." + std::to_string(tmpCount_++), call->getType(), {},
                      std::nullopt, sl);
  if (!b)
    return {};
  AggLV dst = aggOfStore(aggs_[b->id], txt);
  nextReturnAgg_ = dst;
  (void)callExpr(call);
  if (nextReturnAgg_) { // not inlined (refused on the way): nothing wrote the temporary
    nextReturnAgg_.reset();
    unmodelled(sl);
    return {};
  }
  return dst;
}

// The struct a member expression selects from: `b.f` -> b, `p->f` -> *p, `f` in a method -> *this.
AggLV Lowerer::memberBase(const MemberExpr *me) {
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
AggPtr Lowerer::aggPtr(const Expr *e) {
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
          if (aggs_[b->id].stride == 0)
            aggs_[b->id].stride = 1; // used before any assignment: a struct pointer from now on
          r.stride = st.stride;
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
    if (p.stride != 1)
      off = ir::mkBinary(Op::Mul, Type::i64(), off, ir::mkConstInt(p.stride, Type::i64()));
    for (ExprPtr &q : p.ptrs)
      q = ir::mkPtrAdd(q, off, loc(sl));
    p.text = txt;
    return p;
  }
  if (const auto *ce = dyn_cast<ExplicitCastExpr>(e)) {
    if (ce->getCastKind() == CK_NoOp)
      return aggPtr(ce->getSubExpr());
    if (ce->getCastKind() == CK_BitCast)
      return vectorView(ce);
  }
  if (const auto *co = dyn_cast<ConditionalOperator>(e)) {
    ExprPtr c = toBool(rvalue(co->getCond()));
    AggPtr a = aggPtr(co->getTrueExpr()), b = aggPtr(co->getFalseExpr());
    if (!a.ok || !b.ok || a.ptrs.size() != b.ptrs.size() || a.stride != b.stride) {
      if (a.ok && b.ok && a.stride != b.stride)
        unsupported(sl, "a choice between a vector view of an array and a struct pointer '" + txt + "'");
      return {};
    }
    for (size_t i = 0; i < a.ptrs.size(); ++i)
      a.ptrs[i] = ir::mkSelect(Type::pointer(), c, a.ptrs[i], b.ptrs[i], loc(sl));
    a.text = txt;
    return a;
  }
  unsupported(sl, std::string("pointer-to-struct expression '") + e->getStmtClassName() + "' (" + txt + ")");
  return {};
}

void Lowerer::assignAggPtr(AggStore &st, const AggPtr &src, SourceLocation sl) {
  if (!src.ok)
    return;
  st.single |= src.single;
  if (src.ptrs.size() != st.leaves.size()) {
    unsupported(sl, "pointer conversion between structs of different layouts");
    return;
  }
  // A variable holds one kind of pointer: views of scalar arrays with one stride, or struct
  // pointers (the stride is the variable's, for every use).
  if (st.stride == 0 || st.stride == src.stride) {
    st.stride = src.stride;
  } else {
    unsupported(sl, "pointer variable '" + src.text + "' assigned both a vector view of an array and a struct pointer");
    return;
  }
  for (size_t i = 0; i < st.leaves.size(); ++i) {
    auto s = emit(StmtKind::Assign, sl);
    s->var = st.leaves[i].id;
    s->value = src.ptrs[i];
  }
}

ExprPtr Lowerer::readLeaf(const LValue &lv, Type t, SourceLocation sl) {
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
bool Lowerer::copyArrayLeaf(const LValue &dst, const LValue &src, const Leaf &lf, SourceLocation sl) {
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
void Lowerer::copyAgg(const AggLV &dst, const AggLV &src, SourceLocation sl) {
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

void Lowerer::writeLeaf(const LValue &lv, ExprPtr v, SourceLocation sl) {
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
void Lowerer::havocAgg(const AggLV &dst, SourceLocation sl, const std::string &why) {
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
void Lowerer::initAgg(const AggLV &dst, QualType qt, const Expr *init, SourceLocation sl) {
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
  if (const auto *fc = dyn_cast<CXXFunctionalCastExpr>(init); fc && isa<InitListExpr>(fc->getSubExpr()))
    return initAgg(dst, qt, fc->getSubExpr(), sl); // T{a, b}
  if (const auto *cl = dyn_cast<CompoundLiteralExpr>(init))
    return initAgg(dst, qt, cl->getInitializer(), sl); // (T){a, b}
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

ExprPtr Lowerer::zeroOf(Type t) {
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

void Lowerer::zeroAgg(const AggLV &dst, SourceLocation sl) {
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
bool Lowerer::isTrivialRecordAssign(const Expr *e, const Expr *&lhs, const Expr *&rhs) {
  if (const auto *ew = dyn_cast<ExprWithCleanups>(e)) // `a = f()`: the temporary's cleanup is trivial
    e = ew->getSubExpr()->IgnoreParens();
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

} // namespace ksynth::frontend::detail
