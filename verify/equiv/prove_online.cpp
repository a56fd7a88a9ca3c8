// Equivalence proofs: running sums kept relative to a running max (an online softmax).
//
// A lane's loop keeps d = sum of exp(x - m) for its running max m (symexec's Rescaled sums:
// lsum(n, ..., m_n), its terms exp(x_j - P) at P = m_n), and a butterfly merges two lanes'
// pairs: m' = max(m, m_o), d' = d exp(m - m') + d_o exp(m_o - m'). With the exchanges resolved,
// the exponential's law (verify/smt/exp_law.h) makes every intermediate max cancel: the merged
// value is the sum over the lanes of lanev.d(c) exp(lanev.m(c) - M), M the max over the lanes'
// m. laneSum then reads it as a sum over lanes whose term is lanev.d times a cofactor (one
// function of the cell), and each lane's loop sum, times exp(m_n - M), is the same loop sum
// taken at M (rebaseSums): sum_j exp(x_j - m_n) exp(m_n - M) = sum_j exp(x_j - M).
#include "verify/equiv/prover.h"
#include "verify/smt/exp_law.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>

namespace ksynth::equiv::prove_detail {

namespace {

// The operands of t's nest of real k nodes (Mul: its factors, Add: its terms).
std::vector<Term> flattenOf(Term t, smt::Kind k) {
  std::vector<Term> out;
  std::function<void(Term)> walk = [&](Term x) {
    if (x->kind == k && x->sort == Sort::Real) {
      for (Term c : x->kids)
        walk(c);
    } else {
      out.push_back(x);
    }
  };
  walk(t);
  return out;
}
std::vector<Term> factorsOf(Term t) { return flattenOf(t, smt::Kind::Mul); }
std::vector<Term> summandsOf(Term t) { return flattenOf(t, smt::Kind::Add); }

} // namespace

// r (exchanges resolved) in the online form described above, or r itself where no
// exponentials combine in it. The reader's own stored values are named as its lane's
// (lanev.b(L), once shown equal to what its lane stores, as laneSum does for one store), so
// that its terms and the other lanes' have one form; then the exponentials are combined and
// each max over the lanes' stored values is named as its lane fold.
Term Prover::onlineForm(Term r, Term ctx, const std::unordered_map<Term, Term> *reader) {
  if (smt::combineExps(tc_, r) == r)
    return r;
  Term v = reader ? r : asWriterSums(r);
  std::vector<const ir::Stmt *> stores = check::exchangeStores(k_);
  std::array<Term, 3> tid = w1_.tid;
  if (reader)
    for (int d = 0; d < 3; ++d)
      tid[d] = reader->at(w3_.tid[d]);
  Term L = tc_.add(tid[0], tc_.mul(g_.blockDim[0], tc_.add(tid[1], tc_.mul(g_.blockDim[1], tid[2]))));
  std::unordered_map<Term, Term> own;
  for (size_t b = 0; b < stores.size(); ++b) {
    const check::AccessSite *S = storeSite(m3_, stores[b]), *S1 = storeSite(m1_, stores[b]);
    if (!S || !S1 || !S->value || !S1->value || !S->iters.empty() || S->value->sort != Sort::Real ||
        hasAppWithPrefix(S->value, "wx."))
      continue;
    // (another thread's value is its copy's by definition; w1's is shown to be its lane's)
    Term mine = reader ? tc_.substitute(S->value, *reader) : asWriterSums(S1->value);
    if (mine->kind == smt::Kind::Const || !tc_.mentions(v, mine))
      continue;
    if (!reader) {
      Step st(*this, "the reader's own value in the exchange at line " + std::to_string(S->stmt->loc.line) +
                         " is the one its lane stores there",
              lineOf(*S));
      if (!unsat(tc_.mkAnd(ctx, tc_.ne(mine, tc_.substitute(S->value, laneThread(L))))))
        continue;
    }
    own[mine] = tc_.app("lanev." + std::to_string(b), mine->sort, {L});
  }
  v = nameLaneExtrema(own.empty() ? v : tc_.substitute(v, own), ctx, reader);
  Term c = smt::combineExps(tc_, v);
  if (getenv("KSYNTH_DEBUG_EQ"))
    fprintf(stderr, "online form: %s\n", smt::show(c, getenv("KSYNTH_DEBUG_ONLINE") ? SIZE_MAX : 800).c_str());
  return c;
}

// t with the max (min) nests that hold the most lanes' stored values (lanev) named as their lane
// fold where laneSum shows they are one: a butterfly's last round, every lane's final max. The
// earlier rounds' maxima, nested in it and in the running sums, are left: they cancel once the
// exponentials are combined, and asking laneSum about each would cost solver time for nothing.
Term Prover::nameLaneExtrema(Term t, Term ctx, const std::unordered_map<Term, Term> *reader) {
  std::map<Term, size_t, smt::TermById> width; // nest -> how many lanes' values it holds
  size_t most = 2;
  for (Term x : smt::subterms(t)) {
    Term p, q;
    bool isMax = false;
    if (!check::extremumOf(x, p, q, isMax))
      continue;
    std::vector<Term> apps = appsWithPrefix(x, "lanev.");
    width[x] = apps.size();
    most = std::max(most, apps.size());
  }
  std::unordered_map<Term, Term> sub;
  for (auto &[x, n] : width) {
    if (n < most)
      continue;
    // (a nest inside another of the same width is its operand: the outer one is offered)
    bool inner = false;
    for (auto &[y, m] : width)
      inner |= y != x && m == n && tc_.mentions(y, x);
    if (inner)
      continue;
    if (Term s = laneSum(x, ctx, reader))
      sub[x] = s;
  }
  return sub.empty() ? t : tc_.substitute(t, sub);
}

// The cofactor G of the reader's own term lanev(L) * G(L) of the sum v, with L as z (its own
// values at L become lanev.b(z); it may hold terms of no lane, such as the lane fold M);
// nullptr where v has no such term or G holds another lane's value. Only a guess: laneSum shows
// that every term of v is lanev(c) * G(c) for the lanes c of the segment (terms compared with
// their exponents in linear form, cofactorAt). Other lanes' terms may still be guarded by whether
// their source lane exists, which folds once the reader's lane is a constant.
Term Prover::laneCofactor(Term v, const std::string &lanev, Term z, Term L) {
  for (Term x : summandsOf(v)) {
    std::vector<Term> fs = factorsOf(x);
    bool mine = false;
    Term F = tc_.realConst(1);
    for (Term f : fs) {
      if (!mine && f->kind == smt::Kind::App && f->name == lanev && f->kids.size() == 1 && f->kids[0] == L)
        mine = true;
      else
        F = tc_.mul(F, f);
    }
    if (!mine)
      continue;
    std::unordered_map<Term, Term> sub;
    for (Term a : appsWithPrefix(F, "lanev."))
      if (a->kids.size() == 1 && a->kids[0] == L)
        sub[a] = tc_.app(a->name, a->sort, {z});
    Term G = smt::linearExpArgs(tc_, tc_.substitute(F, sub));
    for (Term a : appsWithPrefix(G, "lanev."))
      if (a->kids.size() != 1 || a->kids[0] != z)
        return nullptr; // another lane's value: not a function of this cell alone
    return G; // (it may name the reader's coordinates, as the lane fold M does)
  }
  return nullptr;
}

// G (laneCofactor) at a cell: with `values`, its lane values are what the owner of the cell
// stored (a fold's body); otherwise named as laneValue names them.
Term Prover::cofactorAt(Term G, Term z, Term cell, bool values) {
  Term g = tc_.substitute(G, {{z, cell}});
  std::vector<const ir::Stmt *> stores = check::exchangeStores(k_);
  std::unordered_map<Term, Term> sub;
  for (Term a : appsWithPrefix(g, "lanev.")) {
    size_t b = std::strtoul(a->name.c_str() + 6, nullptr, 10);
    const check::AccessSite *B = b < stores.size() ? storeSite(m3_, stores[b]) : nullptr;
    if (!B || !B->value || a->kids.size() != 1)
      return nullptr;
    Term value = tc_.substitute(B->value, laneThread(a->kids[0]));
    if (namesWriter(value))
      return nullptr; // not a function of the cell (laneValue's condition, as laneSum checks for its store)
    sub[a] = values ? value : laneValue(b, *B, a->kids[0]);
  }
  return smt::linearExpArgs(tc_, sub.empty() ? g : tc_.substitute(g, sub));
}

// t with each product of a loop sum l(n, ..., A, ...) and exp(A - Q) (the exponential of the
// sum's own definition, E) replaced by l(n, ..., Q, ...) where the sum's term, at any P and Q,
// times exp(P - Q) is its term at Q (it holds P only as exp(x - P)): then the product is the sum
// of those terms, exp(A - Q) being free of the sum's index. Where no parameter is A, E is
// multiplied into the sum's terms (a sum lsum.push.N) when that rebases a sum inside them.
Term Prover::rebaseSums(Term t) {
  std::unordered_map<Term, Term> memo;
  std::function<Term(Term)> walk = [&](Term x) -> Term {
    if (x->kids.empty())
      return x;
    if (auto m = memo.find(x); m != memo.end())
      return m->second;
    Term out = nullptr;
    if (x->kind == smt::Kind::Mul && x->sort == Sort::Real) {
      std::vector<Term> fs = factorsOf(x);
      for (Term &f : fs)
        f = walk(f);
      bool changed = true;
      while (changed) {
        changed = false;
        for (size_t i = 0; i < fs.size() && !changed; ++i) {
          Term l = fs[i];
          const check::SumDef *d = l->kind == smt::Kind::App && l->name.rfind("lsum.", 0) == 0 ? kernelSum(l->name)
                                                                                              : nullptr;
          if (!d || d->key || l->kids.size() != d->params.size() + 1)
            continue;
          for (size_t e = 0; e < fs.size() && !changed; ++e) {
            Term E = fs[e];
            if (e == i || E->kind != smt::Kind::App || E->kids.size() != 1 || !smt::isExpFunction(E->name))
              continue;
            for (size_t p = 0; p < d->params.size() && !changed; ++p) {
              Term A = l->kids[p + 1], P = d->params[p];
              if (A->sort != Sort::Real || P->kind != smt::Kind::Var)
                continue;
              Term Q = smt::realLinear(tc_, tc_.sub(A, E->kids[0])); // exp(A - Q) is E
              if (tc_.mentions(Q, A))
                continue;
              // (the factor named as the body's exponential is: one function, several names)
              std::string name = E->name;
              for (Term y : smt::subterms(d->body))
                if (y->kind == smt::Kind::App && y->kids.size() == 1 && smt::isExpFunction(y->name))
                  name = y->name;
              Term q = tc_.fresh("rebase.q", Sort::Real);
              Term shifted = smt::linearExpArgs(
                  tc_, smt::combineExps(tc_, tc_.mul(d->body, tc_.app(name, Sort::Real, {tc_.sub(P, q)}))));
              Term atQ = smt::linearExpArgs(tc_, tc_.substitute(d->body, {{P, q}}));
              if (shifted != atQ)
                continue;
              std::vector<Term> args = l->kids;
              args[p + 1] = Q;
              fs[i] = tc_.app(l->name, l->sort, args);
              fs.erase(fs.begin() + static_cast<long>(e));
              changed = true;
            }
            if (changed || tc_.mentions(E, d->iter))
              continue;
            // Otherwise E goes into the sum's terms (a constant factor of every term), where
            // it may rebase a sum inside: a lane fold of loop sums, each at its lane's max.
            std::unordered_map<Term, Term> inst;
            for (size_t p = 0; p < d->params.size(); ++p)
              inst[d->params[p]] = l->kids[p + 1];
            Term plain = smt::combineExps(tc_, tc_.mul(tc_.substitute(d->body, inst), E));
            Term pushed = rebaseSums(plain);
            if (getenv("KSYNTH_DEBUG_EQ"))
              fprintf(stderr, "rebase: into %s: %s\n  -> %s\n", l->name.c_str(), smt::show(plain, 600).c_str(),
                      smt::show(pushed, 300).c_str());
            if (pushed == plain)
              continue;
            std::string name = "lsum.push." + std::to_string(treeSums_.size());
            treeSums_[name] = check::SumDef{d->iter, pushed, {}};
            fs[i] = tc_.app(name, Sort::Real, {l->kids[0]});
            fs.erase(fs.begin() + static_cast<long>(e));
            changed = true;
          }
        }
      }
      out = tc_.realConst(1);
      for (Term f : fs)
        out = tc_.mul(out, f);
    } else {
      out = tc_.withKids(x, walk);
    }
    memo[x] = out;
    return out;
  };
  return walk(t);
}

} // namespace ksynth::equiv::prove_detail
