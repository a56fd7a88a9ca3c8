// The checker on bounds, overflow and assertions, and on how obligations
// combine into a verdict: vacuity, unsupported constructs, check subsets, extra
// assumptions, query dumps.
#include "kernel_builder.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace ksynth::check;
using namespace ksynth::check::test;

namespace {

// __requires(n >= 0); [__requires(__len(a) >= n);] int i = threadIdx.x; if (i
// <op> n) a[i] = 1;
Kernel guardKernel(Op guard, bool declareLen = true) {
  KB kb("init");
  int a = kb.ptrParam("a", Type::i32());
  int n = kb.param("n", Type::i32());
  int i = kb.var("i", Type::i32());
  Block b{kb.requires_(cmp(Op::Ge, kb.v(n), i32(0)), "n >= 0")};
  if (declareLen)
    b.push_back(kb.requires_(lenAtLeast(a, kb.v(n)), "__len(a) >= n"));
  b.push_back(kb.assign(i, toI32(tid())));
  b.push_back(kb.ifs(cmp(guard, kb.v(i), kb.v(n)),
                     {kb.store(a, kb.v(i), i32(1), "a[i]")}));
  return kb.body(b);
}

// __assert(threadIdx.x != 5)  or  __assert(threadIdx.x < 32)
Kernel assertKernel(ExprPtr cond, const std::string &text) {
  KB kb("asserts");
  kb.body({kb.assertS(std::move(cond), text)});
  return kb.k;
}

} // namespace

// ---- bounds
// ------------------------------------------------------------------------------

TEST_CASE("bounds: i <= n writes one past a declared length; i < n does not") {
  KernelReport bad = verifyKernel(guardKernel(Op::Le), launch(64, 1));
  INFO(summary(bad));
  CHECK(bad.verdict == Status::Refuted);
  const Obligation &o = ob(bad, "bounds.a");
  CHECK(o.kind == Kind::Bounds);
  checkWitness(o, 1);
  CHECK(contains(o.reason, "out-of-bounds access to global array 'a'"));
  // The element written is the length: i == n == __len(a).
  int64_t n = o.witness["params"]["n"];
  CHECK(o.witness["element"] == n);
  CHECK(o.witness["lengths"]["a"] == n);
  CHECK(o.witness["threads"][0]["thread"][0] == n);
  CHECK(o.loc.line > 10); // the store's line, not the array's
  CHECK(ob(bad, "race.a").status == Status::Proven);

  KernelReport ok = verifyKernel(guardKernel(Op::Lt), launch(64, 1));
  INFO(summary(ok));
  CHECK(ok.verdict == Status::Proven);
  CHECK(ob(ok, "bounds.a").status == Status::Proven);
}

TEST_CASE("bounds on a global array without a declared length are unknown, "
          "with the way out in the reason") {
  KernelReport r = verifyKernel(guardKernel(Op::Lt, false), launch(64, 1));
  INFO(summary(r));
  CHECK(r.verdict == Status::Unknown);
  const Obligation &o = ob(r, "bounds.a");
  CHECK(o.status == Status::Unknown);
  CHECK(contains(o.reason, "no size is known for global array 'a'"));
  CHECK(contains(o.reason, "__len(a)"));
  // Everything else is proven: one unknown makes the kernel unknown.
  for (const Obligation &x : r.obligations)
    if (x.name != "bounds.a")
      CHECK(x.status == Status::Proven);
}

TEST_CASE("an --assume expression declares the length as a __requires would") {
  Kernel k = guardKernel(Op::Lt, false);
  int a = k.findParamArray("a"), n = k.findParamVar("n");
  Options o = launch(64, 1);
  o.assumes = {lenAtLeast(a, mkVar(n, Type::i32()))};
  KernelReport r = verifyKernel(k, o);
  INFO(summary(r));
  CHECK(r.verdict == Status::Proven);
  CHECK(ob(r, "bounds.a").status == Status::Proven);
  // A weaker assumption does not prove it.
  o.assumes = {cmp(Op::Ge, mkLen(a), mkConstInt(10, Type::u64()))};
  KernelReport weak = verifyKernel(k, o);
  INFO(summary(weak));
  CHECK(ob(weak, "bounds.a").status == Status::Refuted);
}

TEST_CASE("bounds of a static shared array: s[threadIdx.x + 1] overruns for "
          "the last thread") {
  KB kb;
  int s = kb.shared("s", Type::f32(), {64});
  kb.body({kb.store(s, bin(Op::Add, Type::u32(), tid(), u32(1)), f32(0),
                    "s[threadIdx.x + 1]")});
  KernelReport r = verifyKernel(kb.k, launch(64, 1, {"bounds"}));
  INFO(summary(r));
  const Obligation &o = ob(r, "bounds.s");
  checkWitness(o, 1);
  CHECK(o.witness["element"] == 64);
  CHECK(o.witness["threads"][0]["thread"][0] == 63);
  CHECK(contains(o.reason, "shared array 's'"));
  KernelReport small = verifyKernel(kb.k, launch(63, 1, {"bounds"}));
  INFO(summary(small));
  CHECK(small.verdict == Status::Proven);
}

// ---- overflow
// ----------------------------------------------------------------------------

TEST_CASE(
    "signed overflow of an index: t * n overflows int unless n is bounded") {
  // [__requires(n >= 0 && n <= 1000);] int t = threadIdx.x; int j = t * n; s[j
  // % 64] = 1;
  auto kernel = [](bool bounded) {
    KB kb("stride");
    int n = kb.param("n", Type::i32());
    int s = kb.shared("s", Type::i32(), {64});
    int t = kb.var("t", Type::i32()), j = kb.var("j", Type::i32());
    Block b;
    if (bounded)
      b.push_back(kb.requires_(cmp(Op::LAnd, cmp(Op::Ge, kb.v(n), i32(0)),
                                   cmp(Op::Le, kb.v(n), i32(1000))),
                               "n >= 0 && n <= 1000"));
    auto mul =
        std::make_shared<Expr>(*bin(Op::Mul, Type::i32(), kb.v(t), kb.v(n)));
    mul->text = "t * n";
    mul->loc = {30, 11};
    b.push_back(kb.assign(t, toI32(tid())));
    b.push_back(kb.assign(j, mul));
    b.push_back(kb.store(s, bin(Op::Rem, Type::i32(), kb.v(j), i32(64)), i32(1),
                         "s[j % 64]"));
    return kb.body(b);
  };
  KernelReport bad = verifyKernel(kernel(false), launch(32, 1, {"overflow"}));
  INFO(summary(bad));
  CHECK(bad.verdict == Status::Refuted);
  REQUIRE(bad.obligations.size() == 1);
  const Obligation &o = ob(bad, "overflow");
  CHECK(o.kind == Kind::Overflow);
  checkWitness(o, 1);
  CHECK(contains(o.reason, "signed integer overflow in 't * n'"));
  CHECK(o.loc.line == 30);
  // The witness really overflows: t * n outside int.
  int64_t t = o.witness["threads"][0]["thread"][0],
          n = o.witness["params"]["n"];
  __int128 prod = static_cast<__int128>(t) * n;
  CHECK((prod > INT32_MAX || prod < INT32_MIN));
  CHECK(contains(o.notes[0].text, "exact value"));

  KernelReport ok = verifyKernel(kernel(true), launch(32, 1, {"overflow"}));
  INFO(summary(ok));
  CHECK(ok.verdict == Status::Proven);
}

TEST_CASE("unsigned arithmetic wraps and is not an overflow") {
  // unsigned u = threadIdx.x - 1u; s[u % 32] = 1;
  KB kb;
  int s = kb.shared("s", Type::i32(), {32});
  kb.body({kb.store(s,
                    bin(Op::Rem, Type::u32(),
                        bin(Op::Sub, Type::u32(), tid(), u32(1)), u32(32)),
                    i32(1), "s[...]")});
  KernelReport r = verifyKernel(kb.k, launch(32, 1, {"overflow", "bounds"}));
  INFO(summary(r));
  CHECK(ob(r, "overflow").status == Status::Proven);
  CHECK(ob(r, "bounds.s").status == Status::Proven);
}

// ---- assert
// ------------------------------------------------------------------------------

TEST_CASE("an assertion that fails for one thread is refuted with that thread; "
          "one that holds is proven") {
  KernelReport bad =
      verifyKernel(assertKernel(cmp(Op::Ne, tid(), u32(5)), "threadIdx.x != 5"),
                   launch(32, 1));
  INFO(summary(bad));
  CHECK(bad.verdict == Status::Refuted);
  const Obligation &o = ob(bad, "assert");
  checkWitness(o, 1);
  CHECK(o.witness["threads"][0]["thread"][0] == 5);
  CHECK(contains(o.reason, "assertion 'threadIdx.x != 5' can fail"));

  Kernel lt = assertKernel(cmp(Op::Lt, tid(), u32(32)), "threadIdx.x < 32");
  KernelReport ok = verifyKernel(lt, launch(32, 1));
  INFO(summary(ok));
  CHECK(ok.verdict == Status::Proven);
  // With the block symbolic, threadIdx.x reaches 32.
  Options sym;
  sym.grid = {u32(1), u32(1), u32(1)};
  KernelReport symbolic = verifyKernel(lt, sym);
  INFO(summary(symbolic));
  CHECK(symbolic.verdict == Status::Refuted);
  CHECK(ob(symbolic, "assert")
            .witness["threads"][0]["thread"][0]
            .get<int64_t>() >= 32);
  CHECK(contains(symbolic.launch, "blockDim.x"));
}

// ---- how obligations make a verdict
// ----------------------------------------------------------

TEST_CASE(
    "vacuous preconditions: no obligation is claimed, the verdict is unknown") {
  KB kb;
  int a = kb.ptrParam("a", Type::i32());
  int n = kb.param("n", Type::i32());
  kb.body({kb.requires_(cmp(Op::Gt, kb.v(n), i32(5)), "n > 5"),
           kb.requires_(cmp(Op::Lt, kb.v(n), i32(3)), "n < 3"),
           kb.store(a, i32(0), i32(1), "a[0]"),
           kb.assertS(mkConstBool(false), "false")});
  KernelReport r = verifyKernel(kb.k, launch(32, 1));
  INFO(summary(r));
  CHECK(r.verdict == Status::Unknown);
  REQUIRE(r.obligations.size() == 1);
  CHECK(r.obligations[0].name == "vacuity");
  CHECK(r.obligations[0].status == Status::Unknown);
  CHECK(contains(r.obligations[0].reason, "admit no execution"));

  // A launch that contradicts a precondition is vacuous too.
  KB kb2;
  kb2.body({kb2.requires_(cmp(Op::Eq, bdim(), u32(128)), "blockDim.x == 128"),
            kb2.assertS(mkConstBool(false), "false")});
  KernelReport l = verifyKernel(kb2.k, launch(64, 1));
  INFO(summary(l));
  CHECK(l.verdict == Status::Unknown);
  REQUIRE(l.obligations.size() == 1);
  CHECK(l.obligations[0].name == "vacuity");
}

TEST_CASE("an unsupported construct makes every obligation unknown, even next "
          "to a real bug") {
  KB kb;
  int s = kb.shared("s", Type::i32(), {32});
  kb.body({kb.store(s, i32(0), i32(1), "s[0]"),
           kb.unsupported("inline assembly"),
           kb.assertS(cmp(Op::Ne, tid(), u32(3)), "threadIdx.x != 3")});
  Options o = launch(32, 1);
  KernelReport r = verifyKernel(kb.k, o);
  INFO(summary(r));
  CHECK(r.verdict == Status::Unknown);
  REQUIRE(r.obligations.size() == o.checks.size());
  std::set<std::string> kinds;
  for (const Obligation &x : r.obligations) {
    CHECK(x.status == Status::Unknown);
    CHECK(contains(x.reason, "unsupported construct (inline assembly)"));
    CHECK(x.loc.line == 11); // the Unsupported statement's line
    kinds.insert(kindName(x.kind));
  }
  CHECK(kinds == o.checks);
}

TEST_CASE("the verdict: refuted if any obligation is, else unknown if any is, "
          "else proven") {
  // a[threadIdx.x] = 1 with no declared length (bounds.a unknown) and an
  // assertion.
  auto kernel = [](bool failing) {
    KB kb;
    int a = kb.ptrParam("a", Type::i32());
    return kb.body({kb.store(a, tid(), i32(1), "a[threadIdx.x]"),
                    kb.assertS(cmp(Op::Ne, tid(), u32(failing ? 7 : 99)),
                               "threadIdx.x != ...")});
  };
  KernelReport refuted = verifyKernel(kernel(true), launch(32, 1));
  INFO(summary(refuted));
  CHECK(ob(refuted, "bounds.a").status == Status::Unknown);
  CHECK(ob(refuted, "assert").status == Status::Refuted);
  CHECK(refuted.verdict == Status::Refuted);

  KernelReport unknown = verifyKernel(kernel(false), launch(32, 1));
  INFO(summary(unknown));
  CHECK(ob(unknown, "bounds.a").status == Status::Unknown);
  CHECK(ob(unknown, "assert").status == Status::Proven);
  CHECK(unknown.verdict == Status::Unknown);

  KernelReport proven = verifyKernel(
      kernel(false), launch(32, 1, {"race", "barrier", "overflow", "assert"}));
  INFO(summary(proven));
  CHECK(findOb(proven, "bounds.a") == nullptr);
  CHECK(proven.verdict == Status::Proven);

  // Exhaustively: the verdict follows the obligations' statuses.
  for (const KernelReport *r : {&refuted, &unknown, &proven}) {
    bool anyRefuted = false, anyUnknown = false;
    for (const Obligation &x : r->obligations) {
      anyRefuted |= x.status == Status::Refuted;
      anyUnknown |= x.status == Status::Unknown;
      if (x.status == Status::Unknown)
        CHECK_FALSE(x.reason.empty());
      if (x.status == Status::Refuted)
        CHECK(x.witness.is_object());
    }
    CHECK(r->verdict == (anyRefuted   ? Status::Refuted
                         : anyUnknown ? Status::Unknown
                                      : Status::Proven));
  }
}

TEST_CASE("a subset of checks: only those obligations, and what is left "
          "unchecked is an assumption") {
  Kernel k = guardKernel(Op::Le); // has an out-of-bounds write
  KernelReport r = verifyKernel(k, launch(64, 1, {"race", "assert"}));
  INFO(summary(r));
  CHECK(r.verdict == Status::Proven);
  for (const Obligation &x : r.obligations)
    CHECK((x.kind == Kind::Race || x.kind == Kind::Assert));
  CHECK(findOb(r, "race.a") != nullptr);
  CHECK(findOb(r, "assert") != nullptr);
  CHECK(anyContains(r.assumptions, "overflow not checked"));
  CHECK(anyContains(r.assumptions, "barrier not checked"));
  // Obligations come in a fixed order of checks.
  KernelReport all = verifyKernel(k, launch(64, 1));
  std::vector<std::string> order;
  for (const Obligation &x : all.obligations)
    if (order.empty() || order.back() != kindName(x.kind))
      order.push_back(kindName(x.kind));
  CHECK(order == std::vector<std::string>{"race", "barrier", "bounds",
                                          "overflow", "assert"});
}

TEST_CASE("every query can be dumped as a named SMT-LIB2 file") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() /
                 ("ksynth_unit_check_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  Options o = launch(64, 1);
  o.dumpSmtDir = dir.string();
  KernelReport r = verifyKernel(guardKernel(Op::Le), o);
  INFO(summary(r));
  fs::path f = dir / "init.bounds.a.smt2";
  REQUIRE(fs::exists(f));
  std::ifstream in(f);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(contains(ss.str(), "ksynth query init.bounds.a"));
  CHECK(contains(ss.str(), "check-sat"));
  fs::remove_all(dir);
}
