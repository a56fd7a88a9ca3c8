// Symbolic execution: launch symbols, read-only arrays, bound tightening and the entry points.
#include "verify/check/symexec_internal.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <map>
#include <set>

namespace ksynth::check {

bool extremumOf(Term x, Term &p, Term &q, bool &isMax) {
  if (x->kind != smt::Kind::Ite || x->sort != smt::Sort::Real)
    return false;
  Term c = x->kids[0];
  if (c->kind != smt::Kind::Le && c->kind != smt::Kind::Lt)
    return false;
  if (c->kids[0] == x->kids[2] && c->kids[1] == x->kids[1])
    isMax = true;
  else if (c->kids[0] == x->kids[1] && c->kids[1] == x->kids[2])
    isMax = false;
  else
    return false;
  p = x->kids[1];
  q = x->kids[2];
  return true;
}

static const int128 kMaxThreads = (static_cast<int128>(1) << 31) - 1;

GlobalSyms makeGlobals(TermContext &tc, const ir::Kernel &k, const std::array<ir::ExprPtr, 3> &block,
                       const std::array<ir::ExprPtr, 3> &grid, std::vector<std::string> &text) {
  GlobalSyms g;
  for (const ir::Param &p : k.params) {
    if (p.isArray && k.arrays[p.id].sameLength >= 0) {
      g.lens[p.id] = g.lens.at(k.arrays[p.id].sameLength);
    } else if (p.isArray) {
      Term len = tc.var("len." + k.arrays[p.id].name, Sort::Int);
      tc.setBounds(len, 0, (static_cast<int128>(1) << 62));
      g.lens[p.id] = len;
      g.facts.push_back(tc.inRange(len, 0, static_cast<int128>(1) << 62));
    } else {
      const ir::Var &v = k.vars[p.id];
      Sort s = v.type.isFloat() ? Sort::Real : v.type.isBool() ? Sort::Bool : Sort::Int;
      Term t = tc.var("param." + v.name, s);
      if (s == Sort::Int) {
        tc.setBounds(t, v.type.minValue(), v.type.maxValue());
        g.facts.push_back(tc.inRange(t, v.type.minValue(), v.type.maxValue()));
      }
      g.params[p.id] = t;
    }
  }
  static const int128 maxBlock[3] = {1024, 1024, 64};
  static const int128 maxGrid[3] = {kMaxThreads, 65535, 65535};
  const char *dn = "xyz";
  // A block given as constants beyond CUDA's limits (GPUVerify's suite uses 2048 threads) is
  // checked as given rather than found vacuous; the report says so.
  bool overLimit = false;
  {
    int128 prod = 1;
    bool allConst = true;
    for (int d = 0; d < 3; ++d) {
      int128 c = 0;
      if (!block[d] || !tc.isConst(evalUniform(tc, k, g, *block[d]), &c)) {
        allConst = false;
        break;
      }
      prod *= c;
      overLimit |= c > maxBlock[d];
    }
    overLimit = allConst && (overLimit || prod > 1024);
  }
  for (int d = 0; d < 3; ++d) {
    std::string nm = std::string(1, dn[d]);
    if (block[d]) {
      g.blockDim[d] = evalUniform(tc, k, g, *block[d]);
    } else {
      g.blockDim[d] = tc.var(std::string("blockDim.") + nm, Sort::Int);
      tc.setBounds(g.blockDim[d], 1, maxBlock[d]);
    }
    if (!overLimit)
      g.facts.push_back(tc.inRange(g.blockDim[d], 1, maxBlock[d]));
    if (grid[d]) {
      g.gridDim[d] = evalUniform(tc, k, g, *grid[d]);
    } else {
      g.gridDim[d] = tc.var(std::string("gridDim.") + nm, Sort::Int);
      tc.setBounds(g.gridDim[d], 1, maxGrid[d]);
    }
    g.facts.push_back(tc.inRange(g.gridDim[d], 1, maxGrid[d]));
    // The grid's extent along each dimension fits in a signed 32-bit int.
    g.facts.push_back(tc.le(tc.mul(g.gridDim[d], g.blockDim[d]), tc.intConst(kMaxThreads)));
  }
  if (overLimit) {
    text.push_back("the block as given exceeds CUDA's limits (1024 threads, blockDim.z <= 64): "
                   "checked as given, although CUDA would refuse the launch; gridDim.y,z <= 65535");
  } else {
    g.facts.push_back(
        tc.le(tc.mul(tc.mul(g.blockDim[0], g.blockDim[1]), g.blockDim[2]), tc.intConst(1024)));
    text.push_back("blockDim.x*blockDim.y*blockDim.z <= 1024, blockDim.z <= 64, gridDim.y,z <= 65535");
  }
  text.push_back("gridDim.d * blockDim.d <= 2^31-1 in each dimension (every global thread index fits in int)");
  text.push_back("distinct pointer parameters (including pointer fields of struct parameters) do not alias");
  for (const std::string &a : k.assumptions)
    text.push_back(a);
  g.readOnly = readOnlyArrays(k);
  return g;
}

std::string memName(const ir::Kernel &k, int array) {
  return "mem." + k.arrays[array].name + "." + std::to_string(array);
}
std::string shmName(const ir::Kernel &k, int array) {
  return "shm." + k.arrays[array].name + "." + std::to_string(array);
}
std::vector<const ir::Stmt *> exchangeStores(const ir::Kernel &k) {
  std::vector<const ir::Stmt *> out;
  std::function<void(const ir::Block &)> walk = [&](const ir::Block &b) {
    for (const ir::StmtPtr &st : b) {
      if (st->kind == ir::StmtKind::Store && st->ptr && st->ptr->op == ir::Op::ArrayRef &&
          k.arrays[st->ptr->id].warpExchange)
        out.push_back(st.get());
      for (const ir::Block *c : {&st->pre, &st->body, &st->elseBody, &st->step})
        walk(*c);
    }
  };
  walk(k.body);
  return out;
}

std::string exchangeName(const ir::Kernel &k, const ir::Stmt *store) {
  std::vector<const ir::Stmt *> all = exchangeStores(k);
  auto it = std::find(all.begin(), all.end(), store);
  return "wx." + std::to_string(it - all.begin());
}

int arrayOfMemName(const std::string &name) {
  size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot + 1 >= name.size())
    return -1;
  int id = 0;
  for (size_t i = dot + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9')
      return -1;
    id = id * 10 + (name[i] - '0');
  }
  return id;
}

// A flow-insensitive may-point-to analysis of the kernel's pointer variables, to find the
// arrays no Store or Atomic can reach. Anything it cannot follow (a pointer loaded from
// memory, an unknown expression) is "any array", and then nothing is read-only.
std::set<int> readOnlyArrays(const ir::Kernel &k) {
  std::vector<std::set<int>> pts(k.vars.size());
  std::vector<bool> anyArr(k.vars.size(), false);
  std::function<bool(const ir::Expr &, std::set<int> &)> resolve = [&](const ir::Expr &e,
                                                                      std::set<int> &out) {
    switch (e.op) {
    case Op::ArrayRef: out.insert(e.id); return true;
    case Op::PtrAdd: return resolve(*e.args[0], out);
    case Op::Select: return resolve(*e.args[1], out) && resolve(*e.args[2], out);
    case Op::VarRef:
      out.insert(pts[e.id].begin(), pts[e.id].end());
      return !anyArr[e.id];
    case Op::Const: return true; // null
    default: return false;
    }
  };
  std::vector<const ir::Stmt *> all;
  std::function<void(const ir::Block &)> collect = [&](const ir::Block &b) {
    for (const auto &s : b) {
      all.push_back(s.get());
      for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
        collect(*c);
    }
  };
  collect(k.body);
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::Stmt *s : all) {
      if (s->var < 0 || !k.vars[s->var].type.isPtr())
        continue;
      std::set<int> before = pts[s->var];
      bool wasAny = anyArr[s->var];
      if (s->kind == StmtKind::Assign) {
        if (!resolve(*s->value, pts[s->var]))
          anyArr[s->var] = true;
      } else {
        anyArr[s->var] = true; // loaded or havocked pointer
      }
      changed |= pts[s->var] != before || anyArr[s->var] != wasAny;
    }
  }
  std::set<int> written;
  for (const ir::Stmt *s : all)
    if (s->kind == StmtKind::Store || s->kind == StmtKind::Atomic)
      if (!resolve(*s->ptr, written))
        return {};
  std::set<int> ro;
  for (size_t a = 0; a < k.arrays.size(); ++a)
    // Only global and constant memory is the same for every block: a shared array nobody
    // writes holds per-block garbage, a local one per-thread garbage.
    if ((k.arrays[a].space == ir::Space::Global || k.arrays[a].space == ir::Space::Constant) &&
        !written.count(static_cast<int>(a)))
      ro.insert(static_cast<int>(a));
  return ro;
}

void tightenBounds(TermContext &tc, const std::vector<Term> &facts) {
  std::vector<Term> atoms;
  std::function<void(Term)> flatten = [&](Term f) {
    if (f->kind == smt::Kind::And)
      for (Term k : f->kids)
        flatten(k);
    else
      atoms.push_back(f);
  };
  for (Term f : facts)
    flatten(f);
  // a v + c <= 0, v one symbol: a bound on v.
  auto bound = [&](Term d) {
    std::map<uint32_t, std::pair<Term, int128>> lin;
    int128 c = 0;
    tc.linear(d, 1, lin, c);
    std::vector<std::pair<Term, int128>> terms;
    for (auto &[id, tk] : lin)
      if (tk.second != 0)
        terms.push_back(tk);
    if (terms.empty())
      return false;
    if (terms.size() != 1 || terms[0].first->kind != smt::Kind::Var) {
      // L + c <= 0 over several terms (`D (KH - 1) + 1 - H - 2 P <= 0`): L <= -c and -L >= c,
      // so that a quotient of -L - 1 by a positive divisor is seen to be of a non-negative.
      Term L = tc.sub(d, tc.intConst(c));
      auto [lo0, hi0] = tc.range(L);
      if (hi0 <= -c)
        return false;
      tc.tightenTermBounds(L, -(static_cast<int128>(1) << 100), -c);
      tc.tightenTermBounds(tc.neg(L), c, static_cast<int128>(1) << 100);
      return true;
    }
    auto [v, a] = terms[0];
    auto [lo, hi] = tc.range(v);
    auto floorDiv = [](int128 x, int128 y) { int128 q = x / y; return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q; };
    if (a > 0)
      hi = std::min(hi, floorDiv(-c, a)); // v <= -c / a
    else
      lo = std::max(lo, -floorDiv(-c, -a)); // -|a| v + c <= 0: v >= c / |a|, rounded up
    if (lo > hi || std::make_pair(lo, hi) == tc.range(v))
      return false;
    tc.setBounds(v, lo, hi);
    return true;
  };
  for (int pass = 0; pass < 3; ++pass) {
    bool changed = false;
    for (Term f : atoms) {
      if (f->kids.size() != 2 || f->kids[0]->sort != Sort::Int)
        continue;
      if (f->kind == smt::Kind::Le || f->kind == smt::Kind::Lt) {
        Term d = tc.sub(f->kids[0], f->kids[1]);
        changed |= bound(f->kind == smt::Kind::Lt ? tc.add(d, tc.intConst(1)) : d);
      } else if (f->kind == smt::Kind::Eq) {
        Term d = tc.sub(f->kids[0], f->kids[1]);
        changed |= bound(d);
        changed |= bound(tc.neg(d));
      }
    }
    if (!changed)
      break;
  }
}

ThreadSyms makeThread(TermContext &tc, const GlobalSyms &g, const std::string &tag) {
  ThreadSyms t;
  const char *dn = "xyz";
  for (int d = 0; d < 3; ++d) {
    t.tid[d] = tc.var(tag + ".threadIdx." + dn[d], Sort::Int);
    t.bid[d] = tc.var(tag + ".blockIdx." + dn[d], Sort::Int);
    auto [blo, bhi] = tc.range(g.blockDim[d]);
    auto [glo, ghi] = tc.range(g.gridDim[d]);
    tc.setBounds(t.tid[d], 0, bhi - 1); // a block given beyond CUDA's limits is checked as given
    int128 gmax = std::min<int128>(ghi, kMaxThreads);
    if (blo == bhi && blo > 0)
      gmax = std::min<int128>(gmax, kMaxThreads / blo);
    tc.setBounds(t.bid[d], 0, gmax - 1);
    (void)glo;
  }
  return t;
}

bool mentionsLen(const ir::Kernel &k, int array) {
  std::function<bool(const ir::Expr &)> inExpr = [&](const ir::Expr &e) {
    if (e.op == Op::Len && k.lengthRoot(e.id) == k.lengthRoot(array))
      return true;
    for (const auto &a : e.args)
      if (inExpr(*a))
        return true;
    return false;
  };
  std::function<bool(const ir::Block &)> inBlock = [&](const ir::Block &b) {
    for (const auto &s : b) {
      if (s->kind == StmtKind::Assume && inExpr(*s->cond))
        return true;
      for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
        if (inBlock(*c))
          return true;
    }
    return false;
  };
  return inBlock(k.body);
}

// Bit k of t as a term that is 0 or 1: by the form of t where it shows (a constant; an ite,
// arm by arm; a sum whose one power of two 2^j is above the rest's range: a ballot's fold,
// `acc + 2^j` with acc < 2^j), else (t div 2^k) mod 2. Exact for t >= 0 (Euclidean div/mod).
namespace {
Term bitOfMemo(TermContext &tc, Term t, int k, std::map<std::pair<Term, int>, Term> &memo);
}

Term bitOf(TermContext &tc, Term t, int k) {
  std::map<std::pair<Term, int>, Term> memo; // shared arms (a fold's chain) are visited once
  return bitOfMemo(tc, t, k, memo);
}

namespace {
Term bitOfMemo(TermContext &tc, Term t, int k, std::map<std::pair<Term, int>, Term> &memo) {
  auto [at, fresh] = memo.emplace(std::make_pair(t, k), nullptr);
  if (!fresh)
    return at->second;
  Term r = nullptr;
  int128 c;
  if (tc.isConst(t, &c)) {
    r = tc.intConst(c >= 0 ? (c >> k) & 1 : ((c / (static_cast<int128>(1) << k)) % 2 + 2) % 2);
  } else if (t->kind == smt::Kind::Ite) {
    r = tc.ite(t->kids[0], bitOfMemo(tc, t->kids[1], k, memo), bitOfMemo(tc, t->kids[2], k, memo));
  } else if (t->kind == smt::Kind::Add && tc.range(t).first >= 0) {
    // One constant power of two 2^j; the other kids' sum in [0, 2^j).
    for (size_t i = 0; i < t->kids.size() && !r; ++i) {
      int128 p;
      if (!tc.isConst(t->kids[i], &p) || p <= 0 || (p & (p - 1)) != 0)
        continue;
      int j = 0;
      while ((static_cast<int128>(1) << j) < p)
        ++j;
      int128 lo = 0, hi = 0;
      Term rest = tc.intConst(0);
      for (size_t o = 0; o < t->kids.size(); ++o)
        if (o != i) {
          auto [l, h] = tc.range(t->kids[o]);
          lo += l;
          hi += h;
          rest = tc.add(rest, t->kids[o]);
        }
      if (lo < 0 || hi >= p)
        break;
      r = k == j ? tc.intConst(1) : k > j ? tc.intConst(0) : bitOfMemo(tc, rest, k, memo);
    }
  }
  if (!r)
    r = tc.mod(tc.div(t, tc.intConst(static_cast<int128>(1) << k)), tc.intConst(2));
  memo[{t, k}] = r;
  return r;
}
} // namespace

Term laneInMaskTerm(TermContext &tc, Term mask, Term lane) {
  std::vector<Term> any;
  int128 m;
  if (tc.isConst(mask, &m)) {
    for (auto [lo, hi] : ir::maskRuns(static_cast<uint32_t>(static_cast<uint64_t>(m) & 0xffffffffu)))
      any.push_back(tc.mkAnd(tc.le(tc.intConst(lo), lane), tc.lt(lane, tc.intConst(hi))));
    return tc.mkOr(any);
  }
  for (int j = 0; j < 32; ++j)
    any.push_back(tc.mkAnd(tc.eq(lane, tc.intConst(j)), tc.eq(bitOf(tc, mask, j), tc.intConst(1))));
  return tc.mkOr(any);
}

Term laneOf(TermContext &tc, const GlobalSyms &g, const ThreadSyms &t) {
  Term lin = tc.add(t.tid[0], tc.mul(g.blockDim[0], tc.add(t.tid[1], tc.mul(g.blockDim[1], t.tid[2]))));
  return tc.mod(lin, tc.intConst(32));
}

namespace detail {

void Exec::run() {
  State s;
  s.pc = tc_.tru();
  s.vars.resize(k_.vars.size());
  for (size_t i = 0; i < k_.vars.size(); ++i)
    s.vars[i] = initial(static_cast<int>(i));
  s.bc = tc_.intConst(0);
  s.wc = tc_.intConst(0);
  s.gc = tc_.intConst(0);
  kernelHasBarrier_ = ir::containsBarrier(k_.body);
  kernelHasGridBarrier_ = ir::containsGridBarrier(k_.body);
  block(k_.body, s, ir::SyncLevel::None);
  out_.reachEnd = s.pc;
}

SVal Exec::initial(int v) {
  const ir::Var &var = k_.vars[v];
  auto it = g_.params.find(v);
  if (it != g_.params.end())
    return {it->second};
  if (var.type.isPtr())
    return {nullptr, -4, tc_.intConst(0)};
  switch (sortOf(var.type)) {
  case Sort::Bool: return {tc_.fls()};
  case Sort::Real: return {tc_.realConst(0)};
  default: return {tc_.intConst(0)};
  }
}

} // namespace detail

Term evalUniform(TermContext &tc, const ir::Kernel &k, const GlobalSyms &g, const ir::Expr &e) {
  // Launch lines and --assume preconditions (ir::parseCExpr): arithmetic, comparisons and
  // logic over scalar parameters, __len and the launch dimensions, in 64-bit arithmetic.
  std::function<Term(const ir::Expr &)> ev = [&](const ir::Expr &x) -> Term {
    auto a = [&](size_t i) { return ev(*x.args[i]); };
    switch (x.op) {
    case Op::Const: return x.type.isBool() ? tc.boolConst(x.ival != 0) : tc.intConst(x.ival);
    case Op::VarRef: {
      auto it = g.params.find(x.id);
      assert(it != g.params.end() && "uniform expressions name parameters only");
      return it->second;
    }
    case Op::Len: return g.lens.at(x.id);
    case Op::Builtin: {
      Term t = static_cast<ir::Builtin>(x.id) == ir::Builtin::BlockDim ? g.blockDim[x.dim] : g.gridDim[x.dim];
      assert(t && "launch dimension used before it is defined");
      return t;
    }
    case Op::Add: return tc.add(a(0), a(1));
    case Op::Sub: return tc.sub(a(0), a(1));
    case Op::Mul: return tc.mul(a(0), a(1));
    // C truncates; the operands of launch arithmetic are sizes (non-negative) in practice,
    // and for those Euclidean and truncating division agree.
    case Op::Div: return tc.div(a(0), a(1));
    case Op::Rem: return tc.mod(a(0), a(1));
    case Op::Eq: return tc.eq(a(0), a(1));
    case Op::Ne: return tc.ne(a(0), a(1));
    case Op::Lt: return tc.lt(a(0), a(1));
    case Op::Le: return tc.le(a(0), a(1));
    case Op::Gt: return tc.gt(a(0), a(1));
    case Op::Ge: return tc.ge(a(0), a(1));
    case Op::LAnd: return tc.mkAnd(a(0), a(1));
    case Op::LOr: return tc.mkOr(a(0), a(1));
    case Op::Not: return tc.mkNot(a(0));
    case Op::Select: return tc.ite(a(0), a(1), a(2));
    case Op::Cast: return a(0);
    default: assert(false && "operation outside the uniform expression language"); return tc.intConst(0);
    }
  };
  return ev(e);
}

ThreadModel execute(TermContext &tc, const ir::Kernel &k, const GlobalSyms &g, const ThreadSyms &t,
                    const std::string &tag, bool wrapFreeSummaries, bool sharedContent, const ThreadSyms *peer) {
  ThreadModel m;
  detail::Exec ex(tc, k, g, t, tag, m);
  ex.wrapFreeSummaries = wrapFreeSummaries;
  ex.sharedContent = sharedContent;
  ex.peer = peer;
  ex.run();
  return m;
}

} // namespace ksynth::check
