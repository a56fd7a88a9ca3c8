// Frontend: warp-level primitives (shuffles, votes, warp reductions).
//
// Each is lowered to an exchange through a per-type virtual __shared__ array of one cell per
// thread of the block (`warp_xchg_T`, indexed by the block-linear thread id):
//
//     xchg[tid] = v;  __syncwarp();  [assert.warp: the source lane exists]
//     r = in range ? xchg[warpBase + srcLane] : v;  __syncwarp();
//
// so their meaning needs nothing new downstream: the interpreter runs it, the symbolic
// executor reads `xchg` like any shared array, the race check orders the exchange by the warp
// barriers, and the barrier-divergence check is the convergence obligation (every lane of the
// warp reaches the same primitive). A lane reading from a lane that does not exist (a partial
// last warp) fails a warp assertion.
//
// A mask other than the full mask (a constant, `__shfl_down_sync(0xff, v, 4)` in the first
// eight lanes, or one computed at run time, a `__ballot_sync` result) makes the exchange's
// barriers masked (the mask in the Barrier statement's value): only the lanes the mask names
// meet there and order each other, and every lane it names must reach the call with the same
// mask (the barrier obligation, checked per masked barrier). The calling lane must be named
// (CUDA's rule), a shuffle may read only a lane the mask names (else its value is undefined),
// and a vote folds the named lanes only.
#include "verify/frontend/lowerer.h"

namespace ksynth::frontend::detail {

namespace {

constexpr int64_t kWarp = 32;
constexpr int64_t kMaxThreads = 1024; // threads in a block, at most (CUDA)

bool isShuffle(const std::string &n) {
  return n == "__shfl_sync" || n == "__shfl_up_sync" || n == "__shfl_down_sync" || n == "__shfl_xor_sync";
}

bool isVote(const std::string &n) {
  return n == "__ballot_sync" || n == "__any_sync" || n == "__all_sync" || n == "__reduce_add_sync" ||
         n == "__reduce_min_sync" || n == "__reduce_max_sync" || n == "__reduce_and_sync" ||
         n == "__reduce_or_sync" || n == "__reduce_xor_sync";
}

ExprPtr i64c(int64_t v) { return ir::mkConstInt(v, Type::i64()); }
ExprPtr bin(Op op, ExprPtr a, ExprPtr b) { return ir::mkBinary(op, Type::i64(), std::move(a), std::move(b)); }
ExprPtr cmp(Op op, ExprPtr a, ExprPtr b) { return ir::mkBinary(op, Type::boolean(), std::move(a), std::move(b)); }

} // namespace

bool Lowerer::isWarpPrimitive(const std::string &name) {
  return isShuffle(name) || isVote(name) || name == "__activemask";
}

// threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z), and the block's size.
ExprPtr Lowerer::linearTid() {
  auto b = [](ir::Builtin w, int d) { return ir::mkCast(Type::i64(), ir::mkBuiltin(w, d)); };
  return bin(Op::Add, b(ir::Builtin::ThreadIdx, 0),
             bin(Op::Mul, b(ir::Builtin::BlockDim, 0),
                 bin(Op::Add, b(ir::Builtin::ThreadIdx, 1),
                     bin(Op::Mul, b(ir::Builtin::BlockDim, 1), b(ir::Builtin::ThreadIdx, 2)))));
}

ExprPtr Lowerer::blockThreads() {
  auto b = [](int d) { return ir::mkCast(Type::i64(), ir::mkBuiltin(ir::Builtin::BlockDim, d)); };
  return bin(Op::Mul, b(0), bin(Op::Mul, b(1), b(2)));
}

int Lowerer::exchangeArray(Type t) {
  std::string name = "warp_xchg_" + t.str();
  auto it = exchange_.find(name);
  if (it != exchange_.end())
    return it->second;
  ir::Array a;
  a.name = name;
  a.space = ir::Space::Shared;
  a.elem = t;
  a.dims = {kMaxThreads};
  a.warpExchange = true;
  int id = k_.addArray(a);
  exchange_[name] = id;
  return id;
}

WarpMask Lowerer::constMask(uint32_t m) {
  if (m == 0xffffffffu)
    return {};
  return {true, i64c(m), ir::maskHex(m)};
}

// A mask's value (the first argument of a warp primitive, __syncwarp's): the full mask, a
// constant partial mask, else (an integer computed at run time: a `__ballot_sync` result, a
// parameter) a temporary holding its 32 bits, evaluated once where the call is. A lane is named
// by a computed mask as by a constant one: the rules (the caller is named, a shuffle reads a
// named lane, every lane named reaches the call with the same mask) are the same obligations.
WarpMask Lowerer::maskValue(const Expr *arg) {
  std::optional<int64_t> m = constIntThroughLocals(arg); // `unsigned mask = 0xffffffff;` too
  if (m)
    return constMask(static_cast<uint32_t>(static_cast<uint64_t>(*m) & 0xffffffffu));
  ExprPtr value = ir::mkCast(Type::i64(), cast(rvalue(arg), Type::u32())); // (its statements first)
  int t = newTemp(Type::i64(), "mask");
  auto as = emit(StmtKind::Assign, arg->getExprLoc());
  as->var = t;
  as->value = std::move(value);
  return {true, ir::mkVar(t, Type::i64()), "'" + text(arg->getSourceRange()) + "'"};
}

// The mask argument of a warp primitive; `ok` false (reported as unsupported) where it is not
// an integer.
WarpMask Lowerer::maskOf(const CallExpr *call, const std::string &name) {
  if (call->getArg(0)->getType()->isIntegerType())
    return maskValue(call->getArg(0));
  discard(call->getArg(0));
  unsupported(call->getExprLoc(), name + " with the mask '" + text(call->getArg(0)->getSourceRange()) +
                                      "', which is not an integer");
  return {false, nullptr, ""};
}

// Whether lane (an i64 in [0, 32) where it matters) is named in the mask: for a constant, a
// disjunction of ranges, one per run of set bits; for a computed one, of `lane == j` and bit j
// set, each bit a constant power of two (linear, for the solver).
ExprPtr Lowerer::inMask(SourceLocation sl, const ExprPtr &mask, ExprPtr lane) {
  ExprPtr any;
  auto orr = [&](ExprPtr x) { any = any ? ir::mkBinary(Op::LOr, Type::boolean(), any, x) : x; };
  if (mask->op == Op::Const) {
    for (auto [lo, hi] : ir::maskRuns(static_cast<uint32_t>(mask->ival)))
      orr(ir::mkBinary(Op::LAnd, Type::boolean(), cmp(Op::Ge, lane, i64c(lo)), cmp(Op::Lt, lane, i64c(hi))));
    return any ? any : ir::mkConstBool(false);
  }
  if (lane->op != Op::VarRef && lane->op != Op::Const) { // computed once, not 32 times
    int t = newTemp(Type::i64(), "lane");
    auto as = emit(StmtKind::Assign, sl);
    as->var = t;
    as->value = std::move(lane);
    lane = ir::mkVar(t, Type::i64());
  }
  for (int64_t j = 0; j < kWarp; ++j)
    orr(ir::mkBinary(Op::LAnd, Type::boolean(), cmp(Op::Eq, lane, i64c(j)), laneBit(mask, j)));
  return any;
}

// Bit j of a computed mask is set.
ExprPtr Lowerer::laneBit(const ExprPtr &mask, int64_t j) {
  return cmp(Op::Ne, bin(Op::BitAnd, mask, i64c(int64_t{1} << j)), i64c(0));
}

// CUDA: each calling lane must be named in the mask.
void Lowerer::callerInMask(SourceLocation sl, const WarpMask &mask, const std::string &callText) {
  if (!mask.mask)
    return;
  warpAssert(sl, inMask(sl, mask.mask, bin(Op::Rem, linearTid(), i64c(kWarp))),
             "'" + callText + "' is called by a lane that its mask " + mask.text + " does not name");
}

void Lowerer::warpBarrier(SourceLocation sl, ExprPtr mask) {
  auto s = emit(StmtKind::Barrier, sl);
  s->barrier = ir::BarrierKind::Warp;
  s->value = std::move(mask);
}

// `violation`: what it means when cond fails (the obligation's headline).
void Lowerer::warpAssert(SourceLocation sl, ExprPtr cond, const std::string &violation) {
  auto s = emit(StmtKind::Assert, sl);
  s->cond = std::move(cond);
  s->assertKind = ir::AssertKind::Warp;
  s->text = violation;
}

// The value of e as the thread with the given threadIdx would compute it, where e is a pure
// function of the thread's coordinates: literals, blockIdx/blockDim/gridDim, the kernel's own
// parameters and locals that are never changed (through their initialisers), combined with
// arithmetic, comparison, logical and conditional operators and integer casts; null for
// anything else (a load, a call, a device function's parameter, a changed local). Every lane
// computes such an e alike, so a vote may fold the other lanes' operands from it: the safety
// proof then knows what a ballot returns (`__ballot_sync(0xffffffff, tid < 8)`).
ExprPtr Lowerer::laneView(const Expr *e, const std::array<ExprPtr, 3> &tid) {
  e = e->IgnoreParens();
  SourceLocation sl = e->getExprLoc();
  if (e->getType()->isIntegerType() || e->getType()->isBooleanType())
    if (std::optional<int64_t> c = constInt(e))
      return ir::mkConstInt(*c, typeOr(e->getType(), sl));
  if (!e->getType()->isIntegerType() && !e->getType()->isBooleanType())
    return nullptr;
  if (const auto *ce = dyn_cast<CastExpr>(e)) {
    if (!isa<ImplicitCastExpr>(ce) && !isa<CStyleCastExpr>(ce) && !isa<CXXStaticCastExpr>(ce) &&
        !isa<CXXFunctionalCastExpr>(ce))
      return nullptr;
    CastKind ck = ce->getCastKind();
    if (ck != CK_LValueToRValue && ck != CK_NoOp && ck != CK_IntegralCast && ck != CK_IntegralToBoolean)
      return nullptr;
    ExprPtr sub = laneView(ce->getSubExpr(), tid);
    if (!sub || ck == CK_LValueToRValue || ck == CK_NoOp)
      return sub;
    return ck == CK_IntegralToBoolean ? toBool(sub) : cast(sub, typeOr(e->getType(), sl));
  }
  if (const auto *dr = dyn_cast<DeclRefExpr>(e)) {
    const auto *vd = dyn_cast<VarDecl>(dr->getDecl());
    // A variable of the function being lowered (not one a lambda captured from outside, which
    // its own body may change before the call).
    if (!vd || !vd->hasLocalStorage() || frames_.empty() ||
        vd->getParentFunctionOrMethod() != frames_.back().fd)
      return nullptr;
    const Stmt *body = frames_.back().fd->getBody();
    if (modifiedIn(body, vd))
      return nullptr;
    if (const auto *pv = dyn_cast<ParmVarDecl>(vd)) {
      // The kernel's own parameter (the same in every thread), not a device function's.
      if (frames_.size() != 1 || pv->getDeclContext() != frames_.back().fd)
        return nullptr;
      auto b = lookup(vd);
      if (!b || b->kind != Binding::Var)
        return nullptr;
      return ir::mkVar(b->id, k_.vars[b->id].type);
    }
    if (!vd->getInit() || vd->getType()->isReferenceType())
      return nullptr;
    ExprPtr init = laneView(vd->getInit(), tid);
    return init ? cast(init, typeOr(vd->getType(), sl)) : nullptr;
  }
  if (const auto *po = dyn_cast<PseudoObjectExpr>(e)) {
    ExprPtr b = builtinVar(po);
    if (b->op != Op::Builtin)
      return nullptr;
    if (static_cast<ir::Builtin>(b->id) != ir::Builtin::ThreadIdx)
      return b;
    return ir::mkCast(b->type, tid[static_cast<size_t>(b->dim)]);
  }
  if (const auto *bo = dyn_cast<BinaryOperator>(e)) {
    BinaryOperatorKind k = bo->getOpcode();
    if (bo->isAssignmentOp() || k == BO_Comma || k == BO_PtrMemD || k == BO_PtrMemI)
      return nullptr;
    ExprPtr a = laneView(bo->getLHS(), tid), b = laneView(bo->getRHS(), tid);
    if (!a || !b)
      return nullptr;
    if (k == BO_LAnd || k == BO_LOr)
      return ir::mkBinary(k == BO_LAnd ? Op::LAnd : Op::LOr, Type::boolean(), toBool(a), toBool(b));
    std::optional<Op> op = binOp(k);
    if (!op)
      return nullptr;
    return ir::mkBinary(*op, typeOr(bo->getType(), sl), a, b);
  }
  if (const auto *uo = dyn_cast<UnaryOperator>(e)) {
    ExprPtr a = laneView(uo->getSubExpr(), tid);
    if (!a)
      return nullptr;
    switch (uo->getOpcode()) {
    case UO_Plus: return a;
    case UO_Minus: return ir::mkUnary(Op::Neg, typeOr(uo->getType(), sl), a);
    case UO_LNot: return ir::mkUnary(Op::Not, Type::boolean(), toBool(a));
    case UO_Not: return ir::mkUnary(Op::BitNot, typeOr(uo->getType(), sl), a);
    default: return nullptr;
    }
  }
  if (const auto *co = dyn_cast<ConditionalOperator>(e)) {
    ExprPtr c = laneView(co->getCond(), tid), a = laneView(co->getTrueExpr(), tid),
            b = laneView(co->getFalseExpr(), tid);
    if (!c || !a || !b)
      return nullptr;
    Type t = typeOr(co->getType(), sl);
    return ir::mkSelect(t, toBool(c), cast(a, t), cast(b, t));
  }
  return nullptr;
}

// The first half of an exchange: this lane's value into its own cell, then __syncwarp().
// Returns the exchange array.
int Lowerer::offerToLanes(SourceLocation sl, Type t, ExprPtr tid, ExprPtr v, const std::string &name,
                          ExprPtr mask) {
  int xchg = exchangeArray(t);
  auto st = emit(StmtKind::Store, sl);
  st->ptr = ir::mkArrayRef(xchg);
  st->index = {std::move(tid)};
  st->value = std::move(v);
  st->text = name;
  warpBarrier(sl, mask);
  return xchg;
}

// A vote or warp reduction (name: __ballot_sync, __any_sync, __all_sync, __reduce_*_sync) of
// v over the lanes of the calling lane's segment of `size` lanes (a warp, or a tile of
// thread_block_tile<size>); a predicate's v is its u32 0 or 1. Every lane's operand goes
// through the exchange; the result folds the segment's lanes that exist, in lane order: a
// ballot's bit j is the segment's lane j (a tile's thread_rank() j). With a partial mask
// (a warp's vote), only the lanes it names are folded.
ExprPtr Lowerer::vote(SourceLocation sl, const std::string &name, Type rt, ExprPtr v, int64_t size,
                      const WarpMask &mask, const std::string &callText, const Expr *operand) {
  bool isPred = name == "__ballot_sync" || name == "__any_sync" || name == "__all_sync";
  Type et = isPred ? Type::u32() : rt;
  ExprPtr tid = linearTid();
  ExprPtr segBase = bin(Op::Sub, tid, bin(Op::Rem, linearTid(), i64c(size)));
  callerInMask(sl, mask, callText);
  int xchg = offerToLanes(sl, et, std::move(tid), std::move(v), name, mask.mask);
  int acc = newTemp(rt, "vote");
  Op fold = name == "__reduce_min_sync"   ? Op::Min
            : name == "__reduce_max_sync" ? Op::Max
            : name == "__reduce_and_sync" ? Op::BitAnd
            : name == "__reduce_or_sync"  ? Op::BitOr
            : name == "__reduce_xor_sync" ? Op::BitXor
                                          : Op::Add;
  // The fold's start: the identity of its operation (min over an empty set never happens: the
  // calling lane exists).
  ExprPtr start = name == "__all_sync" ? ir::mkConstInt(1, rt)
                  : fold == Op::Min    ? ir::mkConstInt(rt.isSigned ? INT32_MAX : -1, rt)
                  : fold == Op::Max    ? ir::mkConstInt(rt.isSigned ? INT32_MIN : 0, rt)
                  : fold == Op::BitAnd ? ir::mkConstInt(-1, rt)
                                       : ir::mkConstInt(0, rt);
  auto init = emit(StmtKind::Assign, sl);
  init->var = acc;
  init->value = cast(start, rt);
  ir::Block *saved = cur_;
  for (int64_t j = 0; j < size; ++j) {
    if (mask.mask && mask.mask->op == Op::Const && !ir::laneInMask(static_cast<uint32_t>(mask.mask->ival), j))
      continue;
    ExprPtr cell = bin(Op::Add, segBase, i64c(j));
    auto br = emit(StmtKind::If, sl);
    br->cond = cmp(Op::Lt, cell, blockThreads());
    if (mask.mask && mask.mask->op != Op::Const) // a computed mask: lane j if it names it
      br->cond = ir::mkBinary(Op::LAnd, Type::boolean(), br->cond, laneBit(mask.mask, j));
    cur_ = &br->body;
    // Lane j's operand: computed as lane j computes it where the operand is a function of the
    // thread's coordinates (laneView), else read from its cell.
    ExprPtr x;
    if (operand) {
      ExprPtr lin = cell, bx = ir::mkCast(Type::i64(), ir::mkBuiltin(ir::Builtin::BlockDim, 0)),
              by = ir::mkCast(Type::i64(), ir::mkBuiltin(ir::Builtin::BlockDim, 1));
      std::array<ExprPtr, 3> tid{bin(Op::Rem, lin, bx), bin(Op::Rem, bin(Op::Div, lin, bx), by),
                                 bin(Op::Div, lin, bin(Op::Mul, bx, by))};
      if (ExprPtr view = laneView(operand, tid))
        x = isPred ? ir::mkCast(Type::u32(), toBool(view)) : cast(view, et);
    }
    if (!x) {
      int t = newTemp(et, "lane");
      auto ld = emit(StmtKind::Load, sl);
      ld->var = t;
      ld->ptr = ir::mkArrayRef(xchg);
      ld->index = {cell};
      ld->text = name + " (lane " + std::to_string(j) + ")";
      x = ir::mkVar(t, et);
    }
    ExprPtr a = ir::mkVar(acc, rt), nv;
    ExprPtr bit = cmp(Op::Ne, x, ir::mkConstInt(0, et));
    if (name == "__ballot_sync")
      nv = ir::mkSelect(rt, bit, ir::mkBinary(Op::Add, rt, a, ir::mkConstInt(int64_t{1} << j, rt)), a);
    else if (name == "__any_sync")
      nv = ir::mkSelect(rt, bit, ir::mkConstInt(1, rt), a);
    else if (name == "__all_sync")
      nv = ir::mkSelect(rt, bit, a, ir::mkConstInt(0, rt));
    else
      nv = ir::mkBinary(fold, rt, a, cast(x, rt));
    auto as = emit(StmtKind::Assign, sl);
    as->var = acc;
    as->value = nv;
    cur_ = saved;
  }
  warpBarrier(sl, mask.mask);
  return ir::mkVar(acc, rt);
}

ExprPtr Lowerer::warpCall(const CallExpr *call, const std::string &name, Type rt) {
  SourceLocation sl = call->getExprLoc();
  std::string callText = text(call->getSourceRange());
  if (name == "__activemask") {
    // SEMANTICS: the lanes converged with the caller at the call, which CUDA does not promise
    // to be more than the caller (independent thread scheduling): some mask naming the calling
    // lane. Concrete runs take the legal choice that names the caller alone.
    ExprPtr lane = bin(Op::Rem, linearTid(), i64c(kWarp));
    int t = newTemp(Type::u32(), "activemask");
    auto h = emit(StmtKind::Havoc, sl);
    h->var = t;
    h->value = ir::mkCast(Type::u32(), bin(Op::Shl, i64c(1), lane));
    h->text = "the lanes '" + callText + "' names (any that include the calling lane)";
    h->warpCollective = true;
    ExprPtr named = inMask(sl, ir::mkCast(Type::i64(), ir::mkVar(t, Type::u32())), lane); // (its lane first)
    auto a = emit(StmtKind::Assume, sl);
    a->cond = std::move(named);
    return cast(ir::mkVar(t, Type::u32()), rt);
  }
  if (call->getNumArgs() < 2 || rt.kind == ir::TypeKind::Void) {
    unsupported(sl, "call '" + callText + "'");
    return ir::mkConstInt(0, Type::i32());
  }
  WarpMask mask = maskOf(call, name);
  if (!mask.ok) {
    for (unsigned i = 1; i < call->getNumArgs(); ++i)
      discard(call->getArg(i));
    return ir::mkConstInt(0, rt);
  }
  if (isVote(name)) {
    bool isPred = name == "__ballot_sync" || name == "__any_sync" || name == "__all_sync";
    ExprPtr v = isPred ? ir::mkCast(Type::u32(), toBool(rvalue(call->getArg(1))))
                       : cast(rvalue(call->getArg(1)), rt);
    return vote(sl, name, rt, std::move(v), kWarp, mask, callText, call->getArg(1));
  }

  // Shuffles: (mask, var, srcLane | delta | laneMask, width = warpSize).
  if (call->getNumArgs() < 3) {
    unsupported(sl, "call '" + callText + "'");
    return ir::mkConstInt(0, rt);
  }
  int64_t width = kWarp;
  if (call->getNumArgs() >= 4 && !call->getArg(3)->isDefaultArgument()) {
    std::optional<int64_t> w = constInt(call->getArg(3));
    if (!w) {
      discard(call->getArg(3));
      unsupported(sl, name + " with a width that is not a constant");
      return ir::mkConstInt(0, rt);
    }
    width = *w;
  }
  ExprPtr v = cast(rvalue(call->getArg(1)), rt);
  // delta and laneMask as the hardware reads them: 32-bit unsigned.
  ExprPtr x = name == "__shfl_sync" ? ir::mkCast(Type::i64(), rvalue(call->getArg(2)))
                                    : ir::mkCast(Type::i64(), cast(rvalue(call->getArg(2)), Type::u32()));
  return shuffle(sl, name, rt, v, x, width, callText, mask);
}

// The exchange of one shuffle (name: __shfl_sync, __shfl_up/down/xor_sync) of v, with the source
// lane, delta or lane mask x (an i64), over segments of `width` lanes.
ExprPtr Lowerer::shuffle(SourceLocation sl, const std::string &name, Type rt, ExprPtr v, ExprPtr x, int64_t width,
                         const std::string &callText, const WarpMask &mask) {
  ExprPtr tid = linearTid();
  ExprPtr lane = bin(Op::Rem, tid, i64c(kWarp));
  ExprPtr warpBase = bin(Op::Sub, tid, lane);
  if (width < 1 || width > kWarp || (width & (width - 1)) != 0) {
    // Undefined in CUDA: an obligation that fails wherever the call is reached.
    warpAssert(sl, ir::mkConstBool(false),
               "the width " + std::to_string(width) + " of '" + callText + "' is not a power of two in [1, 32]");
    width = kWarp;
  }
  ExprPtr w = i64c(width);
  ExprPtr segBase = bin(Op::Sub, lane, bin(Op::Rem, lane, w));
  ExprPtr src, inRange;
  if (name == "__shfl_sync") {
    src = bin(Op::Add, segBase, bin(Op::BitAnd, x, i64c(width - 1)));
    inRange = ir::mkConstBool(true);
  } else if (name == "__shfl_up_sync") {
    src = bin(Op::Sub, lane, x);
    inRange = cmp(Op::Ge, bin(Op::Rem, lane, w), x);
  } else if (name == "__shfl_down_sync") {
    src = bin(Op::Add, lane, x);
    inRange = cmp(Op::Lt, bin(Op::Add, bin(Op::Rem, lane, w), x), w);
  } else { // __shfl_xor_sync: lanes of later segments (or past the warp) give the own value
    src = bin(Op::BitXor, lane, x);
    // (src >= 0 always holds: both operands are; said for the symbolic executor, which may not
    // know what `^` gives.)
    inRange = ir::mkBinary(Op::LAnd, Type::boolean(), cmp(Op::Ge, src, i64c(0)),
                           cmp(Op::Lt, src, bin(Op::Add, segBase, w)));
  }
  int srcVar = newTemp(Type::i64(), "srclane");
  auto ss = emit(StmtKind::Assign, sl);
  ss->var = srcVar;
  ss->value = src;
  int inVar = newTemp(Type::boolean(), "inrange");
  auto si = emit(StmtKind::Assign, sl);
  si->var = inVar;
  si->value = inRange;
  ExprPtr srcE = ir::mkVar(srcVar, Type::i64()), inE = ir::mkVar(inVar, Type::boolean());

  callerInMask(sl, mask, callText);
  int xchg = offerToLanes(sl, rt, tid, v, name, mask.mask);
  ExprPtr cell = bin(Op::Add, warpBase, srcE);
  warpAssert(sl,
             ir::mkBinary(Op::LOr, Type::boolean(), ir::mkUnary(Op::Not, Type::boolean(), inE),
                          cmp(Op::Lt, cell, blockThreads())),
             "'" + callText + "' reads a lane that does not exist (its block has no thread there)");
  if (mask.mask) {
    warpAssert(sl, ir::mkBinary(Op::LOr, Type::boolean(), ir::mkUnary(Op::Not, Type::boolean(), inE), inMask(sl, mask.mask, srcE)),
               "'" + callText + "' reads a lane that its mask " + mask.text + " does not name (its value is undefined)");
  }
  int r = newTemp(rt, "shfl");
  auto def = emit(StmtKind::Assign, sl);
  def->var = r;
  def->value = v;
  ir::Block *saved = cur_;
  auto br = emit(StmtKind::If, sl);
  br->cond = ir::mkBinary(Op::LAnd, Type::boolean(), inE, cmp(Op::Lt, cell, blockThreads()));
  cur_ = &br->body;
  int t = newTemp(rt, "lane");
  auto ld = emit(StmtKind::Load, sl);
  ld->var = t;
  ld->ptr = ir::mkArrayRef(xchg);
  ld->index = {cell};
  ld->text = callText;
  auto as = emit(StmtKind::Assign, sl);
  as->var = r;
  as->value = ir::mkVar(t, rt);
  cur_ = saved;
  warpBarrier(sl, mask.mask);
  return ir::mkVar(r, rt);
}

// ---- cooperative groups: thread_block_tile<Size> -------------------------------------------
//
// A tile of Size <= 32 threads (a power of two) is a segment of a warp: its shuffles are the
// warp shuffles with width Size, its sync() a __syncwarp() (every lane of the warp takes part,
// as with the full mask), its thread_rank() the lane's index in the segment, its votes
// (ballot, any, all) the warp votes over the segment's lanes.

// Size of the tile type t (thread_block_tile<Size>), or 0 if t is not one.
int64_t Lowerer::tileSize(QualType t) {
  const auto *rd = t.isNull() ? nullptr : t.getNonReferenceType().getCanonicalType()->getAsRecordDecl();
  const auto *sd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
  if (!sd || sd->getNameAsString() != "thread_block_tile" || sd->getTemplateArgs().size() < 1 ||
      sd->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return 0;
  return sd->getTemplateArgs()[0].getAsIntegral().getExtValue();
}

ExprPtr Lowerer::tileCall(const CallExpr *call, const std::string &name, Type rt, int64_t size) {
  SourceLocation sl = call->getExprLoc();
  std::string callText = text(call->getSourceRange());
  if (size < 1 || size > kWarp || (size & (size - 1)) != 0) {
    unsupported(sl, "a thread_block_tile of " + std::to_string(size) + " threads (ksynth models tiles of a power "
                    "of two up to 32 threads)");
    return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
  }
  ExprPtr rank = bin(Op::Rem, linearTid(), i64c(size));
  if (name == "sync") {
    warpBarrier(sl);
    return ir::mkConstInt(0, Type::i32());
  }
  if (name == "thread_rank")
    return cast(rank, rt);
  if (name == "meta_group_rank")
    return cast(bin(Op::Div, linearTid(), i64c(size)), rt);
  if (name == "meta_group_size") { // the tiles of the block: its threads / size, rounded up
    ExprPtr threads = i64c(1);
    for (int d = 0; d < 3; ++d)
      threads = bin(Op::Mul, threads, ir::mkCast(Type::i64(), ir::mkBuiltin(ir::Builtin::BlockDim, d)));
    return cast(bin(Op::Div, bin(Op::Add, threads, i64c(size - 1)), i64c(size)), rt);
  }
  if (name == "size" || name == "num_threads")
    return ir::mkConstInt(size, rt);
  static const std::map<std::string, std::string> shuffles = {
      {"shfl", "__shfl_sync"}, {"shfl_up", "__shfl_up_sync"}, {"shfl_down", "__shfl_down_sync"},
      {"shfl_xor", "__shfl_xor_sync"}};
  if ((name == "ballot" || name == "any" || name == "all") && call->getNumArgs() == 1 &&
      rt.kind != ir::TypeKind::Void) {
    ExprPtr v = ir::mkCast(Type::u32(), toBool(rvalue(call->getArg(0))));
    return vote(sl, "__" + name + "_sync", rt, std::move(v), size);
  }
  auto it = shuffles.find(name);
  if (it != shuffles.end() && call->getNumArgs() == 2 && rt.kind != ir::TypeKind::Void) {
    ExprPtr v = cast(rvalue(call->getArg(0)), rt);
    ExprPtr x = it->first == "shfl" ? ir::mkCast(Type::i64(), rvalue(call->getArg(1)))
                                    : ir::mkCast(Type::i64(), cast(rvalue(call->getArg(1)), Type::u32()));
    return shuffle(sl, it->second, rt, v, x, size, callText);
  }
  unsupported(sl, "thread_block_tile method '" + callText + "'");
  return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
}

// cg::reduce(tile, v, op), op cg::plus<T>, cg::less<T> (the least) or cg::greater<T> (the
// greatest): a butterfly over the tile (every lane gets the result), as the library computes it.
ExprPtr Lowerer::tileReduce(const CallExpr *call, Type rt, int64_t size) {
  SourceLocation sl = call->getExprLoc();
  const auto *rd = call->getArg(2)->getType().getNonReferenceType().getCanonicalType()->getAsRecordDecl();
  std::string op = rd ? rd->getNameAsString() : "";
  if ((op != "plus" && op != "less" && op != "greater") || rt.kind == ir::TypeKind::Void || size < 1 ||
      size > kWarp || (size & (size - 1)) != 0) {
    unsupported(sl, "cg::reduce '" + text(call->getSourceRange()) + "' (ksynth models plus, less and greater "
                    "over tiles of a power of two up to 32 threads)");
    return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
  }
  int acc = newTemp(rt, "reduce");
  auto init = emit(StmtKind::Assign, sl);
  init->var = acc;
  init->value = cast(rvalue(call->getArg(1)), rt);
  for (int64_t off = size / 2; off > 0; off /= 2) {
    ExprPtr other = shuffle(sl, "__shfl_xor_sync", rt, ir::mkVar(acc, rt), i64c(off), size,
                            text(call->getSourceRange()));
    auto as = emit(StmtKind::Assign, sl);
    as->var = acc;
    as->value = op == "plus" ? ir::mkBinary(Op::Add, rt, ir::mkVar(acc, rt), other)
                             : ir::mkBinary(op == "less" ? Op::Min : Op::Max, rt, ir::mkVar(acc, rt), other);
  }
  return ir::mkVar(acc, rt);
}

} // namespace ksynth::frontend::detail
