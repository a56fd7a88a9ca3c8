// Integer division and remainder by constants, as linear definitions the solver shares.
#include "verify/smt/purify.h"

#include <algorithm>
#include <set>

namespace ksynth::smt {

namespace {

// k when t is `x div k` or `x mod k` with k a positive constant, else 0.
int128 constDivisor(TermContext &tc, Term t) {
  int128 k = 0;
  if ((t->kind == Kind::Div || t->kind == Kind::Mod) && tc.isConst(t->kids[1], &k) && k > 0)
    return k;
  return 0;
}

// t with nested divisions by constants taken apart (see purifyDivMod), bottom-up.
Term flattenNested(TermContext &tc, Term t) {
  std::unordered_map<Term, Term> memo;
  std::function<Term(Term)> go = [&](Term x) -> Term {
    if (x->kids.empty())
      return x;
    if (auto it = memo.find(x); it != memo.end())
      return it->second;
    Term r = tc.withKids(x, go);
    if (int128 b = constDivisor(tc, r)) {
      Term inner = r->kids[0];
      if (int128 a = constDivisor(tc, inner)) {
        Term xa = inner->kids[0];
        Term A = tc.intConst(a), B = tc.intConst(b), AB = tc.intConst(a * b);
        if (inner->kind == Kind::Div && r->kind == Kind::Div)
          r = go(tc.div(xa, AB)); // floor(floor(x / a) / b) = floor(x / (a b))
        else if (inner->kind == Kind::Div) // (x div a) mod b
          r = go(tc.sub(tc.div(xa, A), tc.mul(B, tc.div(xa, AB))));
        else if (r->kind == Kind::Div && a % b == 0) // (x mod a) div b
          r = go(tc.sub(tc.div(xa, B), tc.mul(tc.intConst(a / b), tc.div(xa, A))));
        // ((x mod a) mod b with b dividing a is x mod b already: TermContext::mod)
      }
    }
    memo[x] = r;
    return r;
  };
  return go(t);
}

} // namespace

Term purifyDivMod(TermContext &tc, Term t) {
  Term original = t;
  t = flattenNested(tc, t);
  // Something to share: a nested division (taken apart above) or a dividend with two divisors.
  bool share = t != original;
  if (!share) {
    std::map<Term, std::set<int128>, TermById> divisors;
    for (Term x : subterms(t))
      if (int128 k = constDivisor(tc, x)) {
        divisors[x->kids[0]].insert(k);
        share |= divisors[x->kids[0]].size() > 1;
      }
  }
  if (!share)
    return original;
  std::vector<Term> defs;
  // Innermost divisions first (their dividends hold no other), a level per round.
  for (int round = 0; round < 16; ++round) {
    std::map<Term, std::vector<int128>, TermById> divisors; // dividend -> divisors
    std::vector<Term> nodes;
    std::unordered_map<Term, bool> holds; // whether a division by a constant is at or under it
    postOrder(
        t, [&](Term x) { return !holds.count(x); },
        [&](Term x) {
          bool under = false;
          for (Term k : x->kids)
            under |= holds.at(k);
          int128 k = constDivisor(tc, x);
          holds[x] = under || k;
          if (!k || holds.at(x->kids[0]))
            return; // (not innermost: its dividend holds one)
          nodes.push_back(x);
          divisors[x->kids[0]].push_back(k);
        });
    if (nodes.empty())
      break;
    std::unordered_map<Term, Term> repl;
    for (auto &[x, ks] : divisors) {
      std::sort(ks.begin(), ks.end());
      ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
      std::map<int128, Term> quot; // divisor -> quotient variable
      int128 prevK = 0;
      Term prevQ = nullptr;
      for (int128 k : ks) {
        Term q = tc.fresh("divq", Sort::Int), r = tc.fresh("divr", Sort::Int);
        Term K = tc.intConst(k);
        if (prevQ && k % prevK == 0) { // prevQ = (k / prevK) q + r: one chain
          int128 step = k / prevK;
          defs.push_back(tc.eq(prevQ, tc.add(tc.mul(tc.intConst(step), q), r)));
          defs.push_back(tc.inRange(r, 0, step - 1));
        } else { // x = k q + r
          defs.push_back(tc.eq(x, tc.add(tc.mul(K, q), r)));
          defs.push_back(tc.inRange(r, 0, k - 1));
        }
        quot[k] = q;
        prevK = k;
        prevQ = q;
      }
      for (Term n : nodes) {
        if (n->kids[0] != x)
          continue;
        int128 k = constDivisor(tc, n);
        Term q = quot.at(k);
        repl[n] = n->kind == Kind::Div ? q : tc.sub(x, tc.mul(tc.intConst(k), q));
      }
    }
    t = tc.substitute(t, repl);
  }
  if (defs.empty())
    return t;
  defs.push_back(t);
  return tc.mkAnd(defs);
}

} // namespace ksynth::smt
