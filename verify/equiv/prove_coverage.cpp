// Equivalence proofs: coverage, every element of an output tensor stored by some thread.
#include "verify/equiv/prover.h"
#include "verify/smt/purify.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace ksynth::equiv::prove_detail {

// ---- completeness --------------------------------------------------------------------

// The site's path condition with the exit conditions of loops before it removed (each such
// loop is assumed to terminate), or nullptr when some other thread-local value remains. The
// site is w1's (m1_) unless m says whose.
Term Prover::reachable(const check::AccessSite &s, const check::ThreadModel *m) {
  if (!m)
    m = &m1_;
  std::vector<Term> conj;
  std::function<void(Term)> flatten = [&](Term x) {
    if (x->kind == smt::Kind::And)
      for (Term k : x->kids)
        flatten(k);
    else
      conj.push_back(x);
  };
  flatten(s.pc);
  std::set<Term> drop;
  for (const auto &[n, exitCond] : m->exits) {
    bool used = false;
    for (Term c : conj)
      used |= tc_.mentions(c, n);
    if (!used)
      continue;
    if (tc_.mentions(s.flat, n))
      return nullptr;
    std::vector<Term> ec;
    std::function<void(Term)> fl = [&](Term x) {
      if (x->kind == smt::Kind::And)
        for (Term k : x->kids)
          fl(k);
      else
        ec.push_back(x);
    };
    fl(exitCond);
    std::set<Term> ecs(ec.begin(), ec.end());
    for (Term c : conj)
      if (tc_.mentions(c, n) && !ecs.count(c)) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "reachable: %s uses %s beyond its exit %s\n", smt::show(c, 400).c_str(), smt::show(n, 400).c_str(),
                  smt::show(exitCond).c_str());
        return nullptr; // the trip count is used beyond the loop's exit
      }
    for (Term c : ec)
      drop.insert(c);
    assumed_.insert("loops before the stores terminate (coverage is partial correctness)");
  }
  // Counted loops' exit conditions hold by their closed forms: left out too.
  drop.insert(m->countedExits.begin(), m->countedExits.end());
  std::vector<Term> keep;
  for (Term c : conj)
    if (!drop.count(c))
      keep.push_back(c);
  return tc_.mkAnd(keep);
}

// t with the wrap-arounds of unsigned (and narrowing) integer arithmetic taken as not
// happening, for the guesses of a store's writer: `x mod 2^k` (k = 8, 16, 32, 64) as x, and a
// choice whose two numbers differ by 2^k (`r >= 2^32 ? r - 2^32 : r`) as its second number.
// Each condition under which t equals the result (0 <= x < 2^k; the choice's test false) is
// added to conds: a guess is checked with them (completeness' `covers`), so an address that
// does wrap is simply not covered by it. (`blockIdx.x * D + d` is unsigned: its terms wrap,
// and none of the guesses below reads a wrapped form.) 8 and 16 bits are left: `i % 256`
// is more often an index's own arithmetic than a narrowing.
Term Prover::withoutWraps(Term t, std::vector<Term> &conds, std::unordered_map<Term, Term> &memo) {
  if (t->kids.empty() || t->sort == Sort::Real)
    return t;
  if (auto it = memo.find(t); it != memo.end())
    return it->second;
  auto power = [&](Term x) {
    int128 v = 0;
    if (!tc_.isConst(x, &v))
      return false;
    v = v < 0 ? -v : v;
    for (int k : {32, 64})
      if (v == static_cast<int128>(1) << k)
        return true;
    return false;
  };
  Term r = nullptr;
  if (t->kind == smt::Kind::Mod && power(t->kids[1])) {
    Term x = withoutWraps(t->kids[0], conds, memo);
    conds.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), x), tc_.lt(x, t->kids[1])));
    r = x;
  } else if (t->kind == smt::Kind::Ite && t->sort == Sort::Int) {
    Term a = withoutWraps(t->kids[1], conds, memo), b = withoutWraps(t->kids[2], conds, memo);
    if (power(tc_.sub(a, b))) {
      conds.push_back(tc_.mkNot(t->kids[0]));
      r = b;
    } else {
      r = tc_.ite(t->kids[0], a, b);
    }
  } else {
    r = tc_.withKids(t, [&](Term k) { return withoutWraps(k, conds, memo); });
  }
  memo[t] = r;
  return r;
}

bool Prover::completeness(const std::vector<const check::AccessSite *> &sites, const std::vector<Term> &j, Term e,
                          Term elem, const std::vector<Term> &ext, TensorProof &tp) {
  if (m1_.uncountedLoops)
    assumed_.insert("loops before the stores terminate (coverage is partial correctness)");
  std::vector<Term> vals(j.begin(), j.end());
  vals.push_back(e);
  struct Site {
    const check::AccessSite *s;
    Term pc;
    Term flat;   // s->flat without its wrap-arounds (withoutWraps)
    Term noWrap; // where flat equals s->flat
    std::vector<std::unordered_map<Term, Term>> cands;
    std::vector<std::unordered_map<Term, Term>> tiles;  // the tile guesses alone (see above)
    std::vector<std::unordered_map<Term, Term>> digits; // the writer by the digits (see below)
  };
  std::vector<Site> usable;
  for (const check::AccessSite *s : sites) {
    Term pc = reachable(*s);
    if (!pc) {
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "completeness: site line %u: loop trip counts used beyond the exits\n", s->stmt->loc.line);
      continue;
    }
    std::vector<Term> wrapConds;
    std::unordered_map<Term, Term> wrapMemo;
    Term flat = withoutWraps(s->flat, wrapConds, wrapMemo);
    // An address recomposed from an index the kernel split itself is that index (with every
    // divisor >= 1, a condition like the wrap-arounds'): the guesses read the index.
    if (Term positive = nullptr, X = check::recomposedIndex(tc_, flat, positive); X) {
      wrapConds.push_back(positive);
      flat = X;
    }
    // The address's index along each dim of the tensor (empty where it does not split so).
    const std::vector<Term> coords = check::coordinates(tc_, flat, ext);
    // Which thread coordinates matter.
    Term both = tc_.mkAnd(pc, tc_.eq(flat, e));
    std::vector<Term> unknowns;
    std::vector<Term> syms;
    tc_.collectSymbols(both, syms);
    bool stray = false;
    for (Term x : syms) {
      if (x->kind != smt::Kind::Var || x->name.rfind("w1.", 0) != 0)
        continue;
      bool coord = false;
      for (int d = 0; d < 3; ++d)
        coord |= x == w1_.tid[d] || x == w1_.bid[d];
      bool iter = std::find(s->iters.begin(), s->iters.end(), x) != s->iters.end();
      if (!coord && !iter) {
        stray = true;
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "completeness: site line %u: stray %s\n", s->stmt->loc.line, x->name.c_str());
      }
    }
    // A store in a loop witnesses only at iterations that certainly run: counted loops.
    // (or loops whose test is monotone in the iteration: iteration i runs where its test holds)
    for (Term it : s->iters)
      if (!m1_.trips.count(it) && !m1_.tripTests.count(it)) {
        stray = true;
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "completeness: site line %u: a loop around it has no trip count\n", s->stmt->loc.line);
      }
    if (stray)
      continue;
    // A thread that stores a run of `a` elements (vector stores: `i = 4 * gid`, then i, i + 1,
    // ..., or a loop over the run's tail): the element's distance from the run of thread 0 of
    // block 0, divided by a, is the writer's index along that dimension, and the remainder
    // the iteration.
    std::vector<std::pair<int128, Term>> runs; // (a, the run's start for thread 0 of block 0)
    for (int d = 0; d < 3; ++d) {
      std::unordered_map<Term, Term> z, o, base;
      for (Term it : s->iters)
        z[it] = o[it] = base[it] = tc_.intConst(0);
      z[w1_.tid[d]] = tc_.intConst(0);
      o[w1_.tid[d]] = tc_.intConst(1);
      int128 a = 0;
      if (!tc_.mentions(flat, w1_.tid[d]) ||
          !tc_.isConst(tc_.sub(tc_.substitute(flat, o), tc_.substitute(flat, z)), &a) || a < 2)
        continue;
      for (int dd = 0; dd < 3; ++dd)
        base[w1_.tid[dd]] = base[w1_.bid[dd]] = tc_.intConst(0);
      runs.push_back({a, tc_.substitute(flat, base)});
    }
    // Strides of the iterations in the address.
    std::vector<Term> vs = vals;
    for (const auto &[a, start] : runs)
      vs.push_back(tc_.div(tc_.sub(e, start), tc_.intConst(a)));
    // Where thread 0 of block 0 stores in its first iteration.
    Term origin = nullptr;
    {
      std::unordered_map<Term, Term> first;
      for (int dd = 0; dd < 3; ++dd)
        first[w1_.tid[dd]] = first[w1_.bid[dd]] = tc_.intConst(0);
      for (Term it : s->iters)
        first[it] = tc_.intConst(0);
      origin = tc_.substitute(flat, first);
    }
    // A store in a loop past a point fixed for the launch (a grid-stride tail after a float4
    // part, at 4 (N / 4) + the thread's index): the element's distance from the origin. (Only
    // there: each guess multiplies the combinations of every site.)
    if (runs.empty() && !s->iters.empty() && !tc_.isConst(origin))
      vs.push_back(tc_.sub(e, origin));
    // The same along one index of the tensor (a row's float4s: column 4 lane + 128 i + f).
    if (const std::vector<Term> &co = coords; co.size() == j.size())
      for (size_t k = 0; k < co.size(); ++k)
        for (int d = 0; d < 3; ++d) {
          std::unordered_map<Term, Term> z, o;
          for (Term it : s->iters)
            z[it] = o[it] = tc_.intConst(0);
          for (int dd = 0; dd < 3; ++dd)
            z[w1_.tid[dd]] = o[w1_.tid[dd]] = z[w1_.bid[dd]] = o[w1_.bid[dd]] = tc_.intConst(0);
          o[w1_.tid[d]] = tc_.intConst(1);
          int128 a = 0;
          Term start = tc_.substitute(co[k], z);
          if (tc_.mentions(co[k], w1_.tid[d]) && tc_.isConst(tc_.sub(tc_.substitute(co[k], o), start), &a) && a >= 2)
            vs.push_back(tc_.div(tc_.sub(j[k], start), tc_.intConst(a)));
        }
    std::map<Term, std::vector<Term>, smt::TermById> iterCands; // iterated: creation order
    for (Term it : s->iters) {
      std::vector<Term> &c = iterCands[it];
      c.push_back(tc_.intConst(0));
      // Along one index of the tensor whose coordinate steps by a constant S per iteration (a
      // grid-stride loop over rows, each row stored in an inner loop: the flat address steps
      // by S C, C symbolic): the iteration is the index's distance from thread 0's first, div S.
      // Only where the flat address's own step gives no guess (below): more guesses change which
      // ones the greedy cover picks, and KernelBench 35's cover query then timed out.
      std::vector<Term> alongIndex;
      if (coords.size() == j.size())
        for (size_t k = 0; k < coords.size(); ++k) {
          std::unordered_map<Term, Term> z, o;
          for (Term it2 : s->iters)
            z[it2] = o[it2] = tc_.intConst(0);
          for (int dd = 0; dd < 3; ++dd)
            z[w1_.tid[dd]] = o[w1_.tid[dd]] = z[w1_.bid[dd]] = o[w1_.bid[dd]] = tc_.intConst(0);
          o[it] = tc_.intConst(1);
          int128 S = 0;
          Term start = tc_.substitute(coords[k], z);
          if (tc_.mentions(coords[k], it) && tc_.isConst(tc_.sub(tc_.substitute(coords[k], o), start), &S) && S >= 2)
            alongIndex.push_back(tc_.div(tc_.sub(j[k], start), tc_.intConst(S)));
        }
      Term f0 = tc_.substitute(flat, {{it, tc_.intConst(0)}});
      Term f1 = tc_.substitute(flat, {{it, tc_.intConst(1)}});
      Term f2 = tc_.substitute(flat, {{it, tc_.intConst(2)}});
      Term S = tc_.sub(f1, f0);
      if (tc_.mentions(S, it) || tc_.sub(f2, f1) != S || !m1_.trips.count(it)) {
        // (no closed trip count, the loop's slope not a constant: iteration 0 only, or along
        // an index)
        c.insert(c.end(), alongIndex.begin(), alongIndex.end());
        continue;
      }
      for (Term v : vals) {
        c.push_back(tc_.div(v, S));
        vs.push_back(tc_.mod(v, S));
      }
      // A loop that starts past a point fixed for the whole launch (a tail after the float4
      // part, `for (k = 4 * (N / 4); k < N; ++k)` in thread 0): the iteration is the element's
      // distance from where thread 0 of block 0 starts, in steps.
      if (origin != tc_.intConst(0)) // (from 0 it is e div S, above)
        c.push_back(tc_.div(tc_.sub(e, origin), S));
      for (const auto &[a, start] : runs)
        c.push_back(tc_.div(tc_.mod(tc_.sub(e, start), tc_.intConst(a)), S));
    }
    // A thread that stores a tile (a register tile: rows by * 64 + ty + 16 i): per index of
    // the element whose form along that dimension is B * bid + T * tid + (the rest), the
    // block is the index div B and the thread (index mod B) div T.
    std::vector<std::vector<Term>> tileCands(6); // [2 d]: tid, [2 d + 1]: bid
    std::vector<std::vector<Term>> groupCands(6); // the same for a group of threads per index
    std::vector<std::vector<Term>> fusedCands(6); // a coordinate split by / and % (below)
    if (const std::vector<Term> &co = coords; co.size() == j.size()) {
      auto slope = [&](Term t, Term x, int128 &out) {
        return tc_.isConst(tc_.sub(tc_.substitute(t, {{x, tc_.intConst(1)}}), tc_.substitute(t, {{x, tc_.intConst(0)}})),
                           &out);
      };
      // Two indices that are one coordinate split by a symbolic extent (a grid's z for the
      // batch and the channel: n = bid div C, c = bid mod C): the coordinate is n * C + c.
      // The remainder may be a tile index: bid.y = od * T + tile, ow = 16 tile + tid.y (the
      // y axis shared by an output axis and tiles of the next): the coordinate is
      // n * C + (index div B), the thread (index mod B) div T'.
      for (size_t k = 0; k + 1 < co.size(); ++k) {
        Term q = co[k];
        if (q->kind != smt::Kind::Div)
          continue;
        Term x = q->kids[0], N = q->kids[1], rem = tc_.mod(x, N);
        if (!tc_.mentions(co[k + 1], rem))
          continue;
        Term m = tc_.fresh("cov.rem", Sort::Int);
        Term r = tc_.substitute(co[k + 1], {{rem, m}});
        int128 B = 0;
        if (tc_.mentions(r, x) || !slope(r, m, B) || B < 1)
          continue;
        for (int d = 0; d < 3; ++d)
          for (bool isTid : {true, false}) {
            if (x != (isTid ? w1_.tid[d] : w1_.bid[d]))
              continue;
            Term inner = B == 1 ? j[k + 1] : tc_.div(j[k + 1], tc_.intConst(B));
            tileCands[2 * d + (isTid ? 0 : 1)].push_back(tc_.add(tc_.mul(j[k], N), inner));
            fusedCands[2 * d + (isTid ? 0 : 1)].push_back(tc_.add(tc_.mul(j[k], N), inner));
          }
        if (B >= 2)
          for (int d2 = 0; d2 < 3; ++d2) {
            int128 T = 0;
            if (!tc_.mentions(r, w1_.tid[d2]) || !slope(r, w1_.tid[d2], T) || T < 1 || B % T != 0)
              continue;
            tileCands[2 * d2].push_back(
                tc_.mod(tc_.div(tc_.mod(j[k + 1], tc_.intConst(B)), tc_.intConst(T)), g_.blockDim[d2]));
          }
      }
      for (size_t k = 0; k < co.size(); ++k)
        for (int d = 0; d < 3; ++d) {
          int128 B = 0, T = 0;
          if (!slope(co[k], w1_.bid[d], B) || !slope(co[k], w1_.tid[d], T) || B < 2)
            continue;
          // A warp (or any group of W threads) per index: B * bid + tid div W, as in a row per
          // warp. The guess is the group's first thread, W (index mod B): the lane that stores
          // (lane 0) in every such kernel ksynth has seen; another lane is not guessed.
          if (T == 0) {
            for (Term u : smt::subterms(co[k])) {
              int128 W = 0;
              if (u->kind == smt::Kind::Div && u->kids[0] == w1_.tid[d] && tc_.isConst(u->kids[1], &W) && W > 1) {
                // The group's block: index div B, or in a grid-stride loop over the index
                // (B * bid + tid div W + S i, S the grid's stride) (index mod S) div B, the
                // iteration index div S (above).
                std::vector<Term> blocks{tc_.div(j[k], tc_.intConst(B))};
                for (Term it : s->iters) {
                  int128 S = 0;
                  if (slope(co[k], it, S) && S >= 2 * B && S % B == 0)
                    blocks.push_back(tc_.div(tc_.mod(j[k], tc_.intConst(S)), tc_.intConst(B)));
                }
                groupCands[2 * d].push_back(tc_.mod(tc_.mul(tc_.intConst(W), tc_.mod(j[k], tc_.intConst(B))),
                                                    g_.blockDim[d]));
                groupCands[2 * d + 1].insert(groupCands[2 * d + 1].end(), blocks.begin(), blocks.end());
                // Every lane of the group storing, its lane (tid mod W) along another index
                // (a row per warp, each lane a strided slice of the row's columns: column
                // lane + 32 i): the thread W (index mod B) + (other index - its start) mod W.
                Term lane = tc_.mod(w1_.tid[d], tc_.intConst(W));
                for (size_t k2 = 0; k2 < co.size(); ++k2) {
                  if (k2 == k || !tc_.mentions(co[k2], lane))
                    continue;
                  std::unordered_map<Term, Term> z;
                  for (Term it : s->iters)
                    z[it] = tc_.intConst(0);
                  for (int dd = 0; dd < 3; ++dd)
                    z[w1_.tid[dd]] = z[w1_.bid[dd]] = tc_.intConst(0);
                  Term start = tc_.substitute(co[k2], z);
                  groupCands[2 * d].push_back(tc_.add(tc_.mul(tc_.intConst(W), tc_.mod(j[k], tc_.intConst(B))),
                                                      tc_.mod(tc_.sub(j[k2], start), tc_.intConst(W))));
                  groupCands[2 * d + 1].insert(groupCands[2 * d + 1].end(), blocks.begin(), blocks.end());
                }
                break;
              }
            }
            continue;
          }
          if (T < 1 || B % T != 0)
            continue;
          tileCands[2 * d].push_back(
              tc_.mod(tc_.div(tc_.mod(j[k], tc_.intConst(B)), tc_.intConst(T)), g_.blockDim[d]));
          tileCands[2 * d + 1].push_back(tc_.div(j[k], tc_.intConst(B)));
        }
    }
    // A coordinate the path fixes (`if (lane == 5)`, a butterfly's result in every lane, read
    // from lane 5): a conjunct x == c of the reach condition, c free of thread coordinates.
    std::vector<std::vector<Term>> pinnedCands(6);
    for (Term c : smt::conjuncts(pc)) {
      if (c->kind != smt::Kind::Eq || c->kids[0]->sort != Sort::Int)
        continue;
      for (int d = 0; d < 3; ++d)
        for (bool isTid : {true, false}) {
          Term x = isTid ? w1_.tid[d] : w1_.bid[d];
          Term other = c->kids[0] == x ? c->kids[1] : c->kids[1] == x ? c->kids[0] : nullptr;
          bool free = other != nullptr;
          for (int dd = 0; dd < 3 && free; ++dd)
            free = !tc_.mentions(other, w1_.tid[dd]) && !tc_.mentions(other, w1_.bid[dd]);
          for (Term it : s->iters)
            free = free && !tc_.mentions(other, it);
          if (free)
            pinnedCands[2 * d + (isTid ? 0 : 1)].push_back(other);
        }
    }
    std::vector<std::vector<std::pair<Term, Term>>> perVar; // (symbol, value) choices
    std::vector<std::vector<std::pair<Term, Term>>> perVarTiles; // the same, tile guesses first
    bool anyTile = false;
    for (int d = 0; d < 3; ++d) {
      for (bool isTid : {true, false}) {
        Term x = isTid ? w1_.tid[d] : w1_.bid[d];
        if (!tc_.mentions(both, x)) {
          perVar.push_back({{x, tc_.intConst(0)}});
          perVarTiles.push_back(perVar.back());
          continue;
        }
        std::vector<std::pair<Term, Term>> ch{{x, tc_.intConst(0)}};
        for (Term v : vs) {
          if (isTid)
            ch.push_back({x, tc_.mod(v, g_.blockDim[d])});
          else
            ch.push_back({x, tc_.div(v, g_.blockDim[d])});
        }
        if (!isTid)
          for (Term v : vals)
            ch.push_back({x, v});
        for (Term v : groupCands[2 * d + (isTid ? 0 : 1)])
          ch.push_back({x, v});
        for (Term v : fusedCands[2 * d + (isTid ? 0 : 1)])
          ch.push_back({x, v});
        for (Term v : pinnedCands[2 * d + (isTid ? 0 : 1)])
          ch.push_back({x, v});
        std::vector<std::pair<Term, Term>> tiles;
        for (Term v : tileCands[2 * d + (isTid ? 0 : 1)])
          tiles.push_back({x, v});
        anyTile |= !tiles.empty();
        perVarTiles.push_back(tiles.empty() ? ch : tiles);
        if (sites.size() > 1) // (one store site: the guesses above, as ever, and fewer of them)
          ch.insert(ch.end(), tiles.begin(), tiles.end());
        perVar.push_back(ch);
      }
    }
    for (auto &[it, c] : iterCands) {
      std::vector<std::pair<Term, Term>> ch;
      for (Term v : c)
        ch.push_back({it, v});
      perVar.push_back(ch);
      perVarTiles.push_back(ch);
    }
    Site st{s, pc, flat, tc_.mkAnd(wrapConds), {}, {}};
    // (the same value guessed twice for one symbol is one guess)
    for (auto *lists : {&perVar, &perVarTiles})
      for (auto &ch : *lists) {
        std::vector<std::pair<Term, Term>> uniq;
        for (const auto &c : ch)
          if (std::find(uniq.begin(), uniq.end(), c) == uniq.end())
            uniq.push_back(c);
        ch = std::move(uniq);
      }
    std::vector<std::unordered_map<Term, Term>> combos;
    if (!allChoices(perVar, 20000, combos)) {
      // Too many combinations of every guess: the tile guesses alone, where there are some.
      combos.clear();
      if (!anyTile || !allChoices(perVarTiles, 20000, combos)) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "completeness: site line %u: more than 20000 guesses\n", s->stmt->loc.line);
        continue;
      }
    }
    // The writer whose address's digits are the element's indices (a row per block of 32 as
    // 32 by + ty + 4 i with ty < 4, i < 8): tried where the other guesses fail (below).
    if (const std::vector<Term> &co = coords; co.size() == j.size() && !j.empty()) {
      std::unordered_map<Term, int128> ext1 = writerExtents(w1_, m1_, *s);
      // A block index is a digit below others where the launch fixes the grid (a grid-stride
      // loop over a fixed grid: 4 (tid + 256 bid + 16384 i) + c).
      for (int d = 0; d < 3; ++d) {
        auto [lo, hi] = tc_.range(g_.gridDim[d]);
        ext1[w1_.bid[d]] = lo == hi && lo > 0 ? lo : 0;
      }
      std::unordered_map<Term, Term> got;
      bool ok = true;
      for (size_t k = 0; k < co.size() && ok; ++k) {
        bool named = false;
        for (const auto &[x, n] : ext1)
          named |= tc_.mentions(co[k], x);
        ok = !named || invertDigits(co[k], j[k], ext1, got);
      }
      if (ok && !got.empty()) {
        std::unordered_map<Term, Term> w;
        for (const auto &[x, n] : ext1)
          w[x] = got.count(x) ? got[x] : tc_.intConst(0);
        st.digits.push_back(w);
      }
    }
    st.cands = std::move(combos);
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "completeness: site line %u: %zu guesses; reached where %s\n", s->stmt->loc.line,
              st.cands.size(), smt::show(pc, 600).c_str());
    if (anyTile && !allChoices(perVarTiles, 20000, st.tiles))
      st.tiles.clear();
    usable.push_back(std::move(st));
  }
  if (usable.empty()) {
    tp.coverageReason = "no store to the tensor has a writer ksynth can name for every element";
    return false;
  }
  auto covers = [&](const Site &st, const std::unordered_map<Term, Term> &w) {
    // The writer's address is the element's: index by index where the address's form says its
    // indices (flat = X * N + Y with X = j0 and Y = j1 gives flat = e without the product,
    // which the solver handles badly once many sites' cases are asked about at once).
    Term flat = tc_.substitute(st.flat, w);
    std::vector<Term> co = check::coordinates(tc_, flat, ext);
    std::vector<Term> c{tc_.substitute(st.pc, w), tc_.substitute(st.noWrap, w)};
    if (co.size() == j.size() && !j.empty())
      for (size_t k = 0; k < j.size(); ++k)
        c.push_back(tc_.eq(co[k], j[k]));
    else
      c.push_back(tc_.eq(flat, e));
    for (int d = 0; d < 3; ++d) {
      Term tx = w.at(w1_.tid[d]), bx = w.at(w1_.bid[d]);
      c.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), tx), tc_.lt(tx, g_.blockDim[d])));
      c.push_back(tc_.mkAnd(tc_.le(tc_.intConst(0), bx), tc_.lt(bx, g_.gridDim[d])));
    }
    for (Term it : st.s->iters) {
      c.push_back(tc_.le(tc_.intConst(0), w.at(it)));
      // (i < trips as the loop's test at i where it is affine in i: no division to reason
      // about. Never built on the iteration symbol itself: its bounds would fold it to true.)
      if (auto test = m1_.tripTests.find(it); test != m1_.tripTests.end()) {
        std::unordered_map<Term, Term> at = w;
        at[test->second.first] = w.at(it);
        c.push_back(tc_.substitute(test->second.second, at));
      } else {
        c.push_back(tc_.lt(w.at(it), tc_.substitute(m1_.trips.at(it), w)));
      }
    }
    if (co.size() != j.size() || j.empty()) {
      std::vector<Term> hint;
      delinearise(flat, e, ext, hint);
      c.push_back(tc_.mkAnd(hint)); // true facts: harmless inside the disjunct
    }
    return tc_.mkAnd(c);
  };
  // Greedy: a counterexample element at a time, the guess that covers it and most earlier
  // ones joins the disjunction, until no element is left out. 1: proven; 0: no guess covers
  // some element (or too many rounds); -1: the solver gave up (tp says why).
  auto greedy = [&](bool tilesOnly) {
    std::vector<Term> chosen;
    std::vector<smt::Assignment> models;
    struct Cover {
      Term c = nullptr;
      std::vector<bool> holds; // per counterexample so far
    };
    std::map<std::pair<size_t, size_t>, Cover> cache; // (site, guess) -> its condition
    // A guess per store site, and a few more where one site needs several (a register tile of
    // 4 x 4 stores has 16 sites); the tile guesses are one per site, or they do not fit.
    size_t rounds = tilesOnly ? usable.size() + 1 : 16 + usable.size();
    for (size_t round = 0; round < rounds; ++round) {
      // (divisions by constants as shared linear chains: the writers' digits of one element)
      Term goal = smt::purifyDivMod(tc_, tc_.mkAnd(elem, tc_.mkNot(tc_.mkOr(chosen))));
      smt::Result r = solve(goal);
      if (r.status == smt::Status::Unsat)
        return 1;
      if (r.status == smt::Status::Unknown) {
        tp.coverageReason =
            "could not show every element of the tensor is stored: the solver gave up (" + r.reason + ")";
        return -1;
      }
      // A counterexample element: of the candidate writers that store it, the one that also
      // stores the most earlier counterexamples (the general witness, not a special case).
      models.push_back(std::move(r.model));
      Term best = nullptr;
      size_t bestScore = 0, bestGeneral = 0;
      for (size_t si = 0; si < usable.size(); ++si) {
        const auto &guesses = tilesOnly ? usable[si].tiles : usable[si].cands;
        for (size_t wi = 0; wi < guesses.size(); ++wi) {
          const auto &w = guesses[wi];
          // Each guess's condition is built once, and judged once per counterexample.
          Cover &cv = cache[{si, wi}];
          if (!cv.c)
            cv.c = covers(usable[si], w);
          while (cv.holds.size() < models.size()) {
            std::optional<smt::Value> v = smt::eval(cv.c, models[cv.holds.size()]);
            cv.holds.push_back(v && v->num != 0);
          }
          if (!cv.holds.back())
            continue;
          size_t score = 0;
          for (bool h : cv.holds)
            score += h;
          // On a tie, the guess with more terms of the element (not constants) is the more
          // general one: `c div 256` rather than iteration 0.
          size_t general = 0;
          for (const auto &[x, v] : w)
            general += !tc_.isConst(v);
          if (!best || score > bestScore || (score == bestScore && general > bestGeneral)) {
            best = cv.c;
            bestScore = score;
            bestGeneral = general;
          }
        }
      }
      if (!best) {
        if (getenv("KSYNTH_DEBUG_EQ")) {
          std::vector<Term> shown(j.begin(), j.end());
          shown.push_back(e);
          std::vector<Term> syms;
          tc_.collectSymbols(elem, syms);
          for (Term x : syms)
            if (x->kind == smt::Kind::Var && x->name.rfind("param.", 0) == 0)
              shown.push_back(x);
          for (Term x : shown)
            if (auto v = smt::eval(x, models.back()))
              fprintf(stderr, "completeness: no guess stores the element where %s = %lld\n", smt::show(x).c_str(),
                      static_cast<long long>(v->num));
        }
        tp.coverageReason =
            "could not name a thread that stores every element (none of ksynth's guesses covers some element)";
        tp.coverageExampleSizes.clear();
        for (const auto &[d, x] : dimTerm_)
          if (std::optional<smt::Value> v = smt::eval(x, models.back());
              v && v->den == 1 && v->num >= 1 && v->num <= (static_cast<int128>(1) << 40)) // (a size a test could take)
            tp.coverageExampleSizes[s_.dims[d].name] = static_cast<int64_t>(v->num);
        return 0;
      }
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "completeness: round %zu chose %s\n", round, smt::show(best, 1500).c_str());
      chosen.push_back(best);
    }
    tp.coverageReason = "could not name a thread that stores every element (too many cases)";
    return 0;
  };
  // A register tile's stores (several sites) first with the tile guesses alone: one per site,
  // where the full set (thousands of combinations per site) is slow to build and judge.
  bool tiles = usable.size() > 1 &&
               std::any_of(usable.begin(), usable.end(), [](const Site &st) { return !st.tiles.empty(); });
  if (tiles && greedy(true) == 1)
    return true;
  int found = greedy(false);
  if (found != 0)
    return found == 1;
  // Where no guess covers some element: with the writers by the digits too, first.
  bool more = false;
  for (Site &st : usable) {
    more |= !st.digits.empty();
    st.cands.insert(st.cands.begin(), st.digits.begin(), st.digits.end());
  }
  return more && greedy(false) == 1;
}

} // namespace ksynth::equiv::prove_detail
