// Frontend: vector access (float2, float4, int4, ... through a reinterpreted scalar pointer).
//
// `reinterpret_cast<float4 *>(p)` (or a C-style cast) of a `float *` views p's array as float4
// elements: leaf f of element i is p[4 i + f] (AggPtr::stride), so a float4 load or store is
// four scalar accesses of that array, the bytes the GPU's 128-bit access touches, and every
// checker sees them as such. The view must be aligned like the vector type (a float4 at a
// multiple of 16 bytes), or the GPU faults: the `align` obligation, an assertion at the cast
// (every element of an aligned view is aligned, since sizeof(float4) is a multiple of 16).
// An array's start is as aligned as its declaration says (Array::align); a pointer
// parameter's is assumed to be 256 bytes, what cudaMalloc returns.
#include "verify/frontend/lowerer.h"

namespace ksynth::frontend::detail {

AggPtr Lowerer::vectorView(const ExplicitCastExpr *ce) {
  SourceLocation sl = ce->getExprLoc();
  std::string txt = text(ce->getSourceRange());
  const Expr *sub = ce->getSubExpr();
  QualType from = sub->getType()->isPointerType() ? sub->getType()->getPointeeType() : QualType();
  QualType to = ce->getType()->getPointeeType();
  auto refuse = [&](const std::string &what) {
    unsupported(sl, "cast '" + txt + "': " + what);
    return AggPtr{};
  };
  const char *onlyThis = "only a pointer to scalars viewed as a vector type of those scalars is modelled";
  if (from.isNull() || to.isNull())
    return refuse(onlyThis);
  std::optional<Type> se = scalarType(from);
  std::string why;
  std::optional<Layout> lay = layoutOf(to, why);
  if (!se.has_value() || !lay.has_value() || lay->empty())
    return refuse(onlyThis);
  Type elem = *se;
  if (elem.isPtr())
    return refuse(onlyThis);
  int64_t es = ctx_.getTypeSizeInChars(from).getQuantity();
  int64_t n = static_cast<int64_t>(lay->size());
  for (int64_t f = 0; f < n; ++f) {
    const Leaf &lf = (*lay)[static_cast<size_t>(f)];
    std::optional<Type> lt = scalarType(lf.type);
    if (!lf.dims.empty() || !lt || !(*lt == elem) || lf.offset != f * es)
      return refuse("'" + to.getAsString() + "' is not a vector of '" + from.getAsString() + "'");
  }
  if (ctx_.getTypeSizeInChars(to).getQuantity() != n * es)
    return refuse("'" + to.getAsString() + "' has padding");
  int64_t align = ctx_.getTypeAlignInChars(to).getQuantity();

  ExprPtr p = rvalue(sub);
  alignAssert(sl, p, align, es,
              "'" + txt + "' is not aligned to " + std::to_string(align) + " bytes, as '" + to.getAsString() +
                  "' must be");

  AggPtr r;
  r.ok = true;
  r.layout = *lay;
  r.text = txt;
  r.stride = n;
  for (int64_t f = 0; f < n; ++f)
    r.ptrs.push_back(f == 0 ? p : ir::mkPtrAdd(p, ir::mkConstInt(f, Type::i64()), loc(sl)));
  return r;
}

// The align obligation for pointer p to elements of `es` bytes: its array's start and its
// offset are multiples of `align` bytes. (Pointer parameters are assumed aligned to 256
// bytes, as cudaMalloc returns them; the assumption is listed once per kernel.)
void Lowerer::alignAssert(SourceLocation sl, ExprPtr p, int64_t align, int64_t es, const std::string &violation) {
  if (!vectorAssumed_) {
    vectorAssumed_ = true;
    k_.assumptions.push_back("pointer parameters point to memory aligned to 256 bytes (as cudaMalloc returns it)");
  }
  ExprPtr off = ir::mkUnary(Op::PtrOffset, Type::i64(), p);
  ExprPtr a = ir::mkConstInt(align, Type::i64());
  // (Where the alignment is a multiple of the element's size, the offset in elements is a
  // multiple of align / es: the smaller query.)
  ExprPtr offOk = ir::mkBinary(Op::Eq, Type::boolean(),
                               align % es == 0
                                   ? ir::mkBinary(Op::Rem, Type::i64(), off, ir::mkConstInt(align / es, Type::i64()))
                                   : ir::mkBinary(Op::Rem, Type::i64(),
                                                  ir::mkBinary(Op::Mul, Type::i64(), off, ir::mkConstInt(es, Type::i64())),
                                                  a),
                               ir::mkConstInt(0, Type::i64()));
  ExprPtr baseOk = ir::mkBinary(Op::Eq, Type::boolean(),
                                ir::mkBinary(Op::Rem, Type::i64(), ir::mkUnary(Op::PtrBaseAlign, Type::i64(), p), a),
                                ir::mkConstInt(0, Type::i64()));
  auto s = emit(StmtKind::Assert, sl);
  s->cond = ir::mkBinary(Op::LAnd, Type::boolean(), baseOk, offOk);
  s->assertKind = ir::AssertKind::Align;
  s->text = violation;
}

// The uses of `vd` in s and in the bodies of the functions it calls: the pointee types of the
// casts of it (`views`), and whether it is used in any other way (`other`).
void Lowerer::viewUses(const Stmt *s, const VarDecl *vd, std::vector<QualType> &views, bool &other,
                       std::set<const FunctionDecl *> &seen) {
  if (!s || other)
    return;
  if (const auto *ce = dyn_cast<ExplicitCastExpr>(s); ce && ce->getCastKind() == CK_BitCast) {
    const auto *dr = dyn_cast<DeclRefExpr>(ce->getSubExpr()->IgnoreParenImpCasts());
    if (dr && dr->getDecl()->getCanonicalDecl() == vd->getCanonicalDecl() && ce->getType()->isPointerType()) {
      views.push_back(ce->getType()->getPointeeType().getCanonicalType().getUnqualifiedType());
      return;
    }
  }
  if (const auto *dr = dyn_cast<DeclRefExpr>(s); dr && dr->getDecl()->getCanonicalDecl() == vd->getCanonicalDecl()) {
    other = true;
    return;
  }
  if (const auto *call = dyn_cast<CallExpr>(s))
    if (const FunctionDecl *f = call->getDirectCallee(); f && f->getBody() && seen.insert(f).second)
      viewUses(f->getBody(), vd, views, other, seen);
  for (const Stmt *c : s->children())
    viewUses(c, vd, views, other, seen);
}

std::optional<QualType> Lowerer::soleView(const VarDecl *vd) {
  std::vector<QualType> views;
  bool other = false;
  std::set<const FunctionDecl *> seen{frames_.front().fd};
  viewUses(frames_.front().fd->getBody(), vd, views, other, seen);
  if (other || views.empty())
    return std::nullopt;
  for (const QualType &v : views)
    if (v != views.front())
      return std::nullopt;
  std::optional<Type> t = scalarType(views.front());
  if (!t || t->isPtr())
    return std::nullopt;
  return views.front();
}

} // namespace ksynth::frontend::detail
