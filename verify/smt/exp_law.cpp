#include "verify/smt/exp_law.h"

#include <functional>
#include <map>
#include <unordered_map>
#include <utility>

namespace ksynth::smt {

namespace {

const int128 kBig = static_cast<int128>(1) << 60;

int128 gcdOf(int128 a, int128 b) {
  if (a < 0)
    a = -a;
  if (b < 0)
    b = -b;
  while (b) {
    int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// A rational num/den, den > 0, reduced; `ok` false once a value left the range kept exact.
struct Rat {
  int128 num = 0, den = 1;
};

bool reduce(Rat &r) {
  if (r.den < 0) {
    r.num = -r.num;
    r.den = -r.den;
  }
  int128 g = gcdOf(r.num, r.den);
  if (g > 1) {
    r.num /= g;
    r.den /= g;
  }
  if (r.num == 0)
    r.den = 1;
  return r.num < kBig && r.num > -kBig && r.den < kBig;
}

bool addTo(Rat &a, Rat b) {
  Rat s{a.num * b.den + b.num * a.den, a.den * b.den};
  if (!reduce(s))
    return false;
  a = s;
  return true;
}

bool times(Rat a, Rat b, Rat &out) {
  out = {a.num * b.num, a.den * b.den};
  return reduce(out);
}

// t * scale added into lin (by atom id) and c; false where a coefficient got too large.
bool linearInto(Term t, Rat scale, std::map<uint32_t, std::pair<Term, Rat>> &lin, Rat &c) {
  if (t->kind == Kind::Const) {
    Rat p;
    return times(scale, {t->num, t->den}, p) && addTo(c, p);
  }
  if (t->kind == Kind::Add) {
    for (Term k : t->kids)
      if (!linearInto(k, scale, lin, c))
        return false;
    return true;
  }
  if (t->kind == Kind::Mul && t->kids.size() == 2 && t->kids[0]->kind == Kind::Const) {
    Rat s2;
    return times(scale, {t->kids[0]->num, t->kids[0]->den}, s2) && linearInto(t->kids[1], s2, lin, c);
  }
  auto [it, fresh] = lin.try_emplace(t->id, t, Rat{0, 1});
  (void)fresh;
  return addTo(it->second.second, scale);
}

} // namespace

static bool hasExpFactor(Term x) {
  if (x->kind == Kind::Mul && x->sort == Sort::Real) {
    for (Term k : x->kids)
      if (hasExpFactor(k))
        return true;
    return false;
  }
  return x->kind == Kind::App && x->kids.size() == 1 && isExpFunction(x->name);
}

// t with each choice on c, ite(c, a, b), replaced by a (holds) or b: t where c's value is known.
Term decided(TermContext &tc, Term t, Term c, bool holds) {
  for (int round = 0; round < 8; ++round) {
    std::unordered_map<Term, Term> sub;
    for (Term y : subterms(t))
      if (y->kind == Kind::Ite && y->kids[0] == c)
        sub[y] = y->kids[holds ? 1 : 2];
    if (sub.empty())
      break;
    t = tc.substitute(t, sub);
  }
  return t;
}

static bool mentionsExp(Term x) {
  for (Term y : subterms(x))
    if (y->kind == Kind::App && y->kids.size() == 1 && isExpFunction(y->name))
      return true;
  return false;
}

bool isExpFunction(const std::string &name) {
  std::string n = name;
  if (n.rfind("fn.", 0) == 0)
    n = n.substr(3);
  if (n.rfind("std::", 0) == 0)
    n = n.substr(5);
  if (n.rfind("__", 0) == 0)
    n = n.substr(2);
  return n == "exp" || n == "expf";
}

Term realLinear(TermContext &tc, Term t) {
  if (t->sort != Sort::Real)
    return t;
  std::map<uint32_t, std::pair<Term, Rat>> lin;
  Rat c;
  if (!linearInto(t, {1, 1}, lin, c))
    return t;
  Term r = nullptr;
  for (auto &[id, tc2] : lin) {
    auto [atom, k] = tc2;
    if (k.num == 0)
      continue;
    Term term = k.num == 1 && k.den == 1 ? atom : tc.mul(tc.realConst(k.num, k.den), atom);
    r = r ? tc.add(r, term) : term;
  }
  Term cc = tc.realConst(c.num, c.den);
  if (!r)
    return cc;
  return c.num == 0 ? r : tc.add(r, cc);
}

Term linearExpArgs(TermContext &tc, Term t) {
  std::unordered_map<Term, Term> sub;
  for (Term x : subterms(t))
    if (x->kind == Kind::App && x->kids.size() == 1 && isExpFunction(x->name) && x->sort == Sort::Real)
      if (Term a = realLinear(tc, linearExpArgs(tc, x->kids[0])); a != x->kids[0])
        sub[x] = a == tc.realConst(0) ? tc.realConst(1) : tc.app(x->name, Sort::Real, {a});
  return sub.empty() ? t : tc.substitute(t, sub);
}

Term combineExps(TermContext &tc, Term t) {
  std::unordered_map<Term, Term> memo;
  auto isExp = [](Term f) { return f->kind == Kind::App && f->kids.size() == 1 && isExpFunction(f->name); };
  auto summands = [](Term y) {
    std::vector<Term> out;
    std::function<void(Term)> walk = [&](Term z) {
      if (z->kind == Kind::Add && z->sort == Sort::Real) {
        for (Term k : z->kids)
          walk(k);
      } else {
        out.push_back(z);
      }
    };
    walk(y);
    return out;
  };
  std::function<Term(Term)> go = [&](Term x) -> Term {
    if (x->kids.empty())
      return x;
    if (auto m = memo.find(x); m != memo.end())
      return m->second;
    Term out = nullptr;
    if (x->kind == Kind::Mul && x->sort == Sort::Real && hasExpFactor(x)) {
      std::vector<Term> factors;
      std::function<void(Term)> flat = [&](Term y) {
        if (y->kind == Kind::Mul && y->sort == Sort::Real) {
          for (Term k : y->kids)
            flat(k);
        } else {
          factors.push_back(go(y));
        }
      };
      flat(x);
      // The product of the factors but the i-th, and whether one of them is an exponential.
      auto except = [&](size_t i) {
        Term others = tc.realConst(1);
        bool outer = false;
        for (size_t j = 0; j < factors.size(); ++j)
          if (j != i) {
            outer |= hasExpFactor(factors[j]);
            others = tc.mul(others, factors[j]);
          }
        return std::pair{others, outer};
      };
      // A sum some of whose terms hold an exponential, times an exponential: distributed, so
      // that the exponentials meet ((d1 exp(a) + d2 exp(b)) exp(c), a merge of running sums).
      for (size_t i = 0; i < factors.size() && !out; ++i) {
        Term fi = factors[i];
        if (fi->kind == Kind::Ite && fi->sort == Sort::Real) {
          // A choice (a lane's value where its source lane exists, its own otherwise; a padding
          // lane's 0): the product taken in each case, where a case holds an exponential or
          // the other factors choose on the same condition (decided in each case).
          auto [others, outer] = except(i);
          if (outer && (mentionsExp(fi->kids[1]) || mentionsExp(fi->kids[2]) ||
                        decided(tc, others, fi->kids[0], true) != others)) {
            Term c = fi->kids[0];
            out = tc.ite(c, go(decided(tc, tc.mul(fi->kids[1], others), c, true)),
                         go(decided(tc, tc.mul(fi->kids[2], others), c, false)));
          }
          continue;
        }
        if (fi->kind != Kind::Add || fi->sort != Sort::Real)
          continue;
        std::vector<Term> terms = summands(factors[i]);
        bool inner = false;
        for (Term s : terms)
          inner |= hasExpFactor(s);
        auto [others, outer] = except(i);
        if (!inner || !outer)
          continue;
        for (Term s : terms) {
          Term p = go(tc.mul(s, others));
          out = out ? tc.add(out, p) : p;
        }
      }
      if (!out) {
        // The exponentials, their arguments summed, where there are two or more. (expf, __expf
        // and exp are one function here; the spec's name, "fn.exp", is kept where one has it.)
        std::vector<Term> args, rest;
        std::string name;
        for (Term f : factors) {
          if (isExp(f)) {
            args.push_back(f->kids[0]);
            if (name.empty() || f->name == "fn.exp")
              name = f->name;
          } else {
            rest.push_back(f);
          }
        }
        if (args.size() >= 2) {
          Term sum = args[0];
          for (size_t i = 1; i < args.size(); ++i)
            sum = tc.add(sum, args[i]);
          Term a = realLinear(tc, sum);
          if (a != tc.realConst(0))
            rest.push_back(tc.app(name, Sort::Real, {a}));
          out = tc.realConst(1);
          for (Term f : rest)
            out = tc.mul(out, f);
        }
      }
    }
    if (!out) {
      out = tc.withKids(x, go);
    }
    memo[x] = out;
    return out;
  };
  return go(t);
}

} // namespace ksynth::smt
