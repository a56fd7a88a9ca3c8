// The split of thread-local arrays into scalars: constant folding, and when an array is (not)
// split.
#include "verify/ir/scalarise.h"

#include <doctest/doctest.h>

using namespace ksynth::ir;

TEST_CASE("foldInt: C's integer arithmetic in the expression's type, or nothing") {
  ConstEnv env{{0, 3}};
  ExprPtr i = mkVar(0, Type::i32()), u = mkVar(1, Type::u32());
  auto c = [](int64_t v, Type t = Type::i32()) { return mkConstInt(v, t); };
  CHECK(foldInt(*mkBinary(Op::Add, Type::i32(), mkBinary(Op::Mul, Type::i32(), i, c(16)), c(5)), env) == 53);
  CHECK(foldInt(*mkBinary(Op::Div, Type::i32(), c(-7), c(2)), env) == -3); // toward zero
  CHECK(foldInt(*mkBinary(Op::Rem, Type::i32(), c(-7), c(2)), env) == -1);
  CHECK(!foldInt(*mkBinary(Op::Div, Type::i32(), c(1), c(0)), env));
  CHECK(!foldInt(*mkBinary(Op::Mul, Type::i32(), c(1 << 20), c(1 << 12)), env)); // signed overflow
  CHECK(foldInt(*mkBinary(Op::Sub, Type::u32(), c(0, Type::u32()), c(1, Type::u32())), env) == 4294967295LL);
  CHECK(!foldInt(*mkBinary(Op::Shl, Type::i32(), c(1), c(32)), env));
  CHECK(foldInt(*mkBinary(Op::Shr, Type::i32(), c(64), c(3)), env) == 8);
  CHECK(foldInt(*mkCast(Type::integer(8, false), c(300)), env) == 44);
  CHECK(!foldInt(*u, env)); // not known
  CHECK(foldInt(*mkSelect(Type::i32(), mkBinary(Op::Lt, Type::boolean(), i, c(4)), c(1), u), env) == 1);
  CHECK(!foldInt(*mkConstFloat(1.0, Type::f32()), env));
}

namespace {

// acc[2] declared at the top; a store at `storeIx`, a load at index 1 into x.
struct Tiny {
  Kernel k;
  StmtPtr mark, store, load;
  int acc = -1, x = -1;
  explicit Tiny(ExprPtr storeIx) {
    Array a;
    a.name = "acc";
    a.space = Space::Local;
    a.elem = Type::f32();
    a.dims = {2};
    acc = k.addArray(a);
    Var v;
    v.name = "x";
    v.type = Type::f32();
    x = k.addVar(v);
    auto top = std::make_shared<Stmt>();
    top->kind = StmtKind::Block;
    top->label = 0;
    mark = std::make_shared<Stmt>();
    mark->kind = StmtKind::Block;
    mark->label = k.newLabel();
    store = std::make_shared<Stmt>();
    store->kind = StmtKind::Store;
    store->ptr = mkArrayRef(acc);
    store->index = {storeIx};
    store->value = mkConstFloat(2.0, Type::f32());
    load = std::make_shared<Stmt>();
    load->kind = StmtKind::Load;
    load->var = x;
    load->ptr = mkArrayRef(acc);
    load->index = {mkConstInt(1, Type::i32())};
    top->body = {mark, store, load};
    k.body.push_back(top);
  }
  std::vector<int> run() { return scalariseLocalArrays(k, {{acc, mark}}); }
};

} // namespace

TEST_CASE("an array accessed at constant indices becomes one variable per element, unknown at its declaration") {
  Tiny t(mkConstInt(1, Type::i32()));
  CHECK(t.run() == std::vector<int>{t.acc});
  REQUIRE(t.mark->body.size() == 2);
  CHECK(t.mark->body[0]->kind == StmtKind::Havoc);
  CHECK(t.k.vars[t.mark->body[1]->var].name == "acc[1]");
  CHECK(t.store->kind == StmtKind::Assign);
  CHECK(t.store->var == t.mark->body[1]->var);
  CHECK(t.load->kind == StmtKind::Assign);
  CHECK(t.load->var == t.x);
  REQUIRE(t.load->value->op == Op::VarRef);
  CHECK(t.load->value->id == t.store->var);
}

TEST_CASE("an index that is not constant, or out of bounds, keeps the array (its checks see the access)") {
  for (ExprPtr ix : {mkConstInt(2, Type::i32()), mkConstInt(-1, Type::i32()), mkVar(0, Type::i32())}) {
    Tiny t(ix); // (variable 0 is never assigned: its value is not known)
    CHECK(t.run().empty());
    CHECK(t.store->kind == StmtKind::Store);
    CHECK(t.load->kind == StmtKind::Load);
    CHECK(t.mark->body.empty());
  }
}

TEST_CASE("a pointer to the array keeps it") {
  Tiny t(mkConstInt(0, Type::i32()));
  Var p;
  p.name = "p";
  p.type = Type::pointer();
  int pv = t.k.addVar(p);
  auto as = std::make_shared<Stmt>();
  as->kind = StmtKind::Assign;
  as->var = pv;
  as->value = mkPtrAdd(mkArrayRef(t.acc), mkConstInt(1, Type::i64()));
  t.k.body[0]->body.push_back(as);
  CHECK(t.run().empty());
  CHECK(t.store->kind == StmtKind::Store);
}

TEST_CASE("constants propagate through assignments, not past a loop that changes them") {
  // i = 1; acc[i] = 2 (split); then a loop assigning i: acc[i] inside it is unknown.
  Tiny t(mkVar(1, Type::i32()));
  Var i;
  i.name = "i";
  i.type = Type::i32();
  REQUIRE(t.k.addVar(i) == 1);
  auto set = std::make_shared<Stmt>();
  set->kind = StmtKind::Assign;
  set->var = 1;
  set->value = mkConstInt(1, Type::i32());
  auto &top = t.k.body[0]->body;
  top.insert(top.begin() + 1, set);
  std::vector<int> done = scalariseLocalArrays(t.k, {{t.acc, t.mark}});
  CHECK(done == std::vector<int>{t.acc});

  Tiny u(mkVar(1, Type::i32()));
  REQUIRE(u.k.addVar(i) == 1);
  auto set2 = std::make_shared<Stmt>(*set);
  auto loop = std::make_shared<Stmt>();
  loop->kind = StmtKind::Loop;
  loop->label = u.k.newLabel();
  loop->contLabel = u.k.newLabel();
  loop->cond = mkConstBool(true);
  auto bump = std::make_shared<Stmt>();
  bump->kind = StmtKind::Assign;
  bump->var = 1;
  bump->value = mkBinary(Op::Add, Type::i32(), mkVar(1, Type::i32()), mkConstInt(1, Type::i32()));
  // The store (acc[i]) moves into the loop, after i = 1 outside and i += 1 in the step.
  auto &utop = u.k.body[0]->body;
  utop.erase(utop.begin() + 1); // the store
  loop->body = {u.store};
  loop->step = {bump};
  utop.insert(utop.begin() + 1, set2);
  utop.insert(utop.begin() + 2, loop);
  CHECK(scalariseLocalArrays(u.k, {{u.acc, u.mark}}).empty());
  CHECK(u.store->kind == StmtKind::Store);
}
