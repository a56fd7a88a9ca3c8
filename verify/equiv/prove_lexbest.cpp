// Equivalence proofs: argmax and argmin as the best (value, index) pair of a set, so that
// the order in which a kernel combines its candidates does not matter (a warp's shuffle
// tree, a running argmax per lane over a strided slice of the row).
//
// The spec's argmax-over k in [lo, hi) of f(k) (the first index of the largest term) is the
// index of the best pair of T = {(f(k), k) : lo <= k < hi}, where (a, i) is better than
// (b, j) when a > b, or a = b and i < j (argmin: a < b, or a = b and i < j). That is a total
// order on pairs, so every finite set has one best pair, and best(S1 u S2) is the better of
// best(S1) and best(S2).
//
// The kernel's index is shown to be, in every case, the index of the best pair of the set S
// of candidates that take part in that case (lexCandidates), built from:
//   - a selection ite(P, i1, i2), the value beside it ite(P, v1, v2), where P picks the
//     better pair: P => (v1, i1) is at least as good as (v2, i2), and not P => the reverse,
//     proven with the four terms replaced by free variables (so for every value they take).
//     S = S1 u S2. The combining step of a shuffle tree, `if (ov > bv || (ov == bv && oi <
//     bi)) { bv = ov; bi = oi; }`.
//   - a running argmax larg.N(n, ..., m0, i0) (symexec.h) beside its value max(m0,
//     lmax.M(n, ...)) where lmax.M's term is larg.N's candidate: it replaces only on a
//     strictly better value, and its indices grow with the iteration, from at least i0.
//     S = {(m0, i0)} u {(key(j), payload(j)) : 0 <= j < n}: by induction over the
//     iterations, a new candidate's index is above every earlier one, so it is better than the
//     pair kept exactly when its value is strictly better.
//   - a choice ite(c, i1, i2) on anything else: each case on its own, c (not c) added to
//     where its candidates take part.
//   - any other pair: S = {itself}.
// Then best(S) = best(T) in every case when
//   (1) every candidate that takes part is (f(i), i) with lo <= i < hi, or is no better than
//       (f(lo), lo): its value the lowest finite float (argmin: the highest) where f reads an
//       input of that type (at or below every input: an assumption, stated) and its index at
//       least lo; and
//   (2) every k in [lo, hi) is the index of a candidate that takes part.
// (1) and (2) make S the union of T and pairs no better than one of T's.
#include "verify/equiv/prover.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <unordered_set>

namespace ksynth::equiv::prove_detail {

// t with each lane value lanev.N(cell) (prove_warp.cpp) replaced by what it stands for: the
// value exchange store N holds with the owner's coordinates those of the cell. The selection
// rules below need the values' own structure (a lane's running argmax), not a name for them.
Term Prover::expandLaneValues(Term t) {
  std::vector<const ir::Stmt *> stores = check::exchangeStores(k_);
  for (int round = 0; round < 8; ++round) {
    std::vector<Term> apps = appsWithPrefix(t, "lanev.");
    if (apps.empty())
      return t;
    std::unordered_map<Term, Term> sub;
    for (Term x : apps) {
      size_t n = std::strtoul(x->name.c_str() + 6, nullptr, 10);
      if (n >= stores.size() || x->kids.size() != 1)
        continue;
      for (const check::AccessSite &a : m3_.accesses)
        if (a.write && a.stmt == stores[n] && a.value)
          sub[x] = tc_.substitute(a.value, laneThread(x->kids[0]));
    }
    if (sub.empty())
      return t;
    t = tc_.substitute(t, sub);
  }
  return t;
}

// Whether p, the condition of ite(p, i1, i2), picks the better of two pairs (v1, i1) and
// (v2, i2) for every value the four take; v1 and v2 are found as the real operands of p's
// comparisons.
bool Prover::lexPick(Term p, Term i1, Term i2, bool isMax, Term &v1, Term &v2) {
  if (p->sort != Sort::Bool || i1->sort != Sort::Int || i2->sort != Sort::Int)
    return false;
  std::vector<Term> reals;
  std::function<bool(Term)> atoms = [&](Term x) {
    switch (x->kind) {
    case smt::Kind::And:
    case smt::Kind::Or:
    case smt::Kind::Not:
      for (Term k : x->kids)
        if (!atoms(k))
          return false;
      return true;
    case smt::Kind::Lt:
    case smt::Kind::Le:
    case smt::Kind::Eq:
      if (x->kids[0]->sort == Sort::Real)
        for (Term k : x->kids)
          if (std::find(reals.begin(), reals.end(), k) == reals.end())
            reals.push_back(k);
      return true;
    default: return false;
    }
  };
  if (!atoms(p) || reals.size() != 2)
    return false;
  // (A constant stays itself: a padding lane's index 8 shows in the condition only folded
  // into others, `9 <= bi` for `8 < bi`, where no substitution can reach it.)
  auto freeOr = [&](Term x, const char *name, Sort so) { return x->kind == smt::Kind::Const ? x : tc_.fresh(name, so); };
  Term b = freeOr(i1, "lex.i", Sort::Int), d = freeOr(i2, "lex.j", Sort::Int);
  // (x, i) at least as good as (y, j).
  auto noWorse = [&](Term x, Term i, Term y, Term j) {
    return tc_.mkOr(isMax ? tc_.lt(y, x) : tc_.lt(x, y), tc_.mkAnd(tc_.eq(x, y), tc_.le(i, j)));
  };
  for (int order = 0; order < 2; ++order) {
    Term x1 = reals[order], x2 = reals[1 - order];
    Term a = freeOr(x1, "lex.a", Sort::Real), c = freeOr(x2, "lex.b", Sort::Real);
    std::unordered_map<Term, Term> abstract;
    for (auto [from, to] : {std::pair{x1, a}, {i1, b}, {x2, c}, {i2, d}})
      if (from != to)
        abstract[from] = to;
    Term q = tc_.substitute(p, abstract);
    std::vector<Term> syms;
    tc_.collectSymbols(q, syms);
    bool closed = true;
    for (Term s : syms)
      closed &= s == a || s == b || s == c || s == d;
    if (!closed)
      continue;
    Step st(*this, "the condition picks the better of two (value, index) pairs, for every value they take");
    if (unsat(tc_.mkNot(tc_.mkAnd(tc_.mkOr(tc_.mkNot(q), noWorse(a, b, c, d)), tc_.mkOr(q, noWorse(c, d, a, b))))))
      v1 = x1, v2 = x2;
    else
      continue;
    return true;
  }
  return false;
}

// The candidates of a running argmax (argmin) i = larg.N(n, ..., m0, i0) beside its value v
// (nullptr where the value is not used), see the rules at the top.
bool Prover::lexFoldLeaf(Term v, Term i, bool isMax, const std::vector<Term> &conds, const std::vector<Term> &levels,
                         Term ctx, std::vector<PairCandidate> &out) {
  const check::SumDef *def = kernelSum(i->name);
  if (!def || !def->key || def->isMax != isMax || !def->strict || levels.size() >= 3)
    return false;
  size_t np = def->params.size();
  if (i->kids.size() != np + 3)
    return false;
  Term n = i->kids[0], m0 = i->kids[np + 1], i0 = i->kids[np + 2];
  Term j = tc_.fresh("lex.j", Sort::Int);
  auto atIter = [&](const check::SumDef &d, Term app, Term body, Term it) {
    std::unordered_map<Term, Term> m{{d.iter, it}};
    for (size_t p = 0; p < d.params.size(); ++p)
      m[d.params[p]] = app->kids[p + 1];
    return tc_.substitute(body, m);
  };
  Term key = canonicalKernel(atIter(*def, i, def->key, j));
  auto payload = [&](Term it) { return atIter(*def, i, def->body, it); };
  Term dom = tc_.mkAnd(ctx, tc_.mkAnd(conds));
  Term inLoop = tc_.mkAnd(tc_.le(tc_.intConst(0), j), tc_.lt(j, n));
  if (v) {
    // v = ite(1 <= n, ite(L <= m0, m0, L), m0) (argmin: ite(m0 <= L, m0, L)), L = lmax.M(n, ...),
    // or its inner ite alone where n >= 1.
    Term inner = v;
    if (v->kind == smt::Kind::Ite && v->kids[0] == tc_.le(tc_.intConst(1), n) && v->kids[2] == m0)
      inner = v->kids[1];
    else {
      Step st(*this, "the running argmax's loop runs at least once");
      if (!unsat(tc_.mkAnd(dom, tc_.lt(n, tc_.intConst(1)))))
        return false;
    }
    if (inner->kind != smt::Kind::Ite || inner->kids[1] != m0 || inner->kids[0]->kind != smt::Kind::Le)
      return false;
    Term L = inner->kids[2];
    if (inner->kids[0] != (isMax ? tc_.le(L, m0) : tc_.le(m0, L)) || !isFoldApp(L, isMax ? "lmax." : "lmin.") ||
        L->kids.empty() || L->kids[0] != n)
      return false;
    const check::SumDef *ld = kernelSum(L->name);
    if (!ld || ld->params.size() + 1 != L->kids.size())
      return false;
    Term lkey = canonicalKernel(atIter(*ld, L, ld->body, j));
    if (lkey != key) {
      Step st(*this, "the running max beside the running argmax compares the same candidates");
      if (!unsat(tc_.mkAnd({dom, inLoop, tc_.ne(lkey, key)})))
        return false;
    }
  }
  {
    Step st(*this, "the running argmax's indices grow with its iterations, from the index it starts with");
    Term next = tc_.add(j, tc_.intConst(1));
    if (!unsat(tc_.mkAnd({dom, tc_.le(tc_.intConst(0), j), tc_.lt(next, n), tc_.le(payload(next), payload(j))})) ||
        !unsat(tc_.mkAnd({dom, tc_.le(tc_.intConst(1), n), tc_.lt(payload(tc_.intConst(0)), i0)}))) {
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "argmax: the indices of %s do not grow from %s\n", smt::show(i, 300).c_str(),
                smt::show(i0, 200).c_str());
      return false;
    }
  }
  std::vector<Term> c2 = conds, l2 = levels;
  c2.push_back(inLoop);
  l2.push_back(j);
  out.push_back({l2, c2, key, payload(j)});
  // The start is itself a pair chosen from candidates (a first element read before the loop,
  // or a value every candidate beats).
  return lexCandidates(m0, i0, isMax, conds, levels, ctx, out, 1);
}

// Appends the candidates of the pair (v, i) (v nullptr: only the index is known) to out; see
// the rules at the top.
bool Prover::lexCandidates(Term v, Term i, bool isMax, const std::vector<Term> &conds,
                           const std::vector<Term> &levels, Term ctx, std::vector<PairCandidate> &out, int depth) {
  if (out.size() > 1024 || depth > 24) {
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "argmax: too many candidates (%zu) or too deep (%d)\n", out.size(), depth);
    return false;
  }
  if (i->kind == smt::Kind::Ite) {
    Term p = i->kids[0], v1 = nullptr, v2 = nullptr;
    if (lexPick(p, i->kids[1], i->kids[2], isMax, v1, v2)) {
      if (v && !(v->kind == smt::Kind::Ite && v->kids[0] == p && v->kids[1] == v1 && v->kids[2] == v2)) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "argmax: the value beside a selection is not selected the same way: %s\n",
                  smt::show(v, 300).c_str());
        return false;
      }
      return lexCandidates(v1, i->kids[1], isMax, conds, levels, ctx, out, depth + 1) &&
             lexCandidates(v2, i->kids[2], isMax, conds, levels, ctx, out, depth + 1);
    }
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "argmax: a choice that is not a pick of the better pair (depth %d): %s\n", depth,
              smt::show(p, 300).c_str());
    Term va = v, vb = v;
    if (v && v->kind == smt::Kind::Ite && v->kids[0] == p)
      va = v->kids[1], vb = v->kids[2];
    std::vector<Term> c1 = conds, c2 = conds;
    c1.push_back(p);
    c2.push_back(tc_.mkNot(p));
    return lexCandidates(va, i->kids[1], isMax, c1, levels, ctx, out, depth + 1) &&
           lexCandidates(vb, i->kids[2], isMax, c2, levels, ctx, out, depth + 1);
  }
  if (isFoldApp(i, isMax ? "larg." : "largmin."))
    return lexFoldLeaf(v, i, isMax, conds, levels, ctx, out);
  if (!v) {
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "argmax: an index without its value: %s\n", smt::show(i, 300).c_str());
    return false;
  }
  // A pair read back from shared memory (a block reduction's warp results, `pv[lane]` and
  // `pi[lane]`): each read replaced by what its writer stored there, which is the same value,
  // so the pair is the same pair; then taken apart as the writer's own selection (its lanes'
  // values named by the stores they stand for). Nothing here presumes the two cells have one
  // writer: the rules above match the value beside each selection term by term, and a leaf
  // left over is asked to be a term of the spec's range.
  if (hasAppWithPrefix(v, "shm.") || hasAppWithPrefix(i, "shm.")) {
    Term dom = tc_.mkAnd(ctx, tc_.mkAnd(conds));
    Term v2 = resolveShared(v, dom, 0), i2 = resolveShared(i, dom, 0);
    if (v2 != v || i2 != i) {
      if (hasAppWithPrefix(v2, "lanev.") || hasAppWithPrefix(i2, "lanev.")) {
        v2 = expandLaneValues(v2);
        i2 = expandLaneValues(i2);
      }
      return lexCandidates(canonicalKernel(v2), canonicalKernel(i2), isMax, conds, levels, ctx, out, depth + 1);
    }
  }
  out.push_back({levels, conds, v, i});
  return true;
}

// ctx => x = q, x an index the kernel selects, q = sarg.N(lo, hi, params) (sargmin.N).
bool Prover::lexEqual(Term x, Term q, Term ctx) {
  bool isMax = q->name.rfind("sarg.", 0) == 0;
  const SpecSum &sd = specSums_.at(q->name);
  Term lo = q->kids[0], hi = q->kids[1], f = specTerm(q);
  auto fAt = [&](Term k) { return tc_.substitute(f, {{sd.k, k}}); };
  bool debug = getenv("KSYNTH_DEBUG_EQ") != nullptr;
  Step st(*this, std::string("the kernel's index is that of the best (value, index) pair of a set of candidates, "
                             "and the candidates are the spec's '") +
                     q->name + "' terms and pairs no better than one of them");
  {
    Step st2(*this, "the spec's range is not empty");
    if (!unsat(tc_.mkAnd(ctx, tc_.le(hi, lo))))
      return false;
  }
  // Lane values (a shuffle tree's) with the reading lane fixed where the context fixes it, so
  // that the lanes it reads from are constants too.
  if (hasAppWithPrefix(x, "lanev.")) {
    std::unordered_map<Term, Term> pin = pinnedCoordinates(ctx);
    x = expandLaneValues(pin.empty() ? x : tc_.substitute(x, pin));
  }
  std::vector<PairCandidate> cands;
  if (!lexCandidates(nullptr, x, isMax, {}, {}, ctx, cands, 0) || cands.empty()) {
    if (debug)
      fprintf(stderr, "argmax: %s is not a selection ksynth can take apart\n", smt::show(x, 600).c_str());
    return false;
  }
  if (debug)
    fprintf(stderr, "argmax: %zu candidates\n", cands.size());
  Term first = fAt(lo), k = tc_.fresh("lex.k", Sort::Int);
  std::vector<Term> hits;
  int64_t stride = 1; // a common multiple of the candidates' index slopes
  for (const PairCandidate &c : cands) {
    Term dom = tc_.mkAnd(ctx, tc_.mkAnd(c.conds));
    // A start at the lowest float is asked about as one (it is no term of the range).
    bool below = beyondEveryInput(c.value, first, isMax), inT = false;
    if (!below) {
      Step st2(*this, "a candidate is the spec's term at its index, in the range");
      inT = unsat(tc_.mkAnd(
          dom, tc_.mkNot(tc_.mkAnd({tc_.le(lo, c.index), tc_.lt(c.index, hi), tc_.eq(c.value, fAt(c.index))}))));
    }
    if (!inT) {
      if (below) {
        Step st2(*this, "a candidate whose value is at or beyond every input has an index at least the range's first");
        below = unsat(tc_.mkAnd(dom, tc_.lt(c.index, lo)));
      }
      if (!below) {
        if (debug)
          fprintf(stderr, "argmax: candidate (%s, %s) is neither a term of the range nor beaten by one\n",
                  smt::show(c.value, 300).c_str(), smt::show(c.index, 300).c_str());
        return false;
      }
      continue;
    }
    addHit(c.levels, c.conds, c.index, k, hits, stride);
  }
  Step st3(*this, "every index of the spec's range is the index of a candidate that takes part");
  return everyIndexHit(ctx, lo, hi, k, hits, stride, false);
}

// ctx => every k in [lo, hi) satisfies one of hits (each: a candidate takes part at the
// preimage of k and maps it to k). Where the maps' slopes have a common multiple M <= 256 (a
// warp's lanes each walking every 32nd index: 32; float4s per lane: 4 and 128), one case per
// residue r of k mod M, k := M t + r: each preimage (k - c) mod s div s' then folds to t
// times a constant plus a constant, and the solver is left with linear facts. tryDirect: the
// question as it is first, for two seconds at most.
bool Prover::everyIndexHit(Term ctx, Term lo, Term hi, Term k, const std::vector<Term> &hits, int64_t modulus,
                           bool tryDirect) {
  Term uncovered = tc_.mkAnd({tc_.le(lo, k), tc_.lt(k, hi), tc_.mkNot(tc_.mkOr(hits))});
  if (modulus < 2 || modulus > 256)
    return unsatFocused(ctx, uncovered);
  if (tryDirect) {
    solver_.setTimeout(std::min(opts_.timeoutMs, 2000u));
    bool direct = unsatFocused(ctx, uncovered);
    solver_.setTimeout(opts_.timeoutMs);
    if (direct)
      return true;
  }
  Term t = tc_.fresh("cover.t", Sort::Int);
  for (int64_t r = 0; r < modulus; ++r) {
    Term kr = tc_.add(tc_.mul(tc_.intConst(modulus), t), tc_.intConst(r));
    if (!unsatFocused(ctx, tc_.substitute(uncovered, {{k, kr}})))
      return false;
  }
  return true;
}

// The outermost integer terms of t that hold a running argmax (argmin) of the kernel.
std::vector<Term> Prover::lexTerms(Term t, bool isMax) {
  std::vector<Term> out;
  const char *prefix = isMax ? "larg." : "largmin.";
  std::unordered_set<Term> seen; // (a term is a DAG: each node once)
  std::function<void(Term)> walk = [&](Term x) {
    if (!seen.insert(x).second || (!hasAppWithPrefix(x, prefix) && !hasAppWithPrefix(x, "lanev.")))
      return;
    if (x->sort == Sort::Int) {
      if (std::find(out.begin(), out.end(), x) == out.end())
        out.push_back(x);
      return;
    }
    for (Term kid : x->kids)
      walk(kid);
  };
  walk(t);
  return out;
}

} // namespace ksynth::equiv::prove_detail
