// Equivalence proofs: equal values, kernel loop sums against spec sums, and re-indexed sums.
#include "verify/equiv/prover.h"
#include "verify/smt/purify.h"
#include "verify/smt/exp_law.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace ksynth::equiv::prove_detail {

// ---- sums ------------------------------------------------------------------------------

std::vector<Term> Prover::appsWithPrefix(Term t, const std::string &prefix) {
  std::vector<Term> syms, out;
  tc_.collectSymbols(t, syms);
  for (Term x : syms)
    if (x->kind == smt::Kind::App && x->name.rfind(prefix, 0) == 0)
      out.push_back(x);
  return out;
}

bool Prover::hasAppWithPrefix(Term t, const std::string &prefix) {
  std::unordered_map<Term, bool> &memo = prefixMemo_[prefix];
  if (auto it = memo.find(t); it != memo.end())
    return it->second;
  smt::postOrder(
      t, [&](Term x) { return !memo.count(x); },
      [&](Term x) {
        bool has = x->kind == smt::Kind::App && x->name.rfind(prefix, 0) == 0;
        for (Term k : x->kids)
          has = has || memo.at(k);
        memo[x] = has;
      });
  return memo.at(t);
}

// A memory value in t whose writer is not known: an unresolved shared cell, or a load from
// a global array the kernel also writes. Empty when there is none.
std::string Prover::unwrittenIn(Term t) {
  std::vector<Term> syms;
  tc_.collectSymbols(t, syms);
  for (Term x : syms) {
    if (x->kind == smt::Kind::App && x->name.rfind("shm.", 0) == 0) {
      int a = check::arrayOfMemName(x->name);
      return "shared memory" + (a >= 0 ? " '" + k_.arrays[a].name + "'" : std::string());
    }
    if (x->kind == smt::Kind::Var && x->name.find(".load.") != std::string::npos)
      return "a value loaded from memory the kernel also stores to";
  }
  return "";
}

const check::SumDef *Prover::kernelSum(const std::string &name) {
  if (auto t = treeSums_.find(name); t != treeSums_.end())
    return &t->second;
  for (const check::ThreadModel *m : {&m1_, &m1b_, &m2_, &m3_}) {
    auto it = m->sums.find(name);
    if (it != m->sums.end())
      return &it->second;
  }
  return nullptr;
}

// ctx ⇒ a = b, matching kernel sums in a with spec sums in b (see prove.h).
bool Prover::equalTerms(Term a, Term b, Term ctx, int depth, std::string &why) {
  if (depth > 4) {
    why = "sums nested too deeply";
    return false;
  }
  // Exchanges first: a value read from shared memory and then shuffled stays a lane's value
  // (its writers are resolved inside the lane sum's terms); then shared memory, whose writers'
  // values may hold exchanges again.
  a = resolveWarp(resolveShared(resolveWarp(a, ctx), ctx, 0), ctx);
  // A choice between loops (a float4 path where C % 4 == 0, a scalar loop otherwise): each
  // case on its own, its sums matched under its condition.
  auto loopFolds = [&](Term t) {
    std::vector<Term> r = appsWithPrefix(t, "lsum."), p = appsWithPrefix(t, "lprod.");
    r.insert(r.end(), p.begin(), p.end());
    return r;
  };
  if (a->kind == smt::Kind::Ite && !loopFolds(a).empty() && loopFolds(a->kids[0]).empty()) {
    Term c = a->kids[0];
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "equal (depth %d): each case of %s\n", depth, smt::show(c, 200).c_str());
    return equalTerms(a->kids[1], b, tc_.mkAnd(ctx, c), depth, why) &&
           equalTerms(a->kids[2], b, tc_.mkAnd(ctx, tc_.mkNot(c)), depth, why);
  }
  std::unordered_map<Term, Term> subA, subB;
  // Sums and products: lsum. against ssum., lprod. against sprod.
  std::vector<Term> ks = loopFolds(a), ss = appsWithPrefix(b, "ssum."), sp = appsWithPrefix(b, "sprod.");
  ss.insert(ss.end(), sp.begin(), sp.end());
  std::set<Term> usedS;
  if (getenv("KSYNTH_DEBUG_EQ"))
    fprintf(stderr, "equal (depth %d): kernel %s\n  spec %s\n", depth, smt::show(a, 600).c_str(),
            smt::show(b, 600).c_str());
  // Term j of kernel fold l equals term lo + j of spec fold q, for every j of the two's
  // common length.
  auto termByTerm = [&](Term l, const check::SumDef *ld, Term q, bool isProd) {
    const SpecSum &sd = specSums_.at(q->name);
    Term n = l->kids[0], lo = q->kids[0];
    Term j = tc_.fresh("eq.j", Sort::Int);
    std::unordered_map<Term, Term> ml{{ld->iter, j}}, ms{{sd.k, tc_.add(lo, j)}};
    for (size_t p = 0; p < ld->params.size(); ++p)
      ml[ld->params[p]] = l->kids[p + 1];
    for (size_t p = 0; p < sd.params.size(); ++p)
      ms[sd.params[p]] = q->kids[p + 2];
    Term bl = canonicalKernel(tc_.substitute(ld->body, ml)), bs = tc_.substitute(sd.body, ms);
    Term ctx2 = tc_.mkAnd({ctx, tc_.le(tc_.intConst(0), j), tc_.lt(j, n)});
    std::string inner;
    Step st(*this, std::string("term j of a kernel loop's ") + (isProd ? "product" : "sum") +
                       " equals term lo + j of the spec's '" + q->name + "'");
    return equalTerms(bl, bs, ctx2, depth + 1, inner);
  };
  // Whether kernel fold l is spec fold q: as many terms, each equal, or (sums) re-indexed.
  auto sameFold = [&](Term l, Term q) {
    const check::SumDef *ld = kernelSum(l->name);
    bool isProd = l->name.rfind("lprod.", 0) == 0;
    if (!ld || isProd != (q->name.rfind("sprod.", 0) == 0))
      return false;
    Term n = l->kids[0], lo = q->kids[0], hi = q->kids[1];
    bool sameLength = false;
    {
      Step st(*this, std::string("a ") + (isProd ? "product" : "sum") +
                         " computed by a kernel loop has as many terms as the spec's '" + q->name + "'");
      sameLength = unsat(tc_.mkAnd(ctx, tc_.ne(max0(n), max0(tc_.sub(hi, lo)))));
    }
    if (sameLength && termByTerm(l, ld, q, isProd))
      return true;
    return !isProd && reindexed(l, q, ctx, depth);
  };
  for (Term l : ks)
    for (Term q : ss)
      if (!usedS.count(q) && sameFold(l, q)) {
        Term sigma = tc_.fresh("eq.sum", Sort::Real);
        subA[l] = sigma;
        subB[q] = sigma;
        usedS.insert(q);
        break;
      }
  // More kernel sums than spec sums left: a spec sum over [lo, hi) may be two kernel sums, one
  // over its last (first) n terms, [m, hi) with m = hi - n ([lo, m) with m = lo + n), n that
  // kernel sum's length, the other over the rest (an inclusive scan: the warp's prefix of
  // lanes, and the totals of the warps before it). The spec's sum is split where
  // lo <= m <= hi, an identity of sums over ranges.
  for (Term l : ks) {
    if (subA.count(l) || l->name.rfind("lsum.", 0) != 0 || !kernelSum(l->name))
      continue;
    size_t freeL = 0, freeS = 0;
    for (Term x : ks)
      freeL += !subA.count(x);
    for (Term q : ss)
      freeS += !usedS.count(q);
    if (freeL <= freeS)
      break;
    for (Term q : ss) {
      if (usedS.count(q) || q->name.rfind("ssum.", 0) != 0)
        continue;
      Term n = l->kids[0], lo = q->kids[0], hi = q->kids[1];
      bool done = false;
      for (bool last : {true, false}) {
        Term m = last ? tc_.sub(hi, n) : tc_.add(lo, n);
        auto part = [&](Term from, Term to) {
          std::vector<Term> kids = q->kids;
          kids[0] = from;
          kids[1] = to;
          return tc_.app(q->name, q->sort, kids);
        };
        Term mine = last ? part(m, hi) : part(lo, m), rest = last ? part(lo, m) : part(m, hi);
        {
          Step st(*this, "the spec's '" + q->name + "' splits at the length of a kernel loop's sum");
          if (!unsat(tc_.mkAnd(ctx, tc_.mkNot(tc_.mkAnd(tc_.le(lo, m), tc_.le(m, hi))))))
            continue;
        }
        if (!termByTerm(l, kernelSum(l->name), mine, false))
          continue;
        for (Term l2 : ks) {
          if (l2 == l || subA.count(l2) || !sameFold(l2, rest))
            continue;
          Term s1 = tc_.fresh("eq.sum", Sort::Real), s2 = tc_.fresh("eq.sum", Sort::Real);
          subA[l] = s1;
          subA[l2] = s2;
          subB[q] = tc_.add(s1, s2);
          usedS.insert(q);
          done = true;
          break;
        }
        if (done)
          break;
      }
      if (done)
        break;
    }
  }
  Term a2 = subA.empty() ? a : tc_.substitute(a, subA), b2 = subB.empty() ? b : tc_.substitute(b, subB);
  matchExtrema(a2, b2, ctx);
  for (bool isMax : {true, false}) {
    std::unordered_map<Term, Term> subL, subQ;
    std::vector<Term> qs = appsWithPrefix(b2, isMax ? "sarg." : "sargmin.");
    for (Term l : appsWithPrefix(a2, isMax ? "larg." : "largmin."))
      for (Term q : qs)
        if (!subQ.count(q) && argEqual(l, q, ctx)) {
          Term sigma = tc_.fresh("eq.arg", Sort::Int);
          subL[l] = sigma;
          subQ[q] = sigma;
          break;
        }
    // Otherwise as the best (value, index) pair of a set: a shuffle tree of running argmaxes.
    for (Term x : lexTerms(a2, isMax))
      for (Term q : qs)
        if (!subQ.count(q) && !subL.count(x) && lexEqual(x, q, ctx)) {
          Term sigma = tc_.fresh("eq.arg", Sort::Int);
          subL[x] = sigma;
          subQ[q] = sigma;
          break;
        }
    if (!subL.empty()) {
      a2 = tc_.substitute(a2, subL);
      b2 = tc_.substitute(b2, subQ);
    }
  }
  for (const char *fold : {"larg.", "largmin.", "sarg.", "sargmin."})
    if (hasAppWithPrefix(fold[0] == 'l' ? a2 : b2, fold)) {
      why = "a running argmax or argmin of the kernel and the spec's could not be matched (it must walk the "
            "spec's range in order from its first index and replace only on a strictly better term)";
      return false;
    }
  for (const char *fold : {"lmax.", "lmin.", "smax.", "smin."})
    if (hasAppWithPrefix(fold[0] == 'l' ? a2 : b2, fold)) {
      why = "a max or min of the kernel and one of the spec could not be matched (each candidate of the "
            "kernel's fold a term of the spec's range, and every term a candidate)";
      return false;
    }
  // What is left of shared memory after resolving its writers, and values loaded from
  // memory the kernel writes (an out tensor read back), may be cells the launch never
  // wrote: on a GPU they can hold NaN or infinity, so x + (g - g) is not x there. The spec
  // never mentions them, so the two terms could be equal only by cancelling them.
  if (std::string what = unwrittenIn(a2); !what.empty()) {
    why = "the value depends on " + what + ", which the launch may not have written (it may hold NaN)";
    return false;
  }
  if (a2 == b2)
    return true;
  if (ks.size() > subA.size() || ss.size() > subB.size()) {
    // An unmatched sum is an unknown value on its side: the two terms could be equal only
    // by cancelling it, and asking anyway can send Z3's nonlinear real arithmetic into a
    // search that ignores its time limit (a layernorm mutant ran for 10 minutes).
    why = "a sum (or product) of the kernel and one of the spec could not be matched term by term";
    return false;
  }
  {
    Step st(*this, subA.empty() ? "the two values are equal"
                                : "the two values are equal, with each matched pair of sums one unknown");
    // x * (c / s) is (c x) / s wherever s is not 0, and where a divisor of the spec's value is
    // 0 the spec has no value to agree with (prove_tensor.cpp): for those s (or the unknown a
    // matched spec sum became), the kernel's is read in the spec's form. (The query does not
    // state s != 0: with it, Z3's nonlinear arithmetic can run past its time limit on a
    // kernel that is not equal, x * (1 / s) * (1 / s).)
    std::set<Term> divs;
    for (Term d : specDivisors_) {
      divs.insert(d);
      divs.insert(tc_.substitute(d, subB));
    }
    std::unordered_map<Term, Term> recip;
    for (Term x : smt::subterms(a2)) {
      if (x->kind != smt::Kind::Mul || x->sort != Sort::Real || x->kids.size() != 2)
        continue;
      for (int i : {0, 1}) {
        Term q = x->kids[i], o = x->kids[1 - i];
        if (q->kind == smt::Kind::RealDiv && q->kids[0]->kind == smt::Kind::Const && divs.count(q->kids[1])) {
          recip[x] = tc_.realDiv(tc_.mul(q->kids[0], o), q->kids[1]);
          break;
        }
      }
    }
    if (!recip.empty())
      a2 = tc_.substitute(a2, recip);
    if (!coordOf_.empty())
      b2 = tc_.substitute(b2, coordOf_);
    if (a2 == b2)
      return true;
    // Two choices (a guarded term of a convolution's gather and the spec's): where their
    // conditions agree, each case on its own is a smaller question than the whole.
    if (a2->kind == smt::Kind::Ite && b2->kind == smt::Kind::Ite && a2->sort == Sort::Real) {
      bool sameCases = false;
      {
        Step sc(*this, "the kernel's choice and the spec's take the same case");
        lastUnknown_.clear();
        sameCases = unsat(tc_.mkAnd(ctx, tc_.mkNot(tc_.eq(a2->kids[0], b2->kids[0]))));
      }
      // Undecided whether the conditions agree: the whole comparison, which holds them both,
      // is no easier (a buggy twin's spent 10 s more on it to time out again).
      if (!sameCases && !lastUnknown_.empty()) {
        why = lastUnknown_;
        return false;
      }
      if (sameCases) {
        Term c = a2->kids[0];
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "case split: kernel %s\n  spec %s\n", smt::show(a2->kids[1], 3000).c_str(),
                  smt::show(b2->kids[1], 3000).c_str());
        Step s1(*this, "the two values are equal where the condition holds, and where it does not");
        if (unsat(tc_.mkAnd({ctx, c, tc_.ne(a2->kids[1], b2->kids[1])})) &&
            unsat(tc_.mkAnd({ctx, tc_.mkNot(c), tc_.ne(a2->kids[2], b2->kids[2])})))
          return true;
      }
    }
    // (divisions by constants as shared linear chains, where a value read from shared memory
    // names its writer by the digits of a cooperative load's index: t div 34, t mod 34, ...)
    if (unsat(smt::purifyDivMod(tc_, tc_.mkAnd(ctx, tc_.ne(a2, b2)))))
      return true;
  }
  why = !lastUnknown_.empty() ? lastUnknown_
        : ks.size() + ss.size() > subA.size() + subB.size()
            ? "a sum (or product) of the kernel and one of the spec could not be matched term by term"
            : "the stored value and the spec's could not be shown equal";
  return false;
}

// Every way to pick one (symbol, value) of each list, as substitutions; false when there
// would be more than `limit`.
bool Prover::allChoices(const std::vector<std::vector<std::pair<Term, Term>>> &perVar, size_t limit,
                        std::vector<std::unordered_map<Term, Term>> &out) {
  out = {{}};
  for (const auto &choices : perVar) {
    std::vector<std::unordered_map<Term, Term>> next;
    for (const auto &c : out)
      for (const auto &[x, v] : choices) {
        auto m = c;
        m[x] = v;
        next.push_back(std::move(m));
      }
    out = std::move(next);
    if (out.size() > limit)
      return false;
  }
  return true;
}

// ---- index maps between a kernel's iterations and a spec's range -------------------------

// t as a sum of canonical monomials (products distributed over sums, each product's factors
// in creation order), so that (b D1 + k) D2 and b D1 D2 + k D2 compare term by term; t itself
// where that would take more than 64 monomials.
Term expandProducts(smt::TermContext &tc, Term t) {
  if (t->sort != Sort::Int)
    return t;
  std::function<bool(Term, std::vector<std::vector<Term>> &)> mons = [&](Term x, std::vector<std::vector<Term>> &out) {
    if (x->kind == smt::Kind::Add) {
      for (Term k : x->kids)
        if (!mons(k, out))
          return false;
      return out.size() <= 64;
    }
    if (x->kind == smt::Kind::Mul) {
      std::vector<std::vector<Term>> acc{{}};
      for (Term k : x->kids) {
        std::vector<std::vector<Term>> km, next;
        if (!mons(k, km))
          return false;
        for (const auto &a : acc)
          for (const auto &b : km) {
            auto c = a;
            c.insert(c.end(), b.begin(), b.end());
            next.push_back(std::move(c));
          }
        if (next.size() > 64)
          return false;
        acc = std::move(next);
      }
      out.insert(out.end(), acc.begin(), acc.end());
      return out.size() <= 64;
    }
    out.push_back({x});
    return true;
  };
  std::vector<std::vector<Term>> ms;
  if (!mons(t, ms))
    return t;
  Term sum = tc.intConst(0);
  for (auto &m : ms) {
    std::sort(m.begin(), m.end(), [](Term a, Term b) { return a->id < b->id; });
    Term p = tc.intConst(1);
    for (Term f : m)
      p = tc.mul(p, f);
    sum = tc.add(sum, p);
  }
  return sum;
}

// Candidate maps: where the spec's term f reads T(a(k)) with a(k) = k + c and the kernel's
// term g reads T(b(j)), phi = b - c. Along an outer dimension, a(k) = k S + c with S a
// symbolic row length (a max over dim 1 of a 3-D tensor) or dilation: phi = X where
// b - c = X S + Y, Y zero in the caller's context (X + Y div S).
// Callers prove that the kernel's term is the spec's at phi; a wrong guess only fails.
std::vector<Term> Prover::indexMaps(Term f, Term k, Term g) {
  std::vector<Term> phis;
  for (Term fa : appsWithPrefix(f, "mem.")) {
    Term arg = fa->kids[0];
    Term a0 = tc_.substitute(arg, {{k, tc_.intConst(0)}});
    Term a1 = tc_.substitute(arg, {{k, tc_.intConst(1)}});
    Term S = tc_.sub(a1, a0);
    bool unit = S == tc_.intConst(1);
    if (!unit) { // k inside a product: compare expanded forms
      a0 = expandProducts(tc_, a0);
      a1 = expandProducts(tc_, a1);
      S = tc_.sub(a1, a0);
      if (tc_.isConst(S) || tc_.mentions(S, k) ||
          expandProducts(tc_, tc_.substitute(arg, {{k, tc_.intConst(2)}})) != tc_.add(a1, S))
        continue;
    }
    for (Term ga : appsWithPrefix(g, "mem."))
      if (ga->name == fa->name) {
        Term phi = tc_.sub(unit ? ga->kids[0] : expandProducts(tc_, ga->kids[0]), a0), X, Y;
        if (!unit) {
          if (!check::splitBy(tc_, phi, S, X, Y))
            continue;
          // (Y is zero where the kernel's coordinates are the element's, which the caller's
          // context says: X + Y div S is then X.)
          phi = Y == tc_.intConst(0) ? X : tc_.add(X, tc_.div(Y, S));
        }
        if (std::find(phis.begin(), phis.end(), phi) == phis.end())
          phis.push_back(phi);
      }
  }
  return phis;
}

// phi = c + sum of slope_i * js_i with constant non-zero slopes, as far as sampling each
// level at 0, 1 and 2 tells (callers prove what they use of it); false otherwise.
bool Prover::affineIn(Term phi, const std::vector<Term> &js, Term &c, std::vector<int128> &slope) {
  std::unordered_map<Term, Term> zero;
  for (Term j : js)
    zero[j] = tc_.intConst(0);
  c = tc_.substitute(phi, zero);
  for (Term j : js) {
    auto at = [&](int v) {
      auto z = zero;
      z[j] = tc_.intConst(v);
      return tc_.substitute(phi, z);
    };
    Term s1 = tc_.sub(at(1), c), s2 = tc_.sub(at(2), at(1));
    int128 sv = 0;
    if (!tc_.isConst(s1, &sv) || s2 != s1 || sv == 0)
      return false;
    slope.push_back(sv);
  }
  return true;
}

// The levels' values whose image under phi = c + sum slope_i js_i is k, where k is one: one
// level, or several whose slopes, in increasing order, each divide the next (tiles of the
// outer level: slopes (T, 1); a strided inner level: slopes (1, S)). Empty when phi has another
// shape. The caller checks phi(pre) = k.
std::unordered_map<Term, Term> Prover::preimageOf(const std::vector<Term> &js, Term c, const std::vector<int128> &slope,
                                                  Term k) {
  std::unordered_map<Term, Term> pre;
  Term off = tc_.sub(k, c);
  if (js.size() == 1) {
    pre[js[0]] = tc_.div(off, tc_.intConst(slope[0]));
    return pre;
  }
  // Mixed radix: with the slopes in increasing order s0 = 1 | s1 | s2 ..., level i's digit
  // is (off mod s(i+1)) div s(i), the last level's off div s(last) (a tile of the outer: (T, 1);
  // a strided inner level: (1, S); a block's warps, lanes and strided loop: (32, 1, 256)).
  std::vector<size_t> order(js.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return slope[a] < slope[b]; });
  // (s0 > 1: phi reaches only the offsets that are multiples of s0, a float4's element e of
  // 4 j0 + 128 j1 + e. The digits are then those of off - off mod s0; every caller asks
  // phi(pre) = k besides, which holds exactly for those offsets.)
  if (slope[order[0]] < 1)
    return {};
  for (size_t i = 0; i + 1 < order.size(); ++i) {
    int128 lo = slope[order[i]], hi = slope[order[i + 1]];
    if (lo <= 0 || hi <= lo || hi % lo != 0)
      return {};
    pre[js[order[i]]] = tc_.div(tc_.mod(off, tc_.intConst(hi)), tc_.intConst(lo));
  }
  pre[js[order.back()]] = tc_.div(off, tc_.intConst(slope[order.back()]));
  return pre;
}

// ---- re-indexed sums (summand bijection) -------------------------------------------------

// t with each x mod m (x div m), m a positive constant, replaced by x (by 0) where dom implies
// 0 <= x < m: a lane's index inside a warp of a larger block, once the levels' ranges show it
// is one; and each ite(c, a, b) by a (by b) where dom implies c (not c): a lane that exists.
// (itesOnly: the conditions alone.) The solver decides; the forms are equal wherever dom holds. Only forms over thread and
// level indices are tried (one over a problem size, such as a trip count, seldom folds).
Term Prover::foldUnder(Term t, Term dom, bool itesOnly) {
  auto overSizes = [&](Term u) {
    std::vector<Term> syms;
    tc_.collectSymbols(u, syms);
    for (Term x : syms)
      if (x->kind == smt::Kind::App || x->name.rfind("param.", 0) == 0)
        return true;
    return false;
  };
  // Asked under the facts of dom over the fact's own variables only: a fold is an
  // optimisation of the form, and a whole path condition can take the solver seconds.
  auto holds = [&](Term fact) { return unsat(tc_.mkAnd(focus(dom, fact), tc_.mkNot(fact))); };
  for (int round = 0; round < 4; ++round) {
    std::vector<Term> found;
    for (Term u : smt::subterms(t)) {
      int128 m = 0;
      if ((!itesOnly && (u->kind == smt::Kind::Mod || u->kind == smt::Kind::Div) && tc_.isConst(u->kids[1], &m) &&
           m > 0) ||
          (u->kind == smt::Kind::Ite && u->kids[0]->kind != smt::Kind::Const))
        if (!overSizes(u->kind == smt::Kind::Ite ? u->kids[0] : u))
          found.push_back(u);
    }
    std::unordered_map<Term, Term> sub;
    std::unordered_map<Term, Term> decided; // condition -> its value under dom
    auto reduced = [&](Term u) {
      int128 m = 0;
      tc_.isConst(u->kids[1], &m);
      return tc_.mkAnd(tc_.le(tc_.intConst(0), u->kids[0]), tc_.lt(u->kids[0], tc_.intConst(m)));
    };
    {
      // Usually every one folds the same way (lanes of a warp that exists): asked at once.
      std::vector<Term> all;
      for (Term u : found)
        all.push_back(u->kind == smt::Kind::Ite ? u->kids[0] : reduced(u));
      Step st(*this, "indices are already reduced and conditions hold where the term is used");
      if (!all.empty() && holds(tc_.mkAnd(all))) {
        for (Term u : found)
          sub[u] = u->kind == smt::Kind::Ite ? u->kids[1] : u->kind == smt::Kind::Mod ? u->kids[0] : tc_.intConst(0);
        found.clear();
      }
    }
    for (Term u : found) {
      if (u->kind == smt::Kind::Ite) {
        Term c = u->kids[0];
        auto [it, fresh] = decided.try_emplace(c, nullptr);
        if (fresh) {
          Step st(*this, "a condition is decided where the term is used");
          if (holds(c))
            it->second = tc_.tru();
          else if (holds(tc_.mkNot(c)))
            it->second = tc_.fls();
        }
        if (it->second)
          sub[u] = it->second == tc_.tru() ? u->kids[1] : u->kids[2];
        continue;
      }
      Step st(*this, "an index is already reduced: 0 <= x < m, so x mod m = x and x div m = 0");
      if (holds(reduced(u)))
        sub[u] = u->kind == smt::Kind::Mod ? u->kids[0] : tc_.intConst(0);
    }
    if (sub.empty())
      return t;
    t = tc_.substitute(t, sub);
  }
  return t;
}

// One term T with T at jc = c the c-th of elems (they differ only in integer parts that grow
// by a constant step from each to the next), or nullptr. Checked: each element is T at its jc.
Term Prover::chunkTemplate(const std::vector<Term> &elems, Term jc) {
  if (auto it = templates_.find({elems, jc}); it != templates_.end())
    return it->second;
  std::function<Term(Term, Term)> unify = [&](Term a, Term b) -> Term {
    if (a == b)
      return a;
    int128 d = 0;
    if (a->sort == Sort::Int && b->sort == Sort::Int && tc_.isConst(tc_.sub(b, a), &d))
      return tc_.add(a, tc_.mul(tc_.intConst(d), jc));
    if (a->kind != b->kind || a->sort != b->sort || a->name != b->name || a->kids.size() != b->kids.size() ||
        a->kids.empty())
      return nullptr;
    std::unordered_map<Term, Term> kidMap;
    for (size_t i = 0; i < a->kids.size(); ++i) {
      Term k = unify(a->kids[i], b->kids[i]);
      if (!k)
        return nullptr;
      auto [pos, fresh] = kidMap.insert({a->kids[i], k});
      if (!fresh && pos->second != k)
        return nullptr; // one operand twice, told apart in b
    }
    return tc_.withKids(a, [&](Term k) { return kidMap.at(k); });
  };
  Term T = unify(elems[0], elems[1]);
  for (size_t c = 0; T && c < elems.size(); ++c)
    if (Term at = canonicalKernel(tc_.substitute(T, {{jc, tc_.intConst(static_cast<int64_t>(c))}})); at != elems[c]) {
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "chunk template: element %zu differs:\n  %s\n  %s\n", c, smt::show(at, 1500).c_str(),
                smt::show(elems[c], 1500).c_str());
      T = nullptr;
    }
  if (!T && getenv("KSYNTH_DEBUG_EQ"))
    fprintf(stderr, "chunk template: none for %s\n  and %s\n", smt::show(elems[0], 1500).c_str(),
            smt::show(elems[1], 1500).c_str());
  templates_[{elems, jc}] = T;
  return T;
}

// body (a fold's term, iteration `iter` already replaced by `to`) with the folds it names
// whose own terms still mention `iter` (a fold named inside another, over the outer fold's
// lane: a block sum's warps, whose lane folds read the warp's cells) as copies with `iter`
// replaced there too (recursively): a fold's iteration bound in every term it reaches.
Term Prover::bindIteration(Term body, Term iter, Term to, std::unordered_map<std::string, std::string> &copies) {
  std::unordered_map<Term, Term> sub;
  for (const char *prefix : {"lsum.", "lmax.", "lmin.", "lprod.", "larg.", "largmin."})
    for (Term A : appsWithPrefix(body, prefix)) {
      const check::SumDef *d = kernelSum(A->name);
      if (!d || d->iter == iter || std::find(d->params.begin(), d->params.end(), iter) != d->params.end() ||
          !(tc_.mentions(d->body, iter) || (d->key && tc_.mentions(d->key, iter))))
        continue;
      std::string key = A->name + "|" + to->name;
      auto c = copies.find(key);
      if (c == copies.end()) {
        check::SumDef def = *d;
        def.body = bindIteration(tc_.substitute(d->body, {{iter, to}}), iter, to, copies);
        if (d->key)
          def.key = bindIteration(tc_.substitute(d->key, {{iter, to}}), iter, to, copies);
        std::string name = A->name.substr(0, A->name.rfind('.') + 1) + "b" + std::to_string(treeSums_.size());
        treeSums_[name] = def;
        c = copies.emplace(key, name).first;
      }
      sub[A] = tc_.app(c->second, A->sort, A->kids);
    }
  return sub.empty() ? body : tc_.substitute(body, sub);
}

// The kernel sum l (one loop, or a loop whose every step is one inner loop: tiles) equals
// the spec sum q when an index map phi from the kernel's iterations to the spec's index is
// one-to-one on the iterations it maps into [lo, hi), reaches every index there, and the
// kernel's term is the spec's term at phi there and 0 elsewhere (padding). phi is guessed
// from a read of one tensor in both terms whose spec index is k + c.
bool Prover::reindexed(Term l, Term q, Term ctx, int depth) {
  const check::SumDef *ld = kernelSum(l->name);
  const SpecSum &sd = specSums_.at(q->name);
  Term lo = q->kids[0], hi = q->kids[1];
  // Levels of the kernel's domain.
  struct Level {
    Term j, n;
  };
  Term j1 = tc_.fresh("bij.j", Sort::Int);
  std::unordered_map<Term, Term> m1{{ld->iter, j1}};
  for (size_t p = 0; p < ld->params.size(); ++p)
    m1[ld->params[p]] = l->kids[p + 1];
  // A fold over a warp's lanes (laneSum): j1 is the lane, and its lane's thread reads the
  // values inside the term (softmax by shuffles: each lane's sum holds its butterfly's max).
  // (the innermost such fold's lane, where folds nest: a block sum's warps, then the lanes of
  // the warp whose sum a shared cell holds, whose terms hold the exchanges)
  std::unordered_map<Term, Term> laneReader;
  auto readLane = [&](Term app, const check::SumDef *d, const std::unordered_map<Term, Term> &m, Term j) {
    int128 lanes = 0;
    // (a fold over no lanes where a condition fails, ite(c, 32, 0) lanes: a padding lane's
    // warp sum, `lane < 8 ? lsum(...) : 0`, as rewritten below)
    Term W = app->kids[0];
    if (W->kind == smt::Kind::Ite && W->kids[2] == tc_.intConst(0))
      W = W->kids[1];
    if ((app->name.rfind("lsum.warp.", 0) != 0 && app->name.rfind("lmax.warp.", 0) != 0 &&
         app->name.rfind("lmin.warp.", 0) != 0) ||
        !tc_.isConst(W, &lanes) || lanes <= 0 || d->params.size() != 6)
      return;
    tc_.setBounds(j, 0, lanes - 1); // true wherever j is used (inside dom)
    Term bx = g_.blockDim[0], by = g_.blockDim[1];
    Term above = tc_.add(m.at(d->params[1]), tc_.mul(by, m.at(d->params[2]))); // rows of the block
    Term L = tc_.add(m.at(d->params[0]), tc_.mul(bx, above));
    Term seg = tc_.mul(tc_.intConst(lanes), tc_.div(L, tc_.intConst(lanes))); // as laneSum names it
    laneReader = laneThread(tc_.add(seg, j));
    laneReader[w3_.bid[0]] = m.at(d->params[3]);
    laneReader[w3_.bid[1]] = m.at(d->params[4]);
    laneReader[w3_.bid[2]] = m.at(d->params[5]);
  };
  readLane(l, ld, m1, j1);
  std::unordered_map<std::string, std::string> copies;
  Term g0 = canonicalKernel(bindIteration(tc_.substitute(ld->body, m1), ld->iter, j1, copies));
  Term dom0 = tc_.mkAnd({ctx, tc_.le(tc_.intConst(0), j1), tc_.lt(j1, l->kids[0])});
  std::unordered_map<Term, Term> ms;
  for (size_t p = 0; p < sd.params.size(); ++p)
    ms[sd.params[p]] = q->kids[p + 2];
  // The rest, from the levels found so far (recursive where the term is a choice on the sizes).
  std::function<bool(std::vector<Level>, Term, Term, Term)> rest = [&](std::vector<Level> lv, Term g, Term dom,
                                                                        Term ctx) -> bool {
    // Each term a sum again (tiles; a block reduction: warps, their lanes, each lane's loop):
    // one more level, up to four (an atomic over blocks: their warps, their lanes, each lane's loop).
    for (;;) {
      g = resolveSharedIn(g, dom);
      // Running sums kept relative to a max, read from shared memory (an online softmax's warp
      // results): each times exp(its max - the block's) is the sum at the block's max.
      if (Term c = rebaseSums(smt::combineExps(tc_, g)); c != g) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "reindex %s: rebased: %s\n", l->name.c_str(), smt::show(c, 600).c_str());
        g = c;
      }
      // A choice that no level's index decides (a float4 path where C % 4 == 0, a scalar loop
      // otherwise): each case is proven on its own, under its condition.
      if (g->kind == smt::Kind::Ite && std::none_of(lv.begin(), lv.end(), [&](const Level &L) {
            return tc_.mentions(g->kids[0], L.j);
          })) {
        Term c = g->kids[0];
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "reindex %s: each case of %s\n", l->name.c_str(), smt::show(c, 200).c_str());
        return rest(lv, g->kids[1], tc_.mkAnd(dom, c), tc_.mkAnd(ctx, c)) &&
               rest(lv, g->kids[2], tc_.mkAnd(dom, tc_.mkNot(c)), tc_.mkAnd(ctx, tc_.mkNot(c)));
      }
      // A choice inside the terms between two values, neither 0 (not padding), that no level's
      // index decides: which of a family of shared stores wrote the cell read (a register
      // tile staged by unrolled stores, a WMMA fragment's rows). Taken to the top, each case
      // is proven on its own, with the choice decided in every term.
      {
        Term inner = nullptr;
        Term zero = tc_.realConst(0);
        for (Term u : smt::subterms(g))
          if (u != g && u->kind == smt::Kind::Ite && u->sort == Sort::Real && u->kids[1] != zero &&
              u->kids[2] != zero && !hasAppWithPrefix(u->kids[0], "lsum.") &&
              std::none_of(lv.begin(), lv.end(), [&](const Level &L) { return tc_.mentions(u->kids[0], L.j); })) {
            inner = u->kids[0];
            break;
          }
        if (inner) {
          if (getenv("KSYNTH_DEBUG_EQ"))
            fprintf(stderr, "reindex %s: each case of the inner choice %s\n", l->name.c_str(),
                    smt::show(inner, 200).c_str());
          Term yes = canonicalKernel(tc_.substitute(g, {{inner, tc_.tru()}}));
          Term no = canonicalKernel(tc_.substitute(g, {{inner, tc_.fls()}}));
          return rest(lv, yes, tc_.mkAnd(dom, inner), tc_.mkAnd(ctx, inner)) &&
                 rest(lv, no, tc_.mkAnd(dom, tc_.mkNot(inner)), tc_.mkAnd(ctx, tc_.mkNot(inner)));
        }
      }
      // ite(c, L(n, ...), 0) is L(ite(c, n, 0), ...): a sum over no steps is 0.
      if (g->kind == smt::Kind::Ite && g->kids[1]->kind == smt::Kind::App &&
          g->kids[1]->name.rfind("lsum.", 0) == 0 && g->kids[2] == tc_.realConst(0)) {
        std::vector<Term> args = g->kids[1]->kids;
        args[0] = tc_.ite(g->kids[0], args[0], tc_.intConst(0));
        g = tc_.app(g->kids[1]->name, Sort::Real, args);
      }
      if (lv.size() >= 4 || g->kind != smt::Kind::App || g->name.rfind("lsum.", 0) != 0)
        break;
      const check::SumDef *in = kernelSum(g->name);
      if (!in)
        return false;
      Term jn = tc_.fresh("bij.j", Sort::Int);
      int128 nn = 0;
      if (tc_.isConst(g->kids[0], &nn) && nn > 0)
        tc_.setBounds(jn, 0, nn - 1); // true wherever jn is used (inside dom), lets i/16 fold
      std::unordered_map<Term, Term> mn{{in->iter, jn}};
      for (size_t p = 0; p < in->params.size(); ++p)
        mn[in->params[p]] = g->kids[p + 1];
      readLane(g, in, mn, jn);
      lv.push_back({jn, g->kids[0]});
      dom = tc_.mkAnd({dom, tc_.le(tc_.intConst(0), jn), tc_.lt(jn, g->kids[0])});
      g = canonicalKernel(bindIteration(tc_.substitute(in->body, mn), in->iter, jn, copies));
    }
    // A butterfly's max inside the terms (softmax by shuffles), read by w1 or by the lane: named
    // as its lane fold first, so that its lane offsets are not folded one by one below.
    g = resolveWarpInside(g, dom, laneReader.empty() ? nullptr : &laneReader);
    if (lv.size() > 1)
      g = foldUnder(g, dom);
    Term f = tc_.substitute(sd.body, ms); // free in sd.k
    // Sums inside the terms that do not depend on the iteration (layernorm's mean inside the
    // variance) are matched first and replaced by one unknown on both sides.
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "reindex %s: kernel term %s\n", l->name.c_str(), smt::show(g, 800).c_str());
    // A lane fold's value depends on its reader only through the reader's segment (laneSum):
    // in a one-dimensional block, lsum.warp.N(W, x, 0, 0, ...) is lsum.warp.N(W, W (x div W),
    // 0, 0, ...), which no longer names the lane level where x is that lane (the mean that
    // every lane reads, inside each lane's sum of squared deviations).
    {
      std::unordered_map<Term, Term> seg;
      for (const char *prefix : {"lsum.warp.", "lmax.warp.", "lmin.warp."})
        for (Term a : appsWithPrefix(g, prefix)) {
          int128 W = 0;
          if (a->kids.size() != 7 || !tc_.isConst(a->kids[0], &W) || W < 2 || a->kids[2] != tc_.intConst(0) ||
              a->kids[3] != tc_.intConst(0))
            continue;
          std::vector<Term> kids = a->kids;
          kids[1] = tc_.mul(a->kids[0], tc_.div(a->kids[1], a->kids[0]));
          // A fold whose lanes' values do not depend on the segment (every warp's second
          // stage of a block sum over `lane < 8 ? part[lane] : 0`: lane k of any warp reads
          // part[k]) is the same in every segment: named by segment 0.
          const check::SumDef *d = kernelSum(a->name);
          int128 bx = 0;
          if (d && d->params.size() == 6 && tc_.isConst(g_.blockDim[0], &bx) && bx % W == 0 &&
              g_.blockDim[1] == tc_.intConst(1) && g_.blockDim[2] == tc_.intConst(1)) {
            Term sv = tc_.fresh("lane.seg", Sort::Int); // (any integer: no bounds to fold by)
            Term anySeg = tc_.substitute(d->body, {{d->params[0], tc_.mul(tc_.intConst(W), sv)},
                                                   {d->params[1], tc_.intConst(0)},
                                                   {d->params[2], tc_.intConst(0)}});
            if (!tc_.mentions(anySeg, sv))
              kids[1] = tc_.intConst(0);
          }
          if (kids[1] != a->kids[1])
            seg[a] = tc_.app(a->name, a->sort, kids);
        }
      if (!seg.empty())
        g = tc_.substitute(g, seg);
    }
    if (hasAppWithPrefix(g, "lsum.")) {
      std::unordered_map<Term, Term> subG, subF;
      for (Term gl : appsWithPrefix(g, "lsum.")) {
        bool invariant = true;
        for (const Level &L : lv)
          invariant &= !tc_.mentions(gl, L.j);
        for (Term fq : appsWithPrefix(f, "ssum."))
          if (invariant && !subG.count(gl) && !tc_.mentions(fq, sd.k)) {
            std::string why;
            if (equalTerms(gl, fq, ctx, depth + 1, why)) {
              Term sigma = tc_.fresh("eq.sum", Sort::Real);
              subG[gl] = sigma;
              subF[fq] = sigma;
            }
          }
      }
      g = tc_.substitute(g, subG);
      f = tc_.substitute(f, subF);
      if (hasAppWithPrefix(g, "lsum."))
        return false;
    }
    matchExtrema(g, f, ctx); // a row's max inside each term of its sum (softmax)
    std::vector<Term> js;
    for (const Level &L : lv)
      js.push_back(L.j);
    Term zeroR = g->sort == Sort::Real ? tc_.realConst(0) : tc_.intConst(0);
    // The checks for one map phi. terms: the kernel's term, or, for a chunk per iteration
    // (below), its elements, element c at jc = c (jc the chunk's level, the last of levels).
    auto mapHolds = [&](Term phi, const std::vector<Level> &levels, const std::vector<Term> &terms, Term jc) {
      std::vector<Term> jv;
      for (const Level &L : levels)
        jv.push_back(L.j);
      // Affine in the levels with constant slopes; the inner slope 1 (tiles of the outer).
      Term c = nullptr;
      std::vector<int128> slope;
      if (!affineIn(phi, jv, c, slope))
        return false;
      Term live = tc_.mkAnd(tc_.le(lo, phi), tc_.lt(phi, hi));
      Step st(*this, "a kernel loop's sum is the spec's sum '" + q->name +
                         "' re-indexed: its terms are the spec's at the mapped index, and 0 outside the range");
      // (1) the terms agree where phi is in range, the kernel's is 0 elsewhere (per element of a
      // chunk: jc fixed)
      // A chunk whose elements are one term at jc = 0, 1, ... (an unrolled product over a slice:
      // a(i, k0 + c) b(k0 + c, j)) is checked once, at a symbolic jc; its elements one by one
      // otherwise.
      if (jc && terms.size() > 1) {
        if (Term T = chunkTemplate(terms, jc)) {
          Term livec = live;
          Term fphi = tc_.substitute(f, {{sd.k, phi}});
          Term domc = tc_.mkAnd({dom, tc_.le(tc_.intConst(0), jc), tc_.lt(jc, levels.back().n)});
          if (!unsat(tc_.mkAnd(domc, tc_.mkNot(tc_.mkOr(tc_.mkAnd(livec, tc_.eq(T, fphi)),
                                                         tc_.mkAnd(tc_.mkNot(livec), tc_.eq(T, zeroR))))))) {
            if (getenv("KSYNTH_DEBUG_EQ"))
              fprintf(stderr, "reindex: terms fail for phi = %s (the chunk's element jc)\n  kernel %s\n  %s\n",
                      smt::show(phi).c_str(), smt::show(T, 800).c_str(), lastUnknown_.c_str());
            return false;
          }
        }
      }
      for (size_t e = 0; e < terms.size(); ++e) {
        if (jc && terms.size() > 1 && chunkTemplate(terms, jc))
          break; // (checked above)
        std::unordered_map<Term, Term> at;
        if (jc)
          at[jc] = tc_.intConst(static_cast<int64_t>(e));
        Term phie = tc_.substitute(phi, at), livee = tc_.substitute(live, at);
        Term fphi = tc_.substitute(f, {{sd.k, phie}});
        if (!unsat(tc_.mkAnd(dom, tc_.mkNot(tc_.mkOr(tc_.mkAnd(livee, tc_.eq(terms[e], fphi)),
                                                      tc_.mkAnd(tc_.mkNot(livee), tc_.eq(terms[e], zeroR))))))) {
          if (getenv("KSYNTH_DEBUG_EQ"))
            fprintf(stderr, "reindex: %s fails for phi = %s (element %zu)\n  kernel %s\n  spec %s\n  %s\n", "terms",
                    smt::show(phi).c_str(), e, smt::show(terms[e], 800).c_str(), smt::show(fphi, 800).c_str(),
                    lastUnknown_.c_str());
          return false;
        }
      }
      // (2) one-to-one where in range
      std::unordered_map<Term, Term> other;
      std::vector<Term> differ;
      for (const Level &L : levels) {
        Term j2 = tc_.fresh("bij.j", Sort::Int);
        other[L.j] = j2;
        differ.push_back(tc_.ne(L.j, j2));
      }
      // (the ranges are rebuilt: a level with known bounds folds its own range away)
      auto rangesAt = [&](const std::unordered_map<Term, Term> &m) {
        std::vector<Term> r{ctx};
        for (const Level &L : levels) {
          Term jx = tc_.substitute(L.j, m);
          r.push_back(tc_.le(tc_.intConst(0), jx));
          r.push_back(tc_.lt(jx, tc_.substitute(L.n, m)));
        }
        return tc_.mkAnd(r);
      };
      Term domj = jc ? tc_.mkAnd({dom, tc_.le(tc_.intConst(0), jc), tc_.lt(jc, levels.back().n)}) : dom;
      Term dom2 = rangesAt(other), phi2 = tc_.substitute(phi, other), live2 = tc_.substitute(live, other);
      Step st1(*this, "the index map is one-to-one where it is in the spec's range");
      if (!unsat(tc_.mkAnd({domj, dom2, live, live2, tc_.eq(phi, phi2), tc_.mkOr(differ)}))) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "reindex: %s fails for phi = %s\n", "one-to-one", smt::show(phi, 400).c_str());
        return false;
      }
      // (3) onto [lo, hi): the preimage of k, by division by the larger slope (tiles of the
      // outer level: slopes (T, 1); a strided inner level: slopes (1, S))
      Term k = tc_.fresh("bij.k", Sort::Int);
      std::unordered_map<Term, Term> pre = preimageOf(jv, c, slope, k);
      if (pre.empty())
        return false;
      Term hit = tc_.mkAnd(rangesAt(pre), tc_.eq(tc_.substitute(phi, pre), k));
      Step st2(*this, "the index map reaches every index of the spec's range");
      // (divisions by constants as shared linear chains: the reader's row, named by the digits
      // of its cell, is K (64 by + 59) against K i, which z3 does not see through otherwise)
      if (!unsat(smt::purifyDivMod(tc_, tc_.mkAnd({ctx, tc_.le(lo, k), tc_.lt(k, hi), tc_.mkNot(hit)})))) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "reindex: %s fails for phi = %s\n  %s\n", "onto", smt::show(phi, 400).c_str(),
                  lastUnknown_.c_str());
        return false;
      }
      return true;
    };
    std::vector<Term> phis = indexMaps(f, sd.k, g);
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "reindex: %zu candidate maps; kernel term %s\n", phis.size(), smt::show(g, 800).c_str());
    // Maps of the whole term: tried after a chunk's (below), which fail at once where the
    // terms' own maps are not evenly spaced.
    auto whole = [&] {
      for (Term phi : phis)
        if (mapHolds(phi, lv, {g}, nullptr))
          return true;
      return false;
    };
    // A chunk of terms per iteration: a float4's four elements (v.x + v.y + v.z + v.w), an
    // unrolled product over a 16-wide slice. Its n terms are one more level jc over [0, n):
    // the element whose map is s * c past the smallest is the one at jc = c, so that the map
    // over all levels is phi_min + s jc.
    Term guard = nullptr, body = g;
    if (g->kind == smt::Kind::Ite && g->kids[2] == zeroR) {
      guard = g->kids[0];
      body = g->kids[1];
    }
    std::vector<Term> elems;
    std::function<void(Term)> flatten = [&](Term t) {
      if (t->kind == smt::Kind::Add && t->sort == Sort::Real)
        for (Term x : t->kids)
          flatten(x);
      else
        elems.push_back(guard ? tc_.ite(guard, t, zeroR) : t);
    };
    flatten(body);
    if (elems.size() < 2 || elems.size() > 64)
      return whole();
    std::vector<std::vector<Term>> elemMaps;
    for (Term t : elems)
      elemMaps.push_back(indexMaps(f, sd.k, t));
    for (Term phi0 : elemMaps[0]) {
      // Each element's map at a constant distance from element 0's.
      std::vector<std::pair<int128, size_t>> off{{0, 0}};
      for (size_t e = 1; e < elems.size(); ++e)
        for (Term p : elemMaps[e]) {
          int128 d = 0;
          if (tc_.isConst(tc_.sub(p, phi0), &d)) {
            off.push_back({d, e});
            break;
          }
        }
      if (off.size() != elems.size())
        continue;
      std::sort(off.begin(), off.end());
      int128 s = off[1].first - off[0].first;
      bool even = s != 0;
      for (size_t c = 0; even && c < off.size(); ++c)
        even = off[c].first - off[0].first == s * static_cast<int128>(c);
      if (!even)
        continue;
      Term jc = tc_.fresh("bij.chunk", Sort::Int);
      tc_.setBounds(jc, 0, static_cast<int64_t>(elems.size()) - 1);
      std::vector<Level> lvc = lv;
      lvc.push_back({jc, tc_.intConst(static_cast<int64_t>(elems.size()))});
      std::vector<Term> ordered;
      for (const auto &[d, e] : off)
        ordered.push_back(elems[e]);
      Term phi = tc_.add(tc_.add(phi0, tc_.intConst(off[0].first)), tc_.mul(tc_.intConst(s), jc));
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "reindex: a chunk of %zu terms per iteration, map %s\n", elems.size(),
                smt::show(phi, 400).c_str());
      if (mapHolds(phi, lvc, ordered, jc))
        return true;
    }
    return whole();
  };
  return rest({{j1, l->kids[0]}}, g0, dom0, ctx);
}

} // namespace ksynth::equiv::prove_detail
