// The clang frontend, continued: locals, memory, function pointers, what cannot
// be modelled, and golden text forms.

#include "frontend_support.h"

#include <set>

using namespace ksynth::ir;
using namespace ksynth::frontend::test;
using ksynth::frontend::Diagnostic;
using ksynth::frontend::Options;
using ksynth::frontend::ParseResult;

// ---- locals and memory
// -----------------------------------------------------------------------

TEST_CASE(
    "an uninitialised local is havocked; an initialised one is assigned") {
  Kernel k = one(R"(
__global__ void k(int *a) {
  int u;
  int v = 3;
  a[threadIdx.x] = u + v;
}
)");
  int u = varNamed(k, "u"), v = varNamed(k, "v");
  REQUIRE(u >= 0);
  REQUIRE(v >= 0);
  auto hv = stmts(k, StmtKind::Havoc);
  REQUIRE(hv.size() == 1);
  CHECK(hv[0]->var == u);
  CHECK(hv[0]->loc.line == 3);
  CHECK(hv[0]->text.find("'u'") != std::string::npos);
  bool assigned = false;
  for (const Stmt *s : stmts(k, StmtKind::Assign))
    if (s->var == v) {
      assigned = true;
      CHECK(s->value->op == Op::Const);
      CHECK(s->value->ival == 3);
    }
  CHECK(assigned);
}

TEST_CASE("a local whose address is taken becomes a one-element local array") {
  Kernel k = one(R"(
__device__ void setTo(int *p, int v) { *p = v; }
__global__ void k(int *out) {
  int a;
  setTo(&a, threadIdx.x);
  out[a] = 1;
}
)");
  int a = arrayNamed(k, "a");
  REQUIRE(a >= 0);
  CHECK(k.arrays[a].space == Space::Local);
  CHECK(k.arrays[a].dims == std::vector<int64_t>{1});
  CHECK(k.arrays[a].elem == Type::i32());
  CHECK(k.arrays[a].paramIndex == -1);
  CHECK(varNamed(k, "a") == -1); // not also a scalar
  // The store through p writes the local array; the read of a is a load from
  // it.
  bool storeToA = false, loadFromA = false;
  auto base = [&](const Expr &p) {
    int id = -1;
    walkExpr(p, [&](const Expr &e) {
      if (e.op == Op::ArrayRef)
        id = e.id;
    });
    return id;
  };
  for (const Stmt *s : stmts(k, StmtKind::Store))
    storeToA |= base(*s->ptr) == a;
  for (const Stmt *s : stmts(k, StmtKind::Load))
    loadFromA |= base(*s->ptr) == a;
  // The write may go through a pointer variable assigned from &a.
  if (!storeToA)
    for (const Stmt *s : stmts(k, StmtKind::Assign))
      storeToA |= s->value && s->value->type.isPtr() && base(*s->value) == a;
  CHECK(storeToA);
  CHECK(loadFromA);
}

TEST_CASE("shared arrays: static extents, multi-dimensional indexing, extern "
          "dynamic") {
  Kernel k = one(R"(
__global__ void k(float *f) {
  __shared__ float t[8][9];
  extern __shared__ int dyn[];
  t[threadIdx.y][threadIdx.x] = f[0];
  dyn[threadIdx.x] = 1;
}
)");
  int t = arrayNamed(k, "t"), d = arrayNamed(k, "dyn");
  REQUIRE(t >= 0);
  REQUIRE(d >= 0);
  CHECK(k.arrays[t].space == Space::Shared);
  CHECK(k.arrays[t].dims == std::vector<int64_t>{8, 9});
  CHECK(k.arrays[t].elementCount() == 72);
  CHECK_FALSE(k.arrays[t].dynamicShared);
  CHECK(k.arrays[d].space == Space::Shared);
  CHECK(k.arrays[d].dynamicShared);
  for (const Stmt *s : stmts(k, StmtKind::Store))
    if (s->ptr->op == Op::ArrayRef && s->ptr->id == t) {
      REQUIRE(s->index.size() == 2);
      CHECK(s->index[0]->op == Op::Builtin);
      CHECK(s->index[0]->dim == 1);
      CHECK(s->index[1]->dim == 0);
    }
}

TEST_CASE("memory reads are Load statements; implicit conversions are explicit "
          "casts") {
  Kernel k = one(R"(
__global__ void k(float *a, int n) {
  int i = threadIdx.x;
  float x = a[i] + n;
  a[i] = x;
}
)");
  auto loads = stmts(k, StmtKind::Load);
  REQUIRE(loads.size() == 1);
  CHECK(k.vars[loads[0]->var].type == Type::f32());
  int i = varNamed(k, "i");
  // i = threadIdx.x converts u32 to i32.
  bool castTid = false;
  for (const Stmt *s : stmts(k, StmtKind::Assign))
    if (s->var == i) {
      REQUIRE(s->value->op == Op::Cast);
      CHECK(s->value->type == Type::i32());
      CHECK(s->value->args[0]->op == Op::Builtin);
      castTid = true;
    }
  CHECK(castTid);
  // x = ld + (float)n: the int is cast to f32 and the addition is in f32.
  int x = varNamed(k, "x");
  bool castN = false;
  for (const Stmt *s : stmts(k, StmtKind::Assign))
    if (s->var == x) {
      CHECK(s->value->op == Op::Add);
      CHECK(s->value->type == Type::f32());
      walkExpr(*s->value, [&](const Expr &e) {
        if (e.op == Op::Cast && e.type == Type::f32() &&
            e.args[0]->op == Op::VarRef)
          castN = true;
      });
    }
  CHECK(castN);
}

TEST_CASE("atomics are Atomic statements with their operation, result and "
          "compare value") {
  Kernel k = one(R"(
__global__ void k(int *a) {
  atomicAdd(&a[0], 1);
  int old = atomicCAS(&a[1], 0, 2);
  a[2] = old;
}
)");
  auto at = stmts(k, StmtKind::Atomic);
  REQUIRE(at.size() == 2);
  CHECK(at[0]->atomic == AtomicOp::Add);
  CHECK(at[1]->atomic == AtomicOp::CAS);
  REQUIRE(at[1]->value);
  REQUIRE(at[1]->value2);
  CHECK(at[1]->value->ival == 2);  // new value
  CHECK(at[1]->value2->ival == 0); // compare value
  CHECK(at[1]->var >= 0);
}

TEST_CASE("memcpy of a length ksynth can evaluate becomes per-element loads "
          "then stores") {
  Kernel k =
      one("__global__ void k(int *a, int *b) {\n  memcpy(a, b, 12);\n}\n");
  auto loads = stmts(k, StmtKind::Load);
  auto stores = stmts(k, StmtKind::Store);
  REQUIRE(loads.size() == 3);
  REQUIRE(stores.size() == 3);
  int a = k.findParamArray("a"), b = k.findParamArray("b");
  for (int e = 0; e < 3; ++e) {
    CHECK(loads[e]->ptr->id == b);
    CHECK(stores[e]->ptr->id == a);
    REQUIRE(loads[e]->index.size() == 1);
    CHECK(loads[e]->index[0]->ival == e);
    CHECK(stores[e]->index[0]->ival == e);
  }
  CHECK(stmts(k, StmtKind::Unsupported).empty());
}

// ---- function pointers
// -------------------------------------------------------------------------

TEST_CASE("function pointers are numbered values; a call through one "
          "dispatches on the number") {
  std::vector<Diagnostic> notes;
  Kernel k = one(R"(
__device__ float twice(float x) { return x * 2.0f; }
__device__ float half(float x) { return x * 0.5f; }
typedef float (*op_t)(float);
__global__ void k(float *v, int c) {
  op_t g = c ? twice : half;
  v[threadIdx.x] = g(1.0f);
}
)",
                 &notes);
  CHECK(notes.empty());
  int g = varNamed(k, "g");
  REQUIRE(g >= 0);
  CHECK(k.vars[g].type.isInt());
  CHECK(k.vars[g].type.bits == 64);
  // g = c ? <twice> : <half>: two distinct non-zero numbers.
  int64_t twiceId = 0, halfId = 0;
  for (const Stmt *s : stmts(k, StmtKind::Assign))
    if (s->var == g) {
      REQUIRE(s->value->op == Op::Select);
      REQUIRE(s->value->args[1]->op == Op::Const);
      REQUIRE(s->value->args[2]->op == Op::Const);
      twiceId = s->value->args[1]->ival;
      halfId = s->value->args[2]->ival;
    }
  CHECK(twiceId != 0);
  CHECK(halfId != 0);
  CHECK(twiceId != halfId);
  // One If per candidate target, each inlining that function.
  int dispatch = 0;
  for (const Stmt *s : stmts(k, StmtKind::If))
    if (s->cond->op == Op::Eq && s->cond->args[1]->op == Op::Const) {
      int64_t id = s->cond->args[1]->ival;
      if (id == twiceId) {
        ++dispatch;
        CHECK(varNamed(k, "twice.x") >= 0);
      } else if (id == halfId) {
        ++dispatch;
        CHECK(varNamed(k, "half.x") >= 0);
      }
    }
  CHECK(dispatch == 2);
  // Calling a null pointer is an obligation.
  bool nullAssert = false;
  for (const Stmt *s : stmts(k, StmtKind::Assert))
    nullAssert |= s->cond->op == Op::Ne && s->cond->args[1]->op == Op::Const &&
                  s->cond->args[1]->ival == 0;
  CHECK(nullAssert);
  CHECK(stmts(k, StmtKind::Unsupported).empty());
}

TEST_CASE("a function-pointer parameter is a 64-bit scalar parameter") {
  Kernel k = one(R"(
__device__ float twice(float x) { return x * 2.0f; }
typedef float (*op_t)(float);
__global__ void k(float *v, op_t f) { v[0] = f(1.0f); }
)");
  int f = k.findParamVar("f");
  REQUIRE(f >= 0);
  CHECK(k.vars[f].type.bits == 64);
  CHECK_FALSE(k.vars[f].type.isSigned);
  CHECK(stmts(k, StmtKind::Assert).size() >= 1);
}

// ---- what cannot be modelled
// ---------------------------------------------------------------------

namespace {
// The kernel has an `unsupported:` error note and an Unsupported statement at
// `line`, whose message contains `what`.
void checkUnsupported(const std::string &src, unsigned line,
                      const std::string &what) {
  ParseResult r = parse(src);
  INFO(r.clangOutput);
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 1);
  const Kernel &k = r.kernels[0];
  bool noted = false;
  for (const Diagnostic &d : r.notes[0])
    if (d.severity == "error" && startsWith(d.message, "unsupported: ") &&
        d.line == line && d.message.find(what) != std::string::npos) {
      noted = true;
      CHECK(d.file == "t.cu");
      CHECK(d.col > 0);
    }
  CHECK_MESSAGE(noted, "no unsupported note at line ", line, " about '", what,
                "'");
  bool stmt = false;
  for (const Stmt *s : stmts(k, StmtKind::Unsupported))
    stmt |= s->loc.line == line && s->text.find(what) != std::string::npos;
  CHECK_MESSAGE(stmt, "no Unsupported statement at line ", line);
}
} // namespace

TEST_CASE("inline assembly is unsupported at its line") {
  checkUnsupported(R"(
__global__ void k(int *a) {
  a[0] = 1;
  asm volatile("bar.sync 0;" ::: "memory");
  a[1] = 2;
}
)",
                   4, "inline assembly");
}

TEST_CASE("recursion is unsupported at the recursive call") {
  checkUnsupported(R"(
__device__ int rec(int x) {
  return x <= 1 ? 0 : 1 + rec(x - 1);
}
__global__ void k(int *a) { a[0] = rec(3); }
)",
                   3, "recursive call to 'rec'");
}

TEST_CASE("a backward goto is unsupported") {
  checkUnsupported(R"(
__global__ void k(int *a) {
again:
  a[0] = 1;
  goto again;
}
)",
                   5, "goto");
}

TEST_CASE("a forward goto exits a block that ends at its label") {
  ParseResult r = parse(R"(
__global__ void k(int *a) {
  a[0] = 1;
  goto end;
  a[1] = 1;
end:
  a[2] = 1;
}
)");
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 1);
  const Kernel &k = r.kernels[0];
  CHECK(stmts(k, StmtKind::Unsupported).empty());
  auto exits = stmts(k, StmtKind::Exit);
  REQUIRE(exits.size() == 1);
  // The goto's target is a Block (not the kernel's top) holding a[0], the goto and a[1];
  // the store after the label comes after that block.
  bool found = false;
  for (const Stmt *b : stmts(k, StmtKind::Block))
    if (b->label == exits[0]->label && b->label != 0) {
      found = true;
      CHECK(stmts(b->body, StmtKind::Store).size() == 2);
    }
  CHECK(found);
  CHECK(stmts(k, StmtKind::Store).size() == 3);
}

TEST_CASE("a case label inside a nested statement of its switch is unsupported") {
  checkUnsupported(R"(
__global__ void k(int *a, int n) {
  switch (n) {
  case 0:
    if (n == 0) {
  case 1: a[0] = 1;
    }
  }
}
)",
                   5, "case label inside a nested statement");
}

TEST_CASE("a union accessed in the kernel is unsupported") {
  checkUnsupported(R"(
union U { int i; float f; };
__global__ void k(U *u) {
  u[0].i = 1;
}
)",
                   4, "");
  // The union parameter itself is reported, with why.
  ParseResult r = parse("union U { int i; float f; };\n__global__ void k(U *u) "
                        "{\n  u[0].i = 1;\n}\n");
  REQUIRE(r.parsed);
  REQUIRE(r.notes.size() == 1);
  bool why = false;
  for (const Diagnostic &d : r.notes[0])
    why |= d.line == 2 && d.message.find("union 'U'") != std::string::npos;
  CHECK(why);
}

TEST_CASE("an array field in a struct parameter is reported at the parameter; "
          "the other fields stay parameters") {
  ParseResult r = parse("struct S { int arr[4]; int n; };\n__global__ void k(S "
                        "s, int *a) {\n  a[s.n] = 1;\n}\n");
  INFO(r.clangOutput);
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 1);
  bool noted = false;
  for (const Diagnostic &d : r.notes[0])
    noted |= d.severity == "error" && d.line == 2 &&
             d.message == "unsupported: array field 'arr' in parameter 's'";
  CHECK(noted);
  const Kernel &k = r.kernels[0];
  CHECK(k.findParamVar("s.n") >= 0);
  CHECK(k.findParamArray("a") >= 0);
}

TEST_CASE("a kernel without unsupported constructs has no error notes and no "
          "Unsupported statement") {
  std::vector<Diagnostic> notes;
  Kernel k = one("__global__ void k(int *a, int n) {\n  if (threadIdx.x < n) "
                 "a[threadIdx.x] = 1;\n}\n",
                 &notes);
  for (const Diagnostic &d : notes)
    CHECK(d.severity != "error");
  CHECK(stmts(k, StmtKind::Unsupported).empty());
}

// ---- the text form
// ---------------------------------------------------------------------------------

TEST_CASE("golden: a guarded store") {
  Kernel k = one(R"(__global__ void tiny(float *o, int n) {
  if (threadIdx.x < n) o[threadIdx.x] = 2.0f;
}
)");
  CHECK(print(k) == "kernel tiny(@o: f32*, %n: i32)\n"
                    "  block L0 {\n"
                    "    if (< threadIdx.x (cast u32 %n)) {\n"
                    "      store @o[threadIdx.x] = 2f  ; 2:39\n"
                    "    }  ; 2:3\n"
                    "  }  ; 1:17\n");
}

TEST_CASE("golden: a loop with a shared array and a barrier") {
  Kernel k = one(R"(__global__ void red(float *o) {
  __shared__ float s[64];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  for (unsigned st = 32; st > 0; st >>= 1) {
    if (threadIdx.x < st)
      s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
}
)");
  std::string p = print(k);
  INFO(p);
  CHECK(p.find("shared @s: f32[64]") != std::string::npos);
  CHECK(p.find("loop L1 cont L2 {") != std::string::npos);
  CHECK(p.find("while (> %st 0:u32)") != std::string::npos);
  CHECK(p.find("%st = (>> %st 1:i32)") != std::string::npos);
  CHECK(p.find("barrier  ; 4:3") != std::string::npos);
  CHECK(p.find("barrier  ; 8:5") != std::string::npos);
}

TEST_CASE("a parameter ksynth cannot model makes the kernel unknown, not zero") {
  // Regression: an array field of a struct parameter was bound to nothing and read as 0,
  // so `__assert(s.arr[2] == 0)` was proven.
  ParseResult r = parse(R"(
struct S { int arr[4]; };
__global__ void k(S s) { __assert(s.arr[2] == 0); }
)");
  REQUIRE(r.parsed);
  REQUIRE(r.kernels.size() == 1);
  CHECK_FALSE(stmts(r.kernels[0], StmtKind::Unsupported).empty());
}

TEST_CASE("operands are loaded before the statement that uses them (atomics, local initialisers)") {
  Kernel k = one(R"(
__global__ void f(const float *X, float *S) {
  int t = threadIdx.x;
  atomicAdd(S, X[t]);
  float a[2] = {X[0], X[1]};
  float v = X[2];
  float *pv = &v;
  S[1] = a[t & 1] + *pv; // (a run-time index keeps `a` an array: see regtile_test.cpp)
})");
  std::vector<const Stmt *> order;
  walk(k.body, [&](const Stmt &s) {
    if (s.kind == StmtKind::Load || s.kind == StmtKind::Store || s.kind == StmtKind::Atomic)
      order.push_back(&s);
  });
  // Every variable a statement's value reads was loaded by an earlier statement.
  std::set<int> loaded;
  std::function<bool(const Expr &)> ready = [&](const Expr &e) {
    if (e.op == Op::VarRef && k.vars[e.id].paramIndex < 0 && k.vars[e.id].name.rfind("ld", 0) == 0 &&
        !loaded.count(e.id))
      return false;
    for (const ExprPtr &a : e.args)
      if (a && !ready(*a))
        return false;
    return true;
  };
  int checked = 0;
  for (const Stmt *s : order) {
    if (s->value) {
      CHECK_MESSAGE(ready(*s->value), "statement at line " << s->loc.line << " uses a load that comes after it");
      ++checked;
    }
    if (s->kind != StmtKind::Store && s->var >= 0)
      loaded.insert(s->var);
  }
  CHECK(checked >= 4);
}
