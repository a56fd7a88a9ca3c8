// The checker on races and barriers: hand-built kernels (kernel_builder.h),
// each with its safe twin, asserting on verdicts, obligation names and the
// replayed witnesses.
#include "kernel_builder.h"

using namespace ksynth::check;
using namespace ksynth::check::test;

namespace {

// __global__ void map(float *a, int n) {
//   __requires(n >= 0 && n <= 1 << 20); __requires(__len(a) >= n);
//   int i = blockIdx.x * blockDim.x + threadIdx.x;
//   if (i < n) a[i] = 2.0f * a[i];
// }
Kernel mapKernel() {
  KB kb("map");
  int a = kb.ptrParam("a", Type::f32());
  int n = kb.param("n", Type::i32());
  int i = kb.var("i", Type::i32()), x = kb.var("x", Type::f32());
  return kb.body(
      {kb.requires_(cmp(Op::LAnd, cmp(Op::Ge, kb.v(n), i32(0)),
                        cmp(Op::Le, kb.v(n), i32(1 << 20))),
                    "n >= 0 && n <= 1 << 20"),
       kb.requires_(lenAtLeast(a, kb.v(n)), "__len(a) >= n"),
       kb.assign(i, globalIdx()),
       kb.ifs(cmp(Op::Lt, kb.v(i), kb.v(n)),
              {kb.load(x, a, kb.v(i), "a[i]"),
               kb.store(a, kb.v(i), bin(Op::Mul, Type::f32(), f32(2), kb.v(x)),
                        "a[i]")})});
}

// s[t] = in[t]; [__syncthreads();] out[t] = s[63 - t]   (block of 64)
Kernel reverseKernel(bool barrier) {
  KB kb("reverse");
  int in = kb.ptrParam("in", Type::f32()),
      out = kb.ptrParam("out", Type::f32());
  int s = kb.shared("s", Type::f32(), {64});
  int t = kb.var("t", Type::i32()), x = kb.var("x", Type::f32()),
      y = kb.var("y", Type::f32());
  Block b{kb.requires_(
              cmp(Op::LAnd, lenAtLeast(in, i32(64)), lenAtLeast(out, i32(64))),
              "__len(in) >= 64 ..."),
          kb.assign(t, toI32(tid())), kb.load(x, in, kb.v(t), "in[t]"),
          kb.store(s, kb.v(t), kb.v(x), "s[t]")};
  if (barrier)
    b.push_back(kb.barrier());
  b.push_back(
      kb.load(y, s, bin(Op::Sub, Type::i32(), i32(63), kb.v(t)), "s[63 - t]"));
  b.push_back(kb.store(out, kb.v(t), kb.v(y), "out[t]"));
  return kb.body(b);
}

} // namespace

TEST_CASE(
    "a guarded map kernel is proven, with one obligation per array and check") {
  Kernel k = mapKernel();
  KernelReport r = verifyKernel(k, launch(64, 4));
  INFO(summary(r));
  CHECK(r.name == "map");
  CHECK(r.verdict == Status::Proven);
  CHECK(r.launch == "block=(64, 1, 1) grid=(4, 1, 1)");
  for (const char *name :
       {"race.a", "barrier", "bounds.a", "overflow", "assert"}) {
    const Obligation &o = ob(r, name);
    CHECK(o.status == Status::Proven);
    CHECK(o.witness.is_null());
  }
  CHECK(ob(r, "race.a").kind == Kind::Race);
  CHECK(ob(r, "bounds.a").kind == Kind::Bounds);
  CHECK(r.obligations.size() == 5);
  // Preconditions are reported with the verdict.
  CHECK(anyContains(r.assumptions, "precondition __requires(__len(a) >= n)"));
}

TEST_CASE("the map kernel is proven for a grid computed from n, and for a "
          "symbolic grid.x") {
  Kernel k = mapKernel();
  int n = k.findParamVar("n");
  Options o = launch(64, 0);
  SUBCASE("grid = (n + 63) / 64") {
    o.grid = {bin(Op::Div, Type::i32(),
                  bin(Op::Add, Type::i32(), mkVar(n, Type::i32()), i32(63)),
                  i32(64)),
              i32(1), i32(1)};
  }
  SUBCASE("grid.x symbolic, y and z pinned") {
    o.grid = {nullptr, u32(1), u32(1)};
  }
  KernelReport r = verifyKernel(k, o);
  INFO(summary(r));
  CHECK(r.verdict == Status::Proven);
  CHECK(contains(r.launch, "block=(64, 1, 1)"));
}

TEST_CASE("with gridDim.y left symbolic the map kernel races between blocks "
          "(0,0) and (0,1)") {
  Kernel k = mapKernel();
  Options o = launch(64, 0);
  o.grid = {u32(2), nullptr, u32(1)};
  KernelReport r = verifyKernel(k, o);
  INFO(summary(r));
  CHECK(r.verdict == Status::Refuted);
  const Obligation &race = ob(r, "race.a");
  checkWitness(race, 2);
  auto th = race.witness["threads"];
  CHECK(th[0]["thread"] == th[1]["thread"]);
  CHECK(th[0]["block"][0] == th[1]["block"][0]);
  CHECK(th[0]["block"][1] != th[1]["block"][1]);
  CHECK(race.witness["gridDim"][1].get<int64_t>() >= 2);
}

TEST_CASE("a shared-memory race: the witness is two distinct threads of one "
          "block at one address") {
  // s[t] = 1; if (t < 63) x = s[t + 1];  (block 64, no barrier)
  KB kb;
  int s = kb.shared("s", Type::i32(), {64});
  int t = kb.var("t", Type::i32()), x = kb.var("x", Type::i32());
  kb.body({kb.assign(t, toI32(tid())), kb.store(s, kb.v(t), i32(1), "s[t]"),
           kb.ifs(cmp(Op::Lt, kb.v(t), i32(63)),
                  {kb.load(x, s, bin(Op::Add, Type::i32(), kb.v(t), i32(1)),
                           "s[t + 1]")})});
  KernelReport r = verifyKernel(kb.k, launch(64, 1));
  INFO(summary(r));
  CHECK(r.verdict == Status::Refuted);
  const Obligation &race = ob(r, "race.s");
  CHECK(race.kind == Kind::Race);
  checkWitness(race, 2);
  CHECK(contains(race.reason, "data race on shared array 's'"));
  auto th = race.witness["threads"];
  CHECK(th[0]["block"] == th[1]["block"]);
  int64_t t1 = th[0]["thread"][0], t2 = th[1]["thread"][0];
  int64_t addr = race.witness["address"];
  // One writes s[t1], the other reads s[t2 + 1] (or the other way round).
  CHECK((addr == t1 || addr == t1 + 1));
  CHECK((addr == t2 || addr == t2 + 1));
  CHECK(t1 != t2);
  CHECK(std::abs(t1 - t2) == 1);
  REQUIRE(race.witness["accesses"].size() == 2);
  CHECK(race.witness["accesses"][0]["write"] !=
        race.witness["accesses"][1]["write"]);
  REQUIRE(race.notes.size() == 3);
  CHECK(contains(race.notes[2].text, "no barrier separates them"));
  // The other checks still hold.
  CHECK(ob(r, "bounds.s").status == Status::Proven);
  CHECK(ob(r, "barrier").status == Status::Proven);
}

TEST_CASE("a missing barrier between writing and reading shared memory is "
          "refuted; with it, proven") {
  SUBCASE("missing") {
    KernelReport r = verifyKernel(reverseKernel(false), launch(64, 1));
    INFO(summary(r));
    CHECK(r.verdict == Status::Refuted);
    const Obligation &race = ob(r, "race.s");
    checkWitness(race, 2);
    int64_t t1 = race.witness["threads"][0]["thread"][0],
            t2 = race.witness["threads"][1]["thread"][0];
    CHECK(t1 + t2 == 63); // s[t] and s[63 - t] meet for partner threads
    CHECK(ob(r, "race.in").status == Status::Proven);
    CHECK(ob(r, "race.out").status == Status::Proven);
  }
  SUBCASE("present") {
    KernelReport r = verifyKernel(reverseKernel(true), launch(64, 1));
    INFO(summary(r));
    CHECK(r.verdict == Status::Proven);
    CHECK(ob(r, "race.s").status == Status::Proven);
    CHECK(ob(r, "bounds.s").status == Status::Proven);
  }
}

TEST_CASE("global memory races across blocks; shared memory does not") {
  // a[threadIdx.x] = 1 (or s[threadIdx.x] = 1)
  auto kernel = [](bool shared) {
    KB kb;
    int arr = shared ? kb.shared("s", Type::i32(), {32})
                     : kb.ptrParam("a", Type::i32());
    return kb.body({kb.store(arr, tid(), i32(1),
                             shared ? "s[threadIdx.x]" : "a[threadIdx.x]")});
  };
  SUBCASE("global, two blocks: refuted, threads in different blocks") {
    KernelReport r = verifyKernel(kernel(false), launch(32, 2, {"race"}));
    INFO(summary(r));
    CHECK(r.verdict == Status::Refuted);
    const Obligation &race = ob(r, "race.a");
    checkWitness(race, 2);
    CHECK(contains(race.reason, "global array 'a'"));
    auto th = race.witness["threads"];
    CHECK(th[0]["thread"] == th[1]["thread"]);
    CHECK(th[0]["block"] != th[1]["block"]);
    CHECK(contains(race.notes.back().text, "different blocks"));
  }
  SUBCASE("global, one block: proven") {
    KernelReport r = verifyKernel(kernel(false), launch(32, 1, {"race"}));
    INFO(summary(r));
    CHECK(r.verdict == Status::Proven);
  }
  SUBCASE("shared, two blocks: proven (each block has its own)") {
    KernelReport r = verifyKernel(kernel(true), launch(32, 2, {"race"}));
    INFO(summary(r));
    CHECK(r.verdict == Status::Proven);
    CHECK(ob(r, "race.s").status == Status::Proven);
  }
}

TEST_CASE("a block barrier does not order blocks; a grid barrier does") {
  // v = a[i + 1]; <barrier>; a[i] = v;  block 32, grid 4, __len(a) >= 129
  auto kernel = [](BarrierKind bk) {
    KB kb("shift");
    int a = kb.ptrParam("a", Type::i32());
    int i = kb.var("i", Type::i32()), v = kb.var("v", Type::i32());
    return kb.body(
        {kb.requires_(lenAtLeast(a, i32(129)), "__len(a) >= 129"),
         kb.assign(i, globalIdx()),
         kb.load(v, a, bin(Op::Add, Type::i32(), kb.v(i), i32(1)), "a[i + 1]"),
         kb.barrier(bk), kb.store(a, kb.v(i), kb.v(v), "a[i]")});
  };
  KernelReport grid = verifyKernel(kernel(BarrierKind::Grid), launch(32, 4));
  INFO(summary(grid));
  CHECK(grid.verdict == Status::Proven);

  KernelReport block =
      verifyKernel(kernel(BarrierKind::Block), launch(32, 4, {"race"}));
  INFO(summary(block));
  CHECK(block.verdict == Status::Refuted);
  const Obligation &race = ob(block, "race.a");
  checkWitness(race, 2);
  auto th = race.witness["threads"];
  CHECK(th[0]["block"] != th[1]["block"]);
  int64_t addr = race.witness["address"];
  CHECK(addr % 32 == 0); // the first element of a block, read by the previous
                         // block's last thread
}

TEST_CASE("atomics do not race with atomics, but do with plain accesses") {
  // atomicAdd(&a[0], 1); [x = a[0];]
  auto kernel = [](bool read) {
    KB kb;
    int a = kb.ptrParam("a", Type::i32());
    int x = kb.var("x", Type::i32());
    Block b{kb.atomic(AtomicOp::Add, a, i32(0), i32(1))};
    if (read)
      b.push_back(kb.load(x, a, i32(0), "a[0]"));
    return kb.body(b);
  };
  KernelReport only = verifyKernel(kernel(false), launch(32, 1, {"race"}));
  INFO(summary(only));
  CHECK(only.verdict == Status::Proven);
  KernelReport mixed = verifyKernel(kernel(true), launch(32, 1, {"race"}));
  INFO(summary(mixed));
  CHECK(mixed.verdict == Status::Refuted);
  checkWitness(ob(mixed, "race.a"), 2);
  CHECK(ob(mixed, "race.a").witness["address"] == 0);
}

TEST_CASE("a race that depends on a loaded index is unknown, not refuted, with "
          "a reason") {
  // j = idx[t]; a[j] = 1.0f;
  KB kb("scatter");
  int idx = kb.ptrParam("idx", Type::i32()), a = kb.ptrParam("a", Type::f32());
  int t = kb.var("t", Type::i32()), j = kb.var("j", Type::i32());
  kb.body({kb.assign(t, toI32(tid())), kb.load(j, idx, kb.v(t), "idx[t]"),
           kb.store(a, kb.v(j), f32(1), "a[j]")});
  KernelReport r = verifyKernel(kb.k, launch(32, 1, {"race"}));
  INFO(summary(r));
  CHECK(r.verdict == Status::Unknown);
  const Obligation &race = ob(r, "race.a");
  CHECK(race.status == Status::Unknown);
  CHECK_FALSE(race.reason.empty());
  CHECK(contains(race.reason, "idx"));
  CHECK(ob(r, "race.idx").status == Status::Proven); // only read
}

TEST_CASE("barrier divergence: a barrier under a thread-dependent condition is "
          "refuted; a uniform one proven") {
  // if (<cond>) __syncthreads();  s[t] = 1;
  auto kernel = [](bool perThread) {
    KB kb;
    int n = kb.param("n", Type::i32());
    int s = kb.shared("s", Type::i32(), {32});
    ExprPtr c =
        perThread ? cmp(Op::Lt, tid(), u32(16)) : cmp(Op::Gt, kb.v(n), i32(3));
    return kb.body({kb.ifs(c, {kb.barrier()}),
                    kb.store(s, tid(), i32(1), "s[threadIdx.x]")});
  };
  KernelReport bad = verifyKernel(kernel(true), launch(32, 1));
  INFO(summary(bad));
  CHECK(bad.verdict == Status::Refuted);
  const Obligation &b = ob(bad, "barrier");
  CHECK(b.kind == Kind::Barrier);
  checkWitness(b, 2);
  CHECK(contains(b.reason, "barrier divergence"));
  int64_t t1 = b.witness["threads"][0]["thread"][0],
          t2 = b.witness["threads"][1]["thread"][0];
  CHECK(((t1 < 16) != (t2 < 16)));
  CHECK(b.witness["threads"][0]["block"] == b.witness["threads"][1]["block"]);

  KernelReport ok = verifyKernel(kernel(false), launch(32, 1));
  INFO(summary(ok));
  CHECK(ok.verdict == Status::Proven);
  CHECK(ob(ok, "barrier").status == Status::Proven);
}

TEST_CASE("a grid-stride loop is proven") {
  // for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x
  // * gridDim.x)
  //   a[i] = 2.0f * a[i];      with __requires(n <= 1 << 30),
  //   __requires(__len(a) >= n)
  KB kb("scale");
  int a = kb.ptrParam("a", Type::f32());
  int n = kb.param("n", Type::i32());
  int i = kb.var("i", Type::i32()), x = kb.var("x", Type::f32());
  ExprPtr step = toI32(bin(Op::Add, Type::u32(), mkCast(Type::u32(), kb.v(i)),
                           bin(Op::Mul, Type::u32(), bdim(), gdim())));
  kb.body(
      {kb.requires_(cmp(Op::Le, kb.v(n), i32(1 << 30)), "n <= 1 << 30"),
       kb.requires_(lenAtLeast(a, kb.v(n)), "__len(a) >= n"),
       kb.assign(i, globalIdx()),
       kb.loop(cmp(Op::Lt, kb.v(i), kb.v(n)),
               {kb.load(x, a, kb.v(i), "a[i]"),
                kb.store(a, kb.v(i), bin(Op::Mul, Type::f32(), f32(2), kb.v(x)),
                         "a[i]")},
               {kb.assign(i, step)})});
  SUBCASE("fixed grid: proven") {
    KernelReport r = verifyKernel(kb.k, launch(64, 8));
    INFO(summary(r));
    CHECK(r.verdict == Status::Proven);
    CHECK(ob(r, "race.a").status == Status::Proven);
    CHECK(ob(r, "bounds.a").status == Status::Proven);
    CHECK(ob(r, "overflow").status == Status::Proven);
  }
  SUBCASE("symbolic grid: i += stride may wrap; ksynth says so and does not "
          "prove it") {
    // With n = 2^30 and a stride near 2^31, i + stride exceeds INT_MAX.
    Options o = launch(64, 0);
    o.grid = {nullptr, u32(1), u32(1)};
    KernelReport r = verifyKernel(kb.k, o);
    INFO(summary(r));
    CHECK(r.verdict != Status::Proven);
    CHECK(anyContains(r.abstractions, "may wrap around"));
    for (const Obligation &ob : r.obligations)
      if (ob.status == Status::Unknown)
        CHECK_FALSE(ob.reason.empty());
  }
}

TEST_CASE("a warp barrier with a partial mask orders only the lanes it names, and each must reach it") {
  // s[t] = t;  if (t % 32 < 16) __syncwarp(LO) else __syncwarp(HI);  [if (t % 32 < reach)] y = s[t ^ X];
  // (block of 64). The halves meet on their own masks: reading the partner t ^ 1 is ordered,
  // t ^ 16 (the other half) is not.
  auto kernel = [](int64_t x, uint32_t lo, int64_t reach) {
    KB kb;
    int s = kb.shared("s", Type::i32(), {64});
    int y = kb.var("y", Type::i32());
    auto masked = [&](uint32_t m) {
      StmtPtr b = kb.barrier(BarrierKind::Warp);
      std::const_pointer_cast<Stmt>(b)->value = mkConstInt(m, Type::i64());
      return b;
    };
    ExprPtr lane = bin(Op::Rem, Type::u32(), tid(), u32(32));
    return kb.body({kb.store(s, tid(), toI32(tid()), "s[t]"),
                    kb.ifs(cmp(Op::Lt, lane, u32(reach)), {masked(lo)}, {masked(0xffff0000u)}),
                    kb.load(y, s, bin(Op::BitXor, Type::u32(), tid(), u32(x)), "s[t ^ x]")});
  };
  KernelReport ok = verifyKernel(kernel(1, 0x0000ffffu, 16), launch(64, 1));
  INFO(summary(ok));
  CHECK(ok.verdict == Status::Proven);
  CHECK(ob(ok, "barrier").status == Status::Proven);

  KernelReport other = verifyKernel(kernel(16, 0x0000ffffu, 16), launch(64, 1));
  INFO(summary(other));
  CHECK(other.verdict == Status::Refuted);
  const Obligation &r = ob(other, "race.s");
  CHECK(r.status == Status::Refuted);
  checkWitness(r, 2);
  int64_t a = r.witness["threads"][0]["thread"][0], b = r.witness["threads"][1]["thread"][0];
  CHECK((a ^ b) == 16);
  CHECK(ob(other, "barrier").status == Status::Proven);

  // Lanes 8..15 take the other branch: the low mask names them, but they never reach it.
  KernelReport diverge = verifyKernel(kernel(1, 0x0000ffffu, 8), launch(64, 1));
  INFO(summary(diverge));
  const Obligation &d = ob(diverge, "barrier");
  CHECK(d.status == Status::Refuted);
  checkWitness(d, 2);
  CHECK(contains(d.reason, "mask names"));
  int64_t l1 = int64_t(d.witness["threads"][0]["thread"][0]) % 32, l2 = int64_t(d.witness["threads"][1]["thread"][0]) % 32;
  CHECK(l1 < 8);
  CHECK((l2 >= 8 && l2 < 16));
  // The same split with a mask naming only the lanes that reach it is proven.
  KernelReport narrow = verifyKernel(kernel(1, 0x000000ffu, 8), launch(64, 1));
  INFO(summary(narrow));
  CHECK(ob(narrow, "barrier").status == Status::Proven);
}

TEST_CASE("a warp barrier with a computed mask orders the lanes it names, which must meet it with the same mask") {
  // m = t % 32 < 8 ? LO8 : t % 32 < 16 ? LO16 : 0xffff0000;  s[t] = t;  __syncwarp(m);
  // y = s[t ^ X]   (block of 64). The mask is a variable, not a constant: its bits are tested
  // as terms (laneInMaskTerm), and lanes it names must hold the same value there.
  auto kernel = [](int64_t x, uint32_t lo8, uint32_t lo16) {
    KB kb;
    int s = kb.shared("s", Type::i32(), {64});
    int y = kb.var("y", Type::i32()), m = kb.var("m", Type::i64());
    ExprPtr lane = bin(Op::Rem, Type::u32(), tid(), u32(32));
    auto i64 = [](int64_t v) { return mkConstInt(v, Type::i64()); };
    ExprPtr mask = mkSelect(Type::i64(), cmp(Op::Lt, lane, u32(8)), i64(lo8),
                            mkSelect(Type::i64(), cmp(Op::Lt, lane, u32(16)), i64(lo16), i64(0xffff0000u)));
    StmtPtr b = kb.barrier(BarrierKind::Warp);
    std::const_pointer_cast<Stmt>(b)->value = kb.v(m);
    return kb.body({kb.assign(m, mask), kb.store(s, tid(), toI32(tid()), "s[t]"), b,
                    kb.load(y, s, bin(Op::BitXor, Type::u32(), tid(), u32(x)), "s[t ^ x]")});
  };
  KernelReport ok = verifyKernel(kernel(1, 0x0000ffffu, 0x0000ffffu), launch(64, 1));
  INFO(summary(ok));
  CHECK(ok.verdict == Status::Proven);

  KernelReport other = verifyKernel(kernel(16, 0x0000ffffu, 0x0000ffffu), launch(64, 1));
  INFO(summary(other));
  const Obligation &r = ob(other, "race.s");
  CHECK(r.status == Status::Refuted);
  checkWitness(r, 2);
  int64_t a = r.witness["threads"][0]["thread"][0], c = r.witness["threads"][1]["thread"][0];
  CHECK((a ^ c) == 16);

  // Lanes 0..7 name lanes 8..15 (0x0000ffff), which meet the barrier with 0x0000ff00: the same
  // barrier, another mask.
  KernelReport differ = verifyKernel(kernel(1, 0x0000ffffu, 0x0000ff00u), launch(64, 1));
  INFO(summary(differ));
  const Obligation &d = ob(differ, "barrier");
  CHECK(d.status == Status::Refuted);
  checkWitness(d, 2);
  CHECK(contains(d.reason, "with the same mask"));
  bool named = false;
  for (const auto &n : d.notes)
    named |= contains(n.text, "0x0000ff00") && contains(n.text, "0x0000ffff");
  CHECK(named);
}
