// Equivalence proofs: one output tensor, its stores or its atomicAdd accumulation.
#include "verify/equiv/prover.h"

#include <algorithm>
#include <functional>
#include <set>

namespace ksynth::equiv::prove_detail {

// Where t may have no real value: non-constant divisors, and applications of functions
// defined only on part of the reals (sqrt, log, pow, ...). Not inside the definitions of
// uninterpreted applications (sums).
bool Prover::partialFunction(const std::string &n) {
  static const std::set<std::string> partial = {"sqrt", "rsqrt", "log", "log2", "log10", "log1p", "pow",
                                                "acos", "asin", "fmod", "frcp_rn", "fdivide", "fdiv_rn",
                                                "fsqrt_rn", "frsqrt_rn", "tan"};
  return partial.count(n) > 0;
}

// Entries: (0, divisor) and (1, partial application).
void Prover::divisors(Term t, Divisors &out, std::set<Term> &seen) {
  if (!seen.insert(t).second)
    return;
  if (t->kind == smt::Kind::RealDiv && t->kids[1]->kind != smt::Kind::Const)
    out.insert({0, t->kids[1]});
  if (t->kind == smt::Kind::App && t->name.rfind("fn.", 0) == 0 && partialFunction(t->name.substr(3)))
    out.insert({1, t});
  for (Term c : t->kids)
    divisors(c, out, seen);
}

// Where a divisor or a partial function's argument of the kernel's alone has no real
// value, the GPU computes an infinity or NaN while the spec has a number: each of the
// kernel's must equal one of the spec's (same kind, equal by equalTerms under ctx).
void Prover::sameDivisors(Term got, Term want, Term ctx, const std::string &tensor) {
  Divisors mine, theirs;
  std::set<Term> seen1, seen2;
  divisors(got, mine, seen1);
  divisors(want, theirs, seen2);
  for (auto [cat, d] : mine) {
    if (theirs.count({cat, d}))
      continue;
    bool matched = false;
    for (auto [cat2, e] : theirs) {
      bool sameKind = cat2 == cat && (cat == 0 || (e->kind == smt::Kind::App && e->name == d->name &&
                                                   e->kids.size() == d->kids.size()));
      if (!sameKind)
        continue;
      std::string why;
      if (equalTerms(d, e, ctx, 1, why)) {
        matched = true;
        break;
      }
    }
    if (!matched)
      throw GiveUp{"the kernel's value of '" + tensor + "' divides by or applies a partial function to " +
                   smt::show(d, 120) +
                   ", which the spec's does not (where that has no real value the kernel computes none)"};
  }
}

// ---- one output tensor -------------------------------------------------------------------

std::vector<const check::AccessSite *> Prover::storesTo(const check::ThreadModel &m, int a) {
  std::vector<const check::AccessSite *> out;
  for (const check::AccessSite &s : m.accesses)
    if (s.array == a && s.write)
      out.push_back(&s);
  return out;
}

Prover::Element Prover::element(int t, const std::vector<Term> &ext) {
  Element x;
  std::vector<Term> range;
  for (size_t d = 0; d < ext.size(); ++d) {
    x.j.push_back(tc_.fresh("elem.j" + std::to_string(d), Sort::Int));
    range.push_back(tc_.le(tc_.intConst(0), x.j.back()));
    range.push_back(tc_.lt(x.j.back(), ext[d]));
  }
  x.e = ext.empty() ? tc_.intConst(0) : flatOf(t, x.j);
  x.inRange = tc_.mkAnd(range);
  return x;
}

// The spec's value of tensor t at index tuple j.
Term Prover::ensuresAt(int t, const std::vector<Term> &j) {
  auto it = std::find_if(s_.ensures.begin(), s_.ensures.end(), [&](const spec::Ensures &en) { return en.tensor == t; });
  if (it == s_.ensures.end())
    throw GiveUp{"no ensures for '" + s_.tensors[t].name + "'"};
  std::vector<Term> slots(static_cast<size_t>(it->numSlots));
  for (size_t d = 0; d < j.size(); ++d)
    slots[d] = j[d];
  return tr(*it->body, slots);
}

void Prover::proveTensor(int t, TensorProof &tp) {
  const spec::Tensor &T = s_.tensors[t];
  auto ai = arrayOf_.find(t);
  if (ai == arrayOf_.end())
    throw GiveUp{"tensor '" + T.name + "' is not a kernel parameter"};
  int a = ai->second;
  auto s1 = storesTo(m1_, a), s1b = storesTo(m1b_, a), s2 = storesTo(m2_, a);
  if (s1.empty())
    throw GiveUp{"no store to '" + T.name + "' was found"};
  std::vector<Term> none;
  std::vector<Term> ext;
  for (const spec::TermPtr &e : T.extents)
    ext.push_back(tr(*e, none));
  if (std::any_of(s1.begin(), s1.end(), [](const check::AccessSite *x) { return x->atomic; })) {
    proveAtomic(t, a, s1, ext, tp);
    return;
  }

  // once and unique
  std::vector<Term> onceCases, uniqueCases, facts;
  for (const check::AccessSite *x : s1) {
    for (const check::AccessSite *y : s1b) {
      Term same = tc_.fls();
      if (x->stmt == y->stmt && x->iters.size() == y->iters.size()) {
        std::vector<Term> eqs;
        for (size_t i = 0; i < x->iters.size(); ++i)
          eqs.push_back(tc_.eq(x->iters[i], y->iters[i]));
        same = tc_.mkAnd(eqs);
      }
      onceCases.push_back(tc_.mkAnd({x->pc, y->pc, tc_.eq(x->flat, y->flat), tc_.mkNot(same)}));
      delinearise(x->flat, y->flat, ext, facts);
    }
    for (const check::AccessSite *y : s2) {
      uniqueCases.push_back(tc_.mkAnd({x->pc, y->pc, tc_.eq(x->flat, y->flat)}));
      delinearise(x->flat, y->flat, ext, facts);
    }
  }
  // An address rebuilt from an index the kernel split itself is that index (once per site).
  for (const std::vector<const check::AccessSite *> *sites : {&s1, &s1b, &s2})
    for (const check::AccessSite *x : *sites)
      check::recomposition(tc_, x->flat, facts);
  Term factsT = tc_.mkAnd(facts);
  std::vector<Term> diff;
  for (int d = 0; d < 3; ++d) {
    diff.push_back(tc_.ne(w1_.tid[d], w2_.tid[d]));
    diff.push_back(tc_.ne(w1_.bid[d], w2_.bid[d]));
  }
  bool once = false, unique = false;
  std::string onceWhy;
  {
    Step st(*this, "coverage of '" + T.name + "': a thread stores each element at most once", linesOf(s1));
    once = unsat(tc_.mkAnd(factsT, tc_.mkOr(onceCases)));
    onceWhy = lastUnknown_;
  }
  if (once) {
    Step st(*this, "coverage of '" + T.name + "': no two threads store the same element", linesOf(s1));
    unique = unsat(tc_.mkAnd({factsT, tc_.mkOr(diff), tc_.mkOr(uniqueCases)}));
  }
  if (!once)
    tp.coverageReason = "could not show that a thread stores each element of '" + T.name + "' at most once" +
                        (onceWhy.empty() ? "" : ": " + onceWhy);
  else if (!unique)
    tp.coverageReason = "could not show that no two threads store the same element of '" + T.name + "'" +
                        (lastUnknown_.empty() ? "" : ": " + lastUnknown_);

  // The element: index tuple j in the spec's shape, flat e.
  Element el = element(t, ext);
  const std::vector<Term> &j = el.j;
  Term e = el.e, elem = el.inRange;

  bool complete = false;
  if (once && unique) {
    Step st(*this, "coverage of '" + T.name + "': every element is stored by some thread", linesOf(s1));
    complete = completeness(s1, j, e, elem, ext, tp);
  }
  if (once && unique && complete)
    tp.coverage = Status::Proven;

  // equivalence at every store
  if (!(once && unique)) {
    tp.equivalenceReason = "needs each element stored once by one thread, which is not proven";
    return;
  }
  Term want = ensuresAt(t, j);
  for (const check::AccessSite *x : s1) {
    if (!x->value)
      throw GiveUp{"a stored value of '" + T.name + "' is not a number"};
    // An address computed in unsigned arithmetic (`blockIdx.x * D + d`) wraps around only past
    // 2^32: where the solver shows it does not here, the address without its wrap-arounds is
    // the element too (a fact of the context), and its coordinates are read from that form.
    Term flat = x->flat;
    std::vector<Term> noWrap;
    {
      std::unordered_map<Term, Term> memo;
      Term u = withoutWraps(x->flat, noWrap, memo);
      Step sw(*this, "the address stored at line " + std::to_string(x->stmt->loc.line) + " does not wrap around",
              lineOf(*x));
      if (!noWrap.empty() &&
          unsat(tc_.mkAnd({elem, x->pc, tc_.eq(x->flat, e), tc_.mkNot(tc_.mkAnd(noWrap))})))
        flat = u;
      else
        noWrap.clear();
    }
    std::vector<Term> hint;
    delinearise(flat, e, ext, hint);
    check::recomposition(tc_, flat, hint);
    Term ctx = tc_.mkAnd({elem, x->pc, tc_.eq(x->flat, e), tc_.eq(flat, e), tc_.mkAnd(noWrap), tc_.mkAnd(hint)});
    Term got = canonicalKernel(x->value);
    if (got->sort == Sort::Int && want->sort == Sort::Real)
      got = tc_.toReal(got);
    if (got->sort != want->sort)
      throw GiveUp{"the stored value and the spec's have different sorts"};
    std::string why;
    Step st(*this, "equivalence of '" + T.name + "': the value stored at line " + std::to_string(x->stmt->loc.line) +
                       " equals the spec's ensures for that element",
            lineOf(*x));
    // Where a divisor of the spec's value is 0 the spec has no value there to agree with (and
    // the kernel, whose divisors are the spec's, divides by 0 too): equalTerms may read the
    // kernel's x * (c / s) as (c x) / s for these s, equal wherever s is not 0.
    Divisors theirs;
    std::set<Term> seen;
    divisors(want, theirs, seen);
    specDivisors_.clear();
    for (auto [cat, d] : theirs)
      if (cat == 0 && d->sort == Sort::Real)
        specDivisors_.insert(d);
    struct Forget { // (also when a GiveUp leaves: another tensor's spec has other divisors)
      std::set<Term> &s;
      ~Forget() { s.clear(); }
    } forget{specDivisors_};
    sameDivisors(got, want, ctx, T.name);
    // The element's coordinates as the thread's: where each is proven, the final comparisons
    // read the spec's value at the thread's own coordinates (equal there), not through the
    // flat address's equation, which is nonlinear.
    struct ForgetCoords {
      std::unordered_map<Term, Term> &m;
      ~ForgetCoords() { m.clear(); }
    } forgetCoords{coordOf_};
    std::vector<Term> kc = check::coordinates(tc_, flat, ext);
    Term kcFacts = tc_.tru();
    if (kc.size() != j.size() && j.size() > 1) {
      // A flat index the kernel splits itself (`b = idx / D2, k = idx % D2`): its coordinates
      // are its quotients and remainders by the extents, innermost first. That they recompose
      // the index (Euclidean division by extents >= 1, as every element's are) is a fact, and
      // so are the row-major relations between that form and the element's (delinearise).
      kc.assign(j.size(), nullptr);
      Term rest = flat, recomposed = nullptr;
      std::vector<Term> positive;
      for (size_t d = j.size(); d-- > 1;) {
        kc[d] = tc_.mod(rest, ext[d]);
        rest = tc_.div(rest, ext[d]);
        positive.push_back(tc_.le(tc_.intConst(1), ext[d]));
      }
      kc[0] = rest;
      recomposed = kc[0];
      for (size_t d = 1; d < j.size(); ++d)
        recomposed = tc_.add(tc_.mul(recomposed, ext[d]), kc[d]);
      std::vector<Term> facts{tc_.implies(tc_.mkAnd(positive), tc_.eq(flat, recomposed))};
      delinearise(e, recomposed, ext, facts);
      kcFacts = tc_.mkAnd(facts);
    }
    if (kc.size() == j.size() && j.size() > 1) {
      std::unordered_map<Term, Term> m;
      for (size_t d = 0; d < j.size(); ++d) {
        if (!kc[d] || tc_.mentions(kc[d], j[d]))
          break;
        Step sc(*this, "coordinate " + std::to_string(d) + " of the element is the storing thread's", lineOf(*x));
        if (!unsat(tc_.mkAnd({ctx, kcFacts, tc_.ne(j[d], kc[d])})))
          break;
        m[j[d]] = kc[d];
      }
      if (m.size() == j.size())
        coordOf_ = m;
    }
    if (!equalTerms(got, want, ctx, 0, why)) {
      tp.equivalenceReason = "at the store on line " + std::to_string(x->stmt->loc.line) + ": " + why;
      return;
    }
  }
  tp.equivalence = Status::Proven;
}

// Whether any expression of b reads variable v.
bool Prover::varRead(const ir::Block &b, int v) {
  std::function<bool(const ir::ExprPtr &)> in = [&](const ir::ExprPtr &e) {
    if (!e)
      return false;
    if (e->op == ir::Op::VarRef && e->id == v)
      return true;
    return std::any_of(e->args.begin(), e->args.end(), in);
  };
  for (const ir::StmtPtr &st : b) {
    if (in(st->value) || in(st->value2) || in(st->ptr) || in(st->cond) ||
        std::any_of(st->index.begin(), st->index.end(), in))
      return true;
    for (const ir::Block *c : {&st->pre, &st->body, &st->elseBody, &st->step})
      if (varRead(*c, v))
        return true;
  }
  return false;
}

// ---- accumulation with atomicAdd ---------------------------------------------------------
//
// A lane fold's body is in w1's coordinates, and the shared memory it reads is w1's block's:
// reindexed resolves those reads for the reader w1. Before the value is moved to another
// thread (an atomic's thread g), each lane fold in v whose lanes read shared memory is named
// again with those reads resolved for w1 (ctx: where w1 reads), and w1's own coordinates as
// its arguments, so that substituting w1 moves the fold and its writers together. Only where
// the fold's arguments are w1's coordinates under ctx (laneSum's reader is w1); others stay.
Term Prover::closeLaneFolds(Term v, Term ctx) {
  std::unordered_map<Term, Term> sub;
  for (const char *prefix : {"lsum.warp.", "lmax.warp.", "lmin.warp."})
    for (Term A : appsWithPrefix(v, prefix)) {
      const check::SumDef *d = kernelSum(A->name);
      int128 W = 0;
      if (!d || d->key || d->params.size() != 6 || A->kids.size() != 7 || !tc_.isConst(A->kids[0], &W) || W < 1 ||
          !hasAppWithPrefix(d->body, "shm."))
        continue;
      std::vector<Term> mine{w1_.tid[0], w1_.tid[1], w1_.tid[2], w1_.bid[0], w1_.bid[1], w1_.bid[2]};
      std::vector<Term> differ;
      for (size_t p = 0; p < 6; ++p)
        differ.push_back(tc_.ne(A->kids[p + 1], mine[p]));
      {
        Step st(*this, "a warp fold's reader is the thread whose value it is");
        if (!unsat(tc_.mkAnd(ctx, tc_.mkOr(differ))))
          continue;
      }
      std::unordered_map<Term, Term> inst;
      for (size_t p = 0; p < 6; ++p)
        inst[d->params[p]] = mine[p];
      Term lane = tc_.fresh("lane.k", Sort::Int);
      tc_.setBounds(lane, 0, static_cast<int64_t>(W - 1));
      inst[d->iter] = lane;
      Term dom = tc_.mkAnd({ctx, tc_.le(tc_.intConst(0), lane), tc_.lt(lane, A->kids[0])});
      Term body = canonicalKernel(resolveSharedIn(tc_.substitute(d->body, inst), dom));
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "closed lane fold %s: %s\n", A->name.c_str(), smt::show(body, 600).c_str());
      if (hasAppWithPrefix(body, "shm."))
        continue;
      std::string name = A->name.substr(0, A->name.find(".warp.") + 6) + std::to_string(treeSums_.size());
      check::SumDef def{lane, body, mine};
      def.isMax = d->isMax;
      treeSums_[name] = def;
      std::vector<Term> args{A->kids[0]};
      args.insert(args.end(), mine.begin(), mine.end());
      sub[A] = tc_.app(name, A->sort, args);
    }
  return sub.empty() ? v : tc_.substitute(v, sub);
}

// Whether a fold in v (or in the folds its bodies name) reads shared memory (sums, products,
// extrema and arg-extrema alike).
bool Prover::foldReadsShared(Term v, std::set<std::string> &seen) {
  for (const char *prefix : {"lsum.", "lmax.", "lmin.", "lprod.", "larg.", "largmin."})
    for (Term A : appsWithPrefix(v, prefix)) {
      if (!seen.insert(A->name).second)
        continue;
      const check::SumDef *d = kernelSum(A->name);
      if (d && (hasAppWithPrefix(d->body, "shm.") || foldReadsShared(d->body, seen) ||
                (d->key && (hasAppWithPrefix(d->key, "shm.") || foldReadsShared(d->key, seen)))))
        return true;
    }
  return false;
}

// A tensor every update of which is an atomicAdd whose result is unused, each site outside
// loops (so a thread adds at most once per site): its final value is its initial value plus
// the operands of all threads that reach a site with that element, in any order (over the
// reals, additions commute). With a 1-D grid of 1-D blocks of constant size B, the threads
// are g in [0, gridDim.x * B): thread g mod B of block g div B; the sum over g becomes
// lsum.atomic.N(G), matched with the spec like any other sum.

void Prover::proveAtomic(int t, int a, const std::vector<const check::AccessSite *> &s1, const std::vector<Term> &ext,
                         TensorProof &tp) {
  if (!k_.arrays[a].elem.isFloat())
    throw GiveUp{"integer atomics wrap around; only float atomicAdd accumulation is proven"};
  const spec::Tensor &T = s_.tensors[t];
  for (const check::AccessSite *x : s1) {
    if (!x->atomic)
      throw GiveUp{"'" + T.name + "' is updated both by atomics and by plain stores"};
    if (x->stmt->atomic != ir::AtomicOp::Add)
      throw GiveUp{std::string("atomic ") + ir::atomicOpName(x->stmt->atomic) + " on '" + T.name + "' is not proven yet"};
    if (x->stmt->var >= 0 && varRead(k_.body, x->stmt->var))
      throw GiveUp{"the value atomicAdd returns is used (it depends on the order of the threads)"};
    if (!x->iters.empty())
      throw GiveUp{"atomicAdd inside a loop is not proven yet"};
    if (!x->value)
      throw GiveUp{"an atomicAdd operand is not a number"};
  }
  if (T.mode != spec::Mode::InOut) {
    std::string why = "'" + T.name + "' is accumulated with atomicAdd, so its final value depends on its content "
                      "before the launch; it must be an inout tensor (the spec's `old`)";
    tp.coverageReason = tp.equivalenceReason = why;
    return;
  }
  int128 B = 0;
  if (!oneDim(g_.blockDim, &B) || !oneDim(g_.gridDim, nullptr))
    throw GiveUp{"atomic accumulation is proven for 1-D grids of 1-D blocks of constant size only"};
  Element el = element(t, ext);
  Term e = el.e, elem = el.inRange;
  // Nothing is left stale: the initial content is part of the value.
  tp.coverage = Status::Proven;
  assumed_.insert("atomic additions to '" + T.name + "' are summed in any order (over the reals they commute)");

  // Thread g's contribution, from thread w1's: shared reads resolved for w1 first (their
  // proofs hold for every thread that reaches the site), then w1 := thread g.
  Term g = tc_.fresh("atomic.g", Sort::Int);
  Term Bt = tc_.intConst(B);
  std::unordered_map<Term, Term> theta{{w1_.tid[0], tc_.mod(g, Bt)}, {w1_.tid[1], tc_.intConst(0)},
                                       {w1_.tid[2], tc_.intConst(0)}, {w1_.bid[0], tc_.div(g, Bt)},
                                       {w1_.bid[1], tc_.intConst(0)}, {w1_.bid[2], tc_.intConst(0)}};
  Term body = nullptr;
  for (const check::AccessSite *x : s1) {
    Term here = tc_.mkAnd(x->pc, tc_.eq(x->flat, e));
    // Exchanges first, as equalTerms has them: a block sum's second stage, a shuffle tree over
    // values read from shared memory, is named as its lane fold before its reads are resolved.
    Term v = canonicalKernel(resolveShared(resolveWarp(x->value, tc_.mkAnd(elem, here)), tc_.mkAnd(elem, here), 0));
    if (v->sort == Sort::Int)
      v = tc_.toReal(v);
    std::vector<Term> syms;
    for (Term y : {v, here})
      tc_.collectSymbols(y, syms);
    for (Term y : syms) {
      if (y->kind == smt::Kind::App && y->name.rfind("shm.", 0) == 0)
        throw GiveUp{"an atomicAdd operand reads shared memory ksynth could not resolve to its writer"};
      if (y->kind == smt::Kind::Var && y->name.rfind("w1.", 0) == 0 &&
          std::find(w1_.tid.begin(), w1_.tid.end(), y) == w1_.tid.end() &&
          std::find(w1_.bid.begin(), w1_.bid.end(), y) == w1_.bid.end())
        throw GiveUp{"an atomicAdd operand depends on a value ksynth cannot name per thread (" + y->name + ")"};
    }
    // One thread per block (`if (threadIdx.x == 0) atomicAdd(...)`): a sum over blocks. One
    // lane per warp (`if (threadIdx.x % 32 == 0)`, the warp's sum by shuffles): a sum over the
    // grid's warps, g = the block's warps times the block plus the warp.
    std::unordered_map<Term, Term> th = theta;
    Term range = tc_.mul(g_.gridDim[0], Bt);
    Step st(*this, "atomic additions to '" + T.name + "' at line " + std::to_string(x->stmt->loc.line) +
                       ": whether one thread per block, or one lane per warp, adds (a model, then a proof that it "
                       "is always that thread or lane)",
            lineOf(*x));
    smt::Result r = solve(tc_.mkAnd(elem, here));
    if (r.status == smt::Status::Sat)
      if (std::optional<smt::Value> tv = smt::eval(w1_.tid[0], r.model)) {
        Term lane = tc_.intConst(tv->num % 32);
        if (unsat(tc_.mkAnd({elem, here, tc_.ne(w1_.tid[0], tc_.intConst(tv->num))}))) {
          th[w1_.tid[0]] = tc_.intConst(tv->num);
          th[w1_.bid[0]] = g;
          range = g_.gridDim[0];
        } else if (B % 32 == 0 && B > 32 &&
                   unsat(tc_.mkAnd({elem, here, tc_.ne(tc_.mod(w1_.tid[0], tc_.intConst(32)), lane)}))) {
          // The warp's value first, for w1 (its lane fold), then w1 := that lane of warp g.
          v = resolveWarp(v, tc_.mkAnd(elem, here));
          Term wpb = tc_.intConst(B / 32);
          th[w1_.tid[0]] = tc_.add(tc_.mul(tc_.intConst(32), tc_.mod(g, wpb)), lane);
          th[w1_.bid[0]] = tc_.div(g, wpb);
          range = tc_.mul(g_.gridDim[0], wpb);
        }
      }
    v = closeLaneFolds(v, tc_.mkAnd(elem, here));
    // A divisor every thread shares (`atomicAdd(L, acc / N)`, a mean's share): taken out of
    // the sum, sum of v / D = (sum of v) / D, where D is never 0 (over the reals; a division
    // by 0 is no number the sum could be taken apart around).
    Term shared = nullptr;
    if (v->kind == smt::Kind::RealDiv) {
      Term D = v->kids[1];
      std::vector<Term> dsyms;
      tc_.collectSymbols(D, dsyms);
      bool perThread = false;
      for (Term y : dsyms)
        perThread |= y->name.rfind("w1.", 0) == 0 || y->name.rfind("shm.", 0) == 0 || y->name.rfind("lanev.", 0) == 0 ||
                     y->kind == smt::Kind::App;
      Step nz(*this, "atomic additions to '" + T.name + "' at line " + std::to_string(x->stmt->loc.line) +
                         ": the divisor every thread shares is never 0",
              lineOf(*x));
      if (!perThread && unsat(tc_.mkAnd(elem, tc_.eq(D, tc_.realConst(0))))) {
        shared = D;
        v = v->kids[0];
      }
    }
    // (a fold left reading shared memory would have its reads resolved later for w1, whose
    // block is not thread g's)
    std::set<std::string> seen;
    if (foldReadsShared(v, seen))
      throw GiveUp{"an atomicAdd operand folds values read from shared memory ksynth could not resolve to their "
                   "writers"};
    Term c = tc_.ite(tc_.substitute(here, th), tc_.substitute(v, th), tc_.realConst(0));
    std::string name = "lsum.atomic." + std::to_string(treeSums_.size());
    treeSums_[name] = check::SumDef{g, c, {}};
    Term app = tc_.app(name, Sort::Real, {range});
    if (shared)
      app = tc_.realDiv(app, shared);
    body = body ? tc_.add(body, app) : app;
  }
  Term got = tc_.add(tc_.app(check::memName(k_, a), Sort::Real, {e}), body);

  Term want = ensuresAt(t, el.j);
  if (want->sort != Sort::Real)
    throw GiveUp{"the spec's value of '" + T.name + "' is not a real number"};
  std::string why;
  Step st(*this, "equivalence of '" + T.name + "': its initial content plus every atomic addition equals the "
                 "spec's ensures", linesOf(s1));
  specDivisors_.clear();
  if (!equalTerms(got, want, elem, 0, why)) {
    tp.equivalenceReason = "the sum of the atomic additions: " + why;
    return;
  }
  tp.equivalence = Status::Proven;
}

} // namespace ksynth::equiv::prove_detail
