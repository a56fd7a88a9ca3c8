#include "verify/check/symexec.h"

#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
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


using ir::Op;
using ir::StmtKind;
using smt::int128;
using smt::Sort;
using smt::TermContext;

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
    if (terms.size() != 1 || terms[0].first->kind != smt::Kind::Var)
      return false;
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

// ---- delinearisation ---------------------------------------------------------------------

namespace {
// m = X * f for a monomial m: X in rest.
bool factorOut(TermContext &tc, Term m, Term f, Term &rest) {
  if (m == f) {
    rest = tc.intConst(1);
    return true;
  }
  if (m->kind != smt::Kind::Mul)
    return false;
  for (size_t i = 0; i < m->kids.size(); ++i) {
    Term r;
    if (!factorOut(tc, m->kids[i], f, r))
      continue;
    for (size_t j = 0; j < m->kids.size(); ++j)
      if (j != i)
        r = tc.mul(r, m->kids[j]);
    rest = r;
    return true;
  }
  return false;
}

// t = X * f + Y, splitting t's monomials by whether f is one of their factors.
bool splitBy(TermContext &tc, Term t, Term f, Term &X, Term &Y) {
  std::vector<Term> mons = t->kind == smt::Kind::Add ? t->kids : std::vector<Term>{t};
  X = tc.intConst(0);
  Y = tc.intConst(0);
  bool any = false;
  for (Term m : mons) {
    Term r;
    if (factorOut(tc, m, f, r)) {
      X = tc.add(X, r);
      any = true;
    } else {
      Y = tc.add(Y, m);
    }
  }
  return any;
}
} // namespace

void delinearise(TermContext &tc, Term f1, Term f2, const std::vector<Term> &ext, std::vector<Term> &facts) {
  for (size_t d = ext.size(); d-- > 1;) {
    Term N = ext[d], X1, Y1, X2, Y2;
    if (!splitBy(tc, f1, N, X1, Y1) || !splitBy(tc, f2, N, X2, Y2))
      return;
    Term zero = tc.intConst(0);
    Term pre = tc.mkAnd({tc.le(tc.intConst(1), N), tc.le(zero, Y1), tc.lt(Y1, N), tc.le(zero, Y2),
                         tc.lt(Y2, N), tc.eq(tc.add(tc.mul(X1, N), Y1), tc.add(tc.mul(X2, N), Y2))});
    facts.push_back(tc.implies(pre, tc.mkAnd(tc.eq(X1, X2), tc.eq(Y1, Y2))));
    f1 = X1;
    f2 = X2;
  }
}

std::vector<Term> strideSymbols(TermContext &tc, Term f) {
  std::vector<Term> out;
  std::vector<Term> mons = f->kind == smt::Kind::Add ? f->kids : std::vector<Term>{f};
  for (Term m : mons) {
    if (m->kind != smt::Kind::Mul)
      continue;
    for (Term k : m->kids)
      if ((k->kind == smt::Kind::Var || k->kind == smt::Kind::App) && k->sort == Sort::Int &&
          std::find(out.begin(), out.end(), k) == out.end())
        out.push_back(k);
  }
  (void)tc;
  return out;
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

namespace {

struct SVal {
  Term t = nullptr;  // Int/Real/Bool value
  int array = -1;    // pointer: array id (-2: unknown; -3: one of `alts`)
  Term off = nullptr; // pointer: element offset
  struct Alt {
    int array;
    Term guard, off;
  };
  std::vector<Alt> alts; // array == -3: the pointer is alts[i] when alts[i].guard holds
};

// Thread-local arrays are private to their thread, so their contents are modelled exactly:
// the stores made so far (each under the path condition it was made in) over an unknown
// initial content. A loop that stores to the array leaves it unknown again (a new epoch).
struct LocalWrite {
  Term pc, flat, val;
};
struct LocalMem {
  int epoch = 0;
  std::vector<std::shared_ptr<const LocalWrite>> writes;
};

struct State {
  Term pc;
  std::vector<SVal> vars;
  std::map<int, LocalMem> local; // Local-space array id -> contents (absent: epoch 0, no writes)
  Term bc, wc, gc; // barriers executed: block (incl. grid), all, grid
};

class Exec {
public:
  bool wrapFreeSummaries = true;
  bool sharedContent = false; // float loads of shared arrays as shm.NAME(bc, flat)
  Exec(TermContext &tc, const ir::Kernel &k, const GlobalSyms &g, const ThreadSyms &t,
       const std::string &tag, ThreadModel &out)
      : tc_(tc), k_(k), g_(g), t_(t), tag_(tag), out_(out) {}

  void run() {
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
    block(k_.body, s, false);
    out_.reachEnd = s.pc;
  }

private:
  TermContext &tc_;
  const ir::Kernel &k_;
  const GlobalSyms &g_;
  const ThreadSyms &t_;
  std::string tag_;
  ThreadModel &out_;
  bool dry_ = false; // detection passes record nothing
  bool noWrap_ = false; // detection of induction variables modulo wrap-around (validated later)
  bool kernelHasBarrier_ = false;
  bool kernelHasGridBarrier_ = false;
  std::vector<Term> iters_;
  std::map<int, std::vector<State>> pendingExits_;
  std::set<std::string> abstractionSeen_;

  void abstraction(const std::string &what) {
    if (dry_)
      return;
    if (abstractionSeen_.insert(what).second)
      out_.abstractions.push_back(what);
  }

  static Sort sortOf(ir::Type t) {
    return t.isFloat() ? Sort::Real : t.isBool() ? Sort::Bool : Sort::Int;
  }

  SVal initial(int v) {
    const ir::Var &var = k_.vars[v];
    auto it = g_.params.find(v);
    if (it != g_.params.end())
      return {it->second};
    if (var.type.isPtr())
      return {nullptr, -2, tc_.intConst(0)};
    switch (sortOf(var.type)) {
    case Sort::Bool: return {tc_.fls()};
    case Sort::Real: return {tc_.realConst(0)};
    default: return {tc_.intConst(0)};
    }
  }

  Term fresh(const std::string &what, Sort s) { return tc_.fresh(tag_ + "." + what, s); }

  // ---- expressions ----------------------------------------------------------------------

  void arithCheck(const ir::Expr &e, ArithKind kind, Term pc, Term ok) {
    if (dry_ || ok == tc_.tru())
      return;
    out_.arith.push_back({&e, kind, pc, ok});
  }

  Term rangeOk(Term v, ir::Type t) {
    if (!t.isInt() || !t.isSigned)
      return tc_.tru();
    return tc_.inRange(v, t.minValue(), t.maxValue());
  }

  // Unsigned results wrap modulo 2^bits (exactly); signed ones must not overflow (checked).
  Term wrapUnsigned(Term r, ir::Type t) {
    if (!t.isInt() || t.isSigned || noWrap_)
      return r;
    int128 m = static_cast<int128>(1) << t.bits;
    auto [lo, hi] = tc_.range(r);
    if (lo >= 0 && hi < m)
      return r;
    if (lo >= -m && hi < 2 * m)
      return tc_.ite(tc_.lt(r, tc_.intConst(0)), tc_.add(r, tc_.intConst(m)),
                     tc_.ite(tc_.ge(r, tc_.intConst(m)), tc_.sub(r, tc_.intConst(m)), r));
    return tc_.mod(r, tc_.intConst(m));
  }

  Term convertInt(Term v, ir::Type to) {
    if (to.isBool())
      return tc_.ne(v, tc_.intConst(0));
    int128 lo = to.minValue(), hi = to.maxValue();
    auto [a, b] = tc_.range(v);
    if ((a >= lo && b <= hi) || noWrap_)
      return v;
    int128 m = static_cast<int128>(1) << to.bits;
    Term w = tc_.mod(v, tc_.intConst(m)); // in [0, 2^bits)
    if (!to.isSigned)
      return w;
    return tc_.ite(tc_.gt(w, tc_.intConst(hi)), tc_.sub(w, tc_.intConst(m)), w);
  }

  Term pow2(Term e, int maxExp) {
    int128 v;
    if (tc_.isConst(e, &v))
      return tc_.intConst(v >= 0 && v <= 120 ? (static_cast<int128>(1) << v) : 0);
    Term r = tc_.intConst(0);
    for (int i = maxExp; i >= 0; --i)
      r = tc_.ite(tc_.eq(e, tc_.intConst(i)), tc_.intConst(static_cast<int128>(1) << i), r);
    return r;
  }

  Term truncDiv(Term a, Term b) {
    auto [alo, ahi] = tc_.range(a);
    auto [blo, bhi] = tc_.range(b);
    if (alo >= 0 && blo > 0)
      return tc_.div(a, b);
    Term zero = tc_.intConst(0);
    Term q = tc_.div(a, b); // Euclidean
    // Euclidean and truncating division differ only for a < 0 with a non-zero remainder.
    Term r = tc_.mod(a, b);
    Term adj = tc_.ite(tc_.gt(b, zero), tc_.add(q, tc_.intConst(1)), tc_.sub(q, tc_.intConst(1)));
    return tc_.ite(tc_.mkAnd(tc_.lt(a, zero), tc_.ne(r, zero)), adj, q);
  }

  Term realConst(double v) {
    if (v == 0)
      return tc_.realConst(0);
    if (!std::isfinite(v)) { // no real number: an unknown (the equivalence prover refuses these)
      abstraction("infinite or NaN floating-point constants as unknown reals");
      return tc_.app(std::isnan(v) ? "fconst.nan" : v > 0 ? "fconst.inf" : "fconst.-inf", Sort::Real, {});
    }
    int exp = 0;
    double m = std::frexp(v, &exp); // v = m * 2^exp, 0.5 <= |m| < 1
    auto mant = static_cast<int128>(std::ldexp(m, 53));
    exp -= 53;
    while (mant % 2 == 0 && exp < 0) {
      mant /= 2;
      ++exp;
    }
    if (exp >= 0 && exp < 60)
      return tc_.realConst(mant * (static_cast<int128>(1) << exp));
    if (exp < 0 && exp > -100)
      return tc_.realConst(mant, static_cast<int128>(1) << -exp);
    // The largest finite floats are named (kLowestF32...): the equivalence prover knows that
    // no finite value of the type is below the lowest (the start of a max fold).
    const char *named = v == -static_cast<double>(std::numeric_limits<float>::max())  ? kLowestF32
                        : v == static_cast<double>(std::numeric_limits<float>::max()) ? kHighestF32
                        : v == -std::numeric_limits<double>::max()                    ? kLowestF64
                        : v == std::numeric_limits<double>::max()                     ? kHighestF64
                                                                                      : nullptr;
    if (named) {
      abstraction("FLT_MAX and DBL_MAX (and their negations) as named unknown reals, known only to be at least "
                  "(at most) every finite input of their type");
      return tc_.app(named, Sort::Real, {});
    }
    abstraction("floating-point constants of extreme magnitude as unknown reals");
    return tc_.app("fconst." + std::to_string(v), Sort::Real, {});
  }

  SVal evalPtr(const ir::Expr &e, const State &s, Term pc) {
    switch (e.op) {
    case Op::ArrayRef: return {nullptr, e.id, tc_.intConst(0)};
    case Op::VarRef: {
      const SVal &v = s.vars[e.id];
      if (v.array == -1)
        return {nullptr, -2, tc_.intConst(0)};
      return v;
    }
    case Op::PtrAdd: {
      SVal p = evalPtr(*e.args[0], s, pc);
      Term off = eval(*e.args[1], s, pc);
      if (p.array == -3) {
        for (SVal::Alt &a : p.alts)
          a.off = tc_.add(a.off, off);
        return p;
      }
      return {nullptr, p.array, p.off ? tc_.add(p.off, off) : off};
    }
    case Op::Select: {
      Term c = eval(*e.args[0], s, pc);
      SVal a = evalPtr(*e.args[1], s, tc_.mkAnd(pc, c));
      SVal b = evalPtr(*e.args[2], s, tc_.mkAnd(pc, tc_.mkNot(c)));
      return choosePtr(c, a, b);
    }
    default: return {nullptr, -2, tc_.intConst(0)};
    }
  }

  // `c ? a : b` for pointers: one array with a chosen offset, or a choice of arrays.
  SVal choosePtr(Term c, const SVal &a, const SVal &b) {
    if (a.array == -2 || b.array == -2 || a.array == -1 || b.array == -1)
      return {nullptr, -2, tc_.intConst(0)};
    if (a.array == b.array && a.array >= 0)
      return {nullptr, a.array, tc_.ite(c, a.off, b.off)};
    auto altsOf = [&](const SVal &p, Term g) {
      std::vector<SVal::Alt> r;
      if (p.array >= 0)
        r.push_back({p.array, g, p.off});
      else
        for (const SVal::Alt &x : p.alts)
          r.push_back({x.array, tc_.mkAnd(g, x.guard), x.off});
      return r;
    };
    SVal r{nullptr, -3, tc_.intConst(0)};
    r.alts = altsOf(a, c);
    for (const SVal::Alt &x : altsOf(b, tc_.mkNot(c)))
      r.alts.push_back(x);
    if (r.alts.size() > 16)
      return {nullptr, -2, tc_.intConst(0)};
    return r;
  }

  Term eval(const ir::Expr &e, const State &s, Term pc) {
    const ir::Type &ty = e.type;
    switch (e.op) {
    case Op::Const:
      if (ty.isFloat())
        return realConst(e.fval);
      if (ty.isBool())
        return tc_.boolConst(e.ival != 0);
      if (ty.isInt() && !ty.isSigned && e.ival < 0) // a u64 past INT64_MAX is stored wrapped
        return tc_.intConst(static_cast<int128>(e.ival) + (static_cast<int128>(1) << ty.bits));
      return tc_.intConst(e.ival);
    case Op::VarRef: {
      const SVal &v = s.vars[e.id];
      if (!v.t) // a pointer variable used as a value
        return tc_.intConst(0);
      return v.t;
    }
    case Op::Builtin: {
      auto b = static_cast<ir::Builtin>(e.id);
      switch (b) {
      case ir::Builtin::ThreadIdx: return t_.tid[e.dim];
      case ir::Builtin::BlockIdx: return t_.bid[e.dim];
      case ir::Builtin::BlockDim: return g_.blockDim[e.dim];
      case ir::Builtin::GridDim: return g_.gridDim[e.dim];
      }
      return tc_.intConst(0);
    }
    case Op::Len: {
      auto it = g_.lens.find(e.id);
      return it != g_.lens.end() ? it->second : tc_.intConst(0);
    }
    case Op::ArrayRef:
    case Op::PtrAdd: return tc_.intConst(0);
    default: break;
    }
    if (e.op == Op::LAnd || e.op == Op::LOr) {
      Term a = eval(*e.args[0], s, pc);
      Term b = eval(*e.args[1], s, tc_.mkAnd(pc, e.op == Op::LAnd ? a : tc_.mkNot(a)));
      return e.op == Op::LAnd ? tc_.mkAnd(a, b) : tc_.mkOr(a, b);
    }
    if (e.op == Op::Select) {
      if (ty.isPtr())
        return tc_.intConst(0);
      Term c = eval(*e.args[0], s, pc);
      Term a = eval(*e.args[1], s, tc_.mkAnd(pc, c));
      Term b = eval(*e.args[2], s, tc_.mkAnd(pc, tc_.mkNot(c)));
      return tc_.ite(c, a, b);
    }
    if (e.op == Op::Call) {
      std::vector<Term> args;
      for (const auto &a : e.args)
        args.push_back(eval(*a, s, pc));
      return tc_.app("fn." + e.name, Sort::Real, args);
    }
    if (e.op == Op::Cast) {
      Term v = eval(*e.args[0], s, pc);
      ir::Type from = e.args[0]->type;
      if (from.isPtr())
        return tc_.intConst(0);
      if (ty.isFloat() && from.isFloat() && from.bits > ty.bits)
        abstraction("a double narrowed to float keeps its value (a double beyond FLT_MAX becomes infinity on "
                    "the GPU)");
      if (ty.isFloat())
        return from.isBool() ? tc_.ite(v, tc_.realConst(1), tc_.realConst(0)) : tc_.toReal(v);
      if (from.isFloat()) {
        abstraction("float-to-integer conversions as uninterpreted functions");
        Term r = tc_.app("fn.f2i." + ty.str(), Sort::Int, {v});
        if (ty.isBool())
          return tc_.ne(v, tc_.realConst(0));
        if (!dry_)
          out_.facts.push_back(tc_.inRange(r, ty.minValue(), ty.maxValue()));
        tc_.setBounds(r, ty.minValue(), ty.maxValue());
        return r;
      }
      if (from.isBool())
        return ty.isBool() ? v : tc_.ite(v, tc_.intConst(1), tc_.intConst(0));
      return convertInt(v, ty);
    }
    if (e.op == Op::Not)
      return tc_.mkNot(eval(*e.args[0], s, pc));
    if (e.op == Op::Neg) {
      Term a = eval(*e.args[0], s, pc);
      if (ty.isFloat())
        return tc_.neg(a);
      Term r = tc_.neg(a);
      arithCheck(e, ArithKind::SignedOverflow, pc, rangeOk(r, ty));
      return wrapUnsigned(r, ty);
    }
    if (e.op == Op::BitNot) {
      Term a = eval(*e.args[0], s, pc);
      if (ty.isSigned)
        return tc_.sub(tc_.neg(a), tc_.intConst(1));
      return tc_.sub(tc_.intConst(ty.maxValue()), a);
    }
    Term a = eval(*e.args[0], s, pc);
    Term b = eval(*e.args[1], s, pc);
    ir::Type at = e.args[0]->type;
    bool real = at.isFloat();
    switch (e.op) {
    case Op::Eq: return tc_.eq(a, b);
    case Op::Ne: return tc_.ne(a, b);
    case Op::Lt: return tc_.lt(a, b);
    case Op::Le: return tc_.le(a, b);
    case Op::Gt: return tc_.gt(a, b);
    case Op::Ge: return tc_.ge(a, b);
    case Op::Min: return tc_.ite(tc_.le(a, b), a, b);
    case Op::Max: return tc_.ite(tc_.ge(a, b), a, b);
    default: break;
    }
    if (real) {
      switch (e.op) {
      case Op::Add: return tc_.add(a, b);
      case Op::Sub: return tc_.sub(a, b);
      case Op::Mul: return tc_.mul(a, b);
      case Op::Div: return tc_.realDiv(a, b);
      default:
        abstraction(std::string("floating-point '") + ir::opName(e.op) + "' as an uninterpreted function");
        return tc_.app(std::string("fn.f") + ir::opName(e.op), Sort::Real, {a, b});
      }
    }
    switch (e.op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul: {
      Term r = e.op == Op::Add ? tc_.add(a, b) : e.op == Op::Sub ? tc_.sub(a, b) : tc_.mul(a, b);
      arithCheck(e, ArithKind::SignedOverflow, pc, rangeOk(r, ty));
      return wrapUnsigned(r, ty);
    }
    case Op::Div:
    case Op::Rem: {
      arithCheck(e, ArithKind::DivByZero, pc, tc_.ne(b, tc_.intConst(0)));
      Term q = truncDiv(a, b);
      if (e.op == Op::Div) {
        arithCheck(e, ArithKind::SignedOverflow, pc, tc_.implies(tc_.ne(b, tc_.intConst(0)), rangeOk(q, ty)));
        return wrapUnsigned(q, ty);
      }
      auto [alo, ahi] = tc_.range(a);
      auto [blo, bhi] = tc_.range(b);
      if (alo >= 0 && blo > 0)
        return tc_.mod(a, b);
      return tc_.sub(a, tc_.mul(b, q));
    }
    case Op::Shl:
    case Op::Shr: {
      arithCheck(e, ArithKind::ShiftAmount, pc, tc_.inRange(b, 0, ty.bits - 1));
      Term p = pow2(b, ty.bits - 1);
      if (e.op == Op::Shl) {
        Term r = tc_.mul(a, p);
        if (ty.isSigned)
          arithCheck(e, ArithKind::SignedOverflow, pc, tc_.implies(tc_.inRange(b, 0, ty.bits - 1), rangeOk(r, ty)));
        return wrapUnsigned(r, ty);
      }
      return tc_.div(a, p); // arithmetic shift = floor division
    }
    case Op::BitAnd:
    case Op::BitOr:
    case Op::BitXor:
      // Bits (e.g. comparisons cast to int, `f == a | f == b`): exact as boolean logic.
      if (tc_.range(a).first >= 0 && tc_.range(a).second <= 1 && tc_.range(b).first >= 0 &&
          tc_.range(b).second <= 1) {
        Term x = tc_.eq(a, tc_.intConst(1)), y = tc_.eq(b, tc_.intConst(1));
        Term c = e.op == Op::BitAnd ? tc_.mkAnd(x, y) : e.op == Op::BitOr ? tc_.mkOr(x, y) : tc_.ne(a, b);
        return tc_.ite(c, tc_.intConst(1), tc_.intConst(0));
      }
      if (e.op != Op::BitAnd)
        return bitwiseOrXor(e, a, b, ty);
      {
      int128 m;
      auto [alo, ahi] = tc_.range(a);
      if (tc_.isConst(a, &m) && !tc_.isConst(b)) {
        std::swap(a, b);
        std::tie(alo, ahi) = tc_.range(a);
      }
      // Masks are exact for negative operands too: two's complement bits are Euclidean
      // div/mod by powers of two (SMT-LIB's div and mod).
      (void)alo;
      if (tc_.isConst(b, &m) && m < 0 && ((-m) & (-m - 1)) == 0) // a & ~(2^k - 1)
        return tc_.sub(a, tc_.mod(a, tc_.intConst(-m)));
      if (tc_.isConst(b, &m) && m > 0 && (m & (m - 1)) == 0) // one bit
        return tc_.mul(tc_.intConst(m), tc_.mod(tc_.div(a, tc_.intConst(m)), tc_.intConst(2)));
      if (tc_.isConst(b, &m) && m >= 0 && ((m + 1) & m) == 0) // a & (2^k - 1), incl. a & 0
        return tc_.mod(a, tc_.intConst(m + 1));
      return bitwiseOrXor(e, a, b, ty);
      }
    default: break;
    }
    abstraction(std::string("operator '") + ir::opName(e.op) + "' as an uninterpreted function");
    return tc_.app(std::string("fn.") + ir::opName(e.op), sortOf(ty), {a, b});
  }

  // |, ^ (and & when nothing better applies): single bits exactly, else an uninterpreted function.
  Term bitwiseOrXor(const ir::Expr &e, Term a, Term b, const ir::Type &ty) {
    {
      int128 m;
      if (tc_.isConst(a, &m) && !tc_.isConst(b))
        std::swap(a, b);
      if (e.op != Op::BitAnd && tc_.isConst(b, &m) && m > 0 && (m & (m - 1)) == 0 && tc_.range(a).first >= 0) {
        Term bit = tc_.mod(tc_.div(a, tc_.intConst(m)), tc_.intConst(2));
        Term r = e.op == Op::BitXor ? tc_.add(a, tc_.sub(tc_.intConst(m), tc_.mul(tc_.intConst(2 * m), bit)))
                                    : tc_.add(a, tc_.sub(tc_.intConst(m), tc_.mul(tc_.intConst(m), bit)));
        return r;
      }
      abstraction(std::string("bitwise '") + ir::opName(e.op) + "' as an uninterpreted function");
      Term r = tc_.app(std::string("fn.bv") + ir::opName(e.op) + ty.str(), Sort::Int, {a, b});
      if (!dry_)
        out_.facts.push_back(tc_.inRange(r, ty.minValue(), ty.maxValue()));
      tc_.setBounds(r, ty.minValue(), ty.maxValue());
      return r;
    }
  }

  // ---- statements -------------------------------------------------------------------------

  State merge(Term c, const State &a, const State &b) {
    State r;
    r.pc = tc_.mkOr(a.pc, b.pc);
    r.vars.resize(a.vars.size());
    for (size_t i = 0; i < a.vars.size(); ++i) {
      const SVal &x = a.vars[i], &y = b.vars[i];
      if (x.t && y.t) {
        r.vars[i].t = tc_.ite(c, x.t, y.t);
      } else if (x.array == y.array && x.array != -3 && x.off && y.off) {
        r.vars[i] = {nullptr, x.array, tc_.ite(c, x.off, y.off)};
      } else if ((x.array >= 0 || x.array == -3) && (y.array >= 0 || y.array == -3)) {
        r.vars[i] = choosePtr(c, x, y);
      } else if (x.array == -2 && x.off == tc_.intConst(0) && !x.t) {
        r.vars[i] = y; // unassigned on one side
      } else if (y.array == -2 && y.off == tc_.intConst(0) && !y.t) {
        r.vars[i] = x;
      } else {
        r.vars[i] = {nullptr, -2, tc_.intConst(0)};
      }
    }
    r.bc = tc_.ite(c, a.bc, b.bc);
    r.wc = tc_.ite(c, a.wc, b.wc);
    r.gc = tc_.ite(c, a.gc, b.gc);
    // Local memory: both sides share a prefix of writes; the rest were made under exclusive
    // path conditions, so their union is exact.
    std::set<int> ids;
    for (const auto &[id, m] : a.local)
      ids.insert(id);
    for (const auto &[id, m] : b.local)
      ids.insert(id);
    for (int id : ids) {
      LocalMem x = a.local.count(id) ? a.local.at(id) : LocalMem{};
      LocalMem y = b.local.count(id) ? b.local.at(id) : LocalMem{};
      if (x.epoch != y.epoch) {
        r.local[id] = LocalMem{newEpoch(), {}};
        continue;
      }
      size_t common = 0;
      while (common < x.writes.size() && common < y.writes.size() && x.writes[common] == y.writes[common])
        ++common;
      LocalMem m = x;
      m.writes.insert(m.writes.end(), y.writes.begin() + static_cast<std::ptrdiff_t>(common), y.writes.end());
      r.local[id] = std::move(m);
    }
    return r;
  }

  int epochs_ = 0;
  int newEpoch() { return ++epochs_; }

  Term readLocal(const State &s, int arr, Term flat, ir::Type t) {
    auto it = s.local.find(arr);
    int epoch = it == s.local.end() ? 0 : it->second.epoch;
    Term v = tc_.app(tag_ + ".local." + k_.arrays[arr].name + "." + std::to_string(epoch), sortOf(t), {flat});
    if (it != s.local.end())
      for (const auto &w : it->second.writes)
        v = tc_.ite(tc_.mkAnd(w->pc, tc_.eq(w->flat, flat)), w->val, v);
    return v;
  }

  void forgetLocals(State &s, const std::set<int> &arrays, bool all) {
    for (size_t a = 0; a < k_.arrays.size(); ++a)
      if (k_.arrays[a].space == ir::Space::Local && (all || arrays.count(static_cast<int>(a))))
        s.local[static_cast<int>(a)] = LocalMem{newEpoch(), {}};
  }

  // Local arrays a block may store to; `any` when a store's target is not known statically.
  static void storedLocals(const ir::Kernel &k, const ir::Block &b, std::set<int> &out, bool &any) {
    for (const auto &st : b) {
      if (st->kind == StmtKind::Store || st->kind == StmtKind::Atomic) {
        const ir::Expr *p = st->ptr.get();
        while (p->op == Op::PtrAdd)
          p = p->args[0].get();
        if (p->op == Op::ArrayRef) {
          if (k.arrays[p->id].space == ir::Space::Local)
            out.insert(p->id);
        } else {
          any = true;
        }
      }
      for (const ir::Block *c : {&st->pre, &st->body, &st->elseBody, &st->step})
        storedLocals(k, *c, out, any);
    }
  }

  void block(const ir::Block &b, State &s, bool barrierAfter) {
    for (size_t i = 0; i < b.size(); ++i) {
      bool after = barrierAfter;
      for (size_t j = i + 1; j < b.size() && !after; ++j)
        after = ir::containsBarrier({b[j]});
      stmt(*b[i], s, after);
    }
  }

  void access(const ir::Stmt &st, State &s, bool write, bool atomic, Term *loaded,
              int *arrOut = nullptr, Term *flatOut = nullptr, std::vector<SVal::Alt> *alts = nullptr) {
    AccessSite a;
    a.stmt = &st;
    a.write = write;
    a.atomic = atomic;
    a.pc = s.pc;
    a.bc = s.bc;
    a.wc = s.wc;
    a.gc = s.gc;
    a.iters = iters_;
    SVal p = evalPtr(*st.ptr, s, s.pc);
    std::vector<Term> idx;
    for (const auto &i : st.index)
      idx.push_back(eval(*i, s, s.pc));
    if (p.array == -3) {
      // One access per array the pointer may name, each under its condition.
      Term i0 = idx.empty() ? tc_.intConst(0) : idx[0];
      for (const SVal::Alt &alt : p.alts) {
        AccessSite b = a;
        b.array = alt.array;
        b.pc = tc_.mkAnd(s.pc, alt.guard);
        b.flat = tc_.add(alt.off, i0);
        if (loaded && *loaded && !dry_)
          out_.loads.push_back({*loaded, b.array, b.flat});
        if (!dry_ && !(st.kind == StmtKind::Load && st.precondition))
          out_.accesses.push_back(std::move(b));
      }
      if (arrOut)
        *arrOut = -3;
      if (alts)
        *alts = p.alts;
      return;
    }
    a.array = p.array;
    if (p.array < 0) {
      a.pointerKnown = false;
      a.flat = tc_.intConst(0);
    } else {
      const ir::Array &arr = k_.arrays[p.array];
      if (st.ptr->op == Op::ArrayRef && arr.dims.size() > 1 && idx.size() == arr.dims.size()) {
        a.idx = idx;
        Term flat = tc_.intConst(0);
        for (size_t d = 0; d < idx.size(); ++d) {
          int128 stride = 1;
          for (size_t j = d + 1; j < arr.dims.size(); ++j)
            stride *= arr.dims[j];
          flat = tc_.add(flat, tc_.mul(tc_.intConst(stride), idx[d]));
        }
        a.flat = flat;
      } else {
        a.flat = tc_.add(p.off, idx.empty() ? tc_.intConst(0) : idx[0]);
      }
    }
    if (loaded && *loaded && a.array >= 0 && !dry_)
      out_.loads.push_back({*loaded, a.array, a.flat});
    if (loaded)
      a.loaded = *loaded;
    if (arrOut)
      *arrOut = a.array;
    if (flatOut)
      *flatOut = a.flat;
    if (!dry_ && !(st.kind == StmtKind::Load && st.precondition)) // annotation reads are no accesses
      out_.accesses.push_back(std::move(a));
  }

  // The array a pointer expression is based on syntactically, or -1.
  static int baseArrayOf(const ir::Expr &p) {
    const ir::Expr *e = &p;
    while (e->op == Op::PtrAdd)
      e = e->args[0].get();
    return e->op == Op::ArrayRef ? e->id : -1;
  }

  // The flat cell a Load on a syntactic array base touches (as access() computes it).
  Term flatOf(const ir::Stmt &st, const State &s) {
    SVal p = evalPtr(*st.ptr, s, s.pc);
    std::vector<Term> idx;
    for (const auto &i : st.index)
      idx.push_back(eval(*i, s, s.pc));
    const ir::Array &arr = k_.arrays[p.array];
    if (st.ptr->op == Op::ArrayRef && arr.dims.size() > 1 && idx.size() == arr.dims.size()) {
      Term flat = tc_.intConst(0);
      for (size_t d = 0; d < idx.size(); ++d) {
        int128 stride = 1;
        for (size_t j = d + 1; j < arr.dims.size(); ++j)
          stride *= arr.dims[j];
        flat = tc_.add(flat, tc_.mul(tc_.intConst(stride), idx[d]));
      }
      return flat;
    }
    return tc_.add(p.off, idx.empty() ? tc_.intConst(0) : idx[0]);
  }

  // A fresh value of an integer type lies in the type's range (for the simplifier and the solver).
  void boundToType(Term sym, const ir::Type &t) {
    if (!t.isInt())
      return;
    tc_.setBounds(sym, t.minValue(), t.maxValue());
    if (!dry_)
      out_.facts.push_back(tc_.inRange(sym, t.minValue(), t.maxValue()));
  }

  Term idxOf(const ir::Stmt &st, const State &s) {
    return st.index.empty() ? tc_.intConst(0) : eval(*st.index[0], s, s.pc);
  }

  void assign(State &s, int var, const ir::Expr &value) {
    if (k_.vars[var].type.isPtr()) {
      SVal p = evalPtr(value, s, s.pc);
      s.vars[var] = p;
      return;
    }
    s.vars[var] = {eval(value, s, s.pc)};
  }

  void stmt(const ir::Stmt &st, State &s, bool barrierAfter) {
    if (s.pc == tc_.fls())
      return;
    switch (st.kind) {
    case StmtKind::Assign: assign(s, st.var, *st.value); return;
    case StmtKind::Load: {
      const ir::Var &v = k_.vars[st.var];
      int arr = -1;
      Term flat = nullptr;
      std::vector<SVal::Alt> alts;
      Term sym = nullptr;
      int base = st.ptr ? baseArrayOf(*st.ptr) : -1;
      if (base < 0 && st.ptr && !v.type.isPtr()) {
        // Through a pointer variable that holds one known array (`x = X + r * C; x[c]`).
        SVal p = evalPtr(*st.ptr, s, s.pc);
        if (p.array >= 0 && p.off)
          base = p.array;
      }
      if (!v.type.isPtr() && st.ptr && g_.readOnly.count(base)) {
        // Contents fixed during the kernel: the same function of the cell for every load.
        const ir::Array &ra = k_.arrays[base];
        sym = tc_.app(memName(k_, base), sortOf(ra.elem), {flatOf(st, s)});
      } else if (!v.type.isPtr() && sharedContent && base >= 0 && k_.arrays[base].space == ir::Space::Shared &&
                 k_.arrays[base].elem.isFloat() && v.type.isFloat()) {
        // The cell's content at the start of this barrier interval (valid only where the
        // thread has not stored to it earlier in the interval: the caller checks).
        const ir::Array &ra = k_.arrays[base];
        (void)ra;
        sym = tc_.app(shmName(k_, base), Sort::Real, {s.bc, flatOf(st, s)});
      } else if (!v.type.isPtr()) {
        sym = fresh("load." + v.name, sortOf(v.type));
      }
      access(st, s, false, false, &sym, &arr, &flat, &alts);
      if (!v.type.isPtr() && arr >= 0 && k_.arrays[arr].space == ir::Space::Local) {
        s.vars[st.var] = {readLocal(s, arr, flat, v.type)};
        return;
      }
      if (!v.type.isPtr() && arr == -3) {
        // A choice of arrays: the value read from whichever one it is.
        Term val = sym;
        for (const SVal::Alt &a : alts)
          if (k_.arrays[a.array].space == ir::Space::Local)
            val = tc_.ite(a.guard, readLocal(s, a.array, tc_.add(a.off, idxOf(st, s)), v.type), val);
        boundToType(sym, v.type);
        s.vars[st.var] = {val};
        return;
      }
      if (v.type.isPtr()) {
        s.vars[st.var] = {nullptr, -2, tc_.intConst(0)};
      } else {
        if (v.type.isInt())
          tc_.setBounds(sym, v.type.minValue(), v.type.maxValue());
        if (!dry_ && v.type.isInt())
          out_.facts.push_back(tc_.inRange(sym, v.type.minValue(), v.type.maxValue()));
        s.vars[st.var] = {sym};
      }
      return;
    }
    case StmtKind::Store: {
      Term val = st.value->type.isPtr() ? nullptr : eval(*st.value, s, s.pc);
      int arr = -1;
      Term flat = nullptr;
      std::vector<SVal::Alt> alts;
      size_t before = out_.accesses.size();
      access(st, s, true, false, nullptr, &arr, &flat, &alts);
      for (size_t a = before; a < out_.accesses.size(); ++a)
        out_.accesses[a].value = val;
      if (arr >= 0 && k_.arrays[arr].space == ir::Space::Local) {
        if (val && !k_.arrays[arr].elem.isPtr())
          s.local[arr].writes.push_back(std::make_shared<LocalWrite>(LocalWrite{s.pc, flat, val}));
        else
          forgetLocals(s, {arr}, false);
      } else if (arr == -3) {
        for (const SVal::Alt &a : alts)
          if (k_.arrays[a.array].space == ir::Space::Local) {
            if (val && !k_.arrays[a.array].elem.isPtr())
              s.local[a.array].writes.push_back(std::make_shared<LocalWrite>(
                  LocalWrite{tc_.mkAnd(s.pc, a.guard), tc_.add(a.off, idxOf(st, s)), val}));
            else
              forgetLocals(s, {a.array}, false);
          }
      } else if (arr < 0) {
        forgetLocals(s, {}, true); // a store through an unresolved pointer may hit any of them
      }
      return;
    }
    case StmtKind::Atomic: {
      Term operand = eval(*st.value, s, s.pc);
      {
        const ir::Expr *p = st.ptr.get();
        while (p->op == Op::PtrAdd)
          p = p->args[0].get();
        if (p->op != Op::ArrayRef || k_.arrays[p->id].space == ir::Space::Local)
          forgetLocals(s, {}, true);
      }
      Term sym = nullptr;
      if (st.var >= 0) {
        const ir::Var &v = k_.vars[st.var];
        sym = fresh("atomic." + v.name, sortOf(v.type));
        if (v.type.isInt() && !dry_)
          out_.facts.push_back(tc_.inRange(sym, v.type.minValue(), v.type.maxValue()));
        s.vars[st.var] = {sym};
      }
      size_t before = out_.accesses.size();
      access(st, s, true, true, nullptr);
      for (size_t a = before; a < out_.accesses.size(); ++a)
        out_.accesses[a].value = operand; // the operand (the update depends on st.atomic)
      return;
    }
    case StmtKind::If: {
      Term c = eval(*st.cond, s, s.pc);
      bool relevant = ir::containsBarrier(st.body) || ir::containsBarrier(st.elseBody) ||
                      (barrierAfter && (!ir::exitsLeaving(st.body).empty() ||
                                        !ir::exitsLeaving(st.elseBody).empty()));
      if (relevant && !dry_) {
        // Only __syncwarp()s inside (and no early exit before a later barrier): the lanes of
        // one warp must agree, other warps may differ.
        bool exits = !ir::exitsLeaving(st.body).empty() || !ir::exitsLeaving(st.elseBody).empty();
        bool warpOnly = !hasNonWarpBarrier(st.body) && !hasNonWarpBarrier(st.elseBody) && !(barrierAfter && exits);
        out_.controls.push_back({&st, st.loc, warpOnly, s.pc, c, iters_});
        out_.controls.back().grid =
            ir::containsGridBarrier(st.body) || ir::containsGridBarrier(st.elseBody) ||
            (kernelHasGridBarrier_ && barrierAfter &&
             (!ir::exitsLeaving(st.body).empty() || !ir::exitsLeaving(st.elseBody).empty()));
      }
      State t = s, e = s;
      t.pc = tc_.mkAnd(s.pc, c);
      e.pc = tc_.mkAnd(s.pc, tc_.mkNot(c));
      block(st.body, t, barrierAfter);
      block(st.elseBody, e, barrierAfter);
      s = merge(c, t, e);
      return;
    }
    case StmtKind::Block: {
      pendingExits_.erase(st.label);
      block(st.body, s, barrierAfter);
      auto it = pendingExits_.find(st.label);
      if (it != pendingExits_.end()) {
        for (State &x : it->second)
          s = merge(x.pc, x, s);
        pendingExits_.erase(it);
      }
      return;
    }
    case StmtKind::Exit: {
      pendingExits_[st.label].push_back(s);
      s.pc = tc_.fls();
      return;
    }
    case StmtKind::Loop: loop(st, s, barrierAfter); return;
    case StmtKind::Barrier:
      if (st.barrier != ir::BarrierKind::Warp)
        s.bc = tc_.add(s.bc, tc_.intConst(1));
      if (st.barrier == ir::BarrierKind::Grid)
        s.gc = tc_.add(s.gc, tc_.intConst(1));
      s.wc = tc_.add(s.wc, tc_.intConst(1));
      return;
    case StmtKind::Assume:
      if (!dry_)
        out_.assumptions.push_back(tc_.implies(s.pc, eval(*st.cond, s, s.pc)));
      return;
    case StmtKind::Assert:
      if (!dry_)
        out_.asserts.push_back({&st, s.pc, eval(*st.cond, s, s.pc)});
      return;
    case StmtKind::Unsupported:
      if (!dry_)
        out_.unsupported.push_back(&st);
      return;
    case StmtKind::Havoc: {
      const ir::Var &v = k_.vars[st.var];
      if (v.type.isPtr()) {
        s.vars[st.var] = {nullptr, -2, tc_.intConst(0)};
        return;
      }
      Term sym = fresh("havoc." + v.name, sortOf(v.type));
      boundToType(sym, v.type);
      s.vars[st.var] = {sym};
      return;
    }
    }
  }

  static bool hasNonWarpBarrier(const ir::Block &b) {
    for (const auto &s : b) {
      if (s->kind == StmtKind::Barrier && s->barrier != ir::BarrierKind::Warp)
        return true;
      for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
        if (hasNonWarpBarrier(*c))
          return true;
    }
    return false;
  }

  static void assignedVars(const ir::Block &b, std::set<int> &out) {
    for (const auto &s : b) {
      if ((s->kind == StmtKind::Assign || s->kind == StmtKind::Load || s->kind == StmtKind::Atomic ||
           s->kind == StmtKind::Havoc) &&
          s->var >= 0)
        out.insert(s->var);
      for (const ir::Block *c : {&s->pre, &s->body, &s->elseBody, &s->step})
        assignedVars(*c, out);
    }
  }

  enum class Shape { Invariant, Affine, ShiftRight, ShiftLeft, Accumulate, Extremum, ArgExtremum, Havoc };
  struct Summary {
    Shape shape = Shape::Havoc;
    Term step = nullptr; // Affine, Accumulate: per-iteration delta (Accumulate: over entry values);
                         // Extremum: the per-iteration candidate (kExtremumNone: no update)
    int k = 0;
    bool isMax = false;  // Extremum, ArgExtremum: max (else min)
    int keyVar = -1;     // ArgExtremum: the fold's variable, whose update decides this one's
    bool strict = false; // ArgExtremum: replaced on > (<), not >= (<=)
    bool validate = false; // found assuming no wrap-around: check by induction
  };

  // One iteration: pre, test, body, step. Returns the state at the end of the iteration and
  // the loop condition's value.
  State iteration(const ir::Stmt &L, State s, Term &cond, bool barrierAfterBody, bool record,
                  Term iterPcExtra) {
    if (L.testFirst) {
      s.pc = tc_.mkAnd(s.pc, iterPcExtra);
      block(L.pre, s, true);
      cond = eval(*L.cond, s, s.pc);
      if (record && !dry_ && (ir::containsBarrier(L.body) || ir::containsBarrier(L.step) ||
                              (barrierAfterBody && !ir::exitsLeaving(L.body).empty()))) {
        out_.controls.push_back({&L, L.loc, false, s.pc, cond, iters_});
        out_.controls.back().grid = ir::containsGridBarrier(L.body) || ir::containsGridBarrier(L.step) ||
                                    (kernelHasGridBarrier_ && barrierAfterBody &&
                                     !ir::exitsLeaving(L.body).empty());
      }
      s.pc = tc_.mkAnd(s.pc, cond);
      block(L.body, s, barrierAfterBody);
      block(L.step, s, barrierAfterBody);
    } else {
      s.pc = tc_.mkAnd(s.pc, iterPcExtra);
      block(L.body, s, barrierAfterBody);
      block(L.step, s, barrierAfterBody);
      block(L.pre, s, true);
      cond = eval(*L.cond, s, s.pc);
      if (record && !dry_ && ir::containsBarrier(L.body)) {
        out_.controls.push_back({&L, L.loc, false, s.pc, cond, iters_});
        out_.controls.back().grid = ir::containsGridBarrier(L.body);
      }
    }
    return s;
  }

  Term valueAt(const Summary &sm, Term v0, Term i, const std::string &name, Sort sort,
               const ir::Type *ty = nullptr) {
    switch (sm.shape) {
    case Shape::Invariant: return v0;
    case Shape::Affine: return tc_.add(v0, tc_.mul(i, sm.step));
    case Shape::ShiftRight:
    case Shape::ShiftLeft: {
      // Right shifts are exact up to 64 bits, past which every 64-bit value has reached its
      // fixed point: 0, or -1 for negatives (an unsigned 2^63 needs all 64 shifts).
      int maxIter = (sm.shape == Shape::ShiftRight ? 64 : 62) / sm.k;
      Term r = sm.shape == Shape::ShiftRight
                   ? tc_.ite(tc_.ge(v0, tc_.intConst(0)), tc_.intConst(0), tc_.intConst(-1))
                   : fresh("loopvar." + name, sort);
      if (sm.shape == Shape::ShiftLeft && ty && ty->isInt() && ty->isSigned && ty->bits < 62) {
        // A signed variable doubled past its width has overflowed on the way (undefined
        // behaviour, which the overflow obligation reports where it can happen). Without
        // overflow only v0 == 0 gets there; any other start would be out of the type's range,
        // which is what the value says (|v| >= 2^bits), so conditions like `d < n` end the loop.
        maxIter = (ty->bits - 1) / sm.k;
        Term m = fresh("loopvar.mult." + name, sort);
        if (!dry_)
          out_.facts.push_back(tc_.le(tc_.intConst(1), m));
        r = tc_.ite(tc_.eq(v0, tc_.intConst(0)), tc_.intConst(0),
                    tc_.mul(tc_.mul(v0, tc_.intConst(static_cast<int128>(1) << ((maxIter + 1) * sm.k))), m));
      }
      for (int n = maxIter; n >= 0; --n) {
        Term p = tc_.intConst(static_cast<int128>(1) << (n * sm.k));
        Term vn = sm.shape == Shape::ShiftRight ? tc_.div(v0, p) : tc_.mul(v0, p);
        r = tc_.ite(tc_.eq(i, tc_.intConst(n)), vn, r);
      }
      return r;
    }
    case Shape::Accumulate: // handled by accumulated(); unknown where only the shape is at hand
    case Shape::Extremum:
    case Shape::ArgExtremum:
    case Shape::Havoc: return fresh("loopvar." + name, sort);
    }
    return nullptr;
  }

  // The number of iterations of a counted loop whose test, after n iterations, is `cn`: for
  // a test D(n) < 0 (or <= 0) with D affine in n with a positive constant slope, the first n
  // where it fails. nullptr when the test has another shape or depends on values that are
  // unknown per iteration (symbols made after `mark`).
  Term tripCount(Term cn, Term n, uint32_t mark) {
    if (cn->kind != smt::Kind::Lt && cn->kind != smt::Kind::Le)
      return nullptr;
    if (cn->kids[0]->sort != Sort::Int)
      return nullptr;
    Term D = tc_.sub(cn->kids[0], cn->kids[1]);
    std::vector<Term> syms;
    tc_.collectSymbols(D, syms);
    for (Term x : syms)
      if (x->kind == smt::Kind::Var && x->id > mark && x != n)
        return nullptr;
    Term d0 = tc_.substitute(D, {{n, tc_.intConst(0)}});
    Term d1 = tc_.substitute(D, {{n, tc_.intConst(1)}});
    Term d2 = tc_.substitute(D, {{n, tc_.intConst(2)}});
    Term alpha = tc_.sub(d1, d0);
    int128 a = 0;
    if (!tc_.isConst(alpha, &a) || a <= 0 || tc_.sub(d2, d1) != alpha || tc_.mentions(d0, n))
      return nullptr;
    // Sampling three points is not linearity (n + (n div 3) * 1000 agrees with n at 0, 1, 2):
    // D - a n must be free of n.
    if (tc_.mentions(tc_.sub(D, tc_.mul(tc_.intConst(a), n)), n))
      return nullptr;
    Term zero = tc_.intConst(0), A = tc_.intConst(a);
    if (cn->kind == smt::Kind::Lt) // runs while d0 + a n < 0
      return tc_.ite(tc_.lt(d0, zero), tc_.div(tc_.add(tc_.neg(d0), tc_.intConst(a - 1)), A), zero);
    return tc_.ite(tc_.le(d0, zero), tc_.add(tc_.div(tc_.neg(d0), A), tc_.intConst(1)), zero);
  }

  // The number of iterations when the test after each number of iterations folds to a
  // constant (a halving loop from a constant: `for (s = 128; s > 0; s >>= 1)` runs 8 times):
  // the first count whose test is false, or nullptr.
  Term constantTripCount(Term cn, Term n) {
    for (int c = 0; c <= 64; ++c) {
      Term v = tc_.substitute(cn, {{n, tc_.intConst(c)}});
      if (v == tc_.fls())
        return tc_.intConst(c);
      if (v != tc_.tru())
        return nullptr;
    }
    return nullptr;
  }

  // d with v = e + d syntactically (through `ite`s: a conditional update adds 0 on the other
  // branch), or nullptr. Real sums are not normalised, so this follows their structure.
  Term realDelta(Term v, Term e) {
    if (v == e)
      return tc_.realConst(0);
    if (v->kind == smt::Kind::Add && v->kids.size() == 2) {
      if (v->kids[0] == e)
        return v->kids[1];
      if (v->kids[1] == e)
        return v->kids[0];
      Term d = realDelta(v->kids[0], e);
      if (d)
        return tc_.add(d, v->kids[1]);
      return nullptr;
    }
    if (v->kind == smt::Kind::Ite) {
      Term a = realDelta(v->kids[1], e), b = realDelta(v->kids[2], e);
      if (a && b)
        return tc_.ite(v->kids[0], a, b);
    }
    return nullptr;
  }

  // d with v = max(e, d) (isMax) or min(e, d), d free of e, through `ite`s whose other arm
  // leaves e unchanged (an arm without update becomes kExtremumNone); or nullptr.
  Term extremumStep(Term v, Term e, bool isMax) {
    Term p, q;
    bool mx = false;
    if (v == e)
      return tc_.app(kExtremumNone, Sort::Real, {});
    if (extremumOf(v, p, q, mx) && mx == isMax) {
      if (p == e && !tc_.mentions(q, e))
        return q;
      if (q == e && !tc_.mentions(p, e))
        return p;
      return nullptr;
    }
    if (v->kind == smt::Kind::Ite && !tc_.mentions(v->kids[0], e)) {
      Term a = extremumStep(v->kids[1], e, isMax), b = extremumStep(v->kids[2], e, isMax);
      if (a && b)
        return tc_.ite(v->kids[0], a, b);
    }
    return nullptr;
  }

  // The value of accumulator v after n iterations: v0 + lsum(n, params) (symexec.h SumDef);
  // for an Extremum, ite(n >= 1, max(v0, lmax(n, params)), v0).
  Term accumulated(int v, const Summary &sm, const State &s, Term n, std::map<int, Summary> &summary,
                   const std::map<int, Term> &entrySym,
                   const std::function<std::vector<std::pair<Term, Term>>(Term)> &counters) {
    Term j = fresh("sumidx", Sort::Int);
    // A step over the entry values of the other variables, at iteration j.
    auto atIteration = [&](Term step, int self) {
      std::unordered_map<Term, Term> sub;
      for (const auto &[w, ew] : entrySym)
        if (w != self && tc_.mentions(step, ew))
          sub[ew] = valueAt(summary[w], s.vars[w].t ? s.vars[w].t : tc_.intConst(0), j, k_.vars[w].name,
                            sortOf(k_.vars[w].type), &k_.vars[w].type);
      for (const auto &[e, val] : counters(j))
        if (tc_.mentions(step, e))
          sub[e] = val;
      return tc_.substitute(step, sub);
    };
    Term body = atIteration(sm.step, v);
    Term key = sm.shape == Shape::ArgExtremum ? atIteration(summary[sm.keyVar].step, sm.keyVar) : nullptr;
    std::vector<Term> syms, params;
    tc_.collectSymbols(body, syms);
    if (key)
      tc_.collectSymbols(key, syms);
    for (Term x : syms)
      if (x->kind == smt::Kind::Var && x != j && std::find(params.begin(), params.end(), x) == params.end())
        params.push_back(x);
    if (key) {
      std::string name = std::string(sm.isMax ? "larg." : "largmin.") + tag_ + "." + std::to_string(out_.sums.size());
      SumDef def{j, body, params};
      def.key = key;
      def.strict = sm.strict;
      def.isMax = sm.isMax;
      out_.sums[name] = def;
      std::vector<Term> args{n};
      args.insert(args.end(), params.begin(), params.end());
      const SVal &m0 = s.vars[sm.keyVar];
      args.push_back(m0.t ? m0.t : tc_.realConst(0));
      args.push_back(s.vars[v].t ? s.vars[v].t : tc_.intConst(0));
      Term app = tc_.app(name, sortOf(k_.vars[v].type), args);
      if (!dry_ && k_.vars[v].type.isInt())
        out_.facts.push_back(tc_.inRange(app, k_.vars[v].type.minValue(), k_.vars[v].type.maxValue()));
      return app;
    }
    bool ext = sm.shape == Shape::Extremum;
    std::string name = std::string(!ext ? "lsum." : sm.isMax ? "lmax." : "lmin.") + tag_ + "." +
                       std::to_string(out_.sums.size());
    out_.sums[name] = SumDef{j, body, params};
    std::vector<Term> args{n};
    args.insert(args.end(), params.begin(), params.end());
    Term v0 = s.vars[v].t ? s.vars[v].t : tc_.realConst(0);
    Term app = tc_.app(name, Sort::Real, args);
    if (!ext)
      return tc_.add(v0, app);
    Term folded = sm.isMax ? tc_.ite(tc_.le(app, v0), v0, app) : tc_.ite(tc_.le(v0, app), v0, app);
    return tc_.ite(tc_.le(tc_.intConst(1), n), folded, v0);
  }

  void loop(const ir::Stmt &L, State &s, bool barrierAfter) {
    bool hasBarrier = ir::containsBarrier(L.body) || ir::containsBarrier(L.step);
    bool barrierAfterBody = barrierAfter || hasBarrier;
    std::set<int> modified;
    for (const ir::Block *b : {&L.pre, &L.body, &L.step})
      assignedVars(*b, modified);
    std::vector<int> leaving;
    {
      ir::Block all = L.pre;
      all.insert(all.end(), L.body.begin(), L.body.end());
      all.insert(all.end(), L.step.begin(), L.step.end());
      leaving = ir::exitsLeaving(all);
    }
    bool breaks = false;
    std::vector<int> outer;
    for (int l : leaving) {
      if (l == L.label)
        breaks = true;
      else
        outer.push_back(l);
    }
    bool irregular = breaks || !outer.empty();

    // 1. Detection pass on symbolic entry values.
    State entry = s;
    std::map<int, Term> entrySym;
    uint32_t watermark = tc_.fresh("watermark", Sort::Bool)->id;
    for (int v : modified) {
      if (k_.vars[v].type.isPtr())
        continue;
      Term e = fresh("entry." + k_.vars[v].name, sortOf(k_.vars[v].type));
      if (k_.vars[v].type.isInt())
        tc_.setBounds(e, k_.vars[v].type.minValue(), k_.vars[v].type.maxValue());
      entrySym[v] = e;
      entry.vars[v] = {e};
    }
    std::set<int> localsStored;
    bool anyStored = false;
    for (const ir::Block *b : {&L.pre, &L.body, &L.step})
      storedLocals(k_, *b, localsStored, anyStored);
    forgetLocals(entry, localsStored, anyStored);
    Term bcEntry = fresh("entry.bc", Sort::Int), wcEntry = fresh("entry.wc", Sort::Int);
    Term gcEntry = fresh("entry.gc", Sort::Int);
    entry.bc = bcEntry;
    entry.wc = wcEntry;
    entry.gc = gcEntry;
    std::map<int, Summary> summary;
    Summary bcSum, wcSum, gcSum;
    std::set<Term> entryIds{bcEntry, wcEntry, gcEntry};
    for (auto &[v, e] : entrySym)
      entryIds.insert(e);
    {
      bool savedDry = dry_;
      dry_ = true;
      auto savedExits = pendingExits_;
      Term cond;
      State end = iteration(L, entry, cond, barrierAfterBody, false, tc_.tru());
      pendingExits_ = savedExits;
      dry_ = savedDry;
      auto classify = [&](Term e, Term v) {
        Summary sm;
        if (v == e) {
          sm.shape = Shape::Invariant;
          return sm;
        }
        if (v && e->sort == Sort::Real) {
          // acc' = acc + d, or acc' = max(acc, d) or min(acc, d), with d free of acc and of
          // values made inside the iteration other than the entry values of the loop's
          // variables (substituted per iteration later).
          Shape shape = Shape::Accumulate;
          bool isMax = false;
          Term d = realDelta(v, e);
          for (bool mx : {true, false}) {
            if (d)
              break;
            d = extremumStep(v, e, mx);
            if (d && d->kind == smt::Kind::App && d->name == kExtremumNone)
              d = nullptr; // never updated: not an extremum (and v == e was handled above)
            shape = Shape::Extremum;
            isMax = mx;
          }
          if (!d)
            return sm;
          std::vector<Term> syms;
          tc_.collectSymbols(d, syms);
          bool ok = true;
          for (Term x : syms)
            if (x == e || (x->kind == smt::Kind::Var && x->id > watermark && !entryIds.count(x)))
              ok = false;
          if (ok) {
            sm.shape = shape;
            sm.step = d;
            sm.isMax = isMax;
          }
          return sm;
        }
        if (!v || e->sort != Sort::Int)
          return sm;
        auto variant = [&](Term t) {
          std::vector<Term> syms;
          tc_.collectSymbols(t, syms);
          for (Term x : syms)
            if (x->kind == smt::Kind::Var && x->id > watermark)
              return true;
          return false;
        };
        Term d = tc_.sub(v, e);
        if (!variant(d)) {
          sm.shape = Shape::Affine;
          sm.step = d;
          return sm;
        }
        // v = e div 2^k  or  v = e * 2^k
        if (v->kind == smt::Kind::Div && v->kids[0] == e) {
          int128 p;
          if (tc_.isConst(v->kids[1], &p) && p > 1 && (p & (p - 1)) == 0) {
            sm.shape = Shape::ShiftRight;
            sm.k = 0;
            while ((static_cast<int128>(1) << sm.k) < p)
              ++sm.k;
            return sm;
          }
        }
        if (v->kind == smt::Kind::Mul && v->kids.size() == 2 && v->kids[1] == e) {
          int128 p;
          if (tc_.isConst(v->kids[0], &p) && p > 1 && (p & (p - 1)) == 0) {
            sm.shape = Shape::ShiftLeft;
            sm.k = 0;
            while ((static_cast<int128>(1) << sm.k) < p)
              ++sm.k;
            return sm;
          }
        }
        return sm;
      };
      for (auto &[v, e] : entrySym)
        summary[v] = classify(e, end.vars[v].t);
      // Induction variables stepped through unsigned arithmetic or conversions
      // (`i += blockDim.x * gridDim.x` with int i) are affine as long as nothing wraps:
      // classify those without wrap-around and validate the summary in the recorded pass.
      bool retry = false;
      for (auto &[v, sm] : summary)
        if (wrapFreeSummaries)
        retry |= sm.shape == Shape::Havoc;
      if (retry) {
        dry_ = true;
        noWrap_ = true;
        auto saved2 = pendingExits_;
        Term c2;
        State end2 = iteration(L, entry, c2, barrierAfterBody, false, tc_.tru());
        pendingExits_ = saved2;
        noWrap_ = false;
        dry_ = savedDry;
        for (auto &[v, e] : entrySym)
          if (summary[v].shape == Shape::Havoc) {
            Summary alt = classify(e, end2.vars[v].t);
            if (alt.shape == Shape::Affine || alt.shape == Shape::ShiftLeft) {
              alt.validate = true;
              summary[v] = alt;
            }
          }
      }
      bcSum = classify(bcEntry, end.bc);
      wcSum = classify(wcEntry, end.wc);
      gcSum = classify(gcEntry, end.gc);
      // An accumulator's increment may use the other variables only where their value at
      // each iteration is exact (not unknown, not another accumulator).
      auto folds = [](const Summary &x) { return x.shape == Shape::Accumulate || x.shape == Shape::Extremum; };
      for (auto &[v, sm] : summary) {
        if (!folds(sm))
          continue;
        for (auto &[w, ew] : entrySym)
          if (folds(sm) && w != v && tc_.mentions(sm.step, ew) &&
              (summary[w].shape == Shape::Havoc || folds(summary[w])))
            sm = Summary{};
        for (auto [ce, cs] : {std::pair{bcEntry, &bcSum}, std::pair{wcEntry, &wcSum}, std::pair{gcEntry, &gcSum}})
          if (folds(sm) && tc_.mentions(sm.step, ce) && cs->shape == Shape::Havoc)
            sm = Summary{};
      }
      // An int variable set under exactly the condition on which a max (min) fold's variable
      // takes a new candidate: the index of that candidate (argmax).
      for (auto &[v, sm] : summary) {
        Term ev = entrySym.count(v) ? entrySym.at(v) : nullptr;
        Term vt = end.vars[v].t;
        if (sm.shape != Shape::Havoc || !ev || !k_.vars[v].type.isInt() || !vt || vt->kind != smt::Kind::Ite ||
            vt->kids[2] != ev || tc_.mentions(vt->kids[1], ev))
          continue;
        Term c = vt->kids[0];
        for (auto &[w, sw] : summary) {
          Term wt = end.vars[w].t, ew = entrySym.count(w) ? entrySym.at(w) : nullptr;
          if (sw.shape != Shape::Extremum || !wt || wt->kind != smt::Kind::Ite || wt->kids[0] != c || wt->kids[2] != ew ||
              wt->kids[1] != sw.step || (c->kind != smt::Kind::Lt && c->kind != smt::Kind::Le))
            continue;
          // max: c is ew < d (ew <= d); min: d < ew (d <= ew).
          bool mx = c->kids[0] == ew && c->kids[1] == sw.step;
          bool mn = c->kids[1] == ew && c->kids[0] == sw.step;
          if (!(sw.isMax ? mx : mn))
            continue;
          std::vector<Term> syms;
          tc_.collectSymbols(vt->kids[1], syms);
          bool ok = true;
          for (Term x : syms)
            if (x->kind == smt::Kind::Var && x->id > watermark && !entryIds.count(x))
              ok = false;
          for (auto &[u, eu] : entrySym)
            if (u != v && tc_.mentions(vt->kids[1], eu) &&
                (summary[u].shape == Shape::Havoc || summary[u].shape == Shape::Accumulate ||
                 summary[u].shape == Shape::Extremum))
              ok = false;
          if (!ok)
            break;
          sm.shape = Shape::ArgExtremum;
          sm.step = vt->kids[1];
          sm.keyVar = w;
          sm.isMax = sw.isMax;
          sm.strict = c->kind == smt::Kind::Lt;
          break;
        }
      }
      if (irregular) {
        // With break/return inside, per-iteration barrier counts are only affine if
        // the barriers are unconditional; otherwise havoc.
      }
    }
    for (int v : modified)
      if (k_.vars[v].type.isPtr())
        summary[v] = {}; // pointer variables changed in loops: unknown

    auto stateAt = [&](Term i, const std::string &why) {
      State r = s;
      forgetLocals(r, localsStored, anyStored);
      for (int v : modified) {
        if (k_.vars[v].type.isPtr()) {
          r.vars[v] = {nullptr, -2, tc_.intConst(0)};
          continue;
        }
        const Summary &sm = summary[v];
        if (sm.shape == Shape::Accumulate || sm.shape == Shape::Extremum || sm.shape == Shape::ArgExtremum) {
          r.vars[v] = {accumulated(v, sm, s, i, summary, entrySym, [&](Term j) {
            return std::vector<std::pair<Term, Term>>{{bcEntry, valueAt(bcSum, s.bc, j, "bc", Sort::Int)},
                                                      {wcEntry, valueAt(wcSum, s.wc, j, "wc", Sort::Int)},
                                                      {gcEntry, valueAt(gcSum, s.gc, j, "gc", Sort::Int)}};
          })};
          continue;
        }
        if (sm.shape == Shape::Havoc && k_.vars[v].name.find('.') == std::string::npos)
          abstraction("loop-carried variable '" + k_.vars[v].name + "' summarised as unknown");
        Term val = valueAt(sm, s.vars[v].t ? s.vars[v].t : tc_.intConst(0), i, k_.vars[v].name,
                           sortOf(k_.vars[v].type), &k_.vars[v].type);
        if (sm.shape == Shape::Havoc && k_.vars[v].type.isInt() && !dry_)
          out_.facts.push_back(tc_.inRange(val, k_.vars[v].type.minValue(), k_.vars[v].type.maxValue()));
        r.vars[v] = {val};
      }
      r.bc = valueAt(bcSum, s.bc, i, "bc", Sort::Int);
      r.wc = valueAt(wcSum, s.wc, i, "wc", Sort::Int);
      r.gc = valueAt(gcSum, s.gc, i, "gc", Sort::Int);
      if (bcSum.shape == Shape::Havoc && !dry_)
        out_.facts.push_back(tc_.le(s.bc, r.bc));
      (void)why;
      return r;
    };

    // A counted loop's iterations are below its closed-form trip count: bounding the
    // iteration symbol by the count's largest value lets the simplifier see that indices
    // such as `c = t + 256 i` stay in range (no wrap-around in unsigned arithmetic). Only
    // reached iterations are ever described by i, so the bound loses no behaviour.
    int128 maxTrips = -1;
    if (!irregular && L.testFirst && L.pre.empty()) {
      bool savedDry = dry_;
      dry_ = true;
      auto saved = pendingExits_;
      uint32_t mark = tc_.fresh("watermark", Sort::Bool)->id;
      Term n0 = fresh("trips", Sort::Int);
      State probe = stateAt(n0, "bound");
      Term cn = eval(*L.cond, probe, probe.pc);
      Term closed = tripCount(cn, n0, mark);
      if (!closed)
        closed = constantTripCount(cn, n0);
      pendingExits_ = saved;
      dry_ = savedDry;
      if (closed) {
        auto [lo, hi] = tc_.range(closed);
        if (hi < (static_cast<int128>(1) << 62))
          maxTrips = hi;
      }
    }
    // 2. The recorded pass at a symbolic iteration i.
    Term i = fresh("iter", Sort::Int);
    if (maxTrips >= 1)
      tc_.setBounds(i, 0, maxTrips - 1);
    State atI = stateAt(i, "iteration");
    atI.pc = tc_.mkAnd(s.pc, tc_.le(tc_.intConst(0), i));
    Term still = irregular ? fresh("running", Sort::Bool) : tc_.tru();
    Term extra = still;
    if (L.testFirst) {
      // Reaching iteration i > 0 needs the test before iteration i-1 to have held.
      State prev = stateAt(tc_.sub(i, tc_.intConst(1)), "prev");
      bool savedDry = dry_;
      dry_ = true;
      auto savedExits = pendingExits_;
      block(L.pre, prev, true);
      Term cp = eval(*L.cond, prev, prev.pc);
      pendingExits_ = savedExits;
      dry_ = savedDry;
      extra = tc_.mkAnd(still, tc_.mkOr(tc_.eq(i, tc_.intConst(0)), cp));
    }
    if (!L.testFirst) {
      // A do-while body runs at iteration i if i == 0 or the test after iteration i-1 held;
      // that test is evaluated on the state at i (after the previous step).
      State probe = stateAt(i, "probe");
      bool savedDry = dry_;
      dry_ = true;
      auto savedExits = pendingExits_;
      block(L.pre, probe, true);
      Term c = eval(*L.cond, probe, probe.pc);
      pendingExits_ = savedExits;
      dry_ = savedDry;
      extra = tc_.mkAnd(still, tc_.mkOr(tc_.eq(i, tc_.intConst(0)), c));
    }
    iters_.push_back(i);
    auto savedExits = pendingExits_;
    Term cond;
    State endI = iteration(L, atI, cond, barrierAfterBody, true, extra);
    if (!dry_)
      for (int v : modified) {
        const Summary &sm = summary[v];
        if ((sm.shape != Shape::Affine && sm.shape != Shape::ShiftLeft) || !sm.validate)
          continue;
        Term next = sm.shape == Shape::Affine ? tc_.add(atI.vars[v].t, sm.step)
                                              : tc_.mul(tc_.intConst(static_cast<int128>(1) << sm.k), atI.vars[v].t);
        Term ok = tc_.eq(endI.vars[v].t, next);
        if (ok != tc_.tru())
          out_.summaries.push_back({L.loc, k_.vars[v].name, endI.pc, ok});
      }
    iters_.pop_back();
    pendingExits_ = savedExits;

    // 3. After the loop: n iterations were completed.
    uint32_t exitMark = tc_.fresh("watermark", Sort::Bool)->id;
    Term n = fresh("trips", Sort::Int);
    State after = stateAt(n, "exit");
    Term exitCond = tc_.le(tc_.intConst(0), n);
    if (!irregular) {
      State probe = after;
      bool savedDry = dry_;
      dry_ = true;
      auto saved2 = pendingExits_;
      block(L.pre, probe, true);
      Term cn = eval(*L.cond, probe, probe.pc);
      pendingExits_ = saved2;
      dry_ = savedDry;
      Term closed = L.testFirst && L.pre.empty() ? tripCount(cn, n, exitMark) : nullptr;
      if (!closed && L.testFirst && L.pre.empty())
        closed = constantTripCount(cn, n);
      bool counted = closed != nullptr;
      if (closed) {
        // A counted loop: n is the closed form (the exit conditions below then hold), and
        // its iteration i runs exactly when i < n.
        n = closed;
        if (!dry_)
          out_.trips[i] = closed;
        exitCond = tc_.le(tc_.intConst(0), n);
        after = stateAt(n, "exit");
        probe = after;
        dry_ = true;
        auto saved4 = pendingExits_;
        cn = eval(*L.cond, probe, probe.pc);
        pendingExits_ = saved4;
        dry_ = savedDry;
      }
      exitCond = tc_.mkAnd(exitCond, tc_.mkNot(cn));
      if (!L.testFirst)
        exitCond = tc_.mkAnd(exitCond, tc_.le(tc_.intConst(1), n));
      // The test also held before the last iteration.
      State prev = stateAt(tc_.sub(n, tc_.intConst(1)), "prev");
      dry_ = true;
      auto saved3 = pendingExits_;
      block(L.pre, prev, true);
      Term cp = eval(*L.cond, prev, prev.pc);
      pendingExits_ = saved3;
      dry_ = savedDry;
      if (L.testFirst)
        exitCond = tc_.mkAnd(exitCond, tc_.mkOr(tc_.eq(n, tc_.intConst(0)), cp));
      if (!dry_ && !counted) { // (a closed-form count needs no termination assumption)
        out_.exits.emplace_back(n, exitCond);
        out_.uncountedLoops = true;
      }
      // The state after the loop is the state at n after running `pre` once more.
      after.pc = tc_.mkAnd(s.pc, exitCond);
      block(L.pre, after, barrierAfter);
      after.pc = tc_.mkAnd(s.pc, exitCond);
    } else {
      abstraction("loop with break/return: state after it summarised as unknown");
      if (!dry_)
        out_.uncountedLoops = true;
      for (int v : modified)
        if (!k_.vars[v].type.isPtr()) {
          after.vars[v] = {fresh("afterloop." + k_.vars[v].name, sortOf(k_.vars[v].type))};
          if (k_.vars[v].type.isInt() && !dry_)
            out_.facts.push_back(tc_.inRange(after.vars[v].t, k_.vars[v].type.minValue(),
                                             k_.vars[v].type.maxValue()));
        }
      after.bc = fresh("afterloop.bc", Sort::Int);
      after.wc = fresh("afterloop.wc", Sort::Int);
      after.gc = fresh("afterloop.gc", Sort::Int);
      if (!dry_) {
        out_.facts.push_back(tc_.le(s.bc, after.bc));
        out_.facts.push_back(tc_.le(s.wc, after.wc));
        out_.facts.push_back(tc_.le(s.gc, after.gc));
      }
      Term leftEarly = fresh("returned", Sort::Bool);
      for (int l : outer) {
        State ex = after;
        ex.pc = tc_.mkAnd(s.pc, leftEarly);
        pendingExits_[l].push_back(ex);
      }
      after.pc = outer.empty() ? s.pc : tc_.mkAnd(s.pc, tc_.mkNot(leftEarly));
    }
    s = after;
  }
};

} // namespace

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
                    const std::string &tag, bool wrapFreeSummaries, bool sharedContent) {
  ThreadModel m;
  Exec ex(tc, k, g, t, tag, m);
  ex.wrapFreeSummaries = wrapFreeSummaries;
  ex.sharedContent = sharedContent;
  ex.run();
  return m;
}

} // namespace ksynth::check
