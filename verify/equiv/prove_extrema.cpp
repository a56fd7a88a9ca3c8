// Equivalence proofs: max and min over a range, and argmax and argmin.
#include "verify/equiv/prover.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <unordered_set>

namespace ksynth::equiv::prove_detail {

// ---- max and min over a range ------------------------------------------------------------
//
// The kernel's max (min) is a term built of max nodes, `ite`s, fold applications lmax.*
// (symexec.h: a loop `m = fmaxf(m, ...)`, or a shared-memory tree) and other terms; it is
// the max of its candidates, each a term over the iterations of the folds around it with
// the conditions under which it takes part (generators()). It equals the spec's max over k
// in [lo, hi) of f(k), a non-empty range, when
//   (1) every candidate is f(phi) with lo <= phi < hi, for an index map phi guessed from
//       the reads, or is the lowest value of a float type where f(lo) reads an input of that
//       type (the start of a fold, below every finite input: an assumption, stated), and
//   (2) every k in [lo, hi) is phi of some candidate's iterations where it takes part.
// (1) makes the kernel's max at most the spec's, (2) at least. Unlike a sum, a max does not
// care how often a term is taken, so no one-to-one condition is needed.

bool Prover::generators(Term x, bool isMax, const std::vector<Term> &conds, const std::vector<Term> &levels, Term ctx,
                        std::vector<Candidate> &out, int depth) {
  if (out.size() > 16 || depth > 8)
    return false;
  Term p, q;
  bool mx = false;
  if (check::extremumOf(x, p, q, mx) && mx == isMax)
    return generators(p, isMax, conds, levels, ctx, out, depth + 1) &&
           generators(q, isMax, conds, levels, ctx, out, depth + 1);
  if (x->kind == smt::Kind::App && x->name == check::kExtremumNone)
    return true; // an iteration that does not update
  if (isFoldApp(x, isMax ? "lmax." : "lmin.")) {
    const check::SumDef *def = kernelSum(x->name);
    if (!def || levels.size() >= 3)
      return false;
    Term j = tc_.fresh("ext.j", Sort::Int);
    std::unordered_map<Term, Term> m{{def->iter, j}};
    for (size_t i = 0; i < def->params.size(); ++i)
      m[def->params[i]] = x->kids[i + 1];
    std::vector<Term> c2 = conds, l2 = levels;
    c2.push_back(tc_.le(tc_.intConst(0), j));
    c2.push_back(tc_.lt(j, x->kids[0]));
    l2.push_back(j);
    Term dom = tc_.mkAnd(ctx, tc_.mkAnd(c2));
    Term body = resolveSharedIn(canonicalKernel(tc_.substitute(def->body, m)), dom);
    return generators(body, isMax, c2, l2, ctx, out, depth + 1);
  }
  if (x->kind == smt::Kind::Ite) {
    std::vector<Term> c1 = conds, c2 = conds;
    c1.push_back(x->kids[0]);
    c2.push_back(tc_.mkNot(x->kids[0]));
    return generators(x->kids[1], isMax, c1, levels, ctx, out, depth + 1) &&
           generators(x->kids[2], isMax, c2, levels, ctx, out, depth + 1);
  }
  out.push_back({levels, conds, x});
  return true;
}

// Whether x, a candidate, is the lowest (max) or highest (min) finite value of a float type
// at least as wide as that of input tensor read r: then no finite input is beyond it.
bool Prover::beyondEveryInput(Term x, Term r, bool isMax) {
  // -FLT_MAX is written as the negation of the constant FLT_MAX.
  if (x->kind == smt::Kind::Mul && x->kids.size() == 2 && x->kids[0] == tc_.realConst(-1) &&
      x->kids[1]->kind == smt::Kind::App) {
    std::string n = x->kids[1]->name;
    x = n == check::kHighestF32   ? tc_.app(check::kLowestF32, Sort::Real, {})
        : n == check::kHighestF64 ? tc_.app(check::kLowestF64, Sort::Real, {})
        : n == check::kLowestF32  ? tc_.app(check::kHighestF32, Sort::Real, {})
        : n == check::kLowestF64  ? tc_.app(check::kHighestF64, Sort::Real, {})
                                  : x;
  }
  if (x->kind != smt::Kind::App || r->kind != smt::Kind::App || r->name.rfind("mem.", 0) != 0)
    return false;
  int a = check::arrayOfMemName(r->name);
  if (a < 0 || !g_.readOnly.count(a) || !k_.arrays[a].elem.isFloat())
    return false;
  bool f32 = k_.arrays[a].elem.bits <= 32; // every finite f32, f16 or bf16 lies within +-FLT_MAX
  if (x->name == (isMax ? check::kLowestF64 : check::kHighestF64) ||
      (f32 && x->name == (isMax ? check::kLowestF32 : check::kHighestF32))) {
    assumed_.insert("float inputs are finite values of their type (no NaN or infinity): the start of a max "
                    "(min) fold at the lowest (highest) finite float is below (above) every input");
    return true;
  }
  return false;
}

// The term of the spec's fold application q (ssum, smax, sarg, ...) with q's arguments for
// its parameters: free in the fold's index (specSums_.at(q->name).k).
Term Prover::specTerm(Term q) {
  const SpecSum &sd = specSums_.at(q->name);
  std::unordered_map<Term, Term> ms;
  for (size_t p = 0; p < sd.params.size(); ++p)
    ms[sd.params[p]] = q->kids[p + 2];
  return tc_.substitute(sd.body, ms);
}

// Appends to hits the condition that a candidate, taking part where conds hold over its
// levels, maps an iteration to index k under phi (affine in the levels): conds and phi = k at
// the preimage of k; nothing where phi has no preimage ksynth can write. modulus becomes a
// common multiple of it and phi's slopes (everyIndexHit).
void Prover::addHit(const std::vector<Term> &levels, const std::vector<Term> &conds, Term phi, Term k,
                    std::vector<Term> &hits, int64_t &modulus) {
  if (levels.empty()) {
    hits.push_back(tc_.mkAnd(tc_.mkAnd(conds), tc_.eq(phi, k)));
    return;
  }
  Term c0 = nullptr;
  std::vector<int128> slope;
  if (!affineIn(phi, levels, c0, slope))
    return;
  for (int128 s : slope)
    modulus = commonMultiple(modulus, s);
  std::unordered_map<Term, Term> pre = preimageOf(levels, c0, slope, k);
  if (!pre.empty())
    hits.push_back(tc_.mkAnd(tc_.substitute(tc_.mkAnd(conds), pre), tc_.eq(tc_.substitute(phi, pre), k)));
}

// The index k of a spec coordinate s (affine in k: s0 + k S) at which it is the kernel's
// coordinate g: g - s0 for a unit S, X where g - s0 = X S exactly (a dilation S), else nullptr.
Term Prover::coordinateMap(Term s, Term k, Term g) {
  Term s0 = tc_.substitute(s, {{k, tc_.intConst(0)}}), s1 = tc_.substitute(s, {{k, tc_.intConst(1)}});
  Term S = tc_.sub(s1, s0);
  if (tc_.mentions(S, k) || tc_.sub(tc_.substitute(s, {{k, tc_.intConst(2)}}), s1) != S)
    return nullptr;
  if (S == tc_.intConst(1))
    return tc_.sub(g, s0);
  Term d = expandProducts(tc_, tc_.sub(g, s0)), X, Y;
  S = expandProducts(tc_, S);
  if (S->kind == smt::Kind::Const || S->kind == smt::Kind::Add || !check::splitBy(tc_, d, S, X, Y))
    return nullptr;
  // (Y is zero where the rest of the two coordinates agree, which the caller's context says:
  // X + Y div S is then X; callers prove what they use.)
  return Y == tc_.intConst(0) ? X : tc_.add(X, tc_.div(Y, S));
}

// ctx => t = the spec's nested max (min): chain[0] = smax.N(lo1, hi1, ...) whose term is
// chain[1] = smax.M(lo2, hi2, ...) (its range may depend on the outer index), ..., the
// innermost's term f(k1, ..., kn) a read of an input. Where every inner range is non-empty,
// that is the max over the set of (k1, ..., kn) in the nested ranges, and the kernel's max
// equals it when (1) each candidate is f at (phi1, ..., phin) in the set and (2) every point
// of the set is that of a candidate that takes part. Each phi_i is read off one coordinate
// of the input the two read (the spec's coordinate s0 + k_i S against the kernel's), and
// depends on one level of the kernel's folds, a different one for each i.
bool Prover::nestedExtremaEqual(Term t, const std::vector<Term> &chain, Term ctx) {
  bool isMax = chain[0]->name.rfind("smax.", 0) == 0;
  size_t n = chain.size();
  std::vector<Term> ks, los, his;
  for (Term q : chain) {
    ks.push_back(specSums_.at(q->name).k);
    los.push_back(q->kids[0]);
    his.push_back(q->kids[1]);
  }
  Term f = specTerm(chain.back()); // free in ks
  bool debug = getenv("KSYNTH_DEBUG_EQ") != nullptr;
  Step st(*this, std::string("a ") + (isMax ? "max" : "min") + " computed by the kernel equals the spec's nested '" +
                     chain[0]->name + "': each of its candidates is a term of the spec's ranges, and every term is "
                     "one of them");
  // Fresh indices K_i for the ranges: the spec's own symbols are bound in its terms.
  std::vector<Term> K;
  std::unordered_map<Term, Term> toK;
  for (size_t i = 0; i < n; ++i) {
    K.push_back(tc_.fresh("ext.k" + std::to_string(i), Sort::Int));
    toK[ks[i]] = K.back();
  }
  auto inRanges = [&](const std::unordered_map<Term, Term> &at) {
    std::vector<Term> r;
    for (size_t i = 0; i < n; ++i)
      r.push_back(tc_.mkAnd(tc_.le(tc_.substitute(los[i], at), tc_.substitute(ks[i], at)),
                            tc_.lt(tc_.substitute(ks[i], at), tc_.substitute(his[i], at))));
    return tc_.mkAnd(r);
  };
  {
    // Every range non-empty wherever the outer indices are in theirs.
    Step st2(*this, "the spec's ranges are not empty");
    for (size_t i = 0; i < n; ++i) {
      std::vector<Term> outer;
      for (size_t o = 0; o < i; ++o)
        outer.push_back(tc_.mkAnd(tc_.le(tc_.substitute(los[o], toK), K[o]), tc_.lt(K[o], tc_.substitute(his[o], toK))));
      outer.push_back(tc_.le(tc_.substitute(his[i], toK), tc_.substitute(los[i], toK)));
      if (!unsatFocused(ctx, tc_.mkAnd(outer))) {
        if (debug)
          fprintf(stderr, "nested extremum: range %zu of %s may be empty\n", i, chain[0]->name.c_str());
        return false;
      }
    }
  }
  std::vector<Candidate> cands;
  if (!generators(t, isMax, {}, {}, ctx, cands, 0) || cands.empty())
    return false;
  // The input f reads, and its extents, for the coordinates.
  std::vector<Term> reads = appsWithPrefix(f, "mem.");
  if (reads.size() != 1)
    return false;
  Term fr = reads[0];
  int arr = check::arrayOfMemName(fr->name);
  int tensor = -1;
  for (const auto &[tt, aa] : arrayOf_)
    if (aa == arr)
      tensor = tt;
  if (tensor < 0)
    return false;
  std::vector<Term> ext, none;
  for (const auto &e : s_.tensors[tensor].extents)
    ext.push_back(tr(*e, none));
  // The spec's coordinates with the element's indices read as the storing thread's (where
  // proven: prove_tensor.cpp), so that they share terms with the kernel's.
  Term specAddr = coordOf_.empty() ? fr->kids[0] : tc_.substitute(fr->kids[0], coordOf_);
  std::vector<Term> sc = check::coordinates(tc_, specAddr, ext);
  if (sc.size() != ext.size())
    return false;
  std::unordered_map<Term, Term> firstAt;
  for (size_t i = 0; i < n; ++i)
    firstAt[ks[i]] = tc_.substitute(los[i], firstAt);
  Term first = tc_.substitute(f, firstAt);
  std::vector<Term> hits;
  for (const Candidate &c : cands) {
    if (beyondEveryInput(c.term, first, isMax))
      continue;
    std::vector<Term> gr = appsWithPrefix(c.term, fr->name);
    std::vector<Term> gc = gr.size() == 1 ? check::coordinates(tc_, gr[0]->kids[0], ext) : std::vector<Term>{};
    if (gc.size() != ext.size() || c.levels.size() != n) {
      if (debug)
        fprintf(stderr, "nested extremum: candidate %s: no coordinates or %zu levels\n", smt::show(c.term, 300).c_str(),
                c.levels.size());
      return false;
    }
    // phi_i from a coordinate that names k_i alone.
    std::vector<Term> phi(n, nullptr);
    for (size_t d = 0; d < ext.size(); ++d) {
      int which = -1, count = 0;
      for (size_t i = 0; i < n; ++i)
        if (tc_.mentions(sc[d], ks[i])) {
          which = static_cast<int>(i);
          ++count;
        }
      if (count != 1 || phi[static_cast<size_t>(which)])
        continue;
      phi[static_cast<size_t>(which)] = coordinateMap(sc[d], ks[static_cast<size_t>(which)], gc[d]);
    }
    std::unordered_map<Term, Term> at;
    for (size_t i = 0; i < n; ++i) {
      if (!phi[i]) {
        if (debug)
          fprintf(stderr, "nested extremum: no index map for level %zu of %s\n", i, smt::show(c.term, 300).c_str());
        return false;
      }
      at[ks[i]] = phi[i];
    }
    Term dom = tc_.mkAnd(ctx, tc_.mkAnd(c.conds));
    {
      // The term first (the spec's read with the element's indices as the thread's, equal
      // under ctx: prove_tensor.cpp), then the ranges: two smaller questions than the pair.
      Term fAt = tc_.substitute(f, at);
      if (!coordOf_.empty())
        fAt = tc_.substitute(fAt, coordOf_);
      Step st2(*this, "a candidate of the kernel's folds is the spec's term at the mapped indices, in the ranges");
      if (!unsat(tc_.mkAnd(dom, tc_.ne(c.term, fAt))) || !unsat(tc_.mkAnd(dom, tc_.mkNot(inRanges(at))))) {
        if (debug)
          fprintf(stderr, "nested extremum: candidate %s is not the spec's term at the mapped indices\n",
                  smt::show(c.term, 300).c_str());
        return false;
      }
    }
    // The preimage of (K_1, ..., K_n): phi_i depends on one level of the kernel's, its own.
    std::unordered_map<Term, Term> pre;
    std::vector<Term> eqs;
    for (size_t i = 0; i < n; ++i) {
      std::vector<Term> mine;
      for (Term l : c.levels)
        if (tc_.mentions(phi[i], l))
          mine.push_back(l);
      Term c0 = nullptr;
      std::vector<int128> slope;
      if (mine.size() != 1 || pre.count(mine[0]) || !affineIn(phi[i], mine, c0, slope))
        return false;
      for (const auto &[l, v] : preimageOf(mine, c0, slope, K[i]))
        pre[l] = v;
      eqs.push_back(tc_.eq(phi[i], K[i]));
    }
    hits.push_back(tc_.substitute(tc_.mkAnd(tc_.mkAnd(c.conds), tc_.mkAnd(eqs)), pre));
  }
  Step st3(*this, "every point of the spec's ranges is the mapped point of a candidate that takes part");
  return unsatFocused(ctx, tc_.mkAnd(inRanges(toK), tc_.mkNot(tc_.mkOr(hits))));
}

// ctx => t = q, t a max (min) term of the kernel, q = smax.N(lo, hi, params) (smin.N).
bool Prover::extremaEqual(Term t, Term q, Term ctx) {
  bool isMax = q->name.rfind("smax.", 0) == 0;
  {
    // A max whose terms are maxes (a pooling window's rows of columns): as one set.
    std::vector<Term> chain{q};
    for (Term b = specTerm(q); b->kind == smt::Kind::App && b->name.rfind(isMax ? "smax." : "smin.", 0) == 0 &&
                               chain.size() < 3;
         b = specTerm(b))
      chain.push_back(b);
    if (chain.size() > 1)
      return nestedExtremaEqual(t, chain, ctx);
  }
  const SpecSum &sd = specSums_.at(q->name);
  Term lo = q->kids[0], hi = q->kids[1], f = specTerm(q); // f free in sd.k
  Step st(*this, std::string("a ") + (isMax ? "max" : "min") + " computed by the kernel equals the spec's '" +
                     q->name + "': each of its candidates is a term of the spec's range, and every term is "
                     "one of them");
  {
    Step st2(*this, "the spec's range is not empty");
    if (!unsat(tc_.mkAnd(ctx, tc_.le(hi, lo))))
      return false;
  }
  bool debug = getenv("KSYNTH_DEBUG_EQ") != nullptr;
  std::vector<Candidate> cands;
  if (!generators(t, isMax, {}, {}, ctx, cands, 0) || cands.empty()) {
    if (debug)
      fprintf(stderr, "extremum: %s has no candidates ksynth can name\n", smt::show(t, 300).c_str());
    return false;
  }
  if (debug)
    for (const Candidate &c : cands)
      fprintf(stderr, "extremum: candidate %s (%zu levels) where %s\n", smt::show(c.term, 300).c_str(),
              c.levels.size(), smt::show(tc_.mkAnd(c.conds), 300).c_str());
  Term k = tc_.fresh("ext.k", Sort::Int);
  Term first = tc_.substitute(f, {{sd.k, lo}});
  std::vector<Term> hits;
  int64_t modulus = 1; // a common multiple of the index maps' slopes
  for (const Candidate &c : cands) {
    if (beyondEveryInput(c.term, first, isMax))
      continue;
    Term dom = tc_.mkAnd(ctx, tc_.mkAnd(c.conds));
    bool found = false;
    for (Term phi : indexMaps(f, sd.k, c.term)) {
      Term live = tc_.mkAnd(tc_.le(lo, phi), tc_.lt(phi, hi));
      {
        Step st2(*this, "a candidate of the kernel's fold is the spec's term at the mapped index, in the range");
        if (!unsat(tc_.mkAnd(dom, tc_.mkNot(tc_.mkAnd(live, tc_.eq(c.term, tc_.substitute(f, {{sd.k, phi}}))))))) {
          if (getenv("KSYNTH_DEBUG_EQ"))
            fprintf(stderr, "extremum: candidate %s is not the spec's term at %s\n",
                    smt::show(c.term, 300).c_str(), smt::show(phi).c_str());
          continue;
        }
      }
      found = true;
      addHit(c.levels, c.conds, phi, k, hits, modulus);
      break;
    }
    if (!found) {
      if (debug)
        fprintf(stderr, "extremum: no index map for candidate %s\n", smt::show(c.term, 300).c_str());
      return false;
    }
  }
  Step st3(*this, "every index of the spec's range is the mapped index of a candidate that takes part");
  return everyIndexHit(ctx, lo, hi, k, hits, modulus, true);
}

// The kernel's max (min) terms in t that contain a fold of that kind, outermost ones only: a
// fold application, a max node, or a fold's value ite(n >= 1, max(m0, L), m0).
std::vector<Term> Prover::extremumTerms(Term t, bool isMax) {
  std::vector<Term> out;
  const char *prefix = isMax ? "lmax." : "lmin.";
  auto isNode = [&](Term x) {
    Term p, q;
    bool mx = false;
    return isFoldApp(x, prefix) || (check::extremumOf(x, p, q, mx) && mx == isMax);
  };
  std::unordered_set<Term> seen; // (a term is a DAG: each node once)
  std::function<void(Term)> walk = [&](Term x) {
    if (!seen.insert(x).second || !hasAppWithPrefix(x, prefix))
      return;
    if (isNode(x) ||
        (x->kind == smt::Kind::Ite && x->sort == Sort::Real && (isNode(x->kids[1]) || isNode(x->kids[2])))) {
      out.push_back(x);
      return;
    }
    for (Term kid : x->kids)
      walk(kid);
  };
  walk(t);
  std::sort(out.begin(), out.end(), smt::TermById()); // creation order: the same on every run
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Replaces each max (min) term of the kernel in a that equals a fold of the spec in b by one
// unknown on both sides.
void Prover::matchExtrema(Term &a, Term &b, Term ctx) {
  for (bool isMax : {true, false}) {
    std::unordered_map<Term, Term> subA, subB;
    std::vector<Term> qs = appsWithPrefix(b, isMax ? "smax." : "smin.");
    for (Term x : extremumTerms(a, isMax))
      for (Term q : qs)
        if (!subB.count(q) && extremaEqual(x, q, ctx)) {
          Term sigma = tc_.fresh("eq.ext", x->sort);
          subA[x] = sigma;
          subB[q] = sigma;
          break;
        }
    if (!subA.empty()) {
      a = tc_.substitute(a, subA);
      b = tc_.substitute(b, subB);
    }
  }
}

// ---- argmax and argmin ------------------------------------------------------------------
//
// A running argmax of the kernel, larg.N(n, params..., m0, i0) (symexec.h), equals the
// spec's argmax-over k in [lo, hi) of f(k) (the first index of the largest term) when it
// walks the range in order: its start is the range's first term (m0 = f(lo), i0 = lo), its
// iteration j compares f(lo + 1 + j) and records lo + 1 + j, for the n = hi - lo - 1
// iterations, and a candidate replaces the best only when strictly larger (so the first of
// equal maxima stays). The same for argmin. By induction over the iterations, the recorded
// index is then the first index of the largest (smallest) of f(lo .. lo + j + 1).

bool Prover::argEqual(Term l, Term q, Term ctx) {
  const check::SumDef *def = kernelSum(l->name);
  if (!def || !def->key || !def->strict)
    return false;
  const SpecSum &sd = specSums_.at(q->name);
  size_t np = def->params.size();
  if (l->kids.size() != np + 3)
    return false;
  Term n = l->kids[0], m0 = l->kids[np + 1], i0 = l->kids[np + 2];
  Term lo = q->kids[0], hi = q->kids[1];
  Term f = specTerm(q);
  auto fAt = [&](Term k) { return tc_.substitute(f, {{sd.k, k}}); };
  if (m0->sort != f->sort)
    return false;
  Step st(*this, std::string("the kernel's running arg") + (def->isMax ? "max" : "min") + " walks the spec's '" +
                     q->name + "' range in order, replacing only on a strictly better term");
  {
    Step st2(*this, "the range is not empty, and the start is its first term and index");
    if (!unsat(tc_.mkAnd(ctx, tc_.le(hi, lo))) ||
        !unsat(tc_.mkAnd(ctx, tc_.mkNot(tc_.mkAnd(tc_.eq(canonicalKernel(m0), fAt(lo)), tc_.eq(i0, lo))))))
      return false;
  }
  {
    Step st2(*this, "the loop runs once per remaining index of the range");
    if (!unsat(tc_.mkAnd(ctx, tc_.ne(n, tc_.sub(tc_.sub(hi, lo), tc_.intConst(1))))))
      return false;
  }
  Term j = tc_.fresh("arg.j", Sort::Int);
  std::unordered_map<Term, Term> m{{def->iter, j}};
  for (size_t p = 0; p < np; ++p)
    m[def->params[p]] = l->kids[p + 1];
  Term key = canonicalKernel(tc_.substitute(def->key, m)), payload = tc_.substitute(def->body, m);
  Term idx = tc_.add(lo, tc_.add(j, tc_.intConst(1)));
  if (key->sort != f->sort || payload->sort != Sort::Int)
    return false;
  Step st3(*this, "iteration j compares the range's term lo + 1 + j and records that index");
  return unsat(tc_.mkAnd({ctx, tc_.le(tc_.intConst(0), j), tc_.lt(j, n),
                          tc_.mkNot(tc_.mkAnd(tc_.eq(key, fAt(idx)), tc_.eq(payload, idx)))}));
}

} // namespace ksynth::equiv::prove_detail
