// Hand-built KIR for the checker's tests (unit_check links no clang): each
// helper builds what the frontend would emit for the CUDA shown in the test's
// comment (compare `--dump-kir`).
#pragma once

#include "verify/check/checker.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace ksynth::check::test {

using namespace ksynth::ir;

struct KB {
  Kernel k;
  unsigned line = 10; // each statement gets its own source line, for locations
  explicit KB(std::string name = "k") {
    k.name = std::move(name);
    k.file = "t.cu";
    k.loc = {1, 17};
  }

  int param(const std::string &n, Type t) {
    Var v;
    v.name = n;
    v.type = t;
    v.paramIndex = static_cast<int>(k.params.size());
    v.loc = {1, 20};
    int id = k.addVar(v);
    k.params.push_back({false, id});
    return id;
  }
  int ptrParam(const std::string &n, Type elem) {
    Array a;
    a.name = n;
    a.space = Space::Global;
    a.elem = elem;
    a.paramIndex = static_cast<int>(k.params.size());
    a.loc = {1, 30};
    int id = k.addArray(a);
    k.params.push_back({true, id});
    return id;
  }
  int shared(const std::string &n, Type elem, std::vector<int64_t> dims) {
    Array a;
    a.name = n;
    a.space = Space::Shared;
    a.elem = elem;
    a.dims = std::move(dims);
    a.loc = {2, 20};
    return k.addArray(a);
  }
  int var(const std::string &n, Type t) {
    Var v;
    v.name = n;
    v.type = t;
    return k.addVar(v);
  }
  ExprPtr v(int id) const { return mkVar(id, k.vars[id].type); }

  StmtPtr mk(StmtKind kind, std::string text = "") {
    auto s = std::make_shared<Stmt>();
    s->kind = kind;
    s->loc = {line++, 5};
    s->text = std::move(text);
    return s;
  }
  StmtPtr assign(int var, ExprPtr e) {
    auto s = mk(StmtKind::Assign);
    s->var = var;
    s->value = std::move(e);
    return s;
  }
  StmtPtr load(int var, int array, ExprPtr idx, std::string text = "") {
    auto s = mk(StmtKind::Load, std::move(text));
    s->var = var;
    s->ptr = mkArrayRef(array);
    s->index = {std::move(idx)};
    return s;
  }
  StmtPtr store(int array, ExprPtr idx, ExprPtr val, std::string text = "") {
    auto s = mk(StmtKind::Store, std::move(text));
    s->ptr = mkArrayRef(array);
    s->index = {std::move(idx)};
    s->value = std::move(val);
    return s;
  }
  StmtPtr atomic(AtomicOp op, int array, ExprPtr idx, ExprPtr val) {
    auto s = mk(StmtKind::Atomic, "atomic");
    s->atomic = op;
    s->ptr = mkArrayRef(array);
    s->index = {std::move(idx)};
    s->value = std::move(val);
    return s;
  }
  StmtPtr ifs(ExprPtr c, Block then, Block els = {}) {
    auto s = mk(StmtKind::If);
    s->cond = std::move(c);
    s->body = std::move(then);
    s->elseBody = std::move(els);
    return s;
  }
  StmtPtr barrier(BarrierKind b = BarrierKind::Block) {
    auto s = mk(StmtKind::Barrier);
    s->barrier = b;
    return s;
  }
  StmtPtr requires_(ExprPtr c, std::string text) {
    auto s = mk(StmtKind::Assume, "__requires(" + text + ")");
    s->cond = std::move(c);
    s->precondition = true;
    return s;
  }
  StmtPtr assertS(ExprPtr c, std::string text) {
    auto s = mk(StmtKind::Assert, std::move(text));
    s->cond = std::move(c);
    return s;
  }
  StmtPtr unsupported(std::string what) {
    return mk(StmtKind::Unsupported, std::move(what));
  }
  // `label: { while (true) { if (!cond) break; body (in the continue block);
  // step } }`
  StmtPtr loop(ExprPtr cond, Block body, Block step) {
    auto s = mk(StmtKind::Loop);
    s->label = k.newLabel();
    s->contLabel = k.newLabel();
    s->cond = std::move(cond);
    auto cont = mk(StmtKind::Block);
    cont->label = s->contLabel;
    cont->body = std::move(body);
    s->body = {cont};
    s->step = std::move(step);
    return s;
  }
  // The kernel body inside the top-level Block with label 0.
  Kernel &body(Block b) {
    auto top = std::make_shared<Stmt>();
    top->kind = StmtKind::Block;
    top->label = 0;
    top->loc = k.loc;
    top->body = std::move(b);
    k.body = {top};
    return k;
  }
};

inline ExprPtr tid(int d = 0) { return mkBuiltin(Builtin::ThreadIdx, d); }
inline ExprPtr bid(int d = 0) { return mkBuiltin(Builtin::BlockIdx, d); }
inline ExprPtr bdim(int d = 0) { return mkBuiltin(Builtin::BlockDim, d); }
inline ExprPtr gdim(int d = 0) { return mkBuiltin(Builtin::GridDim, d); }
inline ExprPtr i32(int64_t v) { return mkConstInt(v, Type::i32()); }
inline ExprPtr u32(int64_t v) { return mkConstInt(v, Type::u32()); }
inline ExprPtr f32(double v) { return mkConstFloat(v, Type::f32()); }
inline ExprPtr bin(Op op, Type t, ExprPtr a, ExprPtr b) {
  return mkBinary(op, t, std::move(a), std::move(b));
}
inline ExprPtr cmp(Op op, ExprPtr a, ExprPtr b) {
  return mkBinary(op, Type::boolean(), std::move(a), std::move(b));
}
inline ExprPtr toI32(ExprPtr e) { return mkCast(Type::i32(), std::move(e)); }
// (int)(blockIdx.x * blockDim.x + threadIdx.x), computed in unsigned as C does.
inline ExprPtr globalIdx() {
  return toI32(bin(Op::Add, Type::u32(),
                   bin(Op::Mul, Type::u32(), bid(), bdim()), tid()));
}
// __len(a) >= (unsigned long long)n
inline ExprPtr lenAtLeast(int array, ExprPtr n) {
  return cmp(Op::Ge, mkLen(array), mkCast(Type::u64(), std::move(n)));
}

inline Options launch(int64_t block, int64_t grid,
                      std::set<std::string> checks = {}) {
  Options o;
  o.block = {u32(block), u32(1), u32(1)};
  if (grid > 0)
    o.grid = {u32(grid), u32(1), u32(1)};
  if (!checks.empty())
    o.checks = std::move(checks);
  o.timeoutMs = 10000;
  return o;
}

inline const Obligation *findOb(const KernelReport &r,
                                const std::string &name) {
  for (const Obligation &o : r.obligations)
    if (o.name == name)
      return &o;
  return nullptr;
}

// The named obligation, which must exist.
inline const Obligation &ob(const KernelReport &r, const std::string &name) {
  const Obligation *o = findOb(r, name);
  if (!o) {
    std::string names;
    for (const Obligation &x : r.obligations)
      names += x.name + " ";
    FAIL("no obligation ", name, " among: ", names);
  }
  return *o;
}

inline std::string summary(const KernelReport &r) {
  std::string s = std::string("verdict ") + statusName(r.verdict) + ";";
  for (const Obligation &o : r.obligations)
    s += " " + o.name + "=" + statusName(o.status) +
         (o.reason.empty() ? "" : " (" + o.reason + ")");
  return s;
}

inline bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

inline bool anyContains(const std::vector<std::string> &v,
                        const std::string &part) {
  return std::any_of(v.begin(), v.end(),
                     [&](const std::string &s) { return contains(s, part); });
}

// A refuted obligation's witness names distinct threads and sizes that
// replayed.
inline void checkWitness(const Obligation &o, size_t threads) {
  REQUIRE(o.status == Status::Refuted);
  CHECK_FALSE(o.reason.empty());
  REQUIRE(o.witness.is_object());
  CHECK(o.witness.value("replayed", false));
  REQUIRE(o.witness.contains("threads"));
  REQUIRE(o.witness["threads"].size() == threads);
  REQUIRE(o.witness.contains("blockDim"));
  REQUIRE(o.witness.contains("gridDim"));
  if (threads == 2)
    CHECK(o.witness["threads"][0] != o.witness["threads"][1]);
  CHECK(o.loc.valid());
  CHECK_FALSE(o.notes.empty());
}

} // namespace ksynth::check::test
