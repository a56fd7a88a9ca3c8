// Frontend: tensor-core fragments (nvcuda::wmma, the m16n16k16 shape).
//
// CUDA does not say which lane holds which element of a fragment, so a fragment is modelled
// by what each lane needs of it, in scalar variables of the lane:
//
//   accumulator  8 elements: lane l holds row 8 (l / 16) + e, column l % 16, for e = 0..7
//                (each of the 256 elements in exactly one lane of the warp);
//   matrix_a     the 8 rows those elements need, 16 values each (element 16 e + k is a(row e, k));
//   matrix_b     the column they need (element k is b(k, l % 16)).
//
// Every call is a warp-wide operation: it starts with __syncwarp() (every lane reaches it, the
// convergence obligation; the warp is ordered there, as CUDA's "waits until all warp lanes have
// arrived" says), the lane's warp must be whole, and the pointer and leading dimension must be
// the same in every lane (assert.uniform: the warp obligation). load_matrix_sync reads, per
// lane, the elements the lane's share needs (all 256 are read by some lane); store_matrix_sync
// writes the lane's 8 accumulator elements; mma_sync computes each of them as
// c + a(i, 0) b(0, j) + ... + a(i, 15) b(15, j), over f32; fill_fragment sets every element.
// A fragment's pointer must be 32-byte aligned and its leading dimension a multiple of 16
// bytes (the align obligation). Arrays of fragments, fragments passed to the file's own
// functions, and element access are not modelled (refused).
#include "verify/frontend/lowerer.h"

namespace ksynth::frontend::detail {

namespace {

ExprPtr i64c(int64_t v) { return ir::mkConstInt(v, Type::i64()); }
ExprPtr bin(Op op, ExprPtr a, ExprPtr b) { return ir::mkBinary(op, Type::i64(), std::move(a), std::move(b)); }

std::string recordName(QualType t) {
  const auto *rd = t.isNull() ? nullptr : t.getCanonicalType()->getAsRecordDecl();
  return rd ? rd->getNameAsString() : "";
}

} // namespace

// The fragment type of t (a reference to one too); nullopt when t is not one.
std::optional<Lowerer::FragType> Lowerer::fragType(QualType t) {
  if (t.isNull())
    return std::nullopt;
  const auto *rd = t.getNonReferenceType().getCanonicalType()->getAsRecordDecl();
  const auto *sd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
  if (!sd || sd->getNameAsString() != "fragment")
    return std::nullopt;
  const auto *ns = dyn_cast<NamespaceDecl>(sd->getDeclContext());
  if (!ns || ns->getName() != "wmma")
    return std::nullopt;
  const TemplateArgumentList &args = sd->getTemplateArgs();
  FragType f;
  if (args.size() != 6 || args[0].getKind() != TemplateArgument::Type || args[4].getKind() != TemplateArgument::Type) {
    f.why = "a fragment type ksynth does not know";
    return f;
  }
  f.use = recordName(args[0].getAsType());
  for (int i = 1; i <= 3; ++i)
    f.shape[i - 1] = args[i].getKind() == TemplateArgument::Integral ? args[i].getAsIntegral().getExtValue() : 0;
  f.elemQt = args[4].getAsType();
  f.layout = args[5].getKind() == TemplateArgument::Type ? recordName(args[5].getAsType()) : "";
  std::optional<Type> et = scalarType(f.elemQt);
  if (f.shape[0] != 16 || f.shape[1] != 16 || f.shape[2] != 16) {
    f.why = "a fragment of shape m" + std::to_string(f.shape[0]) + "n" + std::to_string(f.shape[1]) + "k" +
            std::to_string(f.shape[2]) + " (ksynth models m16n16k16)";
    return f;
  }
  if (f.use == "accumulator") {
    if (!et || !(*et == Type::f32())) {
      f.why = "an accumulator fragment of '" + f.elemQt.getAsString() + "' (ksynth models float accumulators)";
      return f;
    }
    f.count = 8;
  } else if (f.use == "matrix_a" || f.use == "matrix_b") {
    if (!et || !et->isFloat() || et->bits != 16) {
      f.why = "a " + f.use + " fragment of '" + f.elemQt.getAsString() + "' (ksynth models half and bfloat16)";
      return f;
    }
    if (f.layout != "row_major" && f.layout != "col_major") {
      f.why = "a " + f.use + " fragment without a row_major or col_major layout";
      return f;
    }
    f.count = f.use == "matrix_a" ? 128 : 16;
  } else {
    f.why = "a fragment for '" + f.use + "'";
    return f;
  }
  f.elem = *et;
  f.ok = true;
  return f;
}

// A local fragment variable: its elements as scalar variables, unknown until set. True when vd
// is a fragment (or an array of them, which is refused).
bool Lowerer::wmmaDecl(const VarDecl *vd) {
  QualType qt = vd->getType();
  bool array = false;
  while (const auto *at = ctx_.getAsArrayType(qt)) {
    qt = at->getElementType();
    array = true;
  }
  std::optional<FragType> ft = fragType(qt);
  if (!ft)
    return false;
  SourceLocation sl = vd->getLocation();
  if (array) {
    unsupported(sl, "array of WMMA fragments '" + vd->getNameAsString() + "' (one fragment per variable is modelled)");
    return true;
  }
  if (!ft->ok) {
    unsupported(sl, "WMMA fragment '" + vd->getNameAsString() + "': " + ft->why);
    return true;
  }
  // A copy of another fragment of its type, or nothing (a default-constructed fragment).
  const Frag *from = nullptr;
  if (const Expr *init = vd->getInit()) {
    const auto *ce = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit());
    if (ce && ce->getNumArgs() == 1) {
      const Expr *a = ce->getArg(0)->IgnoreParenImpCasts();
      const auto *dr = dyn_cast<DeclRefExpr>(a);
      const auto *src = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
      auto it = src ? frags_.find(src) : frags_.end();
      if (it != frags_.end() && it->second.type.use == ft->use && it->second.type.elem == ft->elem &&
          it->second.type.layout == ft->layout)
        from = &it->second;
    }
    if (!from && !(ce && ce->getNumArgs() == 0)) {
      unsupported(sl, "WMMA fragment '" + vd->getNameAsString() + "' initialised from '" +
                          text(init->getSourceRange()) + "' (a copy of a fragment variable of its type is modelled)");
      return true;
    }
  }
  Frag f;
  f.type = *ft;
  for (int64_t e = 0; e < ft->count; ++e) {
    ir::Var v;
    v.name = vd->getNameAsString() + ".f" + std::to_string(e);
    v.type = ft->elem;
    v.loc = loc(sl);
    int id = k_.addVar(v);
    f.vars.push_back(id);
    if (from) {
      auto c = emit(StmtKind::Assign, sl);
      c->var = id;
      c->value = ir::mkVar(from->vars[e], ft->elem);
      continue;
    }
    auto h = emit(StmtKind::Havoc, sl);
    h->var = id;
    h->text = "an element of fragment '" + vd->getNameAsString() + "' before it is set";
  }
  frags_[vd] = std::move(f);
  return true;
}

bool Lowerer::isWmmaCall(const FunctionDecl *fd) {
  const auto *ns = dyn_cast<NamespaceDecl>(fd->getDeclContext());
  const auto *outer = ns ? dyn_cast<NamespaceDecl>(ns->getParent()) : nullptr;
  return ns && ns->getName() == "wmma" && outer && outer->getName() == "nvcuda";
}

// The fragment variable an argument names; nullptr (reported) otherwise.
Lowerer::Frag *Lowerer::fragArg(const Expr *e, SourceLocation sl) {
  const Expr *x = e->IgnoreParenImpCasts();
  if (const auto *mt = dyn_cast<MaterializeTemporaryExpr>(x))
    x = mt->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *dr = dyn_cast<DeclRefExpr>(x))
    if (const auto *vd = dyn_cast<VarDecl>(dr->getDecl()))
      if (auto it = frags_.find(vd); it != frags_.end())
        return &it->second;
  unsupported(sl, "WMMA fragment argument '" + text(e->getSourceRange()) +
                      "' (a fragment declared as a local variable of the kernel is modelled)");
  return nullptr;
}

// The warp obligation that v is the same in every lane.
void Lowerer::uniformAssert(SourceLocation sl, ExprPtr v, const std::string &violation) {
  auto s = emit(StmtKind::Assert, sl);
  s->cond = std::move(v);
  s->assertKind = ir::AssertKind::Uniform;
  s->text = violation;
}

ExprPtr Lowerer::wmmaCall(const CallExpr *call, const std::string &name) {
  SourceLocation sl = call->getExprLoc();
  std::string callText = text(call->getSourceRange());
  ExprPtr done = ir::mkConstInt(0, Type::i32());
  auto refuse = [&](const std::string &why) {
    for (unsigned i = 0; i < call->getNumArgs(); ++i)
      if (!fragType(call->getArg(i)->getType()))
        discard(call->getArg(i));
    unsupported(sl, "'" + callText + "': " + why);
    return done;
  };
  if (name != "fill_fragment" && name != "load_matrix_sync" && name != "store_matrix_sync" && name != "mma_sync")
    return refuse("WMMA function '" + name + "' is not modelled");
  // A warp-wide operation: the warp meets here, and it is a whole warp.
  warpBarrier(sl);
  ExprPtr tid = linearTid();
  ExprPtr lane = bin(Op::Rem, tid, i64c(32));
  warpAssert(sl,
             ir::mkBinary(Op::Le, Type::boolean(), bin(Op::Add, bin(Op::Sub, tid, lane), i64c(32)), blockThreads()),
             "a WMMA call by a warp that is not whole (the block's size is not a multiple of 32)");
  ExprPtr half = bin(Op::Div, lane, i64c(16)), col = bin(Op::Rem, lane, i64c(16));
  auto set = [&](int var, ExprPtr v) {
    auto s = emit(StmtKind::Assign, sl);
    s->var = var;
    s->value = std::move(v);
  };

  if (name == "fill_fragment") {
    Frag *f = call->getNumArgs() == 2 ? fragArg(call->getArg(0), sl) : nullptr;
    if (!f)
      return done;
    ExprPtr v = cast(rvalue(call->getArg(1)), f->type.elem);
    for (int var : f->vars)
      set(var, v);
    return done;
  }

  if (name == "mma_sync") {
    if (call->getNumArgs() < 4)
      return refuse("unexpected arguments");
    if (call->getNumArgs() == 5) {
      std::optional<int64_t> satf = constInt(call->getArg(4));
      if (!satf || *satf != 0)
        return refuse("saturation (satf) is not modelled");
    }
    Frag *d = fragArg(call->getArg(0), sl), *a = fragArg(call->getArg(1), sl), *b = fragArg(call->getArg(2), sl),
         *c = fragArg(call->getArg(3), sl);
    if (!d || !a || !b || !c)
      return done;
    // Every element first (d may be c), then the stores.
    std::vector<int> vals;
    for (int64_t e = 0; e < 8; ++e) {
      ExprPtr acc = ir::mkVar(c->vars[e], Type::f32());
      for (int64_t k = 0; k < 16; ++k) {
        ExprPtr x = ir::mkCast(Type::f32(), ir::mkVar(a->vars[e * 16 + k], a->type.elem));
        ExprPtr y = ir::mkCast(Type::f32(), ir::mkVar(b->vars[k], b->type.elem));
        acc = ir::mkBinary(Op::Add, Type::f32(), acc, ir::mkBinary(Op::Mul, Type::f32(), x, y));
      }
      int t = newTemp(Type::f32(), "mma");
      set(t, acc);
      vals.push_back(t);
    }
    for (int64_t e = 0; e < 8; ++e)
      set(d->vars[e], ir::mkVar(vals[e], Type::f32()));
    return done;
  }

  // load_matrix_sync(f, p, ldm[, layout]) and store_matrix_sync(p, f, ldm, layout).
  bool load = name == "load_matrix_sync";
  if (call->getNumArgs() < 3)
    return refuse("unexpected arguments");
  const Expr *fe = call->getArg(load ? 0 : 1), *pe = call->getArg(load ? 1 : 0);
  Frag *f = fragArg(fe, sl);
  if (!f)
    return done;
  std::optional<Type> pt = pe->getType()->isPointerType() ? scalarType(pe->getType()->getPointeeType()) : std::nullopt;
  if (!pt || !pt->isFloat())
    return refuse("a pointer to '" + pe->getType().getAsString() + "' (ksynth models pointers to half, bfloat16 and float)");
  // Rows or columns of memory: a or b by their type's layout, an accumulator by the argument.
  bool rowMajor = true;
  if (f->type.use == "accumulator") {
    std::optional<int64_t> lay = call->getNumArgs() == 4 ? constInt(call->getArg(3)) : std::nullopt;
    if (!lay || (*lay != 0 && *lay != 1))
      return refuse("an accumulator's layout must be mem_row_major or mem_col_major, known when the kernel is read");
    rowMajor = *lay == 0;
  } else {
    if (!load)
      return refuse("only an accumulator fragment can be stored");
    if (call->getNumArgs() != 3)
      return refuse("the layout of a matrix_a or matrix_b fragment is its type's");
    rowMajor = f->type.layout == "row_major";
  }
  ExprPtr p = rvalue(pe);
  ExprPtr ldm = ir::mkCast(Type::i64(), cast(rvalue(call->getArg(2)), Type::u32()));
  uniformAssert(sl, p, "the pointer of '" + callText + "' differs between lanes of one warp (a WMMA call is the warp's)");
  uniformAssert(sl, ldm, "the leading dimension of '" + callText + "' differs between lanes of one warp");
  // 256-bit aligned pointer, leading dimension a multiple of 16 bytes.
  int64_t es = pt->bits / 8;
  alignAssert(sl, p, 32, es,
              "the pointer of '" + callText + "' is not 32-byte aligned (WMMA needs 256-bit aligned addresses)");
  auto zero = [&](ExprPtr x) { return ir::mkBinary(Op::Eq, Type::boolean(), x, i64c(0)); };
  auto s2 = emit(StmtKind::Assert, sl);
  s2->cond = zero(bin(Op::Rem, ldm, i64c(16 / es)));
  s2->assertKind = ir::AssertKind::Align;
  s2->text = "the leading dimension of '" + callText + "' is not a multiple of " + std::to_string(16 / es) +
             " elements (16 bytes)";
  // Element (r, cl) of the 16 x 16 matrix in memory.
  auto at = [&](ExprPtr r, ExprPtr cl) {
    return rowMajor ? bin(Op::Add, bin(Op::Mul, r, ldm), cl) : bin(Op::Add, bin(Op::Mul, cl, ldm), r);
  };
  auto loadTo = [&](int var, ExprPtr idx) {
    int t = newTemp(*pt, "wmma");
    auto ld = emit(StmtKind::Load, sl);
    ld->var = t;
    ld->ptr = p;
    ld->index = {std::move(idx)};
    ld->text = callText;
    ld->warpCollective = true;
    set(var, cast(ir::mkVar(t, *pt), f->type.elem));
  };
  auto rowOf = [&](int64_t e) { return bin(Op::Add, bin(Op::Mul, half, i64c(8)), i64c(e)); };
  if (!load) {
    for (int64_t e = 0; e < 8; ++e) {
      auto st = emit(StmtKind::Store, sl);
      st->ptr = p;
      st->index = {at(rowOf(e), col)};
      st->value = cast(ir::mkVar(f->vars[e], f->type.elem), *pt);
      st->text = callText;
      st->warpCollective = true;
    }
    return done;
  }
  if (f->type.use == "accumulator") {
    for (int64_t e = 0; e < 8; ++e)
      loadTo(f->vars[e], at(rowOf(e), col));
  } else if (f->type.use == "matrix_a") {
    for (int64_t e = 0; e < 8; ++e)
      for (int64_t k = 0; k < 16; ++k)
        loadTo(f->vars[e * 16 + k], at(rowOf(e), i64c(k)));
  } else {
    for (int64_t k = 0; k < 16; ++k)
      loadTo(f->vars[k], at(i64c(k), col));
  }
  return done;
}

} // namespace ksynth::frontend::detail
