// Frontend: lowering of expressions (rvalues, lvalues, casts, operators).
#include "verify/frontend/lowerer.h"

namespace ksynth::frontend::detail {

ExprPtr Lowerer::cast(ExprPtr e, Type to, Loc l) {
  if (e->type == to)
    return e;
  return ir::mkCast(to, std::move(e), l);
}

// Evaluates an integer constant expression (sizeof, enumerators, constexpr, literals).
std::optional<int64_t> Lowerer::constInt(const Expr *e) {
  if (!e->getType()->isIntegralOrEnumerationType() || e->isValueDependent())
    return std::nullopt;
  Expr::EvalResult r;
  if (e->HasSideEffects(ctx_) || !e->EvaluateAsInt(r, ctx_))
    return std::nullopt;
  if (!r.Val.getInt().isRepresentableByInt64())
    return std::nullopt; // an unsigned 64-bit value past INT64_MAX (getExtValue would assert)
  return r.Val.getInt().getExtValue();
}

// An expression's value. Where part of it is unsupported, the stand-in the lowering left may
// not have the expression's type; it is replaced by a zero of that type, so that the IR stays
// well typed (the kernel is unknown anyway, through its Unsupported statement).
ExprPtr Lowerer::rvalue(const Expr *e) {
  size_t before = unsupportedCount_;
  ExprPtr r = rvalueOf(e);
  if (unsupportedCount_ == before || !r || e->getType()->isVoidType() || isRecord(e->getType()))
    return r;
  std::optional<Type> want = scalarType(e->getType());
  if (!want || (r->type.kind == want->kind && r->type.bits == want->bits))
    return r;
  return want->kind == ir::TypeKind::Float ? ir::mkConstFloat(0, *want) : ir::mkConstInt(0, *want);
}

ExprPtr Lowerer::rvalueOf(const Expr *e) {
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
    if (b->kind == Binding::Ref)
      return readLValue(refs_[b->id], e);
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
ExprPtr Lowerer::indexValue(const Expr *e) {
  ExprPtr v = rvalue(e);
  return v->type.isBool() ? ir::mkSelect(Type::i32(), v, ir::mkConstInt(1, Type::i32()), ir::mkConstInt(0, Type::i32()))
                          : v;
}

bool Lowerer::containsBuiltinOrCall(const Expr *e) {
  // EvaluateAsInt folds through nothing thread-dependent, but be explicit.
  return isa<CallExpr>(e->IgnoreParenImpCasts());
}

ExprPtr Lowerer::builtinVar(const PseudoObjectExpr *po) {
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

ExprPtr Lowerer::castExpr(const Expr *whole, CastKind ck, const Expr *sub) {
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
  case CK_UserDefinedConversion:
    // A conversion operator (`T *p = SharedMemory<T>();`): sub is its call, inlined as any
    // method call is.
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
    if (!lv.ok)
      unmodelled(sl);
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
    // A null data pointer (`T *p = nullptr;` assigned an array later): a pointer to no array.
    // Every access through it is unresolved (unknown), and the points-to sets skip it.
    if (whole->getType()->isPointerType())
      return ir::mkConstInt(0, Type::pointer(), loc(sl));
    [[fallthrough]];
  case CK_BitCast:
    // A dynamic shared array declared as the one type it is viewed as (soleView): the cast is
    // its address.
    if (const auto *dr = dyn_cast<DeclRefExpr>(sub->IgnoreParenImpCasts()))
      if (const auto *vd = dyn_cast<VarDecl>(dr->getDecl());
          vd && vd->hasAttr<CUDASharedAttr>() && isa<IncompleteArrayType>(vd->getType().getTypePtr())) {
        ExprPtr p = rvalue(sub); // its first use declares it, deciding its element type
        auto v = viewedAs_.find(vd->getCanonicalDecl());
        if (v != viewedAs_.end() && whole->getType()->isPointerType() &&
            whole->getType()->getPointeeType().getCanonicalType().getUnqualifiedType() == v->second)
          return p;
        unsupported(sl, "cast '" + text(whole->getSourceRange()) + "' of dynamic shared array '" +
                            vd->getNameAsString() + "': only one used solely through casts to one scalar "
                            "pointer type is modelled");
        return ir::mkConstInt(0, Type::pointer());
      }
    [[fallthrough]];
  case CK_IntegralToPointer:
  case CK_PointerToIntegral:
  default:
    unsupported(sl, std::string("cast '") + CastExpr::getCastKindName(ck) + "' (" +
                        text(whole->getSourceRange()) + ")");
    return ir::mkConstInt(0, scalarType(whole->getType()).value_or(Type::i32()));
  }
}

// The address of a memory lvalue as a pointer expression.
ExprPtr Lowerer::memAddress(const Mem &m, const Expr *src) {
  if (m.index.empty())
    return m.ptr;
  if (m.index.size() == 1 && m.ptr->op != Op::ArrayRef)
    return ir::mkPtrAdd(m.ptr, m.index[0]);
  // Flatten the given leading indices of a multi-dimensional array.
  const ir::Array &a = k_.arrays[m.ptr->id];
  std::vector<int64_t> inner(a.dims.size() > 1 ? a.dims.begin() + 1 : a.dims.end(), a.dims.end());
  return ir::mkPtrAdd(m.ptr, flatOffset(m.index, inner));
}

ExprPtr Lowerer::flatOffset(const std::vector<ExprPtr> &idx, const std::vector<int64_t> &inner) {
  ExprPtr off;
  for (size_t i = 0; i < idx.size(); ++i) {
    int64_t stride = 1;
    for (size_t j = i; j < inner.size(); ++j)
      stride *= inner[j];
    ExprPtr x = cast(idx[i], Type::i64());
    ExprPtr term = stride == 1 ? x : ir::mkBinary(Op::Mul, Type::i64(), x, ir::mkConstInt(stride, Type::i64()));
    off = off ? ir::mkBinary(Op::Add, Type::i64(), off, term) : term;
  }
  return off;
}

ExprPtr Lowerer::readLValue(const LValue &lv, const Expr *src) {
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

void Lowerer::writeLValue(const LValue &lv, ExprPtr v, SourceLocation sl) {
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

LValue Lowerer::lvalue(const Expr *e) {
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
    if (b->kind == Binding::Ref)
      return refs_[b->id];
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
    // The chain a[i][j]... down to the pointer-valued (or decayed array) expression it indexes.
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
    const Expr *arr = base;
    if (const auto *ic = dyn_cast<ImplicitCastExpr>(arr);
        ic && ic->getCastKind() == CK_ArrayToPointerDecay)
      arr = ic->getSubExpr()->IgnoreParens();
    // `ps[e].a[i]`: an array field through a pointer-to-struct parameter.
    if (const auto *me = dyn_cast<MemberExpr>(arr); me && me->getType()->isArrayType())
      if (std::optional<LValue> f = ptrArrayField(me, idx)) {
        f->mem.text = text(e->getSourceRange());
        return *f;
      }
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
        const Expr *owner = llvm::cast<MemberExpr>(arr)->getBase();
        bool viaPointer = pointsToRecord(owner->getType()) || isa<ArraySubscriptExpr>(owner->IgnoreParens());
        if (blv.ok || viaPointer)
          unsupported(sl, "subscript of an array field '" + text(e->getSourceRange()) + "'" +
                              (viaPointer ? " (through a pointer, only a struct that is that one array, unpadded, "
                                            "is modelled)"
                                          : ""));
        lv.ok = false;
        return lv;
      }
      lv.mem = blv.mem;
      for (const Expr *i : idx)
        lv.mem.index.push_back(indexValue(i));
      lv.mem.text = text(e->getSourceRange());
      return lv;
    }
    // Pointer subscript: p[i] (p possibly itself computed). A pointer to rows (`float
    // (*p)[N]`) takes one subscript per level, p[i][j] being the scalar i * N + j past p (a
    // partial one, p[i], the row's address).
    ExprPtr p = rvalue(base);
    QualType scalar;
    std::vector<int64_t> dims =
        base->getType()->isPointerType() ? rowDims(base->getType()->getPointeeType(), &scalar) : std::vector<int64_t>{};
    if (idx.size() != 1 && idx.size() > dims.size() + 1) {
      unsupported(sl, "multi-level pointer subscript '" + text(e->getSourceRange()) + "'");
      lv.ok = false;
      return lv;
    }
    lv.mem.ptr = p;
    if (dims.empty()) {
      lv.mem.index.push_back(indexValue(idx[0]));
      lv.mem.elem = typeOr(e->getType(), sl);
    } else {
      std::vector<ExprPtr> ixs;
      for (const Expr *i : idx)
        ixs.push_back(indexValue(i));
      ExprPtr off = flatOffset(ixs, dims);
      // The offset counts scalars: an array of several dimensions is reached through its address
      // (an index of @a itself would be its leading one).
      if (p->op == Op::ArrayRef && k_.arrays[p->id].dims.size() > 1)
        lv.mem.ptr = ir::mkPtrAdd(p, ir::mkConstInt(0, Type::i64()));
      lv.mem.index.push_back(off);
      lv.mem.elem = typeOr(scalar, sl);
    }
    lv.mem.text = text(e->getSourceRange());
    return lv;
  }
  if (const auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_Deref) {
    lv.mem.ptr = rvalue(uo->getSubExpr());
    lv.mem.index.push_back(ir::mkConstInt(0, Type::i32()));
    // *p of a pointer to rows is the row p points at (its scalars; it decays back to p).
    QualType scalar;
    lv.mem.elem = typeOr(rowDims(e->getType(), &scalar).empty() ? e->getType() : scalar, sl);
    lv.mem.text = text(e->getSourceRange());
    return lv;
  }
  if (const auto *ic = dyn_cast<ImplicitCastExpr>(e); ic && ic->getCastKind() == CK_NoOp)
    return lvalue(ic->getSubExpr());
  if (const auto *ce = dyn_cast<CallExpr>(e); ce && ce->getCallReturnType(ctx_)->isReferenceType()) {
    const FunctionDecl *f = ce->getDirectCallee();
    unsupported(sl, "call to '" + (f ? f->getNameAsString() : text(ce->getCallee()->getSourceRange())) +
                        "', which returns a reference (not modelled; return a pointer or an index)");
    lv.ok = false;
    return lv;
  }
  unsupported(sl, std::string("lvalue '") + e->getStmtClassName() + "' (" +
                      text(e->getSourceRange()) + ")");
  lv.ok = false;
  return lv;
}

std::optional<Op> Lowerer::binOp(BinaryOperatorKind k) {
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

// `ps[e].a[i][j]` or `ps->a[i]`, fully subscripted, where ps is a pointer-to-struct parameter
// and a an array field: the field's own array holds a's scalars struct after struct, so this
// is its scalar e * |a| + the offset of [i][j] in a. Only for a struct that is exactly the
// array (its one field, no padding): then the field's array is the struct's memory, and an
// index past the field's extent reaches the next struct's scalars there as it does on the GPU.
// With other fields beside it, such an index reaches them in memory but another array in
// ksynth's model, so a race through it could be missed: not modelled (unknown) until the
// field's extents are checked. nullopt where the expression has another shape (the general
// path refuses the field then).
std::optional<LValue> Lowerer::ptrArrayField(const MemberExpr *me, const std::vector<const Expr *> &idx) {
  const auto *fd = dyn_cast<FieldDecl>(me->getMemberDecl());
  if (!fd)
    return std::nullopt;
  const Expr *ptr = nullptr, *elem = nullptr;
  const Expr *b = me->getBase()->IgnoreParens();
  if (me->isArrow())
    ptr = b;
  else if (const auto *as = dyn_cast<ArraySubscriptExpr>(b); as && pointsToRecord(as->getBase()->getType()))
    ptr = as->getBase(), elem = as->getIdx();
  else if (const auto *uo = dyn_cast<UnaryOperator>(b); uo && uo->getOpcode() == UO_Deref)
    ptr = uo->getSubExpr();
  if (!ptr || !pointsToRecord(ptr->getType()))
    return std::nullopt;
  // The parameter itself, named: evaluating it has no effects, so returning nullopt after it
  // leaves nothing evaluated twice by the general path.
  const auto *dr = dyn_cast<DeclRefExpr>(ptr->IgnoreParenImpCasts());
  if (!dr || !isa<ParmVarDecl>(dr->getDecl()))
    return std::nullopt;
  QualType rec = ptr->getType()->getPointeeType();
  AggPtr q = aggPtr(ptr);
  if (!q.ok || q.single || q.stride != 1 || q.layout.size() != 1)
    return std::nullopt;
  size_t li = findLeaf(q.layout, fd->getNameAsString());
  if (li == q.layout.size() || q.layout[li].dims.size() != idx.size())
    return std::nullopt;
  int64_t scalars = 1;
  for (int64_t d : q.layout[li].dims)
    scalars *= d;
  if (rec->isIncompleteType() ||
      ctx_.getTypeSizeInChars(rec).getQuantity() != scalars * ctx_.getTypeSizeInChars(q.layout[li].type).getQuantity())
    return std::nullopt; // padded (`__align__(16)` around three floats): not the field's scalars alone
  // Only the parameter's own array: a pointer moved along it (`ps + k`) counts whole structs,
  // which are not |a| scalars of a's array.
  const ExprPtr &leaf = q.ptrs[li];
  if (leaf->op != Op::ArrayRef || k_.arrays[leaf->id].paramIndex < 0 || k_.arrays[leaf->id].dims.size() > 1)
    return std::nullopt;
  std::vector<ExprPtr> ixs{elem ? indexValue(elem) : ir::mkConstInt(0, Type::i64())};
  for (const Expr *i : idx)
    ixs.push_back(indexValue(i));
  LValue lv;
  lv.mem.ptr = leaf;
  lv.mem.index.push_back(flatOffset(ixs, q.layout[li].dims));
  lv.mem.elem = *scalarType(q.layout[li].type);
  return lv;
}

std::vector<int64_t> Lowerer::rowDims(QualType pointee, QualType *scalar) {
  std::vector<int64_t> dims;
  QualType t = pointee;
  while (const auto *ca = ctx_.getAsConstantArrayType(t)) {
    dims.push_back(static_cast<int64_t>(ca->getSize().getZExtValue()));
    t = ca->getElementType();
  }
  if (dims.empty() || t->isPointerType() || !scalarType(t))
    return {};
  if (scalar)
    *scalar = t;
  return dims;
}

int64_t Lowerer::pointerStep(QualType ptr) {
  int64_t step = 1;
  if (ptr->isPointerType())
    for (int64_t d : rowDims(ptr->getPointeeType()))
      step *= d;
  return step;
}

ExprPtr Lowerer::arith(Op op, Type t, ExprPtr a, ExprPtr b, const Expr *src) {
  // A pointer to rows steps by a row: p + k is k * N scalars past p for `float (*p)[N]`.
  if (const auto *bo = dyn_cast<BinaryOperator>(src); bo && (op == Op::Add || op == Op::Sub)) {
    if (int64_t step = pointerStep(bo->getLHS()->getType()); a->type.isPtr() && !b->type.isPtr() && step != 1)
      b = ir::mkBinary(Op::Mul, Type::i64(), cast(b, Type::i64()), ir::mkConstInt(step, Type::i64()));
    else if (int64_t step2 = pointerStep(bo->getRHS()->getType()); b->type.isPtr() && !a->type.isPtr() && step2 != 1)
      a = ir::mkBinary(Op::Mul, Type::i64(), cast(a, Type::i64()), ir::mkConstInt(step2, Type::i64()));
  }
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

ExprPtr Lowerer::binary(const BinaryOperator *bo) {
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
ExprPtr Lowerer::logical(const BinaryOperator *bo) {
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

ExprPtr Lowerer::toBool(ExprPtr e) {
  if (e->type.isBool())
    return e;
  ExprPtr zero = e->type.isFloat() ? ir::mkConstFloat(0, e->type) : ir::mkConstInt(0, e->type);
  return ir::mkBinary(Op::Ne, Type::boolean(), e, zero);
}

ExprPtr Lowerer::conditional(const Expr *c, const Expr *t, const Expr *f, const Expr *whole) {
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

ExprPtr Lowerer::unary(const UnaryOperator *uo) {
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
      int64_t step = pointerStep(uo->getSubExpr()->getType());
      res = ir::mkPtrAdd(old, ir::mkConstInt(inc ? step : -step, Type::i64()), loc(sl));
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
    if (const auto *dr = dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParens()))
      if (const auto *f = dyn_cast<FunctionDecl>(dr->getDecl()))
        return ir::mkConstInt(fnId(f), Type::u64(), loc(sl)); // `&f`: the same as `f`
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

} // namespace ksynth::frontend::detail
