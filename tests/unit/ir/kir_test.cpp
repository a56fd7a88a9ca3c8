// KIR: types and the text printer.
#include "verify/ir/kir.h"

#include <doctest/doctest.h>

using namespace ksynth::ir;

TEST_CASE("integer type ranges") {
  CHECK(Type::i32().minValue() == -2147483648LL);
  CHECK(Type::i32().maxValue() == 2147483647LL);
  CHECK(Type::u32().minValue() == 0);
  CHECK(Type::u32().maxValue() == 4294967295LL);
  CHECK(Type::u64().maxValue() == (static_cast<__int128>(1) << 64) - 1);
  CHECK(Type::f32().str() == "f32");
  CHECK(Type::u64().str() == "u64");
}

TEST_CASE("print(kernel) shows params, arrays, accesses, loops and barriers") {
  Kernel k;
  k.name = "scale";
  Var n;
  n.name = "n";
  n.type = Type::i32();
  n.paramIndex = 1;
  Array a;
  a.name = "a";
  a.elem = Type::f32();
  a.paramIndex = 0;
  int ai = k.addArray(a);
  k.params.push_back({true, ai});
  int ni = k.addVar(n);
  k.params.push_back({false, ni});
  Array s;
  s.name = "tile";
  s.space = Space::Shared;
  s.elem = Type::f32();
  s.dims = {16, 17};
  int si = k.addArray(s);

  auto st = std::make_shared<Stmt>();
  st->kind = StmtKind::Store;
  st->ptr = mkArrayRef(ai);
  st->index = {mkBinary(Op::Add, Type::u32(), mkBuiltin(Builtin::ThreadIdx, 0),
                        mkConstInt(1, Type::u32()))};
  st->value = mkConstFloat(2, Type::f32());
  st->loc = {12, 5};
  auto bar = std::make_shared<Stmt>();
  bar->kind = StmtKind::Barrier;
  auto loop = std::make_shared<Stmt>();
  loop->kind = StmtKind::Loop;
  loop->label = k.newLabel();
  loop->contLabel = k.newLabel();
  loop->cond = mkBinary(Op::Lt, Type::boolean(), mkVar(ni, Type::i32()), mkConstInt(3, Type::i32()));
  loop->body = {st, bar};
  auto top = std::make_shared<Stmt>();
  top->kind = StmtKind::Block;
  top->label = 0;
  top->body = {loop};
  k.body = {top};

  std::string text = print(k);
  CHECK(text.find("kernel scale(@a: f32*, %n: i32)") != std::string::npos);
  CHECK(text.find("shared @tile: f32[16][17]") != std::string::npos);
  CHECK(text.find("loop L1 cont L2 {") != std::string::npos);
  CHECK(text.find("while (< %n 3:i32)") != std::string::npos);
  CHECK(text.find("store @a[(+ threadIdx.x 1:u32)] = 2f  ; 12:5") != std::string::npos);
  CHECK(text.find("barrier\n") != std::string::npos);
  CHECK(text.find("block L0 {") != std::string::npos);
  CHECK(print(k, *mkCast(Type::i64(), mkLen(ai))) == "(cast i64 len(@a))");
  (void)si;
}

TEST_CASE("structural queries: containsBarrier and exitsLeaving") {
  auto ex = std::make_shared<Stmt>();
  ex->kind = StmtKind::Exit;
  ex->label = 3;
  auto inner = std::make_shared<Stmt>();
  inner->kind = StmtKind::Exit;
  inner->label = 5;
  auto blk = std::make_shared<Stmt>();
  blk->kind = StmtKind::Block;
  blk->label = 5;
  blk->body = {inner};
  Block b = {ex, blk};
  CHECK(exitsLeaving(b) == std::vector<int>{3});
  CHECK_FALSE(containsBarrier(b));
  auto bar = std::make_shared<Stmt>();
  bar->kind = StmtKind::Barrier;
  blk->body.push_back(bar);
  CHECK(containsBarrier(b));
}

TEST_CASE("launchOnly: integer expressions of constants, thread coordinates and the launch") {
  ExprPtr tx = mkBuiltin(Builtin::ThreadIdx, 0), bd = mkBuiltin(Builtin::BlockDim, 0);
  CHECK(tx->launchOnly == 1);
  CHECK(mkConstInt(32, Type::i64())->launchOnly == 1);
  ExprPtr lin = mkBinary(Op::Add, Type::i64(), mkCast(Type::i64(), tx),
                         mkBinary(Op::Mul, Type::i64(), mkCast(Type::i64(), bd), mkConstInt(2, Type::i64())));
  CHECK(lin->launchOnly == 7);
  CHECK(mkBinary(Op::Lt, Type::boolean(), lin, mkConstInt(5, Type::i64()))->launchOnly == 9);
  // A variable, a float, a call, a length, a pointer: not of the launch alone.
  CHECK(mkBinary(Op::Add, Type::i64(), lin, mkVar(0, Type::i64()))->launchOnly == 0);
  CHECK(mkConstFloat(1.5, Type::f32())->launchOnly == 0);
  CHECK(mkCast(Type::f32(), lin)->launchOnly == 0);
  CHECK(mkCall("abs", Type::i64(), {lin})->launchOnly == 0);
  CHECK(mkLen(0)->launchOnly == 0);
  CHECK(mkPtrAdd(mkArrayRef(0), lin)->launchOnly == 0);
  // Capped, not wrapped around.
  ExprPtr big = lin;
  for (int i = 0; i < 60; ++i)
    big = mkBinary(Op::Add, Type::i64(), big, lin);
  CHECK(big->launchOnly == 255);
}
