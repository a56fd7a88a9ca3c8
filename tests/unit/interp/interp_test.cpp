// Concrete interpreter: hand-built KIR kernels, asserting on the recorded traces.
#include "verify/interp/interp.h"

#include <doctest/doctest.h>

#include <cmath>
#include <set>

using namespace ksynth::ir;
using namespace ksynth::interp;

namespace {

// ---- a small kernel builder -----------------------------------------------------------

struct KB {
  Kernel k;
  KB() { k.name = "t"; }

  int param(const std::string &n, Type t) {
    Var v;
    v.name = n;
    v.type = t;
    v.paramIndex = static_cast<int>(k.params.size());
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
    int id = k.addArray(a);
    k.params.push_back({true, id});
    return id;
  }
  int shared(const std::string &n, Type elem, std::vector<int64_t> dims, bool dyn = false) {
    Array a;
    a.name = n;
    a.space = Space::Shared;
    a.elem = elem;
    a.dims = std::move(dims);
    a.dynamicShared = dyn;
    return k.addArray(a);
  }
  int var(const std::string &n, Type t) {
    Var v;
    v.name = n;
    v.type = t;
    return k.addVar(v);
  }
  // The kernel body inside the top-level Block with label 0.
  void body(Block b) {
    auto top = std::make_shared<Stmt>();
    top->kind = StmtKind::Block;
    top->label = 0;
    top->body = std::move(b);
    k.body = {top};
  }
};

StmtPtr mk(StmtKind kind) {
  auto s = std::make_shared<Stmt>();
  s->kind = kind;
  return s;
}
StmtPtr assign(int v, ExprPtr e) {
  auto s = mk(StmtKind::Assign);
  s->var = v;
  s->value = std::move(e);
  return s;
}
StmtPtr load(int v, ExprPtr p, std::vector<ExprPtr> idx) {
  auto s = mk(StmtKind::Load);
  s->var = v;
  s->ptr = std::move(p);
  s->index = std::move(idx);
  return s;
}
StmtPtr store(ExprPtr p, std::vector<ExprPtr> idx, ExprPtr val) {
  auto s = mk(StmtKind::Store);
  s->ptr = std::move(p);
  s->index = std::move(idx);
  s->value = std::move(val);
  return s;
}
StmtPtr atomic(AtomicOp op, int v, ExprPtr p, ExprPtr idx, ExprPtr val, ExprPtr cmp = nullptr) {
  auto s = mk(StmtKind::Atomic);
  s->atomic = op;
  s->var = v;
  s->ptr = std::move(p);
  s->index = {std::move(idx)};
  s->value = std::move(val);
  s->value2 = std::move(cmp);
  return s;
}
StmtPtr ifs(ExprPtr c, Block then, Block els = {}) {
  auto s = mk(StmtKind::If);
  s->cond = std::move(c);
  s->body = std::move(then);
  s->elseBody = std::move(els);
  return s;
}
StmtPtr blockStmt(int label, Block b) {
  auto s = mk(StmtKind::Block);
  s->label = label;
  s->body = std::move(b);
  return s;
}
StmtPtr exitTo(int label) {
  auto s = mk(StmtKind::Exit);
  s->label = label;
  return s;
}
StmtPtr barrier(BarrierKind b = BarrierKind::Block) {
  auto s = mk(StmtKind::Barrier);
  s->barrier = b;
  return s;
}
StmtPtr assume(ExprPtr c) {
  auto s = mk(StmtKind::Assume);
  s->cond = std::move(c);
  return s;
}
StmtPtr assertS(ExprPtr c) {
  auto s = mk(StmtKind::Assert);
  s->cond = std::move(c);
  return s;
}
// A loop statement; `body` goes into the continue Block (as the frontend builds it).
StmtPtr loopStmt(KB &kb, ExprPtr cond, Block body, Block step, int &brk, int &cont,
                 bool testFirst = true, Block pre = {}) {
  auto s = mk(StmtKind::Loop);
  s->label = kb.k.newLabel();
  s->contLabel = kb.k.newLabel();
  s->testFirst = testFirst;
  s->cond = std::move(cond);
  s->pre = std::move(pre);
  s->body = {blockStmt(s->contLabel, std::move(body))};
  s->step = std::move(step);
  brk = s->label;
  cont = s->contLabel;
  return s;
}

ExprPtr tidx() { return mkBuiltin(Builtin::ThreadIdx, 0); }
ExprPtr i32(int64_t v) { return mkConstInt(v, Type::i32()); }
ExprPtr u32(int64_t v) { return mkConstInt(v, Type::u32()); }
ExprPtr f32(double v) { return mkConstFloat(v, Type::f32()); }
ExprPtr var(const KB &kb, int v) { return mkVar(v, kb.k.vars[v].type); }
ExprPtr bin(Op op, Type t, ExprPtr a, ExprPtr b) { return mkBinary(op, t, a, b); }
ExprPtr cmp(Op op, ExprPtr a, ExprPtr b) { return mkBinary(op, Type::boolean(), a, b); }
ExprPtr arr(int a) { return mkArrayRef(a); }

ThreadId thread(int64_t x, int64_t bx = 0) {
  ThreadId t;
  t.thread.x = x;
  t.block.x = bx;
  return t;
}
Env launch(int64_t block, int64_t grid = 1) {
  Env e;
  e.block.x = block;
  e.grid.x = grid;
  return e;
}
Value ival(__int128 i) {
  Value v;
  v.i = i;
  return v;
}

std::vector<const Event *> eventsOf(const Trace &t, EventKind kind) {
  std::vector<const Event *> out;
  for (const Event &e : t.events)
    if (e.kind == kind)
      out.push_back(&e);
  return out;
}

} // namespace

// ---- bounds ---------------------------------------------------------------------------

TEST_CASE("store s[threadIdx.x + 1] on a 256-element shared array is out of bounds for 255 only") {
  KB kb;
  int s = kb.shared("s", Type::f32(), {256});
  kb.body({store(arr(s), {bin(Op::Add, Type::u32(), tidx(), u32(1))}, f32(1))});
  Env env = launch(256);
  int oobThreads = 0;
  for (int t = 0; t < 256; ++t) {
    Trace tr = runThread(kb.k, env, thread(t));
    CHECK(tr.completed);
    auto acc = eventsOf(tr, EventKind::Access);
    REQUIRE(acc.size() == 1);
    CHECK(acc[0]->flat == t + 1);
    CHECK(acc[0]->isWrite);
    CHECK_FALSE(acc[0]->isAtomic);
    CHECK(acc[0]->array == s);
    auto oob = eventsOf(tr, EventKind::OutOfBounds);
    if (!oob.empty()) {
      ++oobThreads;
      CHECK(t == 255);
      CHECK(oob[0]->flat == 256);
      CHECK(oob[0]->indices == std::vector<int64_t>{256});
    }
  }
  CHECK(oobThreads == 1);
}

TEST_CASE("2D shared float t[16][17]: t[i][j] flattens to i*17+j; j == 17 is out of bounds") {
  KB kb;
  int t = kb.shared("t", Type::f32(), {16, 17});
  int i = kb.param("i", Type::i32()), j = kb.param("j", Type::i32());
  int x = kb.var("x", Type::f32());
  kb.body({store(arr(t), {var(kb, i), var(kb, j)}, f32(2)), load(x, arr(t), {var(kb, i), var(kb, j)})});
  Env env = launch(32);
  env.params[i] = ival(2);
  env.params[j] = ival(3);
  Trace ok = runThread(kb.k, env, thread(0));
  auto acc = eventsOf(ok, EventKind::Access);
  REQUIRE(acc.size() == 2);
  CHECK(acc[0]->flat == 2 * 17 + 3);
  CHECK(acc[0]->indices == std::vector<int64_t>{2, 3});
  CHECK(eventsOf(ok, EventKind::OutOfBounds).empty());
  // The load sees this thread's own store: 2.0, untainted.
  CHECK(acc[1]->flat == 37);
  CHECK_FALSE(acc[1]->isWrite);

  env.params[j] = ival(17); // 2*17+17 = 51 is inside the 272 elements, but j is not
  Trace bad = runThread(kb.k, env, thread(0));
  auto oob = eventsOf(bad, EventKind::OutOfBounds);
  REQUIRE(oob.size() == 2);
  CHECK(oob[0]->flat == 51);
  CHECK(oob[0]->indices == std::vector<int64_t>{2, 17});
  CHECK(eventsOf(bad, EventKind::Access).size() == 2);
  CHECK(bad.completed);
}

TEST_CASE("an out-of-bounds load yields 0 tainted out-of-bounds; global bounds come from lens") {
  KB kb;
  int p = kb.ptrParam("p", Type::i32());
  int n = kb.param("n", Type::i32());
  int x = kb.var("x", Type::i32());
  kb.body({load(x, arr(p), {var(kb, n)}), store(arr(p), {i32(0)}, var(kb, x))});
  Env env = launch(1);
  env.params[n] = ival(10);
  env.memory[{p, 10}] = ival(99);

  // No length given: unchecked, the initial value is read and tainted with its origin.
  Trace free = runThread(kb.k, env, thread(0));
  CHECK(eventsOf(free, EventKind::OutOfBounds).empty());
  auto acc = eventsOf(free, EventKind::Access);
  REQUIRE(acc.size() == 2);
  CHECK(acc[1]->vars.at(x).i == 99);
  CHECK(acc[1]->vars.at(x).taint == "value loaded from p[10]");

  env.lens[p] = 10;
  Trace bounded = runThread(kb.k, env, thread(0));
  auto oob = eventsOf(bounded, EventKind::OutOfBounds);
  REQUIRE(oob.size() == 1);
  CHECK(oob[0]->flat == 10);
  CHECK_FALSE(oob[0]->isWrite);
  acc = eventsOf(bounded, EventKind::Access);
  REQUIRE(acc.size() == 2);
  CHECK(acc[1]->vars.at(x).i == 0);
  CHECK(acc[1]->vars.at(x).taint == "the value of an out-of-bounds read");
  CHECK(acc[1]->vars.at(n).i == 10); // params are in the snapshot

  env.lens[p] = 11;
  CHECK(eventsOf(runThread(kb.k, env, thread(0)), EventKind::OutOfBounds).empty());
}

TEST_CASE("a fault replay: no Access events recorded, the run stops at the fault sought") {
  KB kb;
  int p = kb.ptrParam("p", Type::i32());
  int n = kb.param("n", Type::i32());
  int x = kb.var("x", Type::i32());
  // p[n] (out of bounds), then p[0] = p[n], then p[n + 1] (out of bounds again).
  kb.body({load(x, arr(p), {var(kb, n)}), store(arr(p), {i32(0)}, var(kb, x)),
           load(x, arr(p), {bin(Op::Add, Type::i32(), var(kb, n), i32(1))})});
  Env env = launch(1);
  env.params[n] = ival(10);
  env.lens[p] = 10;
  Trace all = runThread(kb.k, env, thread(0));
  CHECK(eventsOf(all, EventKind::Access).size() == 3);
  CHECK(eventsOf(all, EventKind::OutOfBounds).size() == 2);
  CHECK(all.completed);

  env.recordAccesses = false;
  Trace faults = runThread(kb.k, env, thread(0));
  CHECK(eventsOf(faults, EventKind::Access).empty());
  auto oob = eventsOf(faults, EventKind::OutOfBounds);
  REQUIRE(oob.size() == 2);
  CHECK(oob[1]->flat == 11);
  CHECK(oob[1]->vars.at(n).i == 10); // a fault keeps its snapshot
  CHECK(faults.completed);

  env.stopAt = [](const Event &e) { return e.kind == EventKind::OutOfBounds; };
  Trace first = runThread(kb.k, env, thread(0));
  REQUIRE(first.events.size() == 1);
  CHECK(first.events[0].flat == 10);
  CHECK_FALSE(first.completed);
  CHECK(first.stopReason == "stopped at the event sought");
  CHECK(first.writes.empty()); // the store after the first fault never ran
}

TEST_CASE("recordOnly: only the chosen statements' accesses are recorded, the run is the same") {
  KB kb;
  int p = kb.ptrParam("p", Type::i32());
  int x = kb.var("x", Type::i32());
  StmtPtr first = load(x, arr(p), {i32(3)});
  StmtPtr second = store(arr(p), {i32(0)}, var(kb, x));
  StmtPtr third = load(x, arr(p), {i32(5)});
  kb.body({first, second, third});
  Env env = launch(1);
  env.memory[{p, 3}] = ival(7);
  std::set<const Stmt *> only{second.get()};
  env.recordOnly = &only;
  Trace tr = runThread(kb.k, env, thread(0));
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 1);
  CHECK(acc[0]->stmt == second.get());
  CHECK(acc[0]->isWrite);
  CHECK(acc[0]->vars.at(x).i == 7); // the load before it ran, unrecorded
  CHECK(tr.completed);
  REQUIRE(tr.writes.size() == 1);
  CHECK(tr.writes.begin()->second.i == 7);
}

TEST_CASE("dynamic shared arrays are bounded by lens when given") {
  KB kb;
  int s = kb.shared("dyn", Type::f32(), {}, true);
  kb.body({store(arr(s), {tidx()}, f32(0))});
  Env env = launch(64);
  CHECK(eventsOf(runThread(kb.k, env, thread(40)), EventKind::OutOfBounds).empty());
  env.lens[s] = 32;
  CHECK(eventsOf(runThread(kb.k, env, thread(31)), EventKind::OutOfBounds).empty());
  CHECK(eventsOf(runThread(kb.k, env, thread(32)), EventKind::OutOfBounds).size() == 1);
}

TEST_CASE("pointer arithmetic: ptradd offsets the access") {
  KB kb;
  int p = kb.ptrParam("p", Type::f32());
  int q = kb.var("q", Type::pointer());
  kb.body({assign(q, mkPtrAdd(arr(p), i32(5))),
           store(var(kb, q), {bin(Op::Sub, Type::i32(), i32(0), i32(6))}, f32(1))});
  Env env = launch(1);
  env.lens[p] = 100;
  Trace tr = runThread(kb.k, env, thread(0));
  auto oob = eventsOf(tr, EventKind::OutOfBounds);
  REQUIRE(oob.size() == 1);
  CHECK(oob[0]->flat == -1);
  CHECK(oob[0]->indices == std::vector<int64_t>{-6});
}

// ---- barriers and loops ---------------------------------------------------------------

TEST_CASE("barrier counts and iterations in a loop with a barrier") {
  KB kb;
  int s = kb.shared("s", Type::i32(), {64});
  int i = kb.var("i", Type::i32());
  int brk, cont;
  kb.body({barrier(BarrierKind::Warp), assign(i, i32(0)),
           loopStmt(kb, cmp(Op::Lt, var(kb, i), i32(3)),
                    {store(arr(s), {tidx()}, var(kb, i)), barrier()},
                    {assign(i, bin(Op::Add, Type::i32(), var(kb, i), i32(1)))}, brk, cont),
           store(arr(s), {tidx()}, i32(9))});
  Trace tr = runThread(kb.k, launch(64), thread(7));
  CHECK(tr.completed);
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 4);
  for (int it = 0; it < 3; ++it) {
    CHECK(acc[it]->blockBarriers == static_cast<uint64_t>(it));
    CHECK(acc[it]->warpBarriers == static_cast<uint64_t>(it + 1)); // + the __syncwarp
    CHECK(acc[it]->iterations == std::vector<std::pair<int, int64_t>>{{brk, it}});
    CHECK(acc[it]->vars.at(i).i == it);
    CHECK(acc[it]->flat == 7);
  }
  CHECK(acc[3]->blockBarriers == 3);
  CHECK(acc[3]->warpBarriers == 4);
  CHECK(acc[3]->iterations.empty());
  auto bars = eventsOf(tr, EventKind::Barrier);
  REQUIRE(bars.size() == 4);
  CHECK(bars[0]->barrier == BarrierKind::Warp);
  CHECK(bars[1]->barrier == BarrierKind::Block);
  CHECK(bars[3]->blockBarriers == 2); // counted before itself
  CHECK(bars[3]->iterations == std::vector<std::pair<int, int64_t>>{{brk, 2}});
}

TEST_CASE("nested loops record both iteration counters, outermost first") {
  KB kb;
  int s = kb.shared("s", Type::i32(), {64});
  int i = kb.var("i", Type::i32()), j = kb.var("j", Type::i32());
  int ob, oc, ib, ic;
  auto inc = [&](int v) { return assign(v, bin(Op::Add, Type::i32(), var(kb, v), i32(1))); };
  StmtPtr inner = loopStmt(kb, cmp(Op::Lt, var(kb, j), i32(2)),
                           {store(arr(s), {bin(Op::Add, Type::i32(), bin(Op::Mul, Type::i32(), var(kb, i), i32(2)), var(kb, j))}, i32(1))},
                           {inc(j)}, ib, ic);
  StmtPtr outer = loopStmt(kb, cmp(Op::Lt, var(kb, i), i32(2)), {assign(j, i32(0)), inner},
                           {inc(i)}, ob, oc);
  kb.body({assign(i, i32(0)), outer});
  Trace tr = runThread(kb.k, launch(1), thread(0));
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 4);
  CHECK(acc[3]->iterations == std::vector<std::pair<int, int64_t>>{{ob, 1}, {ib, 1}});
  CHECK(acc[2]->iterations == std::vector<std::pair<int, int64_t>>{{ob, 1}, {ib, 0}});
  CHECK(acc[3]->flat == 3);
}

TEST_CASE("exit from a loop body: break ends the loop, continue runs the step") {
  KB kb;
  int s = kb.shared("s", Type::i32(), {64});
  int i = kb.var("i", Type::i32());
  auto inc = assign(i, bin(Op::Add, Type::i32(), var(kb, i), i32(1)));
  SUBCASE("break") {
    int brk, cont;
    StmtPtr l = loopStmt(kb, mkConstBool(true), {}, {inc}, brk, cont);
    l->body[0]->body = {ifs(cmp(Op::Eq, var(kb, i), i32(2)), {exitTo(brk)}),
                        store(arr(s), {var(kb, i)}, i32(1))};
    kb.body({assign(i, i32(0)), l, store(arr(s), {i32(60)}, i32(2))});
    Trace tr = runThread(kb.k, launch(1), thread(0));
    CHECK(tr.completed);
    auto acc = eventsOf(tr, EventKind::Access);
    REQUIRE(acc.size() == 3);
    CHECK(acc[0]->flat == 0);
    CHECK(acc[1]->flat == 1);
    CHECK(acc[2]->flat == 60); // the code after the loop runs
    CHECK(acc[2]->iterations.empty());
  }
  SUBCASE("continue") {
    int brk, cont;
    StmtPtr l = loopStmt(kb, cmp(Op::Lt, var(kb, i), i32(4)), {}, {inc}, brk, cont);
    l->body[0]->body = {ifs(cmp(Op::Eq, var(kb, i), i32(1)), {exitTo(cont)}),
                        store(arr(s), {var(kb, i)}, i32(1))};
    kb.body({assign(i, i32(0)), l});
    Trace tr = runThread(kb.k, launch(1), thread(0));
    CHECK(tr.completed);
    auto acc = eventsOf(tr, EventKind::Access);
    REQUIRE(acc.size() == 3);
    CHECK(acc[0]->flat == 0);
    CHECK(acc[1]->flat == 2);
    CHECK(acc[2]->flat == 3);
    CHECK(acc[1]->iterations == std::vector<std::pair<int, int64_t>>{{brk, 2}});
  }
  SUBCASE("return from inside a loop ends the thread normally") {
    int brk, cont;
    StmtPtr l = loopStmt(kb, mkConstBool(true), {exitTo(0)}, {}, brk, cont);
    kb.body({l, store(arr(s), {i32(0)}, i32(1))});
    Trace tr = runThread(kb.k, launch(1), thread(0));
    CHECK(tr.completed);
    CHECK(tr.events.empty());
  }
}

TEST_CASE("do-while runs its body once when the condition is false") {
  KB kb;
  int s = kb.shared("s", Type::i32(), {4});
  int brk, cont;
  kb.body({loopStmt(kb, mkConstBool(false), {store(arr(s), {i32(0)}, i32(1))}, {}, brk, cont,
                    /*testFirst=*/false)});
  Trace tr = runThread(kb.k, launch(1), thread(0));
  CHECK(tr.completed);
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 1);
  CHECK(acc[0]->iterations == std::vector<std::pair<int, int64_t>>{{brk, 0}});

  // The same loop as a while-loop never runs its body.
  KB kw;
  int s2 = kw.shared("s", Type::i32(), {4});
  kw.body({loopStmt(kw, mkConstBool(false), {store(arr(s2), {i32(0)}, i32(1))}, {}, brk, cont)});
  CHECK(runThread(kw.k, launch(1), thread(0)).events.empty());
}

TEST_CASE("do-while order: body, step, pre, then the test") {
  KB kb;
  int s = kb.shared("s", Type::i32(), {16});
  int i = kb.var("i", Type::i32());
  int brk, cont;
  // do { s[i] = 1 } while ((i = i + 1) < 3)  -- the increment lives in `pre`
  kb.body({loopStmt(kb, cmp(Op::Lt, var(kb, i), i32(3)), {store(arr(s), {var(kb, i)}, i32(1))},
                    {}, brk, cont, false,
                    {assign(i, bin(Op::Add, Type::i32(), var(kb, i), i32(1)))})});
  Trace tr = runThread(kb.k, launch(1), thread(0));
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 3);
  CHECK(acc[2]->flat == 2);
}

TEST_CASE("step limit stops an infinite loop") {
  KB kb;
  int brk, cont;
  kb.body({loopStmt(kb, mkConstBool(true), {}, {}, brk, cont)});
  Env env = launch(1);
  env.maxSteps = 1000;
  Trace tr = runThread(kb.k, env, thread(0));
  CHECK_FALSE(tr.completed);
  CHECK(tr.stopReason == "step limit");
}

// ---- integers -------------------------------------------------------------------------

TEST_CASE("i32 a * b with 65536 * 65536 overflows with exact 2^32 and stops the thread (UB)") {
  KB kb;
  int a = kb.param("a", Type::i32()), b = kb.param("b", Type::i32());
  int c = kb.var("c", Type::i32());
  int s = kb.shared("s", Type::i32(), {4});
  kb.body({assign(c, bin(Op::Mul, Type::i32(), var(kb, a), var(kb, b))),
           store(arr(s), {i32(0)}, var(kb, c))});
  Env env = launch(1);
  env.params[a] = ival(65536);
  env.params[b] = ival(65536);
  Trace tr = runThread(kb.k, env, thread(0));
  CHECK_FALSE(tr.completed);
  CHECK(tr.stopReason == "signed integer overflow (undefined behaviour)");
  auto ov = eventsOf(tr, EventKind::Overflow);
  REQUIRE(ov.size() == 1);
  CHECK(ov[0]->exact == (static_cast<__int128>(1) << 32));
  CHECK(ov[0]->expr == kb.k.body[0]->body[0]->value.get());
  CHECK(ov[0]->vars.at(a).i == 65536);
  CHECK(ov[0]->taint.empty());
  CHECK(eventsOf(tr, EventKind::Access).empty()); // nothing after undefined behaviour

  env.params[b] = ival(32767);
  CHECK(eventsOf(runThread(kb.k, env, thread(0)), EventKind::Overflow).empty());
}

TEST_CASE("u32 threadIdx.x - 1 overflows for thread 0 only") {
  KB kb;
  int x = kb.var("x", Type::u32());
  int s = kb.shared("s", Type::i32(), {4});
  kb.body({assign(x, bin(Op::Sub, Type::u32(), tidx(), u32(1))), store(arr(s), {i32(0)}, i32(0))});
  Trace t0 = runThread(kb.k, launch(32), thread(0));
  auto ov = eventsOf(t0, EventKind::Overflow);
  REQUIRE(ov.size() == 1);
  CHECK(ov[0]->exact == -1);
  CHECK(eventsOf(t0, EventKind::Access)[0]->vars.at(x).i == 4294967295LL);
  CHECK(eventsOf(runThread(kb.k, launch(32), thread(1)), EventKind::Overflow).empty());
}

TEST_CASE("casts between integer types record value changes") {
  KB kb;
  int p = kb.param("p", Type::u32());
  int x = kb.var("x", Type::i32());
  int s = kb.shared("s", Type::i32(), {4});
  kb.body({assign(x, mkCast(Type::i32(), var(kb, p))), store(arr(s), {i32(0)}, var(kb, x))});
  Env env = launch(1);
  env.params[p] = ival(3000000000LL);
  Trace tr = runThread(kb.k, env, thread(0));
  auto ov = eventsOf(tr, EventKind::Overflow);
  REQUIRE(ov.size() == 1);
  CHECK(ov[0]->exact == 3000000000LL);
  CHECK(eventsOf(tr, EventKind::Access)[0]->vars.at(x).i == 3000000000LL - (1LL << 32));

  env.params[p] = ival(2147483647);
  CHECK(eventsOf(runThread(kb.k, env, thread(0)), EventKind::Overflow).empty());
}

TEST_CASE("integer division truncates toward zero; by zero stops the thread") {
  KB kb;
  int a = kb.param("a", Type::i32()), b = kb.param("b", Type::i32());
  int q = kb.var("q", Type::i32()), r = kb.var("r", Type::i32());
  int s = kb.shared("s", Type::i32(), {4});
  kb.body({assign(q, bin(Op::Div, Type::i32(), var(kb, a), var(kb, b))),
           assign(r, bin(Op::Rem, Type::i32(), var(kb, a), var(kb, b))),
           store(arr(s), {i32(0)}, var(kb, q))});
  Env env = launch(1);
  env.params[a] = ival(-7);
  env.params[b] = ival(2);
  Trace tr = runThread(kb.k, env, thread(0));
  CHECK(tr.completed);
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 1);
  CHECK(acc[0]->vars.at(q).i == -3);
  CHECK(acc[0]->vars.at(r).i == -1);

  env.params[b] = ival(0);
  Trace z = runThread(kb.k, env, thread(0));
  CHECK_FALSE(z.completed);
  CHECK(z.stopReason == "division by zero");
  REQUIRE(eventsOf(z, EventKind::DivByZero).size() == 1);
  CHECK(eventsOf(z, EventKind::Access).empty()); // stopped before the store

  env.params[a] = ival(INT32_MIN);
  env.params[b] = ival(-1);
  Trace m = runThread(kb.k, env, thread(0));
  auto ov = eventsOf(m, EventKind::Overflow);
  REQUIRE(ov.size() == 1); // the quotient; the thread stops there (undefined behaviour)
  CHECK(ov[0]->exact == static_cast<__int128>(1) << 31);
  CHECK_FALSE(m.completed);
  CHECK(eventsOf(m, EventKind::Access).empty());
}

TEST_CASE("shifts: exact left shift, arithmetic right shift, bad amounts") {
  KB kb;
  int a = kb.param("a", Type::i32()), k = kb.param("k", Type::i32());
  int l = kb.var("l", Type::i32()), r = kb.var("r", Type::i32()), ur = kb.var("ur", Type::u32());
  int s = kb.shared("s", Type::i32(), {4});
  kb.body({assign(l, bin(Op::Shl, Type::i32(), var(kb, a), var(kb, k))),
           assign(r, bin(Op::Shr, Type::i32(), var(kb, a), var(kb, k))),
           assign(ur, bin(Op::Shr, Type::u32(), mkCast(Type::u32(), var(kb, a)), var(kb, k))),
           store(arr(s), {i32(0)}, i32(0))});
  Env env = launch(1);
  env.params[a] = ival(-7);
  env.params[k] = ival(1);
  Trace tr = runThread(kb.k, env, thread(0));
  auto ov = eventsOf(tr, EventKind::Overflow);
  REQUIRE(ov.size() == 1); // the cast of -7 to u32
  CHECK(ov[0]->exact == -7);
  auto v = eventsOf(tr, EventKind::Access)[0]->vars;
  CHECK(v.at(l).i == -14);
  CHECK(v.at(r).i == -4); // floor(-7 / 2)
  CHECK(v.at(ur).i == (4294967296LL - 7) / 2);

  env.params[a] = ival(1 << 30);
  env.params[k] = ival(2);
  Trace shl = runThread(kb.k, env, thread(0));
  ov = eventsOf(shl, EventKind::Overflow);
  REQUIRE(ov.size() == 1);
  CHECK(ov[0]->exact == static_cast<__int128>(1) << 32);

  env.params[a] = ival(1);
  env.params[k] = ival(32);
  Trace big = runThread(kb.k, env, thread(0));
  ov = eventsOf(big, EventKind::Overflow);
  REQUIRE(ov.size() == 3); // <<, >> and the unsigned >> all by 32
  CHECK(ov[0]->exact == 32);
  CHECK(eventsOf(big, EventKind::Access)[0]->vars.at(l).i == 0);
}

TEST_CASE("u64 multiplication beyond 128 bits saturates exact, wraps the value") {
  KB kb;
  int a = kb.param("a", Type::u64());
  int c = kb.var("c", Type::u64());
  int s = kb.shared("s", Type::i32(), {4});
  kb.body({assign(c, bin(Op::Mul, Type::u64(), var(kb, a), var(kb, a))), store(arr(s), {i32(0)}, i32(0))});
  Env env = launch(1);
  env.params[a] = ival(Type::u64().maxValue());
  Trace tr = runThread(kb.k, env, thread(0));
  auto ov = eventsOf(tr, EventKind::Overflow);
  REQUIRE(ov.size() == 1);
  CHECK(ov[0]->exact > Type::u64().maxValue());
  CHECK(eventsOf(tr, EventKind::Access)[0]->vars.at(c).i == 1); // (2^64-1)^2 mod 2^64
}

// ---- floats and calls -----------------------------------------------------------------

TEST_CASE("float arithmetic rounds f32 results; math calls by name; float->int casts") {
  KB kb;
  int x = kb.param("x", Type::f32());
  int y = kb.var("y", Type::f32()), e = kb.var("e", Type::f32()), n = kb.var("n", Type::i32());
  int d = kb.var("d", Type::f64());
  int s = kb.shared("s", Type::i32(), {4});
  kb.body({assign(y, bin(Op::Div, Type::f32(), f32(1), var(kb, x))),
           assign(d, bin(Op::Div, Type::f64(), mkConstFloat(1, Type::f64()),
                         mkCast(Type::f64(), var(kb, x)))),
           assign(e, mkCall("__expf", Type::f32(), {var(kb, x)})),
           assign(n, mkCast(Type::i32(), bin(Op::Mul, Type::f32(), var(kb, x), f32(-2.5)))),
           store(arr(s), {i32(0)}, i32(0))});
  Env env = launch(1);
  Value xv;
  xv.kind = Value::Kind::Float;
  xv.f = 3;
  env.params[x] = xv;
  Trace tr = runThread(kb.k, env, thread(0));
  CHECK(tr.completed);
  auto v = eventsOf(tr, EventKind::Access)[0]->vars;
  CHECK(v.at(y).f == static_cast<double>(1.0f / 3.0f));
  CHECK(v.at(d).f == 1.0 / 3.0);
  CHECK(v.at(e).f == static_cast<double>(static_cast<float>(std::exp(3.0))));
  CHECK(v.at(n).i == -7); // trunc(-7.5)
  CHECK(eventsOf(tr, EventKind::Overflow).empty());

  xv.f = 1e10;
  env.params[x] = xv;
  Trace big = runThread(kb.k, env, thread(0));
  auto ov = eventsOf(big, EventKind::Overflow);
  REQUIRE(ov.size() == 1);
  CHECK(eventsOf(big, EventKind::Access)[0]->vars.at(n).i == INT32_MIN); // saturates
}

TEST_CASE("an unknown call or an Unsupported statement stops the thread") {
  KB kb;
  int y = kb.var("y", Type::f32());
  kb.body({assign(y, mkCall("mystery", Type::f32(), {f32(1)}))});
  Trace tr = runThread(kb.k, launch(1), thread(0));
  CHECK_FALSE(tr.completed);
  CHECK(tr.stopReason == "unsupported: call to mystery");

  KB ku;
  auto u = mk(StmtKind::Unsupported);
  u->text = "inline asm";
  ku.body({u});
  Trace tu = runThread(ku.k, launch(1), thread(0));
  CHECK_FALSE(tu.completed);
  CHECK(tu.stopReason == "unsupported: inline asm");
}

// ---- assert / assume ------------------------------------------------------------------

TEST_CASE("a false assert records AssertFail and goes on; a false assume stops") {
  KB kb;
  int s = kb.shared("s", Type::i32(), {64});
  kb.body({assertS(cmp(Op::Lt, tidx(), u32(4))), store(arr(s), {tidx()}, i32(0)),
           assume(cmp(Op::Lt, tidx(), u32(8))), store(arr(s), {i32(0)}, i32(0))});
  Trace ok = runThread(kb.k, launch(64), thread(2));
  CHECK(ok.completed);
  CHECK(eventsOf(ok, EventKind::AssertFail).empty());
  CHECK(eventsOf(ok, EventKind::Access).size() == 2);

  Trace af = runThread(kb.k, launch(64), thread(5));
  CHECK(af.completed);
  REQUIRE(eventsOf(af, EventKind::AssertFail).size() == 1);
  CHECK(eventsOf(af, EventKind::AssertFail)[0]->stmt == kb.k.body[0]->body[0].get());

  Trace as = runThread(kb.k, launch(64), thread(9));
  CHECK_FALSE(as.completed);
  CHECK(as.stopReason == "assumption violated");
  CHECK(eventsOf(as, EventKind::Access).size() == 1);
}

// ---- memory and taint -----------------------------------------------------------------

TEST_CASE("taint: a store under a condition on a loaded value is tainted") {
  KB kb;
  int a = kb.ptrParam("a", Type::i32()), b = kb.ptrParam("b", Type::i32());
  int v = kb.var("v", Type::i32());
  kb.body({load(v, arr(a), {tidx()}), ifs(cmp(Op::Gt, var(kb, v), i32(0)), {store(arr(b), {tidx()}, i32(1))})});
  Env env = launch(8);
  env.memory[{a, 3}] = ival(5);
  Trace tr = runThread(kb.k, env, thread(3));
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 2);
  CHECK(acc[0]->taint.empty()); // the load's address is tid
  CHECK(acc[1]->taint == "value loaded from a[3]");
  CHECK(acc[1]->array == b);
  // Thread 4 reads the default 0 and does not store.
  CHECK(eventsOf(runThread(kb.k, env, thread(4)), EventKind::Access).size() == 1);
}

TEST_CASE("taint: a thread reads back its own store untainted; others' cells are tainted") {
  KB kb;
  int s = kb.shared("s", Type::i32(), {64});
  int x = kb.var("x", Type::i32()), y = kb.var("y", Type::i32());
  kb.body({store(arr(s), {tidx()}, i32(7)), load(x, arr(s), {tidx()}),
           load(y, arr(s), {bin(Op::Add, Type::u32(), tidx(), u32(1))}),
           store(arr(s), {var(kb, x)}, var(kb, y))});
  Trace tr = runThread(kb.k, launch(32), thread(2));
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 4);
  CHECK(acc[3]->vars.at(x).i == 7);
  CHECK(acc[3]->vars.at(x).taint.empty());
  CHECK(acc[3]->vars.at(y).i == 0);
  CHECK(acc[3]->vars.at(y).taint == "value loaded from s[3]");
  CHECK(acc[3]->taint.empty()); // address x came from this thread's own store
  CHECK(acc[3]->flat == 7);
}

TEST_CASE("taint: an address computed from a loaded value taints the access") {
  KB kb;
  int idx = kb.ptrParam("idx", Type::i32()), out = kb.ptrParam("out", Type::f32());
  int j = kb.var("j", Type::i32());
  kb.body({load(j, arr(idx), {tidx()}), store(arr(out), {var(kb, j)}, f32(1))});
  Env env = launch(4);
  env.memory[{idx, 1}] = ival(42);
  env.memory[{idx, 1}].taint = "given";
  Trace tr = runThread(kb.k, env, thread(1));
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 2);
  CHECK(acc[1]->flat == 42);
  CHECK(acc[1]->taint == "given"); // an existing taint from Env::memory is kept
}

TEST_CASE("taint: paths not taken and exits under tainted conditions") {
  KB kb;
  int a = kb.ptrParam("a", Type::i32());
  int s = kb.shared("s", Type::i32(), {64});
  int v = kb.var("v", Type::i32()), x = kb.var("x", Type::i32());
  SUBCASE("a variable the untaken branch would have set") {
    kb.body({load(v, arr(a), {tidx()}), assign(x, i32(0)),
             ifs(cmp(Op::Gt, var(kb, v), i32(0)), {assign(x, i32(1))}),
             store(arr(s), {var(kb, x)}, i32(0))});
    Trace tr = runThread(kb.k, launch(4), thread(0)); // v == 0: branch not taken
    auto acc = eventsOf(tr, EventKind::Access);
    REQUIRE(acc.size() == 2);
    CHECK(acc[1]->flat == 0);
    CHECK(acc[1]->taint == "value loaded from a[0]");
  }
  SUBCASE("code after a tainted early return") {
    kb.body({load(v, arr(a), {tidx()}), ifs(cmp(Op::Gt, var(kb, v), i32(0)), {exitTo(0)}),
             store(arr(s), {tidx()}, i32(0))});
    Trace tr = runThread(kb.k, launch(4), thread(0));
    auto acc = eventsOf(tr, EventKind::Access);
    REQUIRE(acc.size() == 2);
    CHECK(acc[1]->taint == "value loaded from a[0]");
  }
  SUBCASE("a barrier under a tainted condition taints later barrier intervals") {
    kb.body({load(v, arr(a), {tidx()}), ifs(cmp(Op::Gt, var(kb, v), i32(0)), {barrier()}),
             store(arr(s), {tidx()}, i32(0))});
    Trace tr = runThread(kb.k, launch(4), thread(0));
    auto acc = eventsOf(tr, EventKind::Access);
    REQUIRE(acc.size() == 2);
    CHECK(acc[1]->blockBarriers == 0);
    CHECK(acc[1]->taint == "value loaded from a[0]");
    Env env = launch(4);
    env.memory[{a, 1}] = ival(5); // thread 1 takes the branch and runs the barrier
    Trace t1 = runThread(kb.k, env, thread(1));
    auto bars = eventsOf(t1, EventKind::Barrier);
    REQUIRE(bars.size() == 1);
    CHECK(bars[0]->taint == "value loaded from a[1]");
    acc = eventsOf(t1, EventKind::Access);
    REQUIRE(acc.size() == 2);
    CHECK(acc[1]->blockBarriers == 1);
    CHECK(acc[1]->taint == "value loaded from a[1]");
  }
  SUBCASE("an untainted condition taints nothing") {
    kb.body({load(v, arr(a), {tidx()}), ifs(cmp(Op::Gt, tidx(), u32(0)), {assign(x, i32(1))}),
             store(arr(s), {var(kb, x)}, i32(0))});
    Trace tr = runThread(kb.k, launch(4), thread(0));
    CHECK(eventsOf(tr, EventKind::Access)[1]->taint.empty());
  }
}

TEST_CASE("atomics: read-modify-write on the private copy, old value tainted as a load") {
  KB kb;
  int c = kb.ptrParam("c", Type::i32());
  int o1 = kb.var("o1", Type::i32()), o2 = kb.var("o2", Type::i32()), o3 = kb.var("o3", Type::i32());
  int o4 = kb.var("o4", Type::i32());
  kb.body({atomic(AtomicOp::Add, o1, arr(c), i32(0), i32(5)),
           atomic(AtomicOp::Add, o2, arr(c), i32(0), i32(1)),
           // atomicCAS(&c[0], compare = 16, val = 100): matches
           atomic(AtomicOp::CAS, o3, arr(c), i32(0), i32(100), i32(16)),
           atomic(AtomicOp::Exch, o4, arr(c), i32(0), i32(0))});
  Env env = launch(1);
  env.memory[{c, 0}] = ival(10);
  Trace tr = runThread(kb.k, env, thread(0));
  auto acc = eventsOf(tr, EventKind::Access);
  REQUIRE(acc.size() == 4);
  CHECK(acc[0]->isAtomic);
  CHECK(acc[0]->isWrite);
  auto v = acc[3]->vars;
  CHECK(v.at(o1).i == 10);
  CHECK(v.at(o1).taint == "value loaded from c[0]");
  CHECK(v.at(o2).i == 15);
  CHECK(v.at(o2).taint == "value loaded from c[0]"); // derived from the initial value
  CHECK(v.at(o3).i == 16);
  CHECK(v.size() == 3); // o4 is assigned by this very access, after the snapshot
  // atomicInc wraps to 0 when old >= val; a later load sees it.
  KB kr;
  int c2 = kr.ptrParam("c", Type::i32());
  int r = kr.var("r", Type::i32()), w = kr.var("w", Type::i32());
  kr.body({atomic(AtomicOp::Inc, r, arr(c2), i32(0), i32(3)), load(w, arr(c2), {i32(0)}),
           atomic(AtomicOp::Add, -1, arr(c2), i32(0), i32(0))});
  env.memory[{c2, 0}] = ival(3); // atomicInc: old >= 3 -> 0
  Trace inc = runThread(kr.k, env, thread(0));
  auto a2 = eventsOf(inc, EventKind::Access);
  REQUIRE(a2.size() == 3);
  CHECK(a2[2]->vars.at(r).i == 3);
  CHECK(a2[2]->vars.at(w).i == 0);
}

// ---- evalConstExpr --------------------------------------------------------------------

TEST_CASE("evalConstExpr: params, lens, launch dims; not thread ids or locals") {
  KB kb;
  int n = kb.param("N", Type::i32());
  int p = kb.ptrParam("p", Type::f32());
  int loc = kb.var("tmp", Type::i32());
  Env env = launch(256, 7);
  env.params[n] = ival(1000);
  env.lens[p] = 77;
  Value out;
  auto grid = bin(Op::Div, Type::i32(), bin(Op::Add, Type::i32(), var(kb, n), i32(255)), i32(256));
  REQUIRE(evalConstExpr(kb.k, env, *grid, out));
  CHECK(out.i == 4);
  REQUIRE(evalConstExpr(kb.k, env, *mkLen(p), out));
  CHECK(out.i == 77);
  REQUIRE(evalConstExpr(kb.k, env, *mkBuiltin(Builtin::GridDim, 0), out));
  CHECK(out.i == 7);
  REQUIRE(evalConstExpr(kb.k, env, *mkBuiltin(Builtin::BlockDim, 0), out));
  CHECK(out.i == 256);
  CHECK_FALSE(evalConstExpr(kb.k, env, *tidx(), out));
  CHECK_FALSE(evalConstExpr(kb.k, env, *mkBuiltin(Builtin::BlockIdx, 1), out));
  CHECK_FALSE(evalConstExpr(kb.k, env, *var(kb, loc), out));
  env.lens.clear();
  CHECK_FALSE(evalConstExpr(kb.k, env, *mkLen(p), out));
  CHECK_FALSE(evalConstExpr(kb.k, env, *bin(Op::Div, Type::i32(), var(kb, n), i32(0)), out));
}

TEST_CASE("short-circuit && and ?: do not evaluate the other operand") {
  KB kb;
  int a = kb.param("a", Type::i32());
  int b = kb.var("b", Type::boolean()), c = kb.var("c", Type::i32());
  int s = kb.shared("s", Type::i32(), {4});
  auto big = bin(Op::Mul, Type::i32(), var(kb, a), var(kb, a));
  kb.body({assign(b, bin(Op::LAnd, Type::boolean(), cmp(Op::Lt, var(kb, a), i32(0)),
                         cmp(Op::Gt, big, i32(0)))),
           assign(c, mkSelect(Type::i32(), cmp(Op::Lt, var(kb, a), i32(0)), big, i32(3))),
           store(arr(s), {i32(0)}, var(kb, c))});
  Env env = launch(1);
  env.params[a] = ival(100000);
  Trace tr = runThread(kb.k, env, thread(0));
  CHECK(eventsOf(tr, EventKind::Overflow).empty());
  CHECK(eventsOf(tr, EventKind::Access)[0]->vars.at(c).i == 3);
  env.params[a] = ival(-100000);
  // Now the operand is evaluated: it overflows (the first of two would-be overflows; the
  // thread stops at the first, undefined behaviour).
  Trace neg = runThread(kb.k, env, thread(0));
  CHECK(eventsOf(neg, EventKind::Overflow).size() == 1);
  CHECK_FALSE(neg.completed);
}

TEST_CASE("havoc: some value, replayed as zero and tainted with where it comes from") {
  KB kb;
  int p = kb.ptrParam("p", Type::i32());
  int x = kb.var("x", Type::i32());
  auto h = std::make_shared<Stmt>();
  h->kind = StmtKind::Havoc;
  h->var = x;
  h->text = "the value of uninitialised 'x'";
  kb.body({h, store(arr(p), {var(kb, x)}, i32(1))});
  Trace t = runThread(kb.k, launch(1), thread(0));
  auto acc = eventsOf(t, EventKind::Access);
  REQUIRE(acc.size() == 1);
  CHECK(acc[0]->flat == 0);
  CHECK(isInvented(acc[0]->vars.at(x).taint));
  CHECK(inventedWhat(acc[0]->vars.at(x).taint) == "the value of uninitialised 'x'");
  CHECK(acc[0]->taint == acc[0]->vars.at(x).taint); // the address depends on it
  CHECK(t.inventedControl == acc[0]->taint);        // and a made-up address is recorded
}

TEST_CASE("havoc: a made-up origin wins over a memory one when taints join") {
  KB kb;
  int p = kb.ptrParam("p", Type::i32());
  int q = kb.ptrParam("q", Type::i32());
  int x = kb.var("x", Type::i32());
  int y = kb.var("y", Type::i32());
  auto h = std::make_shared<Stmt>();
  h->kind = StmtKind::Havoc;
  h->var = x;
  h->text = "the result of 'f()'";
  // y = p[0] (tainted by memory), then q[0] = y + x: the stored value depends on both.
  kb.body({load(y, arr(p), {i32(0)}), h, store(arr(q), {i32(0)}, ksynth::ir::mkBinary(Op::Add, Type::i32(), var(kb, y), var(kb, x)))});
  Trace t = runThread(kb.k, launch(1), thread(0));
  REQUIRE(t.writes.count({q, 0}) == 1);
  const Value &v = t.writes.at({q, 0});
  CHECK(isInvented(v.taint));
  CHECK(inventedWhat(v.taint) == "the result of 'f()'");
  CHECK(t.inventedControl.empty()); // no branch or address depended on it
}
