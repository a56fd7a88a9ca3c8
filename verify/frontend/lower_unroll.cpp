// Frontend: full unrolling of short counted loops around warp-level primitives.
//
// `for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);` runs a number
// of times known when the kernel is read: its counter starts at a constant, is compared with a
// constant, steps by a constant and is changed nowhere else. Such a loop whose body uses a warp
// primitive is lowered as its iterations one after the other, each after `off = VALUE;`, which
// is what it executes; the symbolic executor then sees each round's exchange on its own,
// instead of a loop summary that forgets the value the lanes pass around.
#include "verify/frontend/lowerer.h"

#include <functional>

namespace ksynth::frontend::detail {

namespace {

constexpr size_t kMaxUnroll = 32;
constexpr int64_t kCounterLimit = int64_t{1} << 30;

bool hasJump(const Stmt *s) {
  if (!s)
    return false;
  if (isa<BreakStmt>(s) || isa<ContinueStmt>(s) || isa<ReturnStmt>(s) || isa<GotoStmt>(s) || isa<LabelStmt>(s) ||
      isa<IndirectGotoStmt>(s))
    return true;
  if (isa<LambdaExpr>(s))
    return false;
  for (const Stmt *c : s->children())
    if (hasJump(c))
      return true;
  return false;
}

const VarDecl *counterOf(const Expr *e) {
  const auto *dr = e ? dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
  return dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
}

} // namespace

// Whether s calls a warp primitive, directly or in a function it calls (a few levels deep).
bool Lowerer::usesWarpPrimitive(const Stmt *s, int depth) {
  if (!s || depth > 4)
    return false;
  if (const auto *ce = dyn_cast<CallExpr>(s))
    if (const FunctionDecl *fd = ce->getDirectCallee()) {
      if (isWarpPrimitive(fd->getNameAsString()))
        return true;
      const auto *mc = dyn_cast<CXXMemberCallExpr>(ce);
      if ((mc && tileSize(mc->getObjectType())) ||
          (fd->getNameAsString() == "reduce" && ce->getNumArgs() == 3 && tileSize(ce->getArg(0)->getType())))
        return true; // a cooperative-groups tile's shuffle or sync
      const FunctionDecl *def = nullptr;
      if (fd->hasBody(def) && usesWarpPrimitive(def->getBody(), depth + 1))
        return true;
    }
  for (const Stmt *c : s->children())
    if (usesWarpPrimitive(c, depth))
      return true;
  return false;
}

// The counter's values, in order, if `fs` is such a loop; the counter in `var`.
std::optional<std::vector<int64_t>> Lowerer::unrollValues(const ForStmt *fs, const VarDecl *&var) {
  var = nullptr;
  std::optional<int64_t> start;
  if (const auto *ds = dyn_cast_or_null<DeclStmt>(fs->getInit()); ds && ds->isSingleDecl()) {
    var = dyn_cast<VarDecl>(ds->getSingleDecl());
    if (var && var->getInit())
      start = constInt(var->getInit());
  } else if (const auto *bo = dyn_cast_or_null<BinaryOperator>(fs->getInit()); bo && bo->getOpcode() == BO_Assign) {
    var = counterOf(bo->getLHS());
    start = constInt(bo->getRHS());
  }
  if (!var || !start || !var->getType()->isIntegerType() || !fs->getCond() || !fs->getInc() ||
      fs->getConditionVariable() || hasJump(fs->getBody()) || modifiedIn(fs->getBody(), var) ||
      modifiedIn(fs->getCond(), var))
    return std::nullopt;
  // The condition: counter OP constant, either way round.
  const auto *cmp = dyn_cast<BinaryOperator>(fs->getCond()->IgnoreParenImpCasts());
  if (!cmp || !cmp->isComparisonOp())
    return std::nullopt;
  BinaryOperatorKind op = cmp->getOpcode();
  std::optional<int64_t> bound;
  if (counterOf(cmp->getLHS()) == var) {
    bound = constInt(cmp->getRHS());
  } else if (counterOf(cmp->getRHS()) == var) {
    bound = constInt(cmp->getLHS());
    op = BinaryOperator::reverseComparisonOp(op);
  }
  bool isUnsigned = !var->getType()->isSignedIntegerType();
  if (!bound || (isUnsigned && *bound < 0))
    return std::nullopt;
  // The step.
  std::function<std::optional<int64_t>(int64_t)> next;
  const Expr *inc = fs->getInc()->IgnoreParens();
  if (const auto *uo = dyn_cast<UnaryOperator>(inc); uo && uo->isIncrementDecrementOp() && counterOf(uo->getSubExpr()) == var) {
    int64_t d = uo->isIncrementOp() ? 1 : -1;
    next = [d](int64_t v) { return std::optional<int64_t>(v + d); };
  } else if (const auto *ca = dyn_cast<CompoundAssignOperator>(inc); ca && counterOf(ca->getLHS()) == var) {
    std::optional<int64_t> c = constInt(ca->getRHS());
    if (!c)
      return std::nullopt;
    int64_t k = *c;
    switch (ca->getOpcode()) {
    case BO_AddAssign: next = [k](int64_t v) { return std::optional<int64_t>(v + k); }; break;
    case BO_SubAssign: next = [k](int64_t v) { return std::optional<int64_t>(v - k); }; break;
    case BO_MulAssign: next = [k](int64_t v) { return std::optional<int64_t>(v * k); }; break;
    case BO_DivAssign: // C division rounds toward zero, as int64_t's does
      if (k == 0)
        return std::nullopt;
      next = [k](int64_t v) { return std::optional<int64_t>(v / k); };
      break;
    case BO_ShrAssign:
      if (k < 0 || k > 31)
        return std::nullopt;
      next = [k](int64_t v) { return v < 0 ? std::nullopt : std::optional<int64_t>(v >> k); };
      break;
    case BO_ShlAssign:
      if (k < 0 || k > 31)
        return std::nullopt;
      next = [k](int64_t v) { return v < 0 ? std::nullopt : std::optional<int64_t>(v << k); };
      break;
    default: return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  auto holds = [&](int64_t v) {
    switch (op) {
    case BO_LT: return v < *bound;
    case BO_LE: return v <= *bound;
    case BO_GT: return v > *bound;
    case BO_GE: return v >= *bound;
    case BO_EQ: return v == *bound;
    case BO_NE: return v != *bound;
    default: return false;
    }
  };
  // Values of the counter's own type only (an unsigned counter could wrap): small ones.
  std::vector<int64_t> vals;
  int64_t v = *start;
  while (holds(v)) {
    if (vals.size() == kMaxUnroll || v > kCounterLimit || v < -kCounterLimit || (isUnsigned && v < 0))
      return std::nullopt;
    vals.push_back(v);
    std::optional<int64_t> n = next(v);
    if (!n)
      return std::nullopt;
    v = *n;
  }
  if (v > kCounterLimit || v < -kCounterLimit || (isUnsigned && v < 0))
    return std::nullopt;
  vals.push_back(v); // the value that ends the loop
  return vals;
}

// Lowers `fs` unrolled when it is a short counted loop around a warp primitive; false if not.
bool Lowerer::unrolledLoop(const ForStmt *fs) {
  if (!usesWarpPrimitive(fs->getBody(), 0))
    return false;
  const VarDecl *var = nullptr;
  std::optional<std::vector<int64_t>> vals = unrollValues(fs, var);
  if (!vals)
    return false;
  SourceLocation sl = fs->getForLoc();
  stmt(fs->getInit());
  auto b = lookup(var);
  if (!b || b->kind != Binding::Var) {
    // Declared but not a plain variable (its address is taken, ...): not unrolled. The init
    // was lowered already, so lower the loop without it.
    loop(sl, fs->getCond(), fs->getBody(), fs->getInc(), true, nullptr);
    return true;
  }
  Type t = k_.vars[b->id].type;
  for (size_t i = 0; i < vals->size(); ++i) {
    auto as = emit(StmtKind::Assign, sl);
    as->var = b->id;
    as->value = ir::mkConstInt((*vals)[i], t);
    if (i + 1 < vals->size())
      stmt(fs->getBody());
  }
  return true;
}

} // namespace ksynth::frontend::detail
