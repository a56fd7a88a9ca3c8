// Frontend: lowering of calls (inlined device functions, atomics, function pointers, builtins).
#include "verify/frontend/lowerer.h"

#include <clang/Basic/Builtins.h>

#include <functional>

namespace ksynth::frontend::detail {

// grid_group::thread_rank() (rank true) or size(), in unsigned long long as CUDA returns them:
// blocks are numbered x fastest, and the grid's rank is the block's rank times the block's size
// (`threads`) plus the thread's rank in the block (`tid`).
static ExprPtr gridRankOrSize(bool rank, ExprPtr tid, ExprPtr threads) {
  Type u = Type::u64();
  auto b = [&](ir::Builtin k, int d) { return ir::mkCast(u, ir::mkBuiltin(k, d)); };
  auto mul = [&](ExprPtr x, ExprPtr y) { return ir::mkBinary(Op::Mul, u, std::move(x), std::move(y)); };
  auto add = [&](ExprPtr x, ExprPtr y) { return ir::mkBinary(Op::Add, u, std::move(x), std::move(y)); };
  threads = ir::mkCast(u, std::move(threads));
  if (!rank)
    return mul(mul(mul(b(ir::Builtin::GridDim, 0), b(ir::Builtin::GridDim, 1)), b(ir::Builtin::GridDim, 2)), threads);
  ExprPtr block = add(b(ir::Builtin::BlockIdx, 0),
                      mul(b(ir::Builtin::GridDim, 0),
                          add(b(ir::Builtin::BlockIdx, 1), mul(b(ir::Builtin::GridDim, 1), b(ir::Builtin::BlockIdx, 2)))));
  return add(mul(block, threads), ir::mkCast(u, std::move(tid)));
}

ExprPtr Lowerer::callExpr(const CallExpr *call) {
  SourceLocation sl = call->getExprLoc();
  const FunctionDecl *fd = call->getDirectCallee();
  if (!fd)
    return indirectCall(call);
  std::string name = fd->getNameAsString();
  if (const Expr *l = nullptr, *r = nullptr; isTrivialRecordAssign(call, l, r))
    return rvalue(call);
  // The compiler's float constants (`INFINITY` is `__builtin_inff()`, `HUGE_VALF`, `NAN`): their
  // IEEE value, as a literal's.
  switch (fd->getBuiltinID()) {
  case Builtin::BI__builtin_inf:
  case Builtin::BI__builtin_inff:
  case Builtin::BI__builtin_huge_val:
  case Builtin::BI__builtin_huge_valf:
  case Builtin::BI__builtin_nan:
  case Builtin::BI__builtin_nanf: {
    Expr::EvalResult r;
    if (call->EvaluateAsRValue(r, ctx_) && r.Val.isFloat())
      return ir::mkConstFloat(r.Val.getFloat().convertToDouble(), typeOr(call->getType(), sl), loc(sl));
    break;
  }
  default: break;
  }
  // CUB's collectives are declared (so that files using them parse), not modelled.
  if (const auto *ns = dyn_cast<NamespaceDecl>(fd->getDeclContext()->getEnclosingNamespaceContext());
      ns && ns->getName() == "cub" && !sm_.isInMainFile(sm_.getExpansionLoc(fd->getLocation()))) {
    std::string owner;
    if (const auto *rd = dyn_cast<CXXRecordDecl>(fd->getDeclContext()))
      owner = rd->getNameAsString() + "::";
    unsupported(sl, "CUB's 'cub::" + owner + name + "' in '" + text(call->getSourceRange()) +
                        "' (ksynth does not model CUB's collectives; a shuffle or cg::reduce reduction is verified)");
    Type rt = call->getType()->isVoidType() || isRecord(call->getType()) ? Type::i32() : typeOr(call->getType(), sl);
    return rt.isFloat() ? ir::mkConstFloat(0, rt) : ir::mkConstInt(0, rt);
  }
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
  // Prelude functions with a body (half-precision intrinsics, __ldg, make_float4, ...) are
  // inlined like the file's own; those without one get their meaning here.
  if (!fd->hasBody()) {
    if (name == "__syncthreads" || name == "__syncwarp") {
      if (name == "__syncwarp") {
        WarpMask mask;
        if (call->getNumArgs() == 1 && !call->getArg(0)->isDefaultArgument())
          mask = maskOf(call, name);
        if (!mask.ok)
          return ir::mkConstInt(0, Type::i32());
        callerInMask(sl, mask, text(call->getSourceRange()));
        warpBarrier(sl, mask.mask);
        return ir::mkConstInt(0, Type::i32());
      }
      for (unsigned i = 0; i < call->getNumArgs(); ++i)
        discard(call->getArg(i));
      auto s = emit(StmtKind::Barrier, sl);
      s->barrier = ir::BarrierKind::Block;
      return ir::mkConstInt(0, Type::i32());
    }
    if (fromPrelude && isWarpPrimitive(name))
      return warpCall(call, name, rt);
    if (fromPrelude && isWmmaCall(fd))
      return wmmaCall(call, name);
    if (name == "__threadfence" || name == "__threadfence_block" || name == "__threadfence_system")
      return ir::mkConstInt(0, Type::i32()); // fences order, they do not synchronise
    // Cooperative groups' tiles: a warp's segments (lower_warp.cpp).
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(call))
      if (int64_t size = tileSize(mc->getObjectType()))
        return tileCall(call, name, rt, size);
    if (name == "reduce" && call->getNumArgs() == 3)
      if (int64_t size = tileSize(call->getArg(0)->getType()))
        return tileReduce(call, rt, size);
    if (name == "tiled_partition" && call->getNumArgs() == 1 && tileSize(call->getType()))
      return ir::mkConstInt(0, Type::i32()); // a handle without state, as this_thread_block()
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
    // thread_block's and grid_group's rank and size, from the builtin variables.
    if (const auto *mc = dyn_cast<CXXMemberCallExpr>(call);
        mc && fromPrelude && (name == "thread_rank" || name == "size" || name == "num_threads")) {
      const RecordDecl *rd = mc->getObjectType().getCanonicalType()->getAsRecordDecl();
      if (rd && rd->getNameAsString() == "grid_group")
        return cast(gridRankOrSize(name == "thread_rank", linearTid(), blockThreads()), rt);
      if (rd && rd->getNameAsString() == "thread_block")
        return cast(name == "thread_rank" ? linearTid() : blockThreads(), rt);
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
    if (name == "__trap" || name == "__brkpt") {
      // Reaching it aborts the launch with an error: an assertion that fails wherever it is
      // reached (the assert check decides whether it can be).
      auto s = emit(StmtKind::Assert, sl);
      s->cond = ir::mkConstBool(false);
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
        if (b && b->kind == Binding::Agg && aggs_[b->id].isPtr) {
          // The number of structs: the length of the first scalar field's array (an array
          // field's holds several scalars per struct).
          const AggStore &st = aggs_[b->id];
          for (size_t i = 0; i < st.leaves.size(); ++i)
            if (st.layout[i].dims.empty() && st.leaves[i].kind == Binding::Array)
              return ir::mkLen(st.leaves[i].id);
          unsupported(sl, "__len of '" + dr->getDecl()->getNameAsString() +
                              "', a pointer to structs whose fields are all arrays");
          return ir::mkConstInt(0, Type::u64());
        }
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
    if (fromPrelude && rt.isFloat() && call->getNumArgs() == 1 &&
        (name == "fabsf" || name == "fabs" || name == "abs" || name == "fabsl")) {
      // |x| exactly: x < 0 ? -x : x (NaN stays NaN; -0 and +0 are the same real).
      ExprPtr a = cast(arg(0), rt);
      auto neg = std::const_pointer_cast<ir::Expr>(ir::mkUnary(Op::Neg, rt, a, loc(sl)));
      neg->text = text(call->getSourceRange());
      return ir::mkSelect(rt, ir::mkBinary(Op::Lt, Type::boolean(), a, cast(ir::mkConstInt(0, Type::i32()), rt)), neg,
                          a);
    }
    if (fromPrelude && rt.isFloat())
      if (ExprPtr r = exactIntrinsic(call, name, rt))
        return r;
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
    if (fromPrelude && name == "printf") {
      // Device printf writes to the host's output, nothing the kernel can read. It reads its
      // arguments; one that is a pointer other than a string literal (%s, %p) could read
      // memory other threads write, which is not modelled.
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        const Expr *a = call->getArg(i)->IgnoreParenImpCasts();
        if (isa<StringLiteral>(a))
          continue;
        if (a->getType()->isPointerType() || a->getType()->isArrayType()) {
          unsupported(sl, "printf of a pointer argument (it may read memory)");
          continue;
        }
        discard(call->getArg(i));
      }
      int t = newTemp(rt, "printf.ret");
      auto h = emit(StmtKind::Havoc, sl);
      h->var = t;
      h->text = "the result of printf";
      return ir::mkVar(t, rt);
    }
    // Pure intrinsics ksynth does not model: some value of their type (a function of the
    // arguments, over-approximated as unknown), stated as an assumption like any function
    // without a body.
    static const std::set<std::string> kUnmodelledPure = {
        "__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev", "__brevll", "__byte_perm",
        "__mulhi", "__umulhi", "__sad", "__usad", "clock", "clock64", "__float_as_uint", "__float_as_int",
        "__uint_as_float", "__int_as_float", "__double_as_longlong", "__longlong_as_double", "__nanosleep",
        "__ushort_as_half", "__half_as_ushort", "__ushort_as_bfloat16", "__bfloat16_as_ushort"};
    if (fromPrelude && kUnmodelledPure.count(name))
      return callWithoutBody(call, fd, rt);
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

// Fused and rounding-mode intrinsics whose meaning over the reals is an exact operation
// (DESIGN: float rounding is not modelled): fmaf(a, b, c) is a * b + c, __fdividef(a, b) and
// __fdiv_rn(a, b) are a / b, __frcp_rn(x) is 1 / x, __fadd_rn/__fsub_rn/__fmul_rn their
// operation, __fsqrt_rn/__frsqrt_rn sqrtf/rsqrtf, __saturatef(x) is x clamped to [0, 1].
// nullptr for any other call.
ExprPtr Lowerer::exactIntrinsic(const CallExpr *call, const std::string &name, Type rt) {
  SourceLocation sl = call->getExprLoc();
  unsigned n = call->getNumArgs();
  auto arg = [&](unsigned i) { return cast(rvalue(call->getArg(i)), rt); };
  auto bin = [&](Op op, ExprPtr a, ExprPtr b) {
    auto e = std::const_pointer_cast<ir::Expr>(ir::mkBinary(op, rt, std::move(a), std::move(b), loc(sl)));
    e->text = text(call->getSourceRange());
    return ExprPtr(e);
  };
  if (n == 3 && (name == "fmaf" || name == "fma" || name == "__fmaf_rn" || name == "__fma_rn")) {
    ExprPtr a = arg(0), b = arg(1), c = arg(2);
    return bin(Op::Add, bin(Op::Mul, a, b), c);
  }
  if (n == 2) {
    static const std::map<std::string, Op> ops = {{"__fdividef", Op::Div}, {"__fdiv_rn", Op::Div},
                                                  {"__fadd_rn", Op::Add},  {"__fsub_rn", Op::Sub},
                                                  {"__fmul_rn", Op::Mul}};
    if (auto it = ops.find(name); it != ops.end()) {
      ExprPtr a = arg(0), b = arg(1);
      return bin(it->second, a, b);
    }
  }
  if (n == 1) {
    if (name == "__frcp_rn")
      return bin(Op::Div, ir::mkConstFloat(1.0, rt), arg(0));
    if (name == "__fsqrt_rn" || name == "__frsqrt_rn")
      return ir::mkCall(name == "__fsqrt_rn" ? "sqrtf" : "rsqrtf", rt, {arg(0)}, loc(sl));
    if (name == "__saturatef") {
      ExprPtr x = arg(0);
      return bin(Op::Min, bin(Op::Max, x, ir::mkConstFloat(0.0, rt)), ir::mkConstFloat(1.0, rt));
    }
  }
  return nullptr;
}

ExprPtr Lowerer::atomic(const CallExpr *call, const std::string &name, Type rt) {
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
    return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
  }
  if (isRecord(call->getArg(1)->getType())) {
    unsupported(sl, "atomic '" + name + "' on a vector type ('" + call->getArg(1)->getType().getAsString() + "')");
    return ir::mkConstInt(0, Type::i32());
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
bool Lowerer::sameFnType(QualType a, QualType b) {
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

// Every non-member or static member function defined in the file (incl. template instances),
// not those of system headers or ksynth's own (the C++ library's templates are not targets).
std::vector<const FunctionDecl *> Lowerer::fileFunctions() {
  std::vector<const FunctionDecl *> out;
  auto users = [&](const Decl *d) { return userCode(sm_, d->getLocation()); };
  std::function<void(const DeclContext *)> walk = [&](const DeclContext *dc) {
    for (const Decl *d : dc->decls()) {
      if (const auto *ft = dyn_cast<FunctionTemplateDecl>(d)) {
        if (users(ft))
          for (const FunctionDecl *sp : ft->specializations())
            out.push_back(sp);
        continue;
      }
      if (const auto *md = dyn_cast<CXXMethodDecl>(d)) {
        if (md->isStatic() && users(md))
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

int64_t Lowerer::fnId(const FunctionDecl *f) {
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
ExprPtr Lowerer::indirectCall(const CallExpr *call) {
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

// Whether `vd` may change in `s`: any use of it other than reading its value.
bool Lowerer::modifiedIn(const Stmt *s, const VarDecl *vd) {
  if (!s)
    return false;
  for (const Stmt *c : s->children()) {
    if (!c)
      continue;
    const Stmt *u = c;
    while (const auto *pe = dyn_cast<ParenExpr>(u))
      u = pe->getSubExpr();
    const auto *dr = dyn_cast<DeclRefExpr>(u);
    if (!dr || dr->getDecl() != vd) {
      if (modifiedIn(c, vd))
        return true;
      continue;
    }
    // A use of vd: only its value read (or a const reference to it, or its size) leaves it as
    // it is; an assignment, ++ or --, its address, a non-const reference (a reference
    // parameter) may change it.
    const auto *ic = dyn_cast<ImplicitCastExpr>(s);
    bool read = (ic && (ic->getCastKind() == CK_LValueToRValue ||
                        (ic->getCastKind() == CK_NoOp && ic->getType().isConstQualified()))) ||
                isa<UnaryExprOrTypeTraitExpr>(s);
    if (!read)
      return true;
  }
  return false;
}

// An integer constant, or a local initialised with one and never changed (`size_t len = 4;`).
std::optional<int64_t> Lowerer::constIntThroughLocals(const Expr *e) {
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
ExprPtr Lowerer::memOp(const CallExpr *call, bool isSet) {
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
ExprPtr Lowerer::mul24(const CallExpr *call, bool isSigned) {
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
ExprPtr Lowerer::curandCall(const CallExpr *call, const std::string &name, Type rt) {
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
ExprPtr Lowerer::callWithoutBody(const CallExpr *call, const FunctionDecl *fd, Type rt) {
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

bool Lowerer::bindReference(const ValueDecl *d, QualType refType, const Expr *init, FnFrame &frame,
                             SourceLocation sl) {
  QualType t = refType.getNonReferenceType();
  std::string name = d->getNameAsString();
  if (!init) {
    unsupported(sl, "reference '" + name + "' without an initialiser");
    return false;
  }
  const Expr *e = init->IgnoreParens();
  while (const auto *ic = dyn_cast<ImplicitCastExpr>(e)) { // T& to const T&: the same object
    if (ic->getCastKind() != CK_NoOp)
      break;
    e = ic->getSubExpr()->IgnoreParens();
  }
  // A temporary (`f(x + 1)`, a conversion) is a fresh object only the reference names: a copy
  // is exact.
  if (const auto *mt = dyn_cast<MaterializeTemporaryExpr>(e)) {
    if (isRecord(t)) {
      auto b = declareAgg(dyn_cast<VarDecl>(d), frame.fd ? frame.fd->getNameAsString() + "." + name : name, t, {},
                          std::nullopt, sl);
      if (!b)
        return false;
      initAgg(aggOfStore(aggs_[b->id], name), t, mt->getSubExpr(), sl);
      frame.bindings[d] = *b;
      return true;
    }
    auto st = scalarType(t);
    if (!st) {
      unsupported(sl, "reference '" + name + "' to a temporary of type '" + t.getAsString() + "'");
      return false;
    }
    ExprPtr v = cast(rvalue(mt->getSubExpr()), *st);
    int id = newTemp(*st, name);
    auto s = emit(StmtKind::Assign, sl);
    s->var = id;
    s->value = v;
    frame.bindings[d] = {Binding::Var, id};
    return true;
  }
  if (!e->isGLValue()) {
    unsupported(sl, "reference '" + name + "' bound to '" + text(init->getSourceRange()) + "'");
    return false;
  }
  // A struct or an array: bound to the named variable itself (no copy; writes go to it).
  if (isRecord(t) || t->isArrayType()) {
    const auto *dr = dyn_cast<DeclRefExpr>(e);
    auto b = dr ? lookup(dr->getDecl()) : std::nullopt;
    bool ok = b && ((isRecord(t) && b->kind == Binding::Agg && !aggs_[b->id].isPtr && !aggs_[b->id].arrayDecl) ||
                    (t->isArrayType() && b->kind == Binding::Array));
    if (!ok) {
      unsupported(sl, "reference '" + name + "' to '" + text(init->getSourceRange()) +
                          "' (a struct or array reference must name a variable)");
      return false;
    }
    frame.bindings[d] = *b;
    return true;
  }
  if (!scalarType(t)) {
    unsupported(sl, "reference '" + name + "' of type '" + refType.getAsString() + "'");
    return false;
  }
  LValue lv = lvalue(e);
  if (!lv.ok)
    return false; // lvalue() said why
  if (lv.isVar) {
    frame.bindings[d] = {Binding::Var, lv.var}; // the variable itself
    return true;
  }
  // A memory location: its pointer and indexes are fixed now, as C++ binds a reference once.
  auto freeze = [&](ExprPtr &x, const std::string &hint) {
    if (x->op == Op::Const || x->op == Op::ArrayRef)
      return;
    int id = newTemp(x->type, hint);
    auto s = emit(StmtKind::Assign, sl);
    s->var = id;
    s->value = x;
    x = ir::mkVar(id, x->type);
  };
  freeze(lv.mem.ptr, name + ".ptr");
  for (ExprPtr &i : lv.mem.index)
    freeze(i, name + ".idx");
  refs_.push_back(lv);
  frame.bindings[d] = {Binding::Ref, static_cast<int>(refs_.size() - 1)};
  return true;
}

ExprPtr Lowerer::inlineCall(const CallExpr *call, const FunctionDecl *fd, Type rt,
                            std::optional<AggLV> thisObj) {
  SourceLocation sl = call->getExprLoc();
  // What an unsupported call stands for: a value of the call's type, never used for a verdict
  // (the unsupported statement makes every obligation it touches unknown).
  auto placeholder = [&] {
    if (rt.kind == ir::TypeKind::Void)
      return ir::mkConstInt(0, Type::i32());
    return rt.isFloat() ? ir::mkConstFloat(0, rt) : ir::mkConstInt(0, rt);
  };
  for (const FnFrame &f : frames_)
    if (f.fd == fd->getCanonicalDecl() || f.fd == fd) {
      unsupported(sl, "recursive call to '" + fd->getNameAsString() + "'");
      return placeholder();
    }
  if (frames_.size() > 32) {
    unsupported(sl, "call nesting deeper than 32");
    return placeholder();
  }
  // Each call is inlined: calls that call a function twice, nested, multiply.
  if (++inlinedCalls_ > kMaxInlinedCalls) {
    if (inlinedCalls_ == kMaxInlinedCalls + 1)
      unsupported(sl, "more than " + std::to_string(kMaxInlinedCalls) +
                          " calls to inline (calls are inlined, and nested calls multiply)");
    return placeholder();
  }
  const FunctionDecl *def = fd;
  fd->hasBody(def);
  FnFrame frame;
  frame.fd = def;
  frame.thisObj = std::move(thisObj);
  frame.returnType = def->getReturnType();
  frame.returnAgg = std::move(nextReturnAgg_);
  nextReturnAgg_.reset();
  if (!frame.returnAgg && isRecord(frame.returnType) && !frame.returnType->isVoidType()) {
    // The struct result is not used (a call as a statement): a temporary all the same.
    auto b = declareAgg(nullptr, def->getNameAsString() + ".ret." + std::to_string(tmpCount_++),
                        frame.returnType, {}, std::nullopt, sl);
    if (b)
      frame.returnAgg = aggOfStore(aggs_[b->id], def->getNameAsString());
  }
  // Arguments are evaluated in the caller's frame.
  std::vector<std::pair<const ParmVarDecl *, ExprPtr>> args;
  // Operator calls written as methods have the object as argument 0.
  unsigned argBase = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(def) ? 1 : 0;
  for (unsigned i = 0; i < def->getNumParams() && i + argBase < call->getNumArgs(); ++i) {
    const ParmVarDecl *p = def->getParamDecl(i);
    const Expr *argE = call->getArg(i + argBase);
    std::string pname = def->getNameAsString() + "." + p->getNameAsString();
    if (p->getType()->isReferenceType()) {
      // Bound in the caller's frame, as the call evaluates its arguments.
      if (!bindReference(p, p->getType(), argE, frame, sl))
        return ir::mkConstInt(0, rt.kind == ir::TypeKind::Void ? Type::i32() : rt);
      continue;
    }
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

void Lowerer::discard(const Expr *e) {
  if (!e)
    return;
  (void)rvalue(e);
}

} // namespace ksynth::frontend::detail
