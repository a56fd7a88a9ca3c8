// Frontend: full unrolling of short counted loops around warp-level primitives, and of those
// whose counter indexes a thread-local array.
//
// `for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);` runs a number
// of times known when the kernel is read: its counter starts at a constant, is compared with a
// constant, steps by a constant and is changed nowhere else. Such a loop whose body uses a warp
// primitive is lowered as its iterations one after the other, each after `off = VALUE;`, which
// is what it executes; the symbolic executor then sees each round's exchange on its own,
// instead of a loop summary that forgets the value the lanes pass around.
#include "verify/frontend/lowerer.h"

#include <algorithm>
#include <functional>
#include <set>

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

// Whether s reads var (names it anywhere).
bool readsVar(const Stmt *s, const VarDecl *var) {
  if (!s)
    return false;
  if (const auto *d = dyn_cast<DeclRefExpr>(s); d && d->getDecl() == var)
    return true;
  for (const Stmt *c : s->children())
    if (readsVar(c, var))
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
  // (or a tile's size, `d < tile.size()`: the Size of its thread_block_tile<Size>)
  auto boundOf = [&](const Expr *e) -> std::optional<int64_t> {
    if (auto c = constInt(e))
      return c;
    const auto *mc = dyn_cast<CXXMemberCallExpr>(e->IgnoreParenImpCasts());
    const auto *md = mc ? mc->getMethodDecl() : nullptr;
    if (!md || mc->getNumArgs() != 0 || (md->getNameAsString() != "size" && md->getNameAsString() != "num_threads"))
      return std::nullopt;
    int64_t size = tileSize(mc->getImplicitObjectArgument()->getType());
    return size > 0 ? std::optional<int64_t>(size) : std::nullopt;
  };
  std::optional<int64_t> bound;
  if (counterOf(cmp->getLHS()) == var) {
    bound = boundOf(cmp->getRHS());
  } else if (counterOf(cmp->getRHS()) == var) {
    bound = boundOf(cmp->getLHS());
    op = BinaryOperator::reverseComparisonOp(op);
  }
  // (an unsigned counter, or a signed one compared as unsigned, `d < tile.size()`: a negative
  // value would compare as a large one, so none is unrolled)
  bool isUnsigned = !var->getType()->isSignedIntegerType() || cmp->getLHS()->getType()->isUnsignedIntegerType();
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

// Whether s indexes a thread-local array (not __shared__, not static) with an expression that
// reads var: `acc[i][j] += a[i] * b[j]` for the counters i and j of a register tile's loops.
bool Lowerer::indexesLocalArrayBy(const Stmt *s, const VarDecl *var) {
  if (!s)
    return false;
  if (const auto *ase = dyn_cast<ArraySubscriptExpr>(s)) {
    const Expr *base = ase->getBase()->IgnoreParenImpCasts();
    while (const auto *inner = dyn_cast<ArraySubscriptExpr>(base))
      base = inner->getBase()->IgnoreParenImpCasts();
    const auto *dr = dyn_cast<DeclRefExpr>(base);
    const auto *vd = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
    if (vd && vd->hasLocalStorage() && !vd->hasAttr<CUDASharedAttr>() && vd->getType()->isConstantArrayType()) {
      for (const Expr *e = ase; const auto *a = dyn_cast<ArraySubscriptExpr>(e);
           e = a->getBase()->IgnoreParenImpCasts())
        if (readsVar(a->getIdx(), var))
          return true;
    }
  }
  for (const Stmt *c : s->children())
    if (indexesLocalArrayBy(c, var))
      return true;
  return false;
}

// Whether s is the body of a loop that stages a tile in shared memory: each iteration stores
// to a __shared__ array at an index that reads var (`As[tx][ty + 16 * l] = ...`), directly or
// through the body's own variables (`int r = tid / 16 + 8 * l; As[r][c] = ...`), and does
// nothing else that outlives it: no variable declared outside is changed, no barrier, no
// nested loop. Unrolled, each store is a store site of its own, whose writer thread the
// equivalence prover can name from the cell (a loop's store sites it cannot).
bool Lowerer::stagesSharedBy(const Stmt *body, const VarDecl *var) {
  std::set<const Decl *> inner;
  std::set<const VarDecl *> derived{var}; // the counter and the body's variables made from it
  std::function<bool(const Stmt *)> readsCounter = [&](const Stmt *x) {
    if (!x)
      return false;
    if (const auto *d = dyn_cast<DeclRefExpr>(x); d && derived.count(dyn_cast<VarDecl>(d->getDecl())))
      return true;
    for (const Stmt *c : x->children())
      if (readsCounter(c))
        return true;
    return false;
  };
  bool stages = false, other = false;
  std::function<void(const Stmt *)> walk = [&](const Stmt *x) {
    if (!x || other)
      return;
    if (isa<ForStmt>(x) || isa<WhileStmt>(x) || isa<DoStmt>(x) || isa<CXXForRangeStmt>(x)) {
      other = true;
      return;
    }
    if (const auto *ds = dyn_cast<DeclStmt>(x))
      for (const Decl *d : ds->decls()) {
        inner.insert(d);
        // (`int r = tid / 16 + 8 * l;` then As[r][c]: r reads the counter too)
        if (const auto *vd = dyn_cast<VarDecl>(d); vd && vd->getInit() && readsCounter(vd->getInit()))
          derived.insert(vd);
      }
    if (const auto *ce = dyn_cast<CallExpr>(x))
      if (const FunctionDecl *fd = ce->getDirectCallee(); !fd || fd->getNameAsString().find("sync") != std::string::npos) {
        other = true;
        return;
      }
    const Expr *target = nullptr;
    if (const auto *bo = dyn_cast<BinaryOperator>(x); bo && bo->isAssignmentOp())
      target = bo->getLHS()->IgnoreParenImpCasts();
    if (const auto *uo = dyn_cast<UnaryOperator>(x); uo && (uo->isIncrementDecrementOp() || uo->getOpcode() == UO_AddrOf))
      target = uo->getSubExpr()->IgnoreParenImpCasts();
    if (target) {
      if (const auto *dr = dyn_cast<DeclRefExpr>(target); dr && !inner.count(dr->getDecl()))
        other = true;
      if (const auto *ase = dyn_cast<ArraySubscriptExpr>(target)) {
        const Expr *base = ase;
        bool byVar = false;
        while (const auto *a = dyn_cast<ArraySubscriptExpr>(base)) {
          byVar |= readsCounter(a->getIdx());
          base = a->getBase()->IgnoreParenImpCasts();
        }
        const auto *dr = dyn_cast<DeclRefExpr>(base);
        const auto *vd = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
        if (vd && vd->hasAttr<CUDASharedAttr>())
          stages |= byVar;
        else if (!vd || !inner.count(vd))
          other = true; // a store to memory other than shared, or through a pointer
      } else if (!isa<DeclRefExpr>(target)) {
        other = true;
      }
    }
    for (const Stmt *c : x->children())
      walk(c);
  };
  walk(body);
  return stages && !other;
}

// Lowers `fs` unrolled when it is a short counted loop around a warp primitive, one whose
// counter indexes a thread-local array (a register tile: unrolled, each access is at a
// constant index, and the array becomes scalars), or one that stages a shared tile; false if
// not.
bool Lowerer::unrolledLoop(const ForStmt *fs) {
  constexpr int64_t kMaxCopies = 1024; // bodies nested unrolled loops may make in all
  const VarDecl *var = nullptr;
  std::optional<std::vector<int64_t>> vals = unrollValues(fs, var);
  if (!vals)
    return false;
  int64_t trips = static_cast<int64_t>(vals->size()) - 1;
  if (!usesWarpPrimitive(fs->getBody(), 0) &&
      !((indexesLocalArrayBy(fs->getBody(), var) || stagesSharedBy(fs->getBody(), var)) &&
        unrollCopies_ * std::max<int64_t>(trips, 1) <= kMaxCopies))
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
  int64_t saved = unrollCopies_;
  unrollCopies_ *= std::max<int64_t>(trips, 1);
  for (size_t i = 0; i < vals->size(); ++i) {
    auto as = emit(StmtKind::Assign, sl);
    as->var = b->id;
    as->value = ir::mkConstInt((*vals)[i], t);
    if (i + 1 < vals->size())
      stmt(fs->getBody());
  }
  unrollCopies_ = saved;
  return true;
}

} // namespace ksynth::frontend::detail
