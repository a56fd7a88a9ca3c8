// The clang frontend: small CUDA sources parsed from strings, asserting on the
// KIR they lower to (statement kinds, names, types, labels) and on the
// diagnostics for what cannot be modelled.

#include "frontend_support.h"

using namespace ksynth::ir;
using namespace ksynth::frontend::test;
using ksynth::frontend::Diagnostic;
using ksynth::frontend::Options;
using ksynth::frontend::ParseResult;

// ---- which functions become kernels
// ----------------------------------------------------

TEST_CASE("every __global__ with a body becomes a kernel, in source order; "
          "templates, device and host functions do not") {
  ParseResult r = parse(R"(
__device__ int twice(int x) { return 2 * x; }
__host__ void host(int *p) { p[0] = 1; }
template <typename T> __global__ void tmpl(T *a) { a[0] = 0; }
__global__ void declared(int *a);
__global__ void first(int *a) { a[threadIdx.x] = twice(1); }
namespace ns { __global__ void second(float *b) { b[0] = 1.0f; } }
extern "C" __global__ void third() {}
)");
  INFO(r.clangOutput);
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 3);
  CHECK(r.kernels[0].name == "first");
  CHECK(r.kernels[1].name == "second");
  CHECK(r.kernels[2].name == "third");
  CHECK(r.notes.size() == r.kernels.size());
  CHECK(r.kernels[0].file == "t.cu");
  CHECK(r.kernels[0].loc.line == 6);
  CHECK(r.kernels[2].params.empty());
}

TEST_CASE("a file with only device functions parses and has no kernels") {
  ParseResult r = parse("__device__ int f(int x) { return x + 1; }\n");
  CHECK(r.parsed);
  CHECK(r.kernels.empty());
  CHECK(r.notes.empty());
}

TEST_CASE("a file clang rejects reports parsed=false with clang's message and "
          "no kernels") {
  ParseResult r = parse("__global__ void k(int *a) {\n  a[0] = zz;\n}\n");
  CHECK_FALSE(r.parsed);
  CHECK(r.kernels.empty());
  CHECK(r.clangOutput.find("use of undeclared identifier 'zz'") !=
        std::string::npos);
  CHECK(r.clangOutput.find("t.cu:2:10") != std::string::npos);
  CHECK(r.clangOutput.find("error") != std::string::npos);
}

TEST_CASE("parseFile of a missing file reports it cannot be read") {
  ParseResult r = ksynth::frontend::parseFile("/nonexistent/dir/k.cu", {});
  CHECK_FALSE(r.parsed);
  CHECK(r.kernels.empty());
  CHECK(r.clangOutput.find("/nonexistent/dir/k.cu") != std::string::npos);
}

TEST_CASE("defines from Options reach the preprocessor") {
  const char *src = "__global__ void k(float *o) {\n  __shared__ float s[W];\n "
                    " s[0] = 1.0f;\n}\n";
  CHECK_FALSE(parse(src).parsed); // W undefined
  Options o;
  o.defines = {"W=48"};
  Kernel k = one(src, nullptr, o);
  int s = arrayNamed(k, "s");
  REQUIRE(s >= 0);
  CHECK(k.arrays[s].dims == std::vector<int64_t>{48});
}

TEST_CASE("the prelude declares the annotations") {
  std::string p = ksynth::frontend::preludeText();
  CHECK(p.find("__requires") != std::string::npos);
  CHECK(p.find("__len") != std::string::npos);
}

// ---- parameters
// --------------------------------------------------------------------------

TEST_CASE("pointer parameters become global arrays, scalars become variables, "
          "with their positions") {
  Kernel k = one("__global__ void k(float *a, int n, unsigned m, const double "
                 "*d, long long w) { a[0] = 1.0f; }\n");
  REQUIRE(k.params.size() == 5);
  CHECK(k.params[0].isArray);
  CHECK_FALSE(k.params[1].isArray);
  CHECK_FALSE(k.params[2].isArray);
  CHECK(k.params[3].isArray);
  CHECK_FALSE(k.params[4].isArray);

  const Array &a = k.arrays[k.params[0].id];
  CHECK(a.name == "a");
  CHECK(a.space == Space::Global);
  CHECK(a.elem == Type::f32());
  CHECK(a.dims.empty());
  CHECK(a.paramIndex == 0);
  CHECK(a.sameLength == -1);
  CHECK(k.arrays[k.params[3].id].elem == Type::f64());

  const Var &n = k.vars[k.params[1].id];
  CHECK(n.name == "n");
  CHECK(n.type == Type::i32());
  CHECK(n.paramIndex == 1);
  CHECK(k.vars[k.params[2].id].type == Type::u32());
  CHECK(k.vars[k.params[4].id].type == Type::i64());

  CHECK(k.findParamArray("a") == k.params[0].id);
  CHECK(k.findParamVar("n") == k.params[1].id);
  CHECK(k.findParamVar("a") == -1);
  CHECK(k.findParamArray("n") == -1);
}

TEST_CASE("a struct parameter is flattened into one parameter per field, named "
          "q.field") {
  Kernel k = one(R"(
struct Q { float *p; int n; unsigned m; };
__global__ void k(Q q) { q.p[threadIdx.x] = q.n + q.m; }
)");
  int p = k.findParamArray("q.p");
  int n = k.findParamVar("q.n");
  int m = k.findParamVar("q.m");
  REQUIRE(p >= 0);
  REQUIRE(n >= 0);
  REQUIRE(m >= 0);
  CHECK(k.arrays[p].elem == Type::f32());
  CHECK(k.vars[n].type == Type::i32());
  CHECK(k.vars[m].type == Type::u32());
  CHECK(k.params.size() == 3);
  auto st = stmts(k, StmtKind::Store);
  REQUIRE(st.size() == 1);
  REQUIRE(st[0]->ptr->op == Op::ArrayRef);
  CHECK(st[0]->ptr->id == p);
}

TEST_CASE("a pointer-to-struct parameter becomes one array per field sharing "
          "one length") {
  Kernel k = one(R"(
struct P { float x; int id; double w; };
__global__ void k(P *ps) {
  __requires(__len(ps) >= 64);
  ps[threadIdx.x].id = 1;
}
)");
  int x = arrayNamed(k, "ps.x"), id = arrayNamed(k, "ps.id"),
      w = arrayNamed(k, "ps.w");
  REQUIRE(x >= 0);
  REQUIRE(id >= 0);
  REQUIRE(w >= 0);
  CHECK(k.arrays[x].elem == Type::f32());
  CHECK(k.arrays[id].elem == Type::i32());
  CHECK(k.arrays[w].elem == Type::f64());
  // One __len for all of them.
  CHECK(k.lengthRoot(id) == k.lengthRoot(x));
  CHECK(k.lengthRoot(w) == k.lengthRoot(x));
  CHECK((k.arrays[x].sameLength >= 0 || k.arrays[id].sameLength >= 0));
  auto st = stmts(k, StmtKind::Store);
  REQUIRE(st.size() == 1);
  CHECK(st[0]->ptr->id == id);
  // __len(ps) in the precondition names the shared length.
  auto as = stmts(k, StmtKind::Assume);
  REQUIRE(as.size() == 1);
  bool hasLen = false;
  walkExpr(*as[0]->cond, [&](const Expr &e) {
    if (e.op == Op::Len) {
      hasLen = true;
      CHECK(k.lengthRoot(e.id) == k.lengthRoot(x));
    }
  });
  CHECK(hasLen);
}

// ---- device functions and annotations
// ------------------------------------------------------

TEST_CASE("device functions are inlined: parameters become variables, return "
          "is an exit of the call's block") {
  std::vector<Diagnostic> notes;
  Kernel k = one(R"(
__device__ int clampi(int v, int hi) {
  if (v > hi)
    return hi;
  return v;
}
__global__ void k(int *a, int n) {
  a[threadIdx.x] = clampi(threadIdx.x, n);
}
)",
                 &notes);
  CHECK(notes.empty());
  CHECK(varNamed(k, "clampi.v") >= 0);
  CHECK(varNamed(k, "clampi.hi") >= 0);
  // The inlined body is a labelled Block (not the kernel's top) that both
  // returns exit.
  const Block &b = top(k);
  const Stmt *call = nullptr;
  for (const StmtPtr &s : b)
    if (s->kind == StmtKind::Block)
      call = s.get();
  REQUIRE(call != nullptr);
  CHECK(call->label > 0);
  CHECK(call->label < k.numLabels);
  auto exits = stmts(call->body, StmtKind::Exit);
  REQUIRE(exits.size() == 2);
  for (const Stmt *e : exits)
    CHECK(e->label == call->label);
  // Nothing exits the kernel.
  for (const Stmt *e : stmts(k, StmtKind::Exit))
    CHECK(e->label != 0);
  CHECK(stmts(k, StmtKind::Store).size() == 1);
}

TEST_CASE("__requires is an assumption in the kernel and an assertion in a "
          "device function") {
  Kernel k = one(R"(
__device__ int half(int x) {
  __requires(x >= 0);
  return x / 2;
}
__global__ void k(int *a, int n) {
  __requires(n > 0);
  __assume(n < 1000);
  __assert(n != 7);
  a[0] = half(n);
}
)");
  auto assumes = stmts(k, StmtKind::Assume);
  auto asserts = stmts(k, StmtKind::Assert);
  REQUIRE(assumes.size() == 2);
  REQUIRE(asserts.size() == 2);
  CHECK(assumes[0]->loc.line == 7);
  CHECK(assumes[0]->precondition);
  CHECK(assumes[0]->cond->op == Op::Gt);
  CHECK(assumes[1]->loc.line == 8);
  CHECK_FALSE(assumes[1]->precondition); // __assume is not a precondition
  CHECK(assumes[1]->cond->op == Op::Lt);
  // __assert in the kernel, then half's __requires checked at the call.
  CHECK(asserts[0]->loc.line == 9);
  CHECK(asserts[0]->cond->op == Op::Ne);
  CHECK(asserts[1]->loc.line == 3);
  CHECK(asserts[1]->cond->op == Op::Ge);
  CHECK_FALSE(asserts[1]->text.empty());
}

// ---- control flow
// --------------------------------------------------------------------------

TEST_CASE("a for loop becomes a Loop: break exits its label, continue its body "
          "block, return the kernel") {
  Kernel k = one(R"(
__global__ void k(int *a, int n) {
  for (int j = 0; j < n; ++j) {
    if (j == 3)
      continue;
    if (j == 5)
      break;
    if (j == 9)
      return;
    a[j] = 1;
  }
  a[0] = 2;
}
)");
  auto loops = stmts(k, StmtKind::Loop);
  REQUIRE(loops.size() == 1);
  const Stmt &l = *loops[0];
  CHECK(l.testFirst);
  CHECK(l.label > 0);
  CHECK(l.contLabel > 0);
  CHECK(l.label != l.contLabel);
  CHECK(l.label < k.numLabels);
  CHECK(l.contLabel < k.numLabels);
  CHECK(l.loc.line == 3);
  REQUIRE(l.cond);
  CHECK(l.cond->op == Op::Lt);
  CHECK(l.cond->type == Type::boolean());
  // The body is the continue target.
  REQUIRE(l.body.size() == 1);
  CHECK(l.body[0]->kind == StmtKind::Block);
  CHECK(l.body[0]->label == l.contLabel);
  // The step increments j.
  int j = varNamed(k, "j");
  REQUIRE(j >= 0);
  REQUIRE(l.step.size() == 1);
  CHECK(l.step[0]->kind == StmtKind::Assign);
  CHECK(l.step[0]->var == j);
  CHECK(l.step[0]->value->op == Op::Add);

  auto exits = stmts(l.body, StmtKind::Exit);
  REQUIRE(exits.size() == 3);
  CHECK(exits[0]->label == l.contLabel); // continue
  CHECK(exits[0]->loc.line == 5);
  CHECK(exits[1]->label == l.label); // break
  CHECK(exits[1]->loc.line == 7);
  CHECK(exits[2]->label == 0); // return
  CHECK(exits[2]->loc.line == 9);
  // The store after the loop is outside it.
  const Block &b = top(k);
  REQUIRE_FALSE(b.empty());
  CHECK(b.back()->kind == StmtKind::Store);
  CHECK(b.back()->loc.line == 12);
}

TEST_CASE(
    "while tests first, do-while does not; nested loops get distinct labels") {
  Kernel k = one(R"(
__global__ void k(int *a, int n) {
  int i = threadIdx.x;
  while (i < n) {
    do {
      i += 2;
    } while (i < 4);
  }
  a[0] = i;
}
)");
  auto loops = stmts(k, StmtKind::Loop);
  REQUIRE(loops.size() == 2);
  CHECK(loops[0]->testFirst);
  CHECK_FALSE(loops[1]->testFirst);
  std::vector<int> labels{loops[0]->label, loops[0]->contLabel, loops[1]->label,
                          loops[1]->contLabel};
  std::sort(labels.begin(), labels.end());
  CHECK(std::adjacent_find(labels.begin(), labels.end()) == labels.end());
  CHECK(labels.front() > 0);
  CHECK(labels.back() < k.numLabels);
}

TEST_CASE("&& and ?: whose right side reads memory are lowered to If; without "
          "memory reads they stay expressions") {
  SUBCASE("&& with a load on the right") {
    Kernel k = one(R"(
__global__ void k(float *a, int n) {
  int i = threadIdx.x;
  if (i < n && a[i] > 0.0f)
    a[i] = 0.0f;
}
)");
    auto ifs = stmts(k, StmtKind::If);
    REQUIRE(ifs.size() == 2);
    // The first If guards the load by the left side.
    REQUIRE(ifs[0]->cond);
    CHECK(ifs[0]->cond->op == Op::Lt);
    auto loads = stmts(ifs[0]->body, StmtKind::Load);
    REQUIRE(loads.size() == 1);
    CHECK(loads[0]->ptr->id == k.findParamArray("a"));
    CHECK(stmts(k, StmtKind::Load).size() == 1); // no load outside the guard
    // The second If does the store.
    CHECK(stmts(ifs[1]->body, StmtKind::Store).size() == 1);
  }
  SUBCASE("?: with a load in one branch") {
    Kernel k = one(R"(
__global__ void k(float *a, float *o, int n) {
  int i = threadIdx.x;
  o[i] = i < n ? a[i] : 0.0f;
}
)");
    auto ifs = stmts(k, StmtKind::If);
    REQUIRE(ifs.size() == 1);
    CHECK(stmts(ifs[0]->body, StmtKind::Load).size() == 1);
    CHECK(stmts(ifs[0]->elseBody, StmtKind::Load).empty());
    CHECK(ifs[0]->elseBody.size() == 1);
    CHECK(stmts(k, StmtKind::Load).size() == 1);
  }
  SUBCASE("no memory: one expression, no If") {
    Kernel k = one(R"(
__global__ void k(int *o, int n) {
  int i = threadIdx.x;
  bool b = i < n && n > 2;
  o[i] = b ? i : n;
}
)");
    CHECK(stmts(k, StmtKind::If).empty());
    int b = varNamed(k, "b");
    REQUIRE(b >= 0);
    bool found = false;
    for (const Stmt *s : stmts(k, StmtKind::Assign))
      if (s->var == b) {
        found = true;
        CHECK(s->value->op == Op::LAnd);
      }
    CHECK(found);
    auto st = stmts(k, StmtKind::Store);
    REQUIRE(st.size() == 1);
    CHECK(st[0]->value->op == Op::Select);
  }
}

TEST_CASE(
    "barriers: __syncthreads, __syncwarp and a cooperative-groups grid sync") {
  Kernel k = one(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *a) {
  cg::grid_group g = cg::this_grid();
  a[0] = 1;
  g.sync();
  __syncthreads();
  __syncwarp();
}
)");
  auto bars = stmts(k, StmtKind::Barrier);
  REQUIRE(bars.size() == 3);
  CHECK(bars[0]->barrier == BarrierKind::Grid);
  CHECK(bars[0]->loc.line == 7);
  CHECK(bars[1]->barrier == BarrierKind::Block);
  CHECK(bars[2]->barrier == BarrierKind::Warp);
  CHECK(containsGridBarrier(k.body));
  CHECK(containsBarrier(k.body));
}

TEST_CASE("host launches: the constant dimensions every launch of a kernel gives") {
  ParseResult r = parse(R"(
__global__ void a(float *p) {}
__global__ void b(float *p) {}
__global__ void c(float *p) {}
__global__ void d(float *p) {}
void host(int n, float *p) {
  dim3 blk(16, 8);
  dim3 grd((n + 15) / 16, 4);
  a<<<grd, blk>>>(p);
  b<<<(n + 255) / 256, 256>>>(p);
  b<<<(n + 127) / 128, 128, 0>>>(p);
  dim3 moved(32);
  moved.x = 64;
  c<<<1, moved>>>(p);
  dim3 self = self;
  d<<<self, self>>>(p);
}
)");
  REQUIRE(r.parsed);
  REQUIRE(r.hostLaunches.size() == 4);
  using V = std::vector<std::string>;
  CHECK(r.hostLaunches[0].count == 1);
  CHECK(r.hostLaunches[0].block == V{"16", "8", "1"});
  CHECK(r.hostLaunches[0].grid == V{"", "4", "1"});
  CHECK(r.hostLaunches[0].line == 9);
  CHECK(r.hostLaunches[1].count == 2); // two launches that differ in x: symbolic there
  CHECK(r.hostLaunches[1].block == V{"", "1", "1"});
  CHECK(r.hostLaunches[1].grid == V{"", "1", "1"});
  CHECK(r.hostLaunches[2].block == V{"", "", ""}); // a dim3 the function changes: nothing taken
  CHECK(r.hostLaunches[2].grid == V{"1", "1", "1"});
  CHECK(r.hostLaunches[3].count == 1); // a dim3 initialised with itself: nothing taken, no hang
  CHECK(r.hostLaunches[3].block == V{"", "", ""});
}

TEST_CASE("host launches: a dim3 printed through a variadic call is not changed; one passed by reference is") {
  ParseResult r = parse(R"(
extern "C" int printf(const char *, ...);
void touch(dim3 &d);
void look(const dim3 &d);
__global__ void a(float *p) {}
__global__ void b(float *p) {}
__global__ void c(float *p) {}
void host(int w, int h, float *p) {
  dim3 blk(w, h);
  dim3 grd((w + blk.x - 1) / blk.x, (h + blk.y - 1) / blk.y);
  a<<<grd, blk>>>(p);
  printf("<<<(%d,%d), (%d,%d)>>>\n", grd.x, grd.y, blk.x, blk.y);
  dim3 blk2(w, h);
  look(blk2);
  b<<<1, blk2>>>(p);
  dim3 blk3(w, h);
  touch(blk3);
  c<<<1, blk3>>>(p);
  printf("%p\n", (void *)&blk3.z);
}
)");
  REQUIRE(r.parsed);
  REQUIRE(r.hostLaunches.size() == 3);
  using V = std::vector<std::string>;
  CHECK(r.hostLaunches[0].block == V{"", "", "1"}); // dim3(w, h): z is the constructor's 1
  CHECK(r.hostLaunches[0].grid == V{"", "", "1"});
  CHECK(r.hostLaunches[1].block == V{"", "", "1"}); // a const reference cannot change it
  CHECK(r.hostLaunches[2].block == V{"", "", ""});  // a non-const reference may
}

TEST_CASE("host launches: an integer variable that holds a constant and never changes is that constant") {
  ParseResult r = parse(R"(
__global__ void a(float *p) {}
__global__ void b(float *p) {}
__global__ void c(float *p) {}
__global__ void d(float *p) {}
void host(int n, float *p) {
  int threads = 256;
  int blocks = 4;
  a<<<blocks, threads>>>(p);
  int w = 16, w2 = w;
  dim3 blk(w2, 2);
  b<<<1, blk>>>(p);
  int t = 64;
  t = 32;
  int neg = -1;
  long big = 5000000000;
  c<<<neg, t>>>(p);
  d<<<big, n>>>(p);
}
)");
  REQUIRE(r.parsed);
  REQUIRE(r.hostLaunches.size() == 4);
  using V = std::vector<std::string>;
  CHECK(r.hostLaunches[0].block == V{"256", "1", "1"});
  CHECK(r.hostLaunches[0].grid == V{"4", "1", "1"});
  CHECK(r.hostLaunches[1].block == V{"16", "2", "1"}); // through two variables
  CHECK(r.hostLaunches[2].block == V{"", "1", "1"});   // assigned again: symbolic
  CHECK(r.hostLaunches[2].grid == V{"", "1", "1"});    // negative: no extent
  CHECK(r.hostLaunches[3].grid == V{"", "1", "1"});    // past 32 bits: no extent
  CHECK(r.hostLaunches[3].block == V{"", "1", "1"});   // a parameter: symbolic
}

TEST_CASE("host launches: the integer every launch passes to a parameter, computed from constants") {
  ParseResult r = parse(R"(
__global__ void a(float *p, int n, unsigned m, long k, bool f) {}
void host(int w, float *p) {
  const int threads = 256;
  int n = 1000;
  int blocks = (n + threads - 1) / threads;
  a<<<blocks, threads>>>(p, n, n * 2, w, true);
  a<<<blocks, threads>>>(p, n, 3, 7 / (n - 1000), false);
}
)");
  REQUIRE(r.parsed);
  REQUIRE(r.hostLaunches.size() == 1);
  using V = std::vector<std::string>;
  CHECK(r.hostLaunches[0].grid == V{"4", "1", "1"});  // (n + threads - 1) / threads
  CHECK(r.hostLaunches[0].block == V{"256", "1", "1"});
  // p: a pointer; n: 1000 in both; m: 2000 then 3; k: a parameter, then a division by zero;
  // f: a bool (not taken).
  CHECK(r.hostLaunches[0].args == V{"", "1000", "", "", ""});
}
