// Frontend: lowering of statements (if, loops, switch, return, barriers) and declarations.
#include "verify/frontend/lowerer.h"

#include <functional>

namespace ksynth::frontend::detail {

void Lowerer::stmt(const Stmt *s) {
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
    if (unrolledLoop(fs))
      return;
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
      unsupported(sl, "break/continue outside a loop or switch");
      return;
    }
    auto e = emit(StmtKind::Exit, sl);
    e->label = isa<BreakStmt>(s) ? loops_.back().first : loops_.back().second;
    if (e->label < 0) { // `continue` in a switch that is in no loop: clang refuses it first
      unsupported(sl, "continue outside a loop");
      cur_->pop_back();
    }
    return;
  }
  if (const auto *rs = dyn_cast<ReturnStmt>(s)) {
    FnFrame &f = frames_.back();
    if (rs->getRetValue() && f.returnAgg) {
      AggLV dst = *f.returnAgg;
      initAgg(dst, f.returnType, rs->getRetValue(), sl);
    } else if (rs->getRetValue()) {
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
  if (const auto *ss = dyn_cast<SwitchStmt>(s)) {
    switchStmt(ss);
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
void Lowerer::stmtRange(const std::vector<const Stmt *> &kids, size_t end) {
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

bool Lowerer::gotoIn(const Stmt *s, const LabelDecl *l) {
  if (!s)
    return false;
  if (const auto *g = dyn_cast<GotoStmt>(s); g && g->getLabel() == l)
    return true;
  for (const Stmt *c : s->children())
    if (gotoIn(c, l))
      return true;
  return false;
}

// `switch (e) { case 1: A; case 2: B; break; default: C; }` becomes
//
//   v = e; m = false
//   Block L { m |= v == 1; if (m) A;  m |= v == 2; if (m) { B; exit L }  m |= v != 1 && v != 2; if (m) C }
//
// so falling through runs the next statements, `break` exits L, and `default` matches
// exactly when no case does, wherever it stands. Case labels must be statements of the
// switch's own body (not inside a nested block: Duff's device is refused).
void Lowerer::switchStmt(const SwitchStmt *ss) {
  SourceLocation sl = ss->getBeginLoc();
  if (ss->getInit())
    stmt(ss->getInit());
  if (ss->getConditionVariableDeclStmt())
    stmt(ss->getConditionVariableDeclStmt());
  Type t = typeOr(ss->getCond()->getType(), sl);
  if (!t.isInt()) {
    unsupported(sl, "switch over a value of type '" + ss->getCond()->getType().getAsString() + "'");
    return;
  }
  // Its items: the statements of the body, each with the labels in front of it.
  struct Label {
    bool isDefault = false;
    int64_t lo = 0, hi = 0; // `case lo:` or GNU's `case lo ... hi:`
  };
  struct Item {
    std::vector<Label> labels;
    const Stmt *stmt = nullptr;
  };
  std::vector<Item> items;
  std::vector<const Stmt *> kids;
  if (const auto *cs = dyn_cast<CompoundStmt>(ss->getBody()))
    kids.assign(cs->body_begin(), cs->body_end());
  else
    kids.push_back(ss->getBody());
  std::function<bool(const Stmt *)> nestedLabel = [&](const Stmt *x) {
    if (!x || isa<SwitchStmt>(x))
      return false; // a nested switch's labels are its own
    if (isa<SwitchCase>(x))
      return true;
    for (const Stmt *c : x->children())
      if (nestedLabel(c))
        return true;
    return false;
  };
  std::vector<int64_t> caseValues;
  for (const Stmt *k : kids) {
    Item it;
    while (const auto *sc = dyn_cast_or_null<SwitchCase>(k)) {
      Label l;
      if (const auto *cs = dyn_cast<CaseStmt>(sc)) {
        llvm::APSInt lo = cs->getLHS()->EvaluateKnownConstInt(ctx_);
        llvm::APSInt hi = cs->getRHS() ? cs->getRHS()->EvaluateKnownConstInt(ctx_) : lo;
        if (!lo.isRepresentableByInt64() || !hi.isRepresentableByInt64()) {
          unsupported(cs->getBeginLoc(), "case value past 64 bits");
          return;
        }
        l.lo = lo.getExtValue();
        l.hi = hi.getExtValue();
        if (l.hi - l.lo > 4096) {
          unsupported(cs->getBeginLoc(), "case range of more than 4096 values");
          return;
        }
        for (int64_t v = l.lo; v <= l.hi; ++v)
          caseValues.push_back(v);
      } else {
        l.isDefault = true;
      }
      it.labels.push_back(l);
      k = sc->getSubStmt();
    }
    if (nestedLabel(k)) {
      unsupported(k->getBeginLoc(), "case label inside a nested statement of a switch");
      return;
    }
    it.stmt = k;
    items.push_back(it);
  }

  int v = newTemp(t, "switch");
  auto av = emit(StmtKind::Assign, sl);
  av->var = v;
  av->value = cast(rvalue(ss->getCond()), t);
  int m = newTemp(Type::boolean(), "switch.matched");
  auto am = emit(StmtKind::Assign, sl);
  am->var = m;
  am->value = ir::mkConstBool(false);
  auto blk = emit(StmtKind::Block, sl);
  blk->label = k_.newLabel();
  ir::Block *saved = cur_;
  cur_ = &blk->body;
  loops_.push_back({blk->label, loops_.empty() ? -1 : loops_.back().second});
  ExprPtr x = ir::mkVar(v, t);
  auto constant = [&](int64_t c) { return ir::mkConstInt(c, t); };
  for (const Item &it : items) {
    if (!it.labels.empty()) {
      ExprPtr match = ir::mkVar(m, Type::boolean());
      for (const Label &l : it.labels) {
        ExprPtr here;
        if (l.isDefault) {
          here = ir::mkConstBool(true);
          for (int64_t c : caseValues)
            here = ir::mkBinary(Op::LAnd, Type::boolean(), here, ir::mkBinary(Op::Ne, Type::boolean(), x, constant(c)));
        } else if (l.lo == l.hi) {
          here = ir::mkBinary(Op::Eq, Type::boolean(), x, constant(l.lo));
        } else {
          here = ir::mkBinary(Op::LAnd, Type::boolean(), ir::mkBinary(Op::Le, Type::boolean(), constant(l.lo), x),
                              ir::mkBinary(Op::Le, Type::boolean(), x, constant(l.hi)));
        }
        match = ir::mkBinary(Op::LOr, Type::boolean(), match, here);
      }
      auto a = emit(StmtKind::Assign, it.stmt ? it.stmt->getBeginLoc() : sl);
      a->var = m;
      a->value = match;
    }
    if (!it.stmt || isa<NullStmt>(it.stmt))
      continue;
    auto st = emit(StmtKind::If, it.stmt->getBeginLoc());
    st->cond = ir::mkVar(m, Type::boolean());
    cur_ = &st->body;
    stmt(it.stmt);
    cur_ = &blk->body;
  }
  loops_.pop_back();
  cur_ = saved;
}

void Lowerer::loop(SourceLocation sl, const Expr *cond, const Stmt *body, const Expr *inc, bool testFirst,
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

void Lowerer::decl(const Decl *d) {
  const auto *vd = dyn_cast<VarDecl>(d);
  if (!vd) {
    // Names and compile-time checks only: no code.
    if (isa<TypedefNameDecl>(d) || isa<TagDecl>(d) || isa<StaticAssertDecl>(d) || isa<NamespaceAliasDecl>(d) ||
        isa<UsingDecl>(d) || isa<UsingDirectiveDecl>(d) || isa<UsingEnumDecl>(d) || isa<TypeAliasTemplateDecl>(d) ||
        isa<FunctionDecl>(d))
      return;
    unsupported(d->getLocation(), std::string("declaration (") + d->getDeclKindName() + ")");
    return;
  }
  QualType qt = vd->getType();
  if (vd->hasAttr<CUDASharedAttr>() || vd->isStaticLocal() || vd->hasAttr<CUDAConstantAttr>()) {
    auto b = declareGlobal(vd);
    if (b)
      frames_.back().bindings[vd] = *b;
    return;
  }
  if (qt->isReferenceType()) { // `T &r = e;`: r names e's object from here on
    bindReference(vd, qt, vd->getInit(), frames_.back(), vd->getLocation());
    return;
  }
  if ((isRecord(qt) || !arrayOfRecordElem(qt).isNull()) && wmmaDecl(vd))
    return;
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
    a.align = ctx_.getDeclAlign(vd).getQuantity();
    a.loc = loc(vd->getLocation());
    int id = k_.addArray(a);
    frames_.back().bindings[vd] = {Binding::Array, id};
    // Where its lifetime starts (ir::scalariseLocalArrays puts the unknown initial values of
    // its elements there, should it become scalars).
    auto mark = emit(StmtKind::Block, vd->getLocation());
    mark->label = k_.newLabel();
    localArrayDecls_.push_back({id, mark});
    initLocalArray(vd, id);
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

// A local array's initialiser: `float a[4] = {x, y}` and `float acc[4][4] = {0.0f}` (nested
// braces too) store each element, those it does not list zero (value-initialised, as C++
// says); a store per element, so only for arrays of a few thousand elements.
void Lowerer::initLocalArray(const VarDecl *vd, int id) {
  const ir::Array &arr = k_.arrays[id];
  const Expr *init = vd->getInit();
  if (!init)
    return;
  const auto *il = dyn_cast<InitListExpr>(init);
  if (!il) {
    unsupported(vd->getLocation(), "initialiser of local array '" + arr.name + "'");
    return;
  }
  if (arr.elementCount() > 4096) {
    unsupported(vd->getLocation(), "initialiser of local array '" + arr.name + "' of more than 4096 elements");
    return;
  }
  std::string name = arr.name;
  ir::Type elem = arr.elem;
  std::vector<int64_t> dims = arr.dims;
  std::vector<int64_t> at;
  bool ok = true;
  // In source order, each element's value then its store.
  std::function<void(const Expr *, size_t)> fill = [&](const Expr *e, size_t depth) {
    if (!ok)
      return;
    if (depth == dims.size()) {
      ExprPtr v;
      if (!e || isa<ImplicitValueInitExpr>(e))
        v = elem.isFloat() ? ir::mkConstFloat(0, elem) : ir::mkConstInt(0, elem);
      else
        v = cast(rvalue(e), elem);
      auto s = emit(StmtKind::Store, vd->getLocation());
      s->ptr = ir::mkArrayRef(id);
      std::string text = name;
      for (int64_t i : at) {
        s->index.push_back(ir::mkConstInt(i, Type::i32()));
        text += "[" + std::to_string(i) + "]";
      }
      s->value = v;
      s->text = text;
      return;
    }
    const auto *sub = e ? dyn_cast<InitListExpr>(e) : nullptr;
    if (e && !sub && !isa<ImplicitValueInitExpr>(e)) {
      ok = false; // a string literal, an array copy, ...
      return;
    }
    for (int64_t i = 0; i < dims[depth]; ++i) {
      const Expr *x = nullptr;
      if (sub && i < static_cast<int64_t>(sub->getNumInits()))
        x = sub->getInit(static_cast<unsigned>(i));
      else if (sub && sub->hasArrayFiller())
        x = sub->getArrayFiller();
      at.push_back(i);
      fill(x, depth + 1);
      at.pop_back();
    }
  };
  fill(il, 0);
  if (!ok)
    unsupported(vd->getLocation(), "initialiser of local array '" + name + "'");
}

} // namespace ksynth::frontend::detail
