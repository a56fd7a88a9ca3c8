// Equivalence proofs: shared memory, each read resolved to the value its writer stored.
#include "verify/equiv/prover.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>

namespace ksynth::equiv::prove_detail {

// ---- shared memory -----------------------------------------------------------------------

// A load shm.S(bc, flat) is the cell's content at the start of the interval unless the
// thread itself stored to the cell earlier in the interval. Checked per shared array
// (against a second copy of the thread, so store and load may be in different iterations).
// Cases where thread w1 (copy m1b) stores to the cell L reads before L in program order
// (sameInterval: and in L's barrier interval).
std::vector<Term> Prover::ownStoresBefore(size_t li, bool sameInterval) {
  auto posOf = [&](const ir::Stmt *st) {
    for (size_t i = 0; i < m1_.accesses.size(); ++i)
      if (m1_.accesses[i].stmt == st)
        return static_cast<int>(i);
    return -1;
  };
  const check::AccessSite &L = m1_.accesses[li];
  std::vector<Term> cases;
  for (const check::AccessSite &Sb : m1b_.accesses) {
    if (!Sb.write || Sb.array != L.array)
      continue;
    int ps = posOf(Sb.stmt);
    if (ps < 0) {
      cases.push_back(tc_.tru()); // cannot place it: assume the worst
      continue;
    }
    const check::AccessSite &Sa = m1_.accesses[static_cast<size_t>(ps)];
    size_t c = 0;
    while (c < L.iters.size() && c < Sa.iters.size() && L.iters[c] == Sa.iters[c])
      ++c;
    std::vector<Term> before;
    for (size_t p = 0; p < c; ++p) {
      std::vector<Term> eq;
      for (size_t q = 0; q < p; ++q)
        eq.push_back(tc_.eq(Sb.iters[q], L.iters[q]));
      eq.push_back(tc_.lt(Sb.iters[p], L.iters[p]));
      before.push_back(tc_.mkAnd(eq));
    }
    if (ps < static_cast<int>(li)) {
      std::vector<Term> eq;
      for (size_t q = 0; q < c; ++q)
        eq.push_back(tc_.eq(Sb.iters[q], L.iters[q]));
      before.push_back(tc_.mkAnd(eq));
    }
    cases.push_back(tc_.mkAnd({L.pc, Sb.pc, tc_.eq(Sb.flat, L.flat),
                               sameInterval ? tc_.eq(Sb.bc, L.bc) : tc_.tru(), tc_.mkOr(before)}));
  }
  return cases;
}

// A load shm.S(bc, flat) is the cell's content at the start of the interval unless the
// thread itself stored to the cell earlier in the interval. Checked per shared array
// (against a second copy of the thread, so store and load may be in different iterations).
void Prover::checkSharedReads() {
  std::map<int, std::vector<Term>> bad; // array -> cases
  std::map<int, std::vector<const check::AccessSite *>> reads;
  for (size_t li = 0; li < m1_.accesses.size(); ++li) {
    const check::AccessSite &L = m1_.accesses[li];
    if (L.write || !L.loaded || L.loaded->kind != smt::Kind::App || L.loaded->name.rfind("shm.", 0) != 0)
      continue;
    std::vector<Term> c = ownStoresBefore(li, true);
    std::vector<Term> &cases = bad[L.array];
    cases.insert(cases.end(), c.begin(), c.end());
    reads[L.array].push_back(&L);
  }
  for (auto &[a, cases] : bad) {
    Step st(*this, "no thread reads a cell of shared '" + k_.arrays[a].name +
                       "' that it stored itself earlier in the same barrier interval (so each read sees the "
                       "content at the interval's start)",
            linesOf(reads[a]));
    if (unsat(tc_.mkOr(cases)))
      sharedOk_.insert(a);
  }
}

// Loads of an inout tensor that read its value from before the launch: no other thread
// ever stores to the cell, and this thread only after the load. Their symbols become
// mem.T(flat), the initial content (what the spec's `old` reads).
void Prover::checkOldReads() {
  for (size_t li = 0; li < m1_.accesses.size(); ++li) {
    const check::AccessSite &L = m1_.accesses[li];
    if (L.write || !L.loaded || L.loaded->kind != smt::Kind::Var || L.array < 0)
      continue;
    auto t = b_.tensorOfArray.find(L.array);
    if (t == b_.tensorOfArray.end() || s_.tensors[t->second].mode != spec::Mode::InOut)
      continue;
    std::vector<Term> cases = ownStoresBefore(li, false);
    std::vector<Term> diff;
    for (int d = 0; d < 3; ++d) {
      diff.push_back(tc_.ne(w1_.tid[d], w2_.tid[d]));
      diff.push_back(tc_.ne(w1_.bid[d], w2_.bid[d]));
    }
    for (const check::AccessSite &S2 : m2_.accesses)
      if (S2.write && S2.array == L.array)
        cases.push_back(tc_.mkAnd({L.pc, S2.pc, tc_.eq(S2.flat, L.flat), tc_.mkOr(diff)}));
    Step st(*this, "the read of inout '" + k_.arrays[L.array].name +
                       "' sees the content from before the launch (no thread stores that cell before it)",
            lineOf(L));
    if (!unsat(tc_.mkOr(cases)))
      continue;
    oldLoads_[L.loaded] = tc_.app(check::memName(k_, L.array), L.loaded->sort, {L.flat});
  }
}

// Replaces shm.S(b, c) in t by the value its writer stored: a witness thread of the same
// block and site, guessed from the cell and the interval, that stores c before interval b,
// with no other store to c from then until b. Unresolved applications stay (unknown values).
Term Prover::resolveShared(Term t, Term ctx, int depth) {
  std::vector<Term> apps = appsWithPrefix(t, "shm.");
  if (apps.empty() || depth > 4)
    return t;
  // A read under a condition (`lane < 8 ? part[lane] : 0`) has a writer only where the
  // condition holds: each arm is resolved under its own. The condition's own reads (a block
  // argmax's `ov > bv || (ov == bv && oi < bi)` over warp results) under the context alone;
  // the arms under the condition as it was (the same value, and the form ctx facts are in).
  if (t->kind == smt::Kind::Ite)
    return tc_.ite(resolveShared(t->kids[0], ctx, depth),
                   resolveShared(t->kids[1], tc_.mkAnd(ctx, t->kids[0]), depth),
                   resolveShared(t->kids[2], tc_.mkAnd(ctx, tc_.mkNot(t->kids[0])), depth));
  std::unordered_map<Term, Term> sub;
  for (Term X : apps) {
    int a = check::arrayOfMemName(X->name);
    if (a < 0 || !sharedOk_.count(a))
      continue;
    Term v = writerValue(X, a, ctx);
    if (!v)
      v = writerByFirstIteration(X, a, ctx);
    if (v)
      sub[X] = v;
  }
  if (sub.empty())
    return t;
  return resolveShared(tc_.substitute(t, sub), ctx, depth + 1);
}

// A read in a loop whose cell has one writer in the loop's first iteration and another in
// the others: a double buffer filled before the loop (slice 0) and, in each iteration, for
// the next one. Each case is resolved on its own; where the later iterations' value, at
// iteration 0, is the first iteration's (slice t of A at t = 0 is slice 0), it is the value
// in every iteration; otherwise the value is the case split.
Term Prover::writerByFirstIteration(Term X, int a, Term ctx) {
  std::vector<Term> syms;
  tc_.collectSymbols(X->kids[0], syms); // the read's barrier count: its loops' iterations
  for (Term it : syms) {
    // (Where the read is a term of a sum, its iteration is the sum's index: any integer of
    // the count that cannot be negative, so that the two cases are every case.)
    if (it->kind != smt::Kind::Var || it->sort != Sort::Int || it->name.rfind("param.", 0) == 0 ||
        it->name.find("Idx.") != std::string::npos)
      continue;
    {
      Step st(*this, "the read's iteration counter '" + it->name + "' is never negative");
      if (!unsat(tc_.mkAnd(ctx, tc_.lt(it, tc_.intConst(0)))))
        continue;
    }
    Term v0 = writerValue(X, a, tc_.mkAnd(ctx, tc_.eq(it, tc_.intConst(0))));
    if (!v0)
      continue;
    Term v1 = writerValue(X, a, tc_.mkAnd(ctx, tc_.le(tc_.intConst(1), it)));
    if (!v1)
      continue;
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "shared %s: split at iteration 0 of %s: %s\n", X->name.c_str(), it->name.c_str(),
              tc_.substitute(v1, {{it, tc_.intConst(0)}}) == v0 ? "one value" : "two values");
    if (tc_.substitute(v1, {{it, tc_.intConst(0)}}) == v0)
      return v1;
    return tc_.ite(tc_.eq(it, tc_.intConst(0)), v0, v1);
  }
  return nullptr;
}

// Sorted offsets (the first 0) as a product of progressions: axes (s_i, n_i) with
// offs = {sum_i e_i s_i : 0 <= e_i < n_i}, each stride larger than the largest sum of the
// axes before it (so each offset has one digit tuple, read off from the largest stride down);
// empty where there is no such product (found greedily: the smallest offset not yet made is
// the next stride, taken as often as every offset made so far shifted by it is there).
std::vector<std::pair<int128, int128>> progressionAxes(const std::vector<int128> &offs) {
  std::vector<std::pair<int128, int128>> axes;
  if (offs.empty() || offs[0] != 0)
    return {};
  std::set<int128> all(offs.begin(), offs.end());
  if (all.size() != offs.size())
    return {};
  std::vector<int128> made{0};
  while (made.size() < offs.size()) {
    int128 top = *std::max_element(made.begin(), made.end());
    std::set<int128> have(made.begin(), made.end());
    int128 s = 0;
    for (int128 o : offs)
      if (!have.count(o)) {
        s = o;
        break;
      }
    if (s <= top)
      return {};
    int128 n = 1;
    for (;; ++n) {
      bool there = true;
      for (int128 g : made)
        there &= all.count(g + n * s) > 0;
      if (!there)
        break;
    }
    if (n < 2)
      return {};
    std::vector<int128> next;
    for (int128 k = 0; k < n; ++k)
      for (int128 g : made)
        next.push_back(g + k * s);
    made = std::move(next);
    axes.push_back({s, n});
  }
  return made.size() == offs.size() ? axes : std::vector<std::pair<int128, int128>>{};
}

// The constants D of the quotients x div D in t (D > 1).
// Whether y is x itself or a sum with x as a term (a linear thread id, tid.x + 256 * tid.y + ...).
static bool isOrHasTerm(Term y, Term x) {
  return y == x || (y->kind == smt::Kind::Add && std::find(y->kids.begin(), y->kids.end(), x) != y->kids.end());
}

std::vector<int128> Prover::divisorsOf(Term t, Term x) {
  std::vector<int128> out;
  for (Term u : smt::subterms(t)) {
    int128 D = 0;
    bool over = u->kind == smt::Kind::Div && u->kids.size() == 2 && isOrHasTerm(u->kids[0], x);
    if (over && tc_.isConst(u->kids[1], &D) && D > 1 && std::find(out.begin(), out.end(), D) == out.end())
      out.push_back(D);
  }
  return out;
}

// The constants r, 0 < r < D, that t compares x mod D equal to (a path's `lane == 31`; x or a
// sum with x as a term: a linear thread id, a tile's thread_rank()).
std::vector<int128> Prover::residuesOf(Term t, Term x, int128 D) {
  std::vector<int128> out;
  for (Term u : smt::subterms(t)) {
    if (u->kind != smt::Kind::Eq || u->kids.size() != 2)
      continue;
    for (int i : {0, 1}) {
      Term m = u->kids[i];
      int128 d = 0, r = 0;
      if (m->kind == smt::Kind::Mod && isOrHasTerm(m->kids[0], x) && tc_.isConst(m->kids[1], &d) && d == D &&
          tc_.isConst(u->kids[1 - i], &r) && r > 0 && r < D && std::find(out.begin(), out.end(), r) == out.end())
        out.push_back(r);
    }
  }
  return out;
}

// resolveShared for a term whose indices are made of levels' and lanes' indices (a sum's
// term, a fold's candidate): those folded under dom first, so that a cell's writer can be
// named from them.
Term Prover::resolveSharedIn(Term t, Term dom) {
  if (!hasAppWithPrefix(t, "shm."))
    return t;
  return resolveShared(foldUnder(t, dom), dom, 0);
}

// exclusive: X is the content at the very start of interval b (a tree's operands), so
// stores in b itself do not matter; otherwise X is a load in b, which a store in b by
// another thread may precede (ordered by __syncwarp).
Term Prover::writerValue(Term X, int a, Term ctx, bool exclusive) {
  Term b = X->kids[0], c = X->kids[1];
  const ir::Array &arr = k_.arrays[a];
  // The cell's index tuple.
  std::vector<Term> idx;
  {
    Term rest = c;
    for (size_t d = arr.dims.size(); d-- > 1;) {
      Term D = tc_.intConst(arr.dims[d]);
      idx.insert(idx.begin(), tc_.mod(rest, D));
      rest = tc_.div(rest, D);
    }
    idx.insert(idx.begin(), rest);
  }
  std::vector<Term> vals = idx;
  vals.push_back(tc_.intConst(0));
  for (int d = 0; d < 3; ++d)
    vals.push_back(w1_.tid[d]);
  bool debug = getenv("KSYNTH_DEBUG_EQ") != nullptr;
  // Another store to array a (thread w2, copy 2 of the program) than the writer's own (at S, by
  // the thread and iteration `writer` names) to `cell`, by a thread of block `blk`, in the
  // intervals from `from` up to `to` (up to and including `to` unless exclusive: a store there
  // by another thread may be ordered before the read by __syncwarp; bc counts only
  // __syncthreads).
  auto storesBetween = [&](const check::AccessSite &S, const std::function<Term(Term)> &writer,
                           const std::array<Term, 3> &blk, Term cell, Term from, Term to) {
    std::vector<Term> any;
    for (const check::AccessSite &S2 : m2_.accesses) {
      if (!S2.write || S2.array != a)
        continue;
      std::vector<Term> same;
      if (S2.stmt == S.stmt && S2.iters.size() == S.iters.size()) {
        for (int d = 0; d < 3; ++d)
          same.push_back(tc_.eq(w2_.tid[d], writer(w3_.tid[d])));
        for (size_t p = 0; p < S.iters.size(); ++p)
          same.push_back(tc_.eq(S2.iters[p], writer(S.iters[p])));
      }
      std::vector<Term> inBlock;
      for (int d = 0; d < 3; ++d)
        inBlock.push_back(tc_.eq(w2_.bid[d], blk[d]));
      any.push_back(tc_.mkAnd({S2.pc, tc_.eq(S2.flat, cell), tc_.le(from, S2.bc),
                               exclusive ? tc_.lt(S2.bc, to) : tc_.le(S2.bc, to), tc_.mkAnd(inBlock),
                               same.empty() ? tc_.tru() : tc_.mkNot(tc_.mkAnd(same))}));
    }
    return tc_.mkOr(any);
  };
  // The writer w's value, where no other store to the cell comes between its store (in
  // interval Sbc) and the read, given `when`; nullptr otherwise.
  auto aloneValue = [&](const check::AccessSite &S, const std::unordered_map<Term, Term> &w, Term Sbc, Term when,
                        bool perSite = false) -> Term {
    Term others = storesBetween(S, [&](Term x) { return w.at(x); }, w1_.bid, c, Sbc, b);
    bool alone = false;
    // Once per store site: for any thread of any block at any iteration storing there, no
    // other store to its cell comes in the d intervals after (d = b - Sbc, a constant: a tile
    // staged, then read after one barrier). The read's question is an instance of it (the
    // writer w stores the cell c under `when`, checked by the caller, b is Sbc + d, w's block
    // is the reader's), so it need not be asked again for each read. (Only for the members of
    // large families of stores, where reads are many: elsewhere the queries asked are as
    // before, since Z3's later answers depend on what it was asked; with this everywhere, an
    // unrelated nonlinear query of a KernelBench twin ran past Z3's own interrupt.)
    int128 gap = 0;
    bool generic = perSite;
    for (int d = 0; d < 3; ++d)
      generic &= w.at(w3_.bid[d]) == w1_.bid[d];
    if (generic && tc_.isConst(tc_.sub(b, Sbc), &gap) && gap >= 0 && gap <= 4) {
      auto key = std::make_tuple(S.stmt, a, gap, exclusive);
      auto [it, fresh] = aloneLemmas_.try_emplace(key, false);
      if (fresh) {
        std::vector<Term> hyp{S.pc};
        for (int d = 0; d < 3; ++d)
          hyp.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), w3_.tid[d]), tc_.lt(w3_.tid[d], g_.blockDim[d])));
        bool trips = true;
        for (Term itv : S.iters) {
          auto tr = m3_.trips.find(itv);
          trips &= tr != m3_.trips.end();
          if (tr != m3_.trips.end())
            hyp.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), itv), tc_.lt(itv, tr->second)));
        }
        Term bStar = tc_.add(S.bc, tc_.intConst(gap));
        Term any = storesBetween(S, [](Term x) { return x; }, w3_.bid, S.flat, S.bc, bStar);
        if (trips) {
          Step st2(*this, "for any thread storing at line " + std::to_string(S.stmt->loc.line) +
                              ", no other store to its cell comes in the " + std::to_string(static_cast<int>(gap)) +
                              " barrier intervals after",
                   lineOf(S));
          it->second = unsat(tc_.mkAnd(tc_.mkAnd(hyp), any));
        }
      }
      alone = it->second;
    }
    if (!alone) {
      Step st2(*this, "no other store to the cell comes between the writer's store and the read");
      alone = unsatFocused(when, others);
    }
    if (!alone) {
      if (debug) {
        smt::Result m = solve(tc_.mkAnd({when, others}));
        for (Term v : {w2_.tid[0], w2_.bid[0], w1_.tid[0]})
          if (auto x = smt::eval(v, m.model))
            fprintf(stderr, "  model: %s = %lld\n", v->name.c_str(), static_cast<long long>(x->num));
        for (const check::AccessSite &S2 : m2_.accesses)
          if (S2.write && S2.array == a)
            for (Term it : S2.iters)
              if (auto x = smt::eval(it, m.model))
                fprintf(stderr, "  model: line %u %s = %lld, bc %s\n", S2.stmt->loc.line, it->name.c_str(),
                        static_cast<long long>(x->num), smt::show(S2.bc).c_str());
        fprintf(stderr, "shared %s: a later store may intervene: %s\n", X->name.c_str(), smt::show(when, 400).c_str());
      }
      return nullptr;
    }
    // A warp's reduced value (shuffles) is resolved as the writer's, before canonical forms.
    Term val = tc_.substitute(S.value, w);
    if (hasAppWithPrefix(val, "wx."))
      val = resolveWarp(val, ctx, &w);
    return canonicalKernel(val);
  };
  // Where writer w's store at S puts the cell before interval b (its interval in Sbc), or
  // nullptr where a loop around S has no trip count (its iterations may be unreached).
  auto storesCell = [&](const check::AccessSite &S, const std::unordered_map<Term, Term> &w, Term &Sbc) -> Term {
    std::vector<Term> ok;
    for (int d = 0; d < 3; ++d) {
      Term tx = w.at(w3_.tid[d]);
      ok.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), tx), tc_.lt(tx, g_.blockDim[d])));
    }
    for (Term it : S.iters) {
      auto tr = m3_.trips.find(it);
      if (tr == m3_.trips.end())
        return nullptr;
      ok.push_back(tc_.le(tc_.intConst(0), w.at(it)));
      ok.push_back(tc_.lt(w.at(it), tc_.substitute(tr->second, w)));
    }
    Sbc = tc_.substitute(S.bc, w);
    ok.push_back(tc_.substitute(S.pc, w));
    ok.push_back(tc_.eq(tc_.substitute(S.flat, w), c));
    ok.push_back(tc_.lt(Sbc, b));
    return tc_.mkAnd(ok);
  };
  // Stores whose addresses differ by multiples of one stride (a lane's WMMA accumulator rows,
  // a register tile's unrolled stores): together they are one store whose address has one
  // more digit, the store's index in the family. The cell's digits name the writer and that
  // index; the value is the indexed store's, a choice over the index. Tried first; then each
  // store on its own (below).
  auto byFamily = [&]() -> Term {
    for (const check::AccessSite &S : m3_.accesses) {
      if (!S.write || S.atomic || S.array != a || !S.value || S.iters.size() > 1)
        continue;
      std::vector<std::pair<int128, const check::AccessSite *>> family; // (offset, site)
      bool first = true;
      for (const check::AccessSite &T : m3_.accesses) {
        int128 off = 0;
        if (!T.write || T.atomic || T.array != a || !T.value || T.iters != S.iters ||
            !tc_.isConst(tc_.sub(T.flat, S.flat), &off))
          continue;
        first &= off >= 0;
        family.push_back({off, &T});
      }
      if (!first || family.size() < 2)
        continue; // (each family once: from its lowest address)
      std::sort(family.begin(), family.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
      // The family's offsets as a product of progressions: {sum_i e_i s_i : 0 <= e_i < n_i},
      // each offset one tuple (as many offsets as tuples, all distinct): a warp's WMMA
      // accumulators stored side by side (rows 64 apart, tiles 16 and 1024 apart) are one
      // family with three digits.
      std::vector<int128> offs;
      for (const auto &f : family)
        offs.push_back(f.first);
      std::vector<std::pair<int128, int128>> axes = progressionAxes(offs); // (stride, count)
      if (axes.empty() || family.size() > 64) {
        if (debug)
          fprintf(stderr, "shared %s: the %zu stores from line %u are not a product of progressions\n", X->name.c_str(),
                  family.size(), S.stmt->loc.line);
        continue;
      }
      std::unordered_map<Term, Term> sameBlock, got;
      for (int d = 0; d < 3; ++d)
        sameBlock[w3_.bid[d]] = w1_.bid[d];
      std::unordered_map<Term, int128> ext = writerExtents(w3_, m3_, S);
      Term F = tc_.substitute(S.flat, sameBlock);
      std::vector<Term> E;
      for (const auto &[stride, count] : axes) {
        E.push_back(tc_.fresh("member", Sort::Int));
        ext[E.back()] = count;
        F = tc_.add(F, tc_.mul(tc_.intConst(stride), E.back()));
      }
      bool named = invertDigits(F, c, ext, got);
      for (Term e : E)
        named &= got.count(e) > 0;
      if (!named) {
        if (debug)
          fprintf(stderr, "shared %s: a family of %zu stores from line %u: no digits for %s\n", X->name.c_str(),
                  family.size(), S.stmt->loc.line, smt::show(F).c_str());
        continue;
      }
      std::unordered_map<Term, Term> w0;
      for (int d = 0; d < 3; ++d) {
        w0[w3_.bid[d]] = w1_.bid[d];
        w0[w3_.tid[d]] = got.count(w3_.tid[d]) ? got[w3_.tid[d]] : tc_.intConst(0);
      }
      // The iteration: the address's digit, or else guessed by the interval (see above).
      std::vector<Term> iterations;
      if (!S.iters.empty() && got.count(S.iters[0])) {
        iterations.push_back(got[S.iters[0]]);
      } else if (!S.iters.empty()) {
        iterations = iterationGuesses(S, b); // (the first iteration last: a tile staged in each)
        std::rotate(iterations.begin(), iterations.begin() + 1, iterations.end());
      } else {
        iterations.push_back(nullptr);
      }
      // Member k's digits: its offset written in the axes (largest stride first; unique, as
      // progressionAxes checked).
      std::vector<Term> which;
      for (size_t k = 0; k < family.size(); ++k) {
        int128 rest = family[k].first;
        std::vector<Term> digits;
        for (size_t i = axes.size(); i-- > 0;) {
          // (each stride is larger than the largest sum of the smaller ones: the quotient
          // is the digit; clamped, and the remainder checked, all the same)
          int128 e = std::min(rest / axes[i].first, axes[i].second - 1);
          digits.push_back(tc_.eq(got[E[i]], tc_.intConst(e)));
          rest -= e * axes[i].first;
        }
        if (rest != 0) {
          which.clear();
          break;
        }
        which.push_back(tc_.mkAnd(digits));
      }
      if (which.size() != family.size())
        continue;
      {
        Step st(*this, "the cell read from shared '" + arr.name + "' is one of the " + std::to_string(family.size()) +
                           " addresses of a family of stores (its digit for the family's index is one of theirs)",
                lineOf(S));
        if (!unsat(tc_.mkAnd(ctx, tc_.mkNot(tc_.mkOr(which))))) {
          if (debug)
            fprintf(stderr, "shared %s: a family of %zu stores does not cover the read\n", X->name.c_str(), family.size());
          continue;
        }
      }
      for (Term iteration : iterations) {
        std::unordered_map<Term, Term> w = w0;
        if (iteration)
          w[S.iters[0]] = iteration;
        Term v = nullptr;
        bool ok = true;
        for (size_t k = family.size(); ok && k-- > 0;) {
          const check::AccessSite &Sk = *family[k].second;
          Term when = tc_.mkAnd(ctx, which[k]);
          {
            Step st(*this, "a search step, not part of the proof: the family's member at line " +
                               std::to_string(Sk.stmt->loc.line) + " may be the one that stores the cell");
            if (unsat(when))
              continue;
          }
          Term Sbc = nullptr;
          Term stores = storesCell(Sk, w, Sbc);
          if (!stores) {
            ok = false;
            break;
          }
          {
            Step st(*this, "where the cell's digit names the store at line " + std::to_string(Sk.stmt->loc.line) +
                               ", the writer named by its other digits stores the cell in an earlier barrier interval",
                    lineOf(Sk));
            ok = unsat(tc_.mkAnd(when, tc_.mkNot(stores)));
          }
          Term vk = ok ? aloneValue(Sk, w, Sbc, when, family.size() >= 8) : nullptr;
          ok = vk != nullptr;
          v = !ok ? nullptr : v ? tc_.ite(which[k], vk, v) : vk;
        }
        if (debug)
          fprintf(stderr, "shared %s: a family of %zu stores from line %u: %s\n", X->name.c_str(), family.size(),
                  S.stmt->loc.line, ok && v ? "resolved by cases" : "not resolved");
        if (ok && v)
          return v;
      }
    }
    return nullptr;
  };
  if (Term v = byFamily())
    return v;
  smt::Result probe;
  {
    Step st(*this, "a search step, not part of the proof: a model of the read of shared '" + arr.name + "'");
    probe = solve(ctx);
  }
  if (probe.status != smt::Status::Sat)
    return nullptr;
  for (const check::AccessSite &S : m3_.accesses) {
    if (!S.write || S.atomic || S.array != a || !S.value || S.iters.size() > 1)
      continue;
    const Tree *tree = treeOf(S);
    const Scan *scan = tree ? nullptr : scanOf(S);
    Step st(*this, "a read of shared '" + arr.name + "' gets the value stored at line " +
                       std::to_string(S.stmt->loc.line) + " by one writer thread",
            lineOf(S));
    // Only the thread's coordinates and the iteration may vary between writers: any other
    // symbol of the writer's copy left after choosing them (checked per candidate below)
    // would be a value ksynth does not know per thread.
    auto stray = [&](const std::unordered_map<Term, Term> &w) {
      std::vector<Term> syms;
      for (Term x : {S.value, S.pc, S.flat, S.bc})
        tc_.collectSymbols(tc_.substitute(x, w), syms);
      for (Term x : syms)
        if (x->kind == smt::Kind::Var && x->name.rfind("w3.", 0) == 0)
          return true;
      return false;
    };
    std::vector<std::vector<std::pair<Term, Term>>> perVar;
    for (int d = 0; d < 3; ++d) {
      perVar.push_back({{w3_.bid[d], w1_.bid[d]}});
      bool used = false;
      for (Term x : {S.value, S.pc, S.flat, S.bc})
        used |= tc_.mentions(x, w3_.tid[d]);
      std::vector<std::pair<Term, Term>> ch;
      if (!used) {
        ch.push_back({w3_.tid[d], tc_.intConst(0)});
      } else {
        for (Term v : vals)
          ch.push_back({w3_.tid[d], v});
        // A cell indexed by tid / D (a warp's slot, D = 32) is stored by the thread D * index,
        // or D * index + r where the store's path says tid mod D = r (the warp's last lane).
        for (int128 D : divisorsOf(S.flat, w3_.tid[d]))
          for (Term v : idx) {
            ch.push_back({w3_.tid[d], tc_.mul(tc_.intConst(D), v)});
            for (int128 r : residuesOf(S.pc, w3_.tid[d], D))
              ch.push_back({w3_.tid[d], tc_.add(tc_.mul(tc_.intConst(D), v), tc_.intConst(r))});
          }
      }
      perVar.push_back(ch);
    }
    if (!S.iters.empty()) {
      std::vector<std::pair<Term, Term>> ch;
      for (Term v : iterationGuesses(S, b))
        ch.push_back({S.iters[0], v});
      perVar.push_back(ch);
    }
    std::vector<std::unordered_map<Term, Term>> combos;
    // The writer whose address's digits are the cell's, first.
    std::unordered_map<Term, Term> digitWriter;
    if (tree) { // the last round's store, by thread 0: its value is the whole reduction
      combos = {treeWitness(*tree, S, w1_.bid)};
    } else if (scan) { // the last round's store to the cell: its value is the prefix sum
      combos = {roundOf(S, tc_.sub(c, scan->lastBase), tc_.intConst(scan->rounds - 1), w1_.bid)};
    } else {
      if (!allChoices(perVar, 4000, combos))
        combos.clear();
      std::unordered_map<Term, Term> sameBlock, got;
      for (int d = 0; d < 3; ++d)
        sameBlock[w3_.bid[d]] = w1_.bid[d];
      if (invertDigits(tc_.substitute(S.flat, sameBlock), c, writerExtents(w3_, m3_, S), got)) {
        for (int d = 0; d < 3; ++d) {
          digitWriter[w3_.bid[d]] = w1_.bid[d];
          digitWriter[w3_.tid[d]] = got.count(w3_.tid[d]) ? got[w3_.tid[d]] : tc_.intConst(0);
        }
        // An iteration the address does not name: the guesses by the interval, as above.
        std::vector<std::unordered_map<Term, Term>> byDigits{digitWriter};
        if (!S.iters.empty() && !got.count(S.iters[0])) {
          byDigits.clear();
          for (Term v : iterationGuesses(S, b)) {
            byDigits.push_back(digitWriter);
            byDigits.back()[S.iters[0]] = v;
          }
        } else if (!S.iters.empty()) {
          byDigits.back()[S.iters[0]] = got[S.iters[0]];
        }
        combos.insert(combos.begin(), byDigits.begin(), byDigits.end());
      }
    }
    for (const auto &w : combos) {
      if (stray(w))
        continue;
      Term Sbc = nullptr;
      Term stores = storesCell(S, w, Sbc);
      if (!stores)
        continue;
      std::optional<smt::Value> pv = smt::eval(stores, probe.model);
      if (debug)
        fprintf(stderr, "shared %s: candidate tid=(%s, %s) %s in the probe model\n", X->name.c_str(),
                smt::show(w.at(w3_.tid[0])).c_str(), smt::show(w.at(w3_.tid[1])).c_str(),
                !pv ? "cannot be evaluated" : pv->num ? "stores" : "does not store");
      if (!pv || pv->num == 0)
        continue;
      bool always = false;
      {
        Step st2(*this, "the writer thread stores the cell in an earlier barrier interval");
        always = unsat(tc_.mkAnd(ctx, tc_.mkNot(stores)));
      }
      if (!always) {
        if (debug)
          fprintf(stderr, "shared %s: witness does not always store: %s\n", X->name.c_str(),
                  smt::show(stores).c_str());
        continue;
      }
      if (tree || scan) {
        if (!aloneValue(S, w, Sbc, tc_.mkAnd(ctx, stores)))
          continue;
        return tree ? treeValue(*tree, S, w, ctx) : scanValue(*scan, S, tc_.sub(c, scan->lastBase), ctx);
      }
      if (Term v = aloneValue(S, w, Sbc, tc_.mkAnd(ctx, stores)))
        return v;
    }
  }
  return nullptr;
}

// Guesses of the iteration of S's (one) loop whose store a read in interval b sees: the first,
// or the one whose store is in the interval before b or in b itself.
std::vector<Term> Prover::iterationGuesses(const check::AccessSite &S, Term b) {
  Term it = S.iters[0];
  Term b0 = tc_.substitute(S.bc, {{it, tc_.intConst(0)}});
  Term alpha = tc_.sub(tc_.substitute(S.bc, {{it, tc_.intConst(1)}}), b0);
  std::vector<Term> out{tc_.intConst(0)};
  int128 al = 0;
  if (tc_.isConst(alpha, &al) && al > 0) {
    out.push_back(tc_.div(tc_.sub(tc_.sub(b, tc_.intConst(1)), b0), alpha));
    out.push_back(tc_.div(tc_.sub(b, b0), alpha));
  }
  return out;
}

} // namespace ksynth::equiv::prove_detail
