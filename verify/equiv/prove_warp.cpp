// Equivalence proofs: warp exchanges (shuffles). A lane's read of another lane's value,
// wx.N(cell), is resolved to what the lane owning the cell stored in that exchange; a value
// built from one value of every lane of a warp's segment, combined by additions (a shuffle
// tree or butterfly), is recognised as the sum over those lanes.
//
// Why a read is the owner's value: the exchange is `xchg[me] = v; __syncwarp(); r =
// xchg[src]; __syncwarp();` (frontend, lower_warp.cpp), the safety proofs this one rests on
// show every lane of the warp reaches the same exchanges (barrier divergence) and no other
// store comes between (race freedom), and the owner reaching its store at that cell is asked
// of the solver below. The store's value is the owner's copy of the thread (w3) with its
// coordinates set to the cell's; a value that depends on anything else of the owner (a
// symbol ksynth cannot name per thread) is not resolved.
#include "verify/equiv/prover.h"
#include "verify/smt/exp_law.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>

namespace ksynth::equiv::prove_detail {

// The store site `st` of thread copy m, or nullptr.
const check::AccessSite *storeSite(const check::ThreadModel &m, const ir::Stmt *st) {
  for (const check::AccessSite &a : m.accesses)
    if (a.write && a.stmt == st)
      return &a;
  return nullptr;
}

// w3 := the thread of w1's block whose block-linear id is `cell`.
std::unordered_map<Term, Term> Prover::laneThread(Term cell) {
  Term bx = g_.blockDim[0], by = g_.blockDim[1];
  std::unordered_map<Term, Term> w{{w3_.tid[0], tc_.mod(cell, bx)},
                                   {w3_.tid[1], tc_.mod(tc_.div(cell, bx), by)},
                                   {w3_.tid[2], tc_.div(cell, tc_.mul(bx, by))},
                                   {w3_.bid[0], w1_.bid[0]},
                                   {w3_.bid[1], w1_.bid[1]},
                                   {w3_.bid[2], w1_.bid[2]}};
  w.insert(ownerIter_.begin(), ownerIter_.end());
  return w;
}

// What base store n (site S: its value reads no lane) put in `cell`: lanev.n(cell), an unknown
// function of the cell standing for that value, or the value itself where it is a constant (a
// padding lane, `lane < 8 ? part[lane] : 0`), which the terms fold as such.
Term Prover::laneValue(size_t n, const check::AccessSite &S, Term cell) {
  Term v = tc_.substitute(S.value, laneThread(cell));
  return v->kind == smt::Kind::Const ? v : tc_.app("lanev." + std::to_string(n), v->sort, {cell});
}

// v with each lane value lanev.n(cell) named again now that its cell is known (a reader's
// lane fixed): where the store's value at that cell is a constant (a padding lane,
// `lane < 8 ? part[lane] : 0` at lane 12), that constant, which lanev.n(cell) stands for.
Term Prover::lanesNamedAgain(Term v) {
  std::vector<const ir::Stmt *> stores = check::exchangeStores(k_);
  std::unordered_map<Term, Term> known;
  for (Term x : appsWithPrefix(v, "lanev.")) {
    size_t n = std::strtoul(x->name.c_str() + 6, nullptr, 10);
    const check::AccessSite *B = n < stores.size() ? storeSite(m3_, stores[n]) : nullptr;
    if (B && B->value && x->kids.size() == 1)
      if (Term named = laneValue(n, *B, x->kids[0]); named != x)
        known[x] = named;
  }
  return known.empty() ? v : tc_.substitute(v, known);
}

// Whether t is a scan's round, `if (lane >= d) v += u`: a choice between two numbers that
// compares no number (decided by the thread's coordinates and the sizes, not by the data, as
// an argmax's pick is) and keeps a value where it does not add (not a padding constant).
bool Prover::scanRound(Term t) {
  if (t->kind != smt::Kind::Ite || t->sort != Sort::Real || t->kids[2]->kind == smt::Kind::Const)
    return false;
  for (Term u : smt::subterms(t->kids[0]))
    if (u->sort == Sort::Real)
      return false;
  return true;
}

// Whether t, w3's value with w3's coordinates substituted, still names w3 (a per-thread value).
bool Prover::namesWriter(Term t) {
  std::vector<Term> syms;
  tc_.collectSymbols(t, syms);
  for (Term x : syms)
    if (x->kind == smt::Kind::Var && x->name.rfind("w3.", 0) == 0)
      return true;
  return false;
}

// ctx => owns, where owns (the owner of a cell reaches its exchange store) is about a cell
// computed from the reader's lane. In a block of several warps, the cells of later rounds
// nest the earlier rounds' lane arithmetic (x mod 32, x div 16, ...), which the solver handles
// slowly; there the reader's threadIdx.x is taken as 32 u + l, one case per l in [0, 32) with
// u ranging over the block's warps, so that the arithmetic folds on the terms (the cases
// cover every threadIdx.x of a one-dimensional block whose width is a multiple of 32).
bool Prover::ownerStores(Term ctx, Term owns) {
  int128 bx = 0, by = 0, bz = 0;
  if (!tc_.isConst(g_.blockDim[0], &bx) || !tc_.isConst(g_.blockDim[1], &by) || !tc_.isConst(g_.blockDim[2], &bz) ||
      by != 1 || bz != 1 || bx <= 32 || bx % 32 != 0 || !tc_.mentions(owns, w1_.tid[0]))
    return unsatFocused(ctx, tc_.mkNot(owns));
  // The question as it is first, for a fifth of a second at most (most reads are decided at once; the
  // 32 cases below are 32 more queries in a proof bundle).
  // (threadIdx.y and .z are 0 in a one-dimensional block: their terms fold away.)
  std::unordered_map<Term, Term> flat{{w1_.tid[1], tc_.intConst(0)}, {w1_.tid[2], tc_.intConst(0)}};
  solver_.setTimeout(std::min(opts_.timeoutMs, 200u));
  bool direct = unsatFocused(tc_.substitute(ctx, flat), tc_.mkNot(tc_.substitute(owns, flat)));
  solver_.setTimeout(opts_.timeoutMs);
  if (direct)
    return true;
  Term u = tc_.fresh("lane.u", Sort::Int);
  tc_.setBounds(u, 0, static_cast<int64_t>(bx / 32 - 1));
  for (int l = 0; l < 32; ++l) {
    std::unordered_map<Term, Term> th{{w1_.tid[0], tc_.add(tc_.mul(tc_.intConst(32), u), tc_.intConst(l))},
                                      {w1_.tid[1], tc_.intConst(0)},
                                      {w1_.tid[2], tc_.intConst(0)}};
    Term cl = tc_.mkAnd(tc_.substitute(ctx, th), tc_.inRange(u, 0, static_cast<int64_t>(bx / 32 - 1)));
    if (!unsatFocused(cl, tc_.mkNot(tc_.substitute(owns, th))))
      return false;
  }
  return true;
}

Term Prover::resolveExchanges(Term t, Term ctx, int depth) {
  std::vector<Term> apps = appsWithPrefix(t, "wx.");
  if (apps.empty() || depth > 8)
    return t;
  std::vector<const ir::Stmt *> stores = check::exchangeStores(k_);
  std::unordered_map<Term, Term> sub;
  for (Term X : apps) {
    size_t n = std::strtoul(X->name.c_str() + 3, nullptr, 10);
    if (n >= stores.size())
      continue;
    const check::AccessSite *S = storeSite(m3_, stores[n]);
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "warp exchange %s: %zu args, the store's loops %zu\n", smt::show(X, 200).c_str(), X->kids.size(),
              S ? S->iters.size() : 0);
    if (!S || !S->value || X->kids.size() != 1 + S->iters.size())
      continue;
    // In loops: the owner's round is the reader's. The lanes of a warp reach the same warp
    // barriers (the convergence obligation), the exchange's two __syncwarp() come in each
    // round, and no other store comes between (race freedom): the cell the reader reads in
    // round i holds what its owner stored in round i. Each loop's owner iteration is mapped to
    // one reader iteration (a symbol of the reader's loop), the same for every exchange.
    bool rounds = true;
    for (size_t k = 0; k < S->iters.size() && rounds; ++k) {
      Term r = X->kids[1 + k];
      auto it = ownerIter_.find(S->iters[k]);
      rounds = r->kind == smt::Kind::Var && r->name.rfind("w1.", 0) == 0 && (it == ownerIter_.end() || it->second == r);
    }
    for (size_t k = 0; k < S->iters.size() && rounds; ++k)
      ownerIter_.emplace(S->iters[k], X->kids[1 + k]);
    if (!rounds)
      continue;
    std::unordered_map<Term, Term> w = laneThread(X->kids[0]);
    Term v = tc_.substitute(S->value, w);
    if (namesWriter(v)) {
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "warp exchange %s: the owner's value is not a function of its coordinates: %s\n",
                X->name.c_str(), smt::show(v, 300).c_str());
      continue;
    }
    Step st(*this, "in the warp exchange at line " + std::to_string(S->stmt->loc.line) +
                       ", the lane owning the cell read stores it there",
            lineOf(*S));
    // The owner's path with its loops' exit conditions left out where they only say the
    // loops ended (the trip counts' arithmetic, slow to check for another lane): reaching the
    // exchange assumes its loops end, as every later statement of the reader does.
    Term ownPc = reachable(*S, &m3_);
    if (!ownPc)
      ownPc = S->pc;
    Term owns = tc_.mkAnd(tc_.substitute(ownPc, w), tc_.eq(tc_.substitute(S->flat, w), X->kids[0]));
    if (!ownerStores(ctx, owns))
      continue;
    // A store whose value reads no lane (a first round): lanev.N(cell), an unknown function of
    // the cell standing for that value (it is one: no symbol of the owner is left), so the
    // identities below are about cells, not about what each lane computed.
    // In a later round's value, the owner's own first-round values are lanev too (by
    // definition: lanev.B(cell) is the value of base store B with the owner's coordinates
    // those of the cell).
    if (!hasAppWithPrefix(S->value, "wx.")) {
      sub[X] = laneValue(n, *S, X->kids[0]);
      continue;
    }
    // (all at once: one base value may hold another, an online softmax's sum the final max)
    std::unordered_map<Term, Term> base;
    for (size_t b = 0; b < stores.size(); ++b) {
      const check::AccessSite *B = storeSite(m3_, stores[b]);
      if (!B || !B->value || !itersOwned(*B) || hasAppWithPrefix(B->value, "wx."))
        continue;
      Term mine = tc_.substitute(B->value, w), named = laneValue(b, *B, X->kids[0]);
      if (named != mine && tc_.mentions(v, mine))
        base[mine] = named;
    }
    sub[X] = base.empty() ? v : tc_.substitute(v, base);
  }
  if (sub.empty())
    return t;
  return resolveExchanges(tc_.substitute(t, sub), ctx, depth + 1);
}

// t with the reader's (w1's) loop folds named as the owner copy's (w3's) where the two are
// the same function (their definitions equal once w1's symbols are renamed to w3's), so that
// the reader's own value and the values resolved from other lanes use the same names. A fold
// whose body holds another fold (softmax: the sum of exp(x - m) holds the running max m) is
// the same function when the inner folds are, decided first.
Term Prover::asWriterSums(Term t) { return renameToWriter(t, false); }

// t with w1's folds renamed to w3's where they are the same function (see asWriterSums) and,
// where vars is set, w1's variables renamed to w3's too.
Term Prover::renameToWriter(Term t, bool vars) {
  std::vector<Term> syms;
  tc_.collectSymbols(t, syms);
  std::unordered_map<Term, Term> sub;
  for (Term x : syms) {
    if (x->kind == smt::Kind::Var && vars && x->name.rfind("w1.", 0) == 0) {
      sub[x] = tc_.var("w3." + x->name.substr(3), x->sort);
      continue;
    }
    if (x->kind != smt::Kind::App)
      continue;
    std::string other = writerFold(x->name);
    if (other.empty() && !vars)
      continue;
    std::vector<Term> kids;
    for (Term k : x->kids)
      kids.push_back(renameToWriter(k, vars));
    if (!other.empty() || kids != x->kids)
      sub[x] = tc_.app(other.empty() ? x->name : other, x->sort, kids);
  }
  return sub.empty() ? t : tc_.substitute(t, sub);
}

// The w3 copy of w1's fold `name` where the two are the same function, or "".
std::string Prover::writerFold(const std::string &name) {
  auto memo = writerFolds_.find(name);
  if (memo != writerFolds_.end())
    return memo->second;
  size_t at = name.find(".w1.");
  if (at == std::string::npos)
    return "";
  writerFolds_[name] = ""; // a fold that holds itself is not renamed
  std::string other = name.substr(0, at) + ".w3." + name.substr(at + 4);
  const check::SumDef *d1 = kernelSum(name), *d3 = kernelSum(other);
  if (!d1 || !d3 || d1->params.size() != d3->params.size() || (d1->key == nullptr) != (d3->key == nullptr) ||
      d1->strict != d3->strict || d1->isMax != d3->isMax)
    return "";
  auto same = [&](Term x, Term y) { return renameToWriter(x, true) == y; };
  bool ok = same(d1->iter, d3->iter) && same(d1->body, d3->body) && (!d1->key || same(d1->key, d3->key));
  for (size_t i = 0; ok && i < d1->params.size(); ++i)
    ok = same(d1->params[i], d3->params[i]);
  if (!ok) {
    if (getenv("KSYNTH_DEBUG_EQ"))
      fprintf(stderr, "warp: fold %s is not %s:\n  %s\n  %s\n", name.c_str(), other.c_str(),
              smt::show(renameToWriter(d1->body, true), 600).c_str(), smt::show(d3->body, 600).c_str());
    return "";
  }
  writerFolds_[name] = other;
  return other;
}

// Whether v is the fold of exactly the terms xs: fold 0 a sum (v's summands, nested additions
// flattened and zeros left out, are xs's as a multiset), 1 (-1) a max (min) (v's operands, nested
// max (min) nodes flattened, are xs's as a set: max is idempotent). Decided on the terms,
// without the solver, where a shuffle tree's value is a large nest of them.
bool Prover::sameLeaves(Term v, const std::vector<Term> &xs, int fold) {
  std::vector<Term> leaves, want;
  std::function<void(Term)> walk = [&](Term x) {
    Term p, q;
    bool mx = false;
    if (fold == 0 && x->kind == smt::Kind::Add) {
      for (Term k : x->kids)
        walk(k);
    } else if (fold != 0 && check::extremumOf(x, p, q, mx) && mx == (fold > 0)) {
      walk(p);
      walk(q);
    } else if (!(fold == 0 && x == tc_.realConst(0))) {
      leaves.push_back(x);
    }
  };
  walk(v);
  for (Term x : xs)
    if (!(fold == 0 && x == tc_.realConst(0)))
      want.push_back(x);
  std::sort(leaves.begin(), leaves.end(), smt::TermById());
  std::sort(want.begin(), want.end(), smt::TermById());
  if (fold != 0) {
    leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
  }
  return leaves == want;
}

// w1's thread coordinates that ctx fixes (lane 0 of warp 0 storing the result), each as
// its constant; found from one model, each then proven to be the only value.
std::unordered_map<Term, Term> Prover::pinnedCoordinates(Term ctx) {
  std::unordered_map<Term, Term> pin;
  smt::Result probe;
  {
    Step st(*this, "a search step, not part of the proof: a model of the reading thread");
    probe = solve(ctx);
  }
  for (int d = 0; d < 3 && probe.status == smt::Status::Sat; ++d) {
    std::optional<smt::Value> x = smt::eval(w1_.tid[d], probe.model);
    if (!x || x->den != 1)
      continue;
    Term c = tc_.intConst(x->num);
    Step st(*this, "the context fixes the reading thread's coordinate");
    if (unsatFocused(ctx, tc_.ne(w1_.tid[d], c)))
      pin[w1_.tid[d]] = c;
  }
  return pin;
}

// v, with no exchange reads left, as the sum (the max, the min) over the W lanes of the
// reader's segment of the value one exchange store put there (the first round's: a store whose
// value reads no lane): lsum.warp.N(W, the reader's coordinates), lmax.warp.N, lmin.warp.N;
// or the sum over the lanes of the segment up to the reader's own (a scan):
// lsum.wpre.N(the reader's lane + 1, the reader's coordinates).
//
// The reader is w1, or (`reader`: w3's coordinates set) another thread of w1's block whose
// value this is, such as the writer of a shared cell w1 reads: a block reduction's warp sums.
Term Prover::laneSum(Term v, Term ctx, const std::unordered_map<Term, Term> *reader) {
  if (v->sort != Sort::Real)
    return nullptr;
  if (hasAppWithPrefix(v, "wx."))
    return nullptr;
  if (!reader)
    v = asWriterSums(v);
  std::vector<const ir::Stmt *> stores = check::exchangeStores(k_);
  std::array<Term, 3> tid = w1_.tid;
  if (reader)
    for (int d = 0; d < 3; ++d)
      tid[d] = reader->at(w3_.tid[d]);
  // w1's coordinates that the context fixes (lane 0 of warp 0 storing the result) as those
  // constants: which lanes exist and stay in the segment is then decided on the terms.
  std::unordered_map<Term, Term> pin;
  if (!reader) {
    pin = pinnedCoordinates(ctx);
    if (!pin.empty()) {
      v = tc_.substitute(v, pin);
      for (int d = 0; d < 3; ++d)
        tid[d] = tc_.substitute(tid[d], pin);
      v = lanesNamedAgain(v);
    }
  }
  Term L = tc_.add(tid[0], tc_.mul(g_.blockDim[0], tc_.add(tid[1], tc_.mul(g_.blockDim[1], tid[2]))));
  for (size_t n = 0; n < stores.size(); ++n) {
    const ir::Stmt *st = stores[n];
    const check::AccessSite *S = storeSite(m3_, st), *S1 = storeSite(m1_, st);
    // (In a loop only for w1 itself, whose rounds resolveExchanges mapped the owners' to: another
    // thread's value names its own rounds.)
    if (!S || !S1 || !S->value || !S1->value || (reader ? !S->iters.empty() : !itersOwned(*S)) ||
        S->value->sort != Sort::Real || hasAppWithPrefix(S->value, "wx."))
      continue;
    std::string lanev = "lanev." + std::to_string(n);
    // The reader's own value from this store, as lanev.n(its own cell): for w1 checked equal
    // (w1's copy names its loop sums apart), for another thread its copy's value by definition.
    Term own = reader ? tc_.substitute(S->value, *reader) : tc_.substitute(asWriterSums(S1->value), pin);
    Term ownCell = tc_.app(lanev, own->sort, {L});
    Term va = v;
    if (reader && tc_.mentions(v, own)) {
      va = tc_.substitute(v, {{own, ownCell}});
    } else if (tc_.mentions(v, own)) {
      Step s1(*this, "the reader's own value in the exchange at line " + std::to_string(st->loc.line) +
                         " is the one its lane stores there",
              lineOf(*S));
      if (!unsat(tc_.mkAnd(ctx, tc_.ne(own, tc_.substitute(S->value, laneThread(L)))))) {
        if (getenv("KSYNTH_DEBUG_EQ"))
          fprintf(stderr, "warp: own value %s\n  is not the lane's %s\n", smt::show(own, 400).c_str(),
                  smt::show(tc_.substitute(S->value, laneThread(L)), 400).c_str());
        continue;
      }
      va = tc_.substitute(v, {{own, ownCell}});
    }
    // The fold the value's top is made of: + for sums, an ite of a comparison (fmaxf, fminf).
    Term G = nullptr, z = nullptr; // a cofactor of the lane's value (laneCofactor), its cell
    bool scanOnly = false;         // a scan's shape: only a prefix is tried
    Term p = nullptr, q = nullptr;
    bool isMax = false;
    enum class Fold { Sum, Max, Min } fold = Fold::Sum;
    if (check::extremumOf(v, p, q, isMax))
      fold = isMax ? Fold::Max : Fold::Min;
    bool mentionsStore = false;
    for (Term x : appsWithPrefix(va, "lanev."))
      mentionsStore |= x->name == lanev;
    if (!mentionsStore)
      continue; // no value of this exchange's lanes in it (another butterfly's)
    {
      // Some operand of the value's top fold must be a lane's value of this exchange (or one
      // where the lane exists, ite(c, v, 0)); values of it only deeper inside (the mean inside
      // each lane's sum of squared deviations) are another butterfly's inputs, and the lane
      // splits below would ask the solver about every lane for nothing.
      bool direct = false;
      auto isLane = [&](Term y) { return y->kind == smt::Kind::App && y->name == lanev; };
      std::function<void(Term)> operands = [&](Term y) {
        Term a, b;
        bool m = false;
        if (fold == Fold::Sum && y->kind == smt::Kind::Add) {
          for (Term k : y->kids)
            operands(k);
        } else if (fold != Fold::Sum && check::extremumOf(y, a, b, m) && m == (fold == Fold::Max)) {
          operands(a);
          operands(b);
        } else {
          direct |= isLane(y) || (y->kind == smt::Kind::Ite && (isLane(y->kids[1]) || isLane(y->kids[2])));
        }
      };
      operands(va);
      // A scan's value: choices on the lane (`if (lane >= d) v += u`, each keeping a value where
      // it does not add) over sums that reach this exchange's lane values. Only a prefix is
      // tried for it (below).
      if (fold == Fold::Sum && scanRound(va)) {
        std::function<bool(Term)> reaches = [&](Term y) {
          if (isLane(y))
            return true;
          if (y->kind == smt::Kind::Add)
            return std::any_of(y->kids.begin(), y->kids.end(), reaches);
          return scanRound(y) && (reaches(y->kids[1]) || reaches(y->kids[2]));
        };
        scanOnly = reaches(va);
        direct &= !scanOnly;
      }
      // A merge of running sums (prove_online.cpp): each operand this lane's value times one
      // function of its cell.
      if (!direct && !scanOnly && fold == Fold::Sum) {
        z = tc_.fresh("lane.cell", Sort::Int);
        G = laneCofactor(va, lanev, z, L);
        if (G) {
          // Each term as lanev(c) * G(c), in the order xs below has.
          std::vector<Term> terms;
          std::function<void(Term)> flat = [&](Term y) {
            if (y->kind == smt::Kind::Add) {
              for (Term k : y->kids)
                flat(k);
            } else {
              terms.push_back(y);
            }
          };
          flat(va);
          Term sum = nullptr;
          for (Term x : terms) {
            Term f = x->kind == smt::Kind::Mul && x->kids.size() == 2 && x->kids[1]->kind == smt::Kind::App &&
                             x->kids[1]->name == lanev
                         ? tc_.mul(x->kids[1], x->kids[0])
                         : x;
            sum = sum ? tc_.add(sum, f) : f;
          }
          va = smt::linearExpArgs(tc_, sum);
        }
      }
      if (!direct && !G && !scanOnly)
        continue;
    }
    if (fold == Fold::Sum && v->kind != smt::Kind::Add && v->kind != smt::Kind::Ite)
      return nullptr; // no fold at the top (rsqrt of a lane sum): its inside is offered instead
    const char *what = fold == Fold::Sum ? "sum" : fold == Fold::Max ? "max" : "min";
    // Pass 0 compares the terms as they are, the reader's lane split where it is symbolic (no
    // solver: a butterfly's offsets fold once the lane is a constant). Pass 1 first decides,
    // once, which lanes exist and which offsets stay in the segment (a reader whose
    // coordinates are symbolic, a warp's first lane 32 j, leaves them as conditions), then
    // asks the solver where the terms differ.
    bool split = reader || !pin.count(w1_.tid[0]);
    for (int pass = 0; pass < 2; ++pass) {
      // (a reader that is lane y of an outer fold: its lane split below fixes y first, and
      // the conditions then fold on far simpler terms, lane by lane)
      if (pass == 1 && !(reader && tid[0]->kind != smt::Kind::Var && laneVarOf(tid[0], 32)))
        va = foldUnder(va, focus(ctx, va), reader != nullptr);
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "warp: store %zu, %s over lanes of %s (pass %d)?\n  own %s\n  value %s\n", n, what,
                smt::show(L, 200).c_str(), pass, smt::show(own, 300).c_str(), smt::show(va, 600).c_str());
      for (int W : {32, 16, 8, 4, 2}) {
        // The segment's first lane, W (L div W): a multiple of W on the terms, so that (seg + k)
        // mod W folds to k.
        Term seg = tc_.mul(tc_.intConst(W), tc_.div(L, tc_.intConst(W)));
        Term all = nullptr;
        std::vector<Term> xs;
        bool ok = true;
        for (int k = 0; k < W && ok; ++k) {
          Term cell = tc_.add(seg, tc_.intConst(k));
          ok = !namesWriter(tc_.substitute(S->value, laneThread(cell)));
          Term x = laneValue(n, *S, cell);
          if (G) {
            Term g = cofactorAt(G, z, cell, false);
            ok = g != nullptr;
            x = ok ? tc_.mul(x, g) : x;
          }
          xs.push_back(x);
          all = all ? tc_.add(all, x) : x;
        }
        if (!ok)
          break;
        bool same = false;
        {
          Step s2(*this, std::string("the value is the ") + what + " over the " + std::to_string(W) +
                             " lanes of the reader's segment of what each stored in the exchange at line " +
                             std::to_string(st->loc.line),
                  lineOf(*S));
          int how = fold == Fold::Sum ? 0 : fold == Fold::Max ? 1 : -1;
          if (scanOnly) {
            same = false; // (a choice at the top is no fold over the whole segment)
          } else if (sameLeaves(va, xs, how)) {
            same = true; // the same terms, combined by an associative and commutative fold
          } else if (split && laneSplit(va, xs, W, how, ctx, tid[0], pass == 1, G != nullptr)) {
            same = true; // the same terms for each lane of the segment, the lane fixed
          } else if (pass == 0 || (split && !reader)) {
            same = false; // (w1 split: its lanes were each asked above, the whole is no easier)
          } else if (fold == Fold::Sum) {
            same = unsatFocused(ctx, tc_.ne(va, all));
          } else {
            // max(S) = v iff v is at least (most) every element and equals one of them.
            std::vector<Term> below, isOne;
            for (Term x : xs) {
              below.push_back(fold == Fold::Max ? tc_.lt(va, x) : tc_.lt(x, va));
              isOne.push_back(tc_.eq(va, x));
            }
            same = unsatFocused(ctx, tc_.mkOr(tc_.mkOr(below), tc_.mkNot(tc_.mkOr(isOne))));
          }
        }
        // Otherwise, for each lane, the sum over the lanes of its segment up to its own: a
        // scan's value (`if (lane >= d) v += __shfl_up_sync(m, v, d)` for d = 1, 2, ..., W / 2).
        bool prefix = false;
        if (!same && scanOnly && split) {
          Step s3(*this, "the value is the sum over the lanes of the reader's segment of " + std::to_string(W) +
                             " up to its own of what each stored in the exchange at line " +
                             std::to_string(st->loc.line),
                  lineOf(*S));
          same = prefix = laneSplit(va, xs, W, 0, ctx, tid[0], pass == 1, false, true);
        }
        if (!same)
          continue;
        // (the lane index is one variable per width, so that a fold of the same values met twice,
        // through two shared cells written by one thread, is one definition and one name)
        Term kk = tc_.var("lane.k" + std::to_string(W), Sort::Int);
        if (tc_.mentions(L, kk) || tc_.mentions(v, kk))
          kk = tc_.fresh("lane.k", Sort::Int); // (the reader is itself a lane of such a fold)
        tc_.setBounds(kk, 0, W - 1);
        Term body = tc_.substitute(S->value, laneThread(tc_.add(seg, kk)));
        if (G) {
          Term g = cofactorAt(G, z, tc_.add(seg, kk), true);
          if (!g)
            continue;
          body = rebaseSums(smt::combineExps(tc_, tc_.mul(body, g)));
        }
        // (a prefix has its own name: lsum.warp.N's first argument is its segment's width too)
        std::string name = std::string(fold == Fold::Sum ? "lsum" : fold == Fold::Max ? "lmax" : "lmin") +
                           (prefix ? ".wpre." : ".warp.") + std::to_string(treeSums_.size());
        // (body is in w1's coordinates, through seg: the parameters; the reader's are the arguments)
        std::vector<Term> params{w1_.tid[0], w1_.tid[1], w1_.tid[2], w1_.bid[0], w1_.bid[1], w1_.bid[2]};
        check::SumDef def{kk, body, params};
        def.isMax = fold != Fold::Min;
        for (const auto &[other, od] : treeSums_)
          if (other.rfind(name.substr(0, 10), 0) == 0 && od.iter == kk && od.body == body && od.params == params &&
              od.isMax == def.isMax && !od.key)
            name = other;
        treeSums_[name] = def;
        Term count = prefix ? tc_.add(tc_.mod(L, tc_.intConst(W)), tc_.intConst(1)) : tc_.intConst(W);
        std::vector<Term> args{count, tid[0], tid[1], tid[2], w1_.bid[0], w1_.bid[1], w1_.bid[2]};
        return tc_.app(name, Sort::Real, args);
      }
    }
  }
  return nullptr;
}

// The variable y where x = W a + y (or (W a + y) mod M, M a multiple of W: the thread of a
// linear cell) and y's known range is exactly [0, W): x's lane in a segment of W is y.
Term Prover::laneVarOf(Term x, int W) {
  int128 m = 0;
  if (x->kind == smt::Kind::Mod && tc_.isConst(x->kids[1], &m) && m > 0 && m % W == 0)
    x = x->kids[0];
  if (x->kind != smt::Kind::Add)
    return nullptr;
  for (Term k : x->kids) {
    int128 r = -1;
    if (k->kind == smt::Kind::Var && tc_.range(k) == std::pair<int128, int128>{0, W - 1} &&
        tc_.isConst(tc_.mod(tc_.sub(x, k), tc_.intConst(W)), &r) && r == 0)
      return k;
  }
  return nullptr;
}

// Whether v, the value of a reader whose lane is symbolic (every lane of a butterfly uses
// it), is the fold (sameLeaves' `how`) of xs for each lane of the reader's segment of W
// lanes: for each l in [0, W), the reader's threadIdx.x, rx, := W u + l with u one more
// symbol, ranging over the block's segments. Then the lane's offsets in v, x mod W and x div
// W, fold on the terms ((W u + l) mod W is l) and the leaves compare as for a reader the
// context fixes. rx is w1's threadIdx.x or a variable the context keeps in [0, blockDim.x)
// (the lane index of an outer fold over lanes), so the cases cover every value it takes; or
// W a + y (laneVarOf: lane y of warp a of an outer fold), where y alone takes the W values and
// a stays symbolic. Blocks of one dimension whose width is a multiple of W only (threadIdx.y
// and .z are 0). With `prefix`, lane l's fold is of xs[0 .. l] only (a scan).
bool Prover::laneSplit(Term v, const std::vector<Term> &xs, int W, int how, Term ctx, Term rx, bool solve,
                       bool expForms, bool prefix) {
  Term p, q;
  bool mx = false;
  // (a scan's last round is a choice at the top, `if (lane >= d) v += u`: the lane decides it)
  if (how == 0 ? v->kind != smt::Kind::Add && !(prefix && v->kind == smt::Kind::Ite)
               : !check::extremumOf(v, p, q, mx) || mx != (how > 0))
    return false; // not a nest of the fold
  // (rx = W a + y: a block sum's warp k read inside the terms of lane y of warp k, 32 k + y)
  Term y = nullptr;
  if (rx->kind != smt::Kind::Var && !(y = laneVarOf(rx, W)))
    return false;
  int128 bx = 0, by = 0, bz = 0;
  if (!tc_.isConst(g_.blockDim[0], &bx) || !tc_.isConst(g_.blockDim[1], &by) ||
      !tc_.isConst(g_.blockDim[2], &bz) || by != 1 || bz != 1 || bx <= 0 || bx % W != 0)
    return false;
  if (rx != w1_.tid[0]) { // the cases below cover [0, blockDim.x) only
    Step st(*this, "the reading lane is a thread of the block");
    if (!unsatFocused(ctx, tc_.mkNot(tc_.inRange(rx, 0, static_cast<int64_t>(bx - 1)))))
      return false;
  }
  // One segment: u is 0 (its symbol would stay in offsets the frontend already reduced for
  // a block of W lanes, such as x + 16 - 32 (x div 16)).
  Term u = tc_.intConst(0);
  if (bx > W && !y) {
    u = tc_.fresh("lane.u", Sort::Int);
    tc_.setBounds(u, 0, bx / W - 1);
  }
  for (int l = 0; l < W; ++l) {
    std::unordered_map<Term, Term> th{{rx, tc_.add(tc_.mul(tc_.intConst(W), u), tc_.intConst(l))}};
    if (y)
      th = {{y, tc_.intConst(l)}};
    if (rx == w1_.tid[0]) {
      th[w1_.tid[1]] = tc_.intConst(0);
      th[w1_.tid[2]] = tc_.intConst(0);
    }
    // (expForms: exponents compared in linear form, whose order the substitution does not keep)
    auto form = [&](Term t) { return expForms ? smt::linearExpArgs(tc_, t) : t; };
    // (a padding lane's value, lanev.n(32 u + 12), is its constant once the lane is fixed, as
    // in xs)
    Term vl = form(lanesNamedAgain(tc_.substitute(v, th)));
    std::vector<Term> xl;
    for (size_t k = 0; k < xs.size() && (!prefix || k <= static_cast<size_t>(l)); ++k)
      xl.push_back(form(tc_.substitute(xs[k], th)));
    if (sameLeaves(vl, xl, how))
      continue;
    if (!solve)
      return false;
    // Conditions left (a source lane that exists for some segments only): decided with the
    // lane fixed. A lane the context rules out (lane 0 alone reads: `threadIdx.x % 32 == 0`)
    // needs nothing.
    Term cl = tc_.mkAnd(tc_.substitute(ctx, th), tc_.inRange(u, 0, static_cast<int64_t>(bx / W - 1)));
    {
      Step st(*this, "the context rules this lane out");
      if (unsatFocused(tc_.tru(), cl))
        continue;
    }
    vl = form(lanesNamedAgain(foldUnder(vl, focus(cl, vl), false)));
    if (!sameLeaves(vl, xl, how)) {
      if (getenv("KSYNTH_DEBUG_EQ"))
        fprintf(stderr, "warp: lane %d of %d: %s\n", l, W, smt::show(vl, 600).c_str());
      return false;
    }
  }
  return true;
}

Term Prover::resolveWarp(Term t, Term ctx, const std::unordered_map<Term, Term> *reader) {
  if (!hasAppWithPrefix(t, "wx."))
    return t;
  Term r = onlineForm(resolveExchanges(t, ctx, 0), ctx, reader);
  if (Term s = laneSum(r, ctx, reader))
    return s;
  // Otherwise the folds inside it: also for another thread's value (a reader), such as the
  // writer of a block's mean, `stat = v / C` with v a butterfly's sum in lane 0 of warp 0.
  return laneFoldsInside(r, ctx, reader, false); // (r itself was just offered)
}

// t with each warp fold of exchanged values inside it named as its lane fold: a butterfly's max
// inside the terms of a sum (softmax: exp(x - m), m every lane's max of the row). Exchanges
// are resolved in the whole of t first; then, top down, each sum or extremum over lane values
// is offered to laneSum, and where it is not one, its operands are.
Term Prover::resolveWarpInside(Term t, Term ctx, const std::unordered_map<Term, Term> *reader) {
  if (!hasAppWithPrefix(t, "wx."))
    return t;
  return laneFoldsInside(resolveExchanges(t, ctx, 0), ctx, reader);
}

// r, its exchanges resolved, with each nest of one fold over at least two lanes' values
// inside it named as its lane fold where laneSum shows it is one (see resolveWarpInside).
Term Prover::laneFoldsInside(Term r, Term ctx, const std::unordered_map<Term, Term> *reader, bool offerTop) {
  int budget = 8; // laneSum attempts: each asks the solver
  std::unordered_map<Term, Term> memo;
  std::function<Term(Term)> walk = [&](Term x) -> Term {
    if (!hasAppWithPrefix(x, "lanev.") || budget <= 0)
      return x;
    if (auto m = memo.find(x); m != memo.end())
      return m->second;
    Term p, q;
    Term out = nullptr;
    // A candidate is a nest of one fold (+, max or min) with at least two lanes' values among
    // its leaves: a butterfly's rounds.
    int lanes = 0;
    bool isMax = false, top = check::extremumOf(x, p, q, isMax);
    bool scan = !top && scanRound(x); // (its leaves through its rounds' choices; a sum's as before)
    std::function<void(Term)> leaves = [&](Term y) {
      Term a, b;
      bool m = false;
      if (!top && y->kind == smt::Kind::Add) {
        for (Term k : y->kids)
          leaves(k);
      } else if (scan && scanRound(y)) {
        leaves(y->kids[1]); // (a scan's rounds, `if (lane >= d) v += u`)
        leaves(y->kids[2]);
      } else if (top && check::extremumOf(y, a, b, m) && m == isMax) {
        leaves(a);
        leaves(b);
      } else if (hasAppWithPrefix(y, "lanev.")) {
        ++lanes; // a lane's value, or one where the lane exists (ite(c, v, 0))
      }
    };
    if (x->sort == Sort::Real && (top || scan || x->kind == smt::Kind::Add) && (offerTop || x != r))
      leaves(x);
    if (lanes >= 2) {
      --budget;
      out = laneSum(x, ctx, reader);
    }
    if (!out) {
      out = tc_.withKids(x, walk);
    }
    memo[x] = out;
    return out;
  };
  return walk(r);
}

} // namespace ksynth::equiv::prove_detail
