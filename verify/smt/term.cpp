#include "verify/smt/term.h"

#include "util/int128.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_set>

namespace ksynth::smt {

static const int128 kInf = TermContext::kUnbounded;

std::string toString(int128 v) { return util::int128Text(v); }

static int128 gcd(int128 a, int128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static bool fits(int128 v) { return v < kInf && v > -kInf; }

TermContext::TermContext() = default;

size_t TermContext::ContentHash::operator()(const Node *n) const {
  auto mix = [](size_t h, uint64_t x) { return (h ^ x) * 0x100000001B3ull + (h >> 29); };
  size_t h = mix(static_cast<size_t>(n->kind) * 31 + static_cast<size_t>(n->sort), static_cast<uint64_t>(n->num));
  h = mix(h, static_cast<uint64_t>(static_cast<unsigned __int128>(n->num) >> 64));
  h = mix(h, static_cast<uint64_t>(n->den));
  h = mix(h, static_cast<uint64_t>(static_cast<unsigned __int128>(n->den) >> 64));
  if (!n->name.empty())
    h = mix(h, std::hash<std::string>()(n->name));
  for (Term k : n->kids)
    h = mix(h, k->id);
  return h;
}

bool TermContext::ContentEq::operator()(const Node *a, const Node *b) const {
  return a->kind == b->kind && a->sort == b->sort && a->num == b->num && a->den == b->den && a->kids == b->kids &&
         a->name == b->name;
}

Term TermContext::intern(Node n) {
  if (auto it = table_.find(&n); it != table_.end())
    return *it;
  auto owned = std::make_unique<Node>(std::move(n));
  owned->id = static_cast<uint32_t>(nodes_.size());
  Term t = owned.get();
  nodes_.push_back(std::move(owned));
  table_.insert(t);
  return t;
}

Term TermContext::intConst(int128 v) {
  Node n{Kind::Const, Sort::Int};
  n.num = v;
  return intern(std::move(n));
}

Term TermContext::realConst(int128 num, int128 den) {
  assert(den != 0);
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int128 g = gcd(num, den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
  Node n{Kind::Const, Sort::Real};
  n.num = num;
  n.den = den;
  return intern(std::move(n));
}

Term TermContext::boolConst(bool b) {
  Node n{Kind::Const, Sort::Bool};
  n.num = b ? 1 : 0;
  return intern(std::move(n));
}

Term TermContext::var(const std::string &name, Sort s) {
  Node n{Kind::Var, s};
  n.name = name;
  return intern(std::move(n));
}

Term TermContext::fresh(const std::string &prefix, Sort s) {
  unsigned &c = freshCount_[prefix];
  for (;;) {
    Node probe{Kind::Var, s};
    probe.name = prefix + "!" + std::to_string(c++);
    if (!table_.count(&probe))
      return var(probe.name, s);
  }
}

Term TermContext::app(const std::string &fn, Sort result, std::vector<Term> args) {
  Node n{Kind::App, result};
  n.name = fn;
  n.kids = std::move(args);
  return intern(std::move(n));
}

bool TermContext::isConst(Term t, int128 *v) const {
  if (t->kind != Kind::Const || t->sort == Sort::Real)
    return false;
  if (v)
    *v = t->num;
  return true;
}

// ---- linear normal form ----------------------------------------------------------------

void TermContext::linear(Term t, int128 scale, std::map<uint32_t, std::pair<Term, int128>> &lin,
                         int128 &c) {
  if (t->kind == Kind::Const) {
    c += scale * t->num;
    return;
  }
  if (t->kind == Kind::Add) {
    for (Term k : t->kids)
      linear(k, scale, lin, c);
    return;
  }
  if (t->kind == Kind::Mul && t->kids.size() == 2 && t->kids[0]->kind == Kind::Const) {
    linear(t->kids[1], scale * t->kids[0]->num, lin, c);
    return;
  }
  auto &slot = lin[t->id];
  slot.first = t;
  slot.second += scale;
}

Term TermContext::mkAddFromLinear(std::map<uint32_t, std::pair<Term, int128>> &lin, int128 c) {
  std::vector<Term> kids;
  for (auto &[id, tc] : lin) {
    if (tc.second == 0)
      continue;
    if (tc.second == 1) {
      kids.push_back(tc.first);
    } else {
      Node m{Kind::Mul, Sort::Int};
      m.kids = {intConst(tc.second), tc.first};
      kids.push_back(intern(std::move(m)));
    }
  }
  if (c != 0 || kids.empty())
    kids.push_back(intConst(c));
  if (kids.size() == 1)
    return kids[0];
  Node n{Kind::Add, Sort::Int};
  n.kids = std::move(kids);
  return intern(std::move(n));
}

static bool linearSafe(Term t) {
  // Coefficients stay far from the 128-bit limit for any index arithmetic; refuse to fold
  // terms that carry huge constants so folding never wraps.
  if (t->kind == Kind::Const)
    return fits(t->num);
  return true;
}

Term TermContext::add(Term a, Term b) {
  assert(a->sort == b->sort);
  if (a->sort == Sort::Real) {
    if (a->kind == Kind::Const && b->kind == Kind::Const && fits(a->num) && fits(b->num) &&
        a->den < (1 << 30) && b->den < (1 << 30))
      return realConst(a->num * b->den + b->num * a->den, a->den * b->den);
    if (a->kind == Kind::Const && a->num == 0)
      return b;
    if (b->kind == Kind::Const && b->num == 0)
      return a;
    Node n{Kind::Add, Sort::Real};
    n.kids = {a, b};
    return intern(std::move(n));
  }
  if (!linearSafe(a) || !linearSafe(b)) {
    Node n{Kind::Add, Sort::Int};
    n.kids = {a, b};
    return intern(std::move(n));
  }
  std::map<uint32_t, std::pair<Term, int128>> lin;
  int128 c = 0;
  linear(a, 1, lin, c);
  linear(b, 1, lin, c);
  recombine(lin, c);
  return mkAddFromLinear(lin, c);
}

// k (x mod m) + k m (x div m) is k x (m a positive constant: x = m (x div m) + x mod m for
// every integer x), applied until no such pair is left. A lane computed from a cell and the
// cell from a lane (a butterfly's rounds) otherwise nest a mod and a div per round.
void TermContext::recombine(std::map<uint32_t, std::pair<Term, int128>> &lin, int128 &c) {
  for (int round = 0; round < 16; ++round) {
    bool changed = false;
    for (auto &[id, slot] : lin) {
      Term md = slot.first;
      int128 m = 0, k = slot.second;
      if (k == 0 || md->kind != Kind::Mod || !isConst(md->kids[1], &m) || m <= 0)
        continue;
      Node dn{Kind::Div, Sort::Int};
      dn.kids = {md->kids[0], md->kids[1]};
      auto it = lin.find(intern(std::move(dn))->id);
      if (it == lin.end() || it->second.second != k * m)
        continue;
      it->second.second = 0;
      slot.second = 0;
      linear(md->kids[0], k, lin, c);
      changed = true;
      break; // lin changed under the loop
    }
    if (!changed)
      return;
  }
}

Term TermContext::neg(Term a) {
  if (a->sort == Sort::Real)
    return mul(realConst(-1), a);
  return mul(intConst(-1), a);
}

Term TermContext::sub(Term a, Term b) { return add(a, neg(b)); }

Term TermContext::mul(Term a, Term b) {
  assert(a->sort == b->sort);
  if (b->kind == Kind::Const && a->kind != Kind::Const)
    std::swap(a, b);
  if (a->sort == Sort::Real) {
    if (a->kind == Kind::Const) {
      if (a->num == 0)
        return a;
      if (a->num == 1 && a->den == 1)
        return b;
      if (b->kind == Kind::Const && fits(a->num) && fits(b->num) && a->den < (1 << 30) &&
          b->den < (1 << 30))
        return realConst(a->num * b->num, a->den * b->den);
    }
    Node n{Kind::Mul, Sort::Real};
    n.kids = {a, b};
    return intern(std::move(n));
  }
  if (a->kind == Kind::Const) {
    if (a->num == 0)
      return a;
    if (a->num == 1)
      return b;
    if (b->kind == Kind::Const && fits(a->num) && fits(b->num) &&
        (a->num < ((int128)1 << 62) && a->num > -((int128)1 << 62)) &&
        (b->num < ((int128)1 << 62) && b->num > -((int128)1 << 62)))
      return intConst(a->num * b->num);
    if (fits(a->num) && a->num < ((int128)1 << 64) && a->num > -((int128)1 << 64)) {
      std::map<uint32_t, std::pair<Term, int128>> lin;
      int128 c = 0;
      linear(b, a->num, lin, c);
      return mkAddFromLinear(lin, c);
    }
  }
  if (a->id > b->id)
    std::swap(a, b);
  Node n{Kind::Mul, Sort::Int};
  n.kids = {a, b};
  return intern(std::move(n));
}

// For a positive constant y and a linear a = y*q + r with 0 <= r < y by the known ranges:
// q (and r), the Euclidean quotient and remainder. False when r's range does not show it.
bool TermContext::splitByConst(Term a, int128 y, Term &q, Term &r) {
  if (y <= 1 || a->sort != Sort::Int || a->kind == Kind::Const || !linearSafe(a))
    return false;
  std::map<uint32_t, std::pair<Term, int128>> lin, ql, rl;
  int128 c = 0;
  linear(a, 1, lin, c);
  for (auto &[id, tk] : lin) {
    if (tk.second % y == 0)
      ql[id] = {tk.first, tk.second / y};
    else
      rl[id] = tk;
  }
  int128 qc = c / y, rc = c % y;
  if (rc < 0) {
    rc += y;
    qc -= 1;
  }
  Term rt = mkAddFromLinear(rl, rc);
  auto [lo, hi] = range(rt);
  if (lo < 0 || hi >= y)
    return false;
  q = mkAddFromLinear(ql, qc);
  r = rt;
  return true;
}

Term TermContext::div(Term a, Term b) {
  int128 x, y;
  if (isConst(b, &y)) {
    if (y == 1)
      return a;
    Term q, r;
    if (splitByConst(a, y, q, r))
      return q;
    if (isConst(a, &x) && y != 0) {
      int128 q = x / y, r = x % y;
      if (r < 0)
        q += (y > 0 ? -1 : 1);
      return intConst(q);
    }
  }
  Node n{Kind::Div, Sort::Int};
  n.kids = {a, b};
  return intern(std::move(n));
}

Term TermContext::mod(Term a, Term b) {
  int128 x, y;
  if (isConst(b, &y)) {
    if (y == 1 || y == -1)
      return intConst(0);
    // (x mod m) mod y is x mod y where y divides m (both positive).
    int128 m = 0;
    if (y > 0 && a->kind == Kind::Mod && isConst(a->kids[1], &m) && m > 0 && m % y == 0)
      return mod(a->kids[0], b);
    Term q, r;
    if (splitByConst(a, y, q, r))
      return r;
    if (isConst(a, &x) && y != 0) {
      int128 r = x % y;
      if (r < 0)
        r += (y > 0 ? y : -y);
      return intConst(r);
    }
  }
  Node n{Kind::Mod, Sort::Int};
  n.kids = {a, b};
  return intern(std::move(n));
}

Term TermContext::realDiv(Term a, Term b) {
  if (b->kind == Kind::Const && b->num != 0 && a->kind == Kind::Const && fits(a->num) &&
      fits(b->num) && a->den < (1 << 30) && b->num < (1 << 30) && b->num > -(1 << 30))
    return realConst(a->num * b->den, a->den * b->num);
  Node n{Kind::RealDiv, Sort::Real};
  n.kids = {a, b};
  return intern(std::move(n));
}

Term TermContext::toReal(Term a) {
  if (a->sort == Sort::Real)
    return a;
  if (a->kind == Kind::Const)
    return realConst(a->num, 1);
  Node n{Kind::ToReal, Sort::Real};
  n.kids = {a};
  return intern(std::move(n));
}

Term TermContext::ite(Term c, Term a, Term b) {
  assert(c->sort == Sort::Bool && a->sort == b->sort);
  if (c->kind == Kind::Const)
    return c->num ? a : b;
  if (a == b)
    return a;
  if (a->sort == Sort::Bool) {
    if (a->kind == Kind::Const && b->kind == Kind::Const)
      return a->num ? c : mkNot(c);
    if (a->kind == Kind::Const)
      return a->num ? mkOr(c, b) : mkAnd(mkNot(c), b);
    if (b->kind == Kind::Const)
      return b->num ? mkOr(mkNot(c), a) : mkAnd(c, a);
  }
  if (c->kind == Kind::Not)
    return ite(c->kids[0], b, a);
  Node n{Kind::Ite, a->sort};
  n.kids = {c, a, b};
  return intern(std::move(n));
}

Term TermContext::eq(Term a, Term b) {
  // An Int compared with a Real is promoted (a spec's Int count against a kernel's float one).
  if (a->sort == Sort::Int && b->sort == Sort::Real)
    a = toReal(a);
  else if (a->sort == Sort::Real && b->sort == Sort::Int)
    b = toReal(b);
  assert(a->sort == b->sort);
  if (a == b)
    return tru();
  if (a->kind == Kind::Const && b->kind == Kind::Const)
    return boolConst(a->num == b->num && a->den == b->den);
  if (a->sort == Sort::Bool) {
    if (a->kind == Kind::Const)
      return a->num ? b : mkNot(b);
    if (b->kind == Kind::Const)
      return b->num ? a : mkNot(a);
  }
  if (a->sort == Sort::Int) {
    // Normalise to (a - b) = 0 style only when it exposes a constant difference.
    Term d = sub(a, b);
    int128 v;
    if (isConst(d, &v))
      return boolConst(v == 0);
    // A constant against a sum with a constant term: the term moved over (1 = 8 j + 1 is
    // 0 = 8 j), so that one comparison has one form wherever it is made.
    if ((a->kind == Kind::Const) != (b->kind == Kind::Const)) {
      Term s = a->kind == Kind::Const ? b : a;
      std::map<uint32_t, std::pair<Term, int128>> lin;
      int128 c = 0;
      if (s->kind == Kind::Add && (linear(s, 1, lin, c), c != 0))
        return eq(sub(a, intConst(c)), sub(b, intConst(c)));
    }
  }
  if (a->id > b->id)
    std::swap(a, b);
  Node n{Kind::Eq, Sort::Bool};
  n.kids = {a, b};
  return intern(std::move(n));
}

Term TermContext::le(Term a, Term b) {
  if (a->kind == Kind::Const && b->kind == Kind::Const)
    return boolConst(a->num * b->den <= b->num * a->den);
  if (a == b) // (terms are integers or reals: no NaN)
    return tru();
  if (a->sort == Sort::Int) {
    Term d = sub(b, a);
    int128 v;
    if (isConst(d, &v))
      return boolConst(v >= 0);
    auto [lo, hi] = range(d);
    if (lo >= 0)
      return tru();
    if (hi < 0)
      return fls();
  }
  Node n{Kind::Le, Sort::Bool};
  n.kids = {a, b};
  return intern(std::move(n));
}

Term TermContext::lt(Term a, Term b) {
  if (a->kind == Kind::Const && b->kind == Kind::Const)
    return boolConst(a->num * b->den < b->num * a->den);
  if (a == b)
    return fls();
  if (a->sort == Sort::Int)
    return le(add(a, intConst(1)), b);
  Node n{Kind::Lt, Sort::Bool};
  n.kids = {a, b};
  return intern(std::move(n));
}

Term TermContext::mkNot(Term a) {
  if (a->kind == Kind::Const)
    return boolConst(!a->num);
  if (a->kind == Kind::Not)
    return a->kids[0];
  Node n{Kind::Not, Sort::Bool};
  n.kids = {a};
  return intern(std::move(n));
}

Term TermContext::mkAnd(const std::vector<Term> &ts) {
  std::vector<Term> kids;
  std::unordered_set<Term> seen;
  std::function<void(Term)> addKid = [&](Term t) {
    if (t->kind == Kind::And) {
      for (Term k : t->kids)
        addKid(k);
      return;
    }
    if (seen.insert(t).second)
      kids.push_back(t);
  };
  for (Term t : ts) {
    if (t->kind == Kind::Const) {
      if (!t->num)
        return fls();
      continue;
    }
    addKid(t);
  }
  for (Term k : kids)
    if (k->kind == Kind::Not && seen.count(k->kids[0]))
      return fls();
  if (kids.empty())
    return tru();
  if (kids.size() == 1)
    return kids[0];
  Node n{Kind::And, Sort::Bool};
  n.kids = std::move(kids);
  return intern(std::move(n));
}

Term TermContext::mkOr(const std::vector<Term> &ts) {
  std::vector<Term> kids;
  std::unordered_set<Term> seen;
  std::function<void(Term)> addKid = [&](Term t) {
    if (t->kind == Kind::Or) {
      for (Term k : t->kids)
        addKid(k);
      return;
    }
    if (seen.insert(t).second)
      kids.push_back(t);
  };
  for (Term t : ts) {
    if (t->kind == Kind::Const) {
      if (t->num)
        return tru();
      continue;
    }
    addKid(t);
  }
  for (Term k : kids)
    if (k->kind == Kind::Not && seen.count(k->kids[0]))
      return tru();
  if (kids.empty())
    return fls();
  if (kids.size() == 1)
    return kids[0];
  Node n{Kind::Or, Sort::Bool};
  n.kids = std::move(kids);
  return intern(std::move(n));
}

Term TermContext::mkAnd(Term a, Term b) { return mkAnd(std::vector<Term>{a, b}); }
Term TermContext::mkOr(Term a, Term b) { return mkOr(std::vector<Term>{a, b}); }

// ---- intervals --------------------------------------------------------------------------

void TermContext::setBounds(Term v, int128 lo, int128 hi) {
  bounds_[v] = {lo, hi};
  rangeMemo_.clear();
}

std::vector<Term> TermContext::boundFacts() {
  std::vector<std::pair<uint32_t, Term>> order;
  for (auto &[v, b] : bounds_) {
    Node lo{Kind::Le, Sort::Bool};
    lo.kids = {intConst(b.first), v};
    Node hi{Kind::Le, Sort::Bool};
    hi.kids = {v, intConst(b.second)};
    if (b.first <= -kInf || b.second >= kInf) { // one side only (none: nothing to state)
      if (b.first > -kInf)
        order.push_back({v->id, intern(std::move(lo))});
      else if (b.second < kInf)
        order.push_back({v->id, intern(std::move(hi))});
      continue;
    }
    Node both{Kind::And, Sort::Bool};
    both.kids = {intern(std::move(lo)), intern(std::move(hi))};
    order.push_back({v->id, intern(std::move(both))});
  }
  // Bounds of compound terms too: a precondition they come from may itself fold to true once
  // they are known (`B * N <= 2^31 - 1` built again), so the queries must state them.
  for (auto &[t, b] : termBounds_) {
    std::vector<Term> sides;
    if (b.first > -kInf) {
      Node lo{Kind::Le, Sort::Bool};
      lo.kids = {intConst(b.first), t};
      sides.push_back(intern(std::move(lo)));
    }
    if (b.second < kInf) {
      Node hi{Kind::Le, Sort::Bool};
      hi.kids = {t, intConst(b.second)};
      sides.push_back(intern(std::move(hi)));
    }
    if (sides.size() == 1) {
      order.push_back({t->id, sides[0]});
    } else if (sides.size() == 2) {
      Node both{Kind::And, Sort::Bool};
      both.kids = sides;
      order.push_back({t->id, intern(std::move(both))});
    }
  }
  std::sort(order.begin(), order.end(), [](auto &a, auto &b) { return a.first < b.first; });
  std::vector<Term> out;
  for (auto &[id, t] : order)
    out.push_back(t);
  return out;
}

static int128 clampInf(int128 v) { return v > kInf ? kInf : v < -kInf ? -kInf : v; }

static int128 satMul(int128 a, int128 b) {
  if (a == 0 || b == 0)
    return 0;
  if (a >= kInf || a <= -kInf || b >= kInf || b <= -kInf)
    return ((a > 0) == (b > 0)) ? kInf : -kInf;
  // |a|,|b| < 2^100: the product may exceed 128 bits; check via division.
  int128 lim = kInf;
  int128 aa = a < 0 ? -a : a, bb = b < 0 ? -b : b;
  if (aa > lim / bb)
    return ((a > 0) == (b > 0)) ? kInf : -kInf;
  return a * b;
}

std::pair<int128, int128> TermContext::range(Term t) {
  if (t->sort != Sort::Int)
    return {-kInf, kInf};
  if (t->kind == Kind::Const)
    return {t->num, t->num};
  auto memo = rangeMemo_.find(t);
  if (memo != rangeMemo_.end())
    return memo->second;
  std::pair<int128, int128> r{-kInf, kInf};
  switch (t->kind) {
  case Kind::Var:
  case Kind::App: {
    auto it = bounds_.find(t);
    if (it != bounds_.end())
      r = it->second;
    break;
  }
  case Kind::Add: {
    int128 lo = 0, hi = 0;
    for (Term k : t->kids) {
      auto [a, b] = range(k);
      lo = clampInf(lo + a);
      hi = clampInf(hi + b);
    }
    r = {lo, hi};
    break;
  }
  case Kind::Mul: {
    auto [a, b] = range(t->kids[0]);
    auto [c, d] = range(t->kids[1]);
    int128 p[4] = {satMul(a, c), satMul(a, d), satMul(b, c), satMul(b, d)};
    r = {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
    break;
  }
  case Kind::Div: {
    auto [a, b] = range(t->kids[0]);
    int128 y;
    if (isConst(t->kids[1], &y) && y > 0 && a > -kInf && b < kInf) {
      auto fl = [&](int128 x) { int128 q = x / y; if (x % y < 0) q -= 1; return q; };
      r = {fl(a), fl(b)};
    } else if (auto [c, d] = range(t->kids[1]); c >= 1 && a >= 0 && b < kInf) {
      r = {d < kInf ? a / d : 0, b / c}; // a non-negative dividend by a positive divisor
    }
    break;
  }
  case Kind::Mod: {
    auto [c, d] = range(t->kids[1]);
    int128 m = std::max(c < 0 ? -c : c, d < 0 ? -d : d);
    if (m < kInf)
      r = {0, m > 0 ? m - 1 : 0};
    auto [a, b] = range(t->kids[0]);
    if (a >= 0 && c > 0 && b < c)
      r = {a, b};
    break;
  }
  case Kind::Ite: {
    auto [a, b] = range(t->kids[1]);
    auto [c, d] = range(t->kids[2]);
    r = {std::min(a, c), std::max(b, d)};
    // min(p, q) as ite(p <= q, p, q) or ite(p < q, p, q) (a loop that stops at the first of
    // two bounds runs min of their counts) is at most both; max(p, q) at least both. The test
    // A <= B (A - B + 1 <= 0 for A < B) picks p where A - B = p - q + k: with k 0 or 1 that is
    // exactly where p is the smaller (min), and with A - B = q - p + k where it is the larger.
    Term c0 = t->kids[0];
    if ((c0->kind == Kind::Le || c0->kind == Kind::Lt) && c0->kids[0]->sort == Sort::Int &&
        t->kids[1]->sort == Sort::Int) {
      Term ab = sub(c0->kids[0], c0->kids[1]);
      int128 k = 0, shift = c0->kind == Kind::Lt ? 1 : 0;
      if (isConst(sub(ab, sub(t->kids[1], t->kids[2])), &k) && (k + shift == 0 || k + shift == 1))
        r.second = std::min(b, d);
      if (isConst(sub(ab, sub(t->kids[2], t->kids[1])), &k) && (k + shift == 0 || k + shift == 1))
        r.first = std::max(a, c);
    }
    break;
  }
  default: break;
  }
  if (!termBounds_.empty() && t->kind != Kind::Var && t->kind != Kind::App) {
    auto narrow = [&](Term p, int128 k) {
      auto it = termBounds_.find(p);
      if (it == termBounds_.end())
        return;
      r.first = std::max(r.first, clampInf(it->second.first + k));
      r.second = std::min(r.second, clampInf(it->second.second + k));
    };
    narrow(t, 0);
    if (t->kind == Kind::Add && t->kids.back()->kind == Kind::Const) { // the sum without its constant
      std::vector<Term> rest(t->kids.begin(), t->kids.end() - 1);
      Term p = rest.size() == 1 ? rest[0] : nullptr;
      if (!p) {
        Node n{Kind::Add, Sort::Int};
        n.kids = rest;
        p = intern(std::move(n));
      }
      narrow(p, t->kids.back()->num);
    }
    if (r.first > r.second) // the preconditions contradict each other: no value
      r = {r.second, r.second};
  }
  rangeMemo_[t] = r;
  return r;
}

void TermContext::tightenTermBounds(Term t, int128 lo, int128 hi) {
  auto [it, fresh] = termBounds_.emplace(t, std::make_pair(lo, hi));
  if (!fresh) {
    it->second.first = std::max(it->second.first, lo);
    it->second.second = std::min(it->second.second, hi);
  }
  rangeMemo_.clear();
}

// ---- traversal ----------------------------------------------------------------------------

Term TermContext::withKids(Term t, const std::function<Term(Term)> &f) {
  std::unordered_map<Term, Term> sub;
  for (Term k : t->kids)
    if (Term k2 = f(k); k2 != k)
      sub[k] = k2;
  return sub.empty() ? t : substitute(t, sub);
}

Term TermContext::substitute(Term t, const std::unordered_map<Term, Term> &m) {
  std::unordered_map<Term, Term> memo;
  std::function<Term(Term)> go = [&](Term x) -> Term {
    auto it = m.find(x);
    if (it != m.end())
      return it->second;
    if (x->kids.empty())
      return x;
    auto mi = memo.find(x);
    if (mi != memo.end())
      return mi->second;
    std::vector<Term> k;
    bool changed = false;
    for (Term c : x->kids) {
      k.push_back(go(c));
      changed |= k.back() != c;
    }
    Term r = x;
    if (changed) {
      switch (x->kind) {
      case Kind::App: r = app(x->name, x->sort, k); break;
      case Kind::Add: {
        r = k[0];
        for (size_t i = 1; i < k.size(); ++i)
          r = add(r, k[i]);
        break;
      }
      case Kind::Mul: r = mul(k[0], k[1]); break;
      case Kind::Div: r = div(k[0], k[1]); break;
      case Kind::Mod: r = mod(k[0], k[1]); break;
      case Kind::RealDiv: r = realDiv(k[0], k[1]); break;
      case Kind::Ite: r = ite(k[0], k[1], k[2]); break;
      case Kind::Eq: r = eq(k[0], k[1]); break;
      case Kind::Le: r = le(k[0], k[1]); break;
      case Kind::Lt: r = lt(k[0], k[1]); break;
      case Kind::Not: r = mkNot(k[0]); break;
      case Kind::And: r = mkAnd(k); break;
      case Kind::Or: r = mkOr(k); break;
      case Kind::ToReal: r = toReal(k[0]); break;
      default: assert(false && "leaf with kids");
      }
    }
    memo[x] = r;
    return r;
  };
  return go(t);
}

bool TermContext::mentions(Term t, Term v) { return mentionsAny(t, {v}); }

bool TermContext::mentionsAny(Term t, const std::vector<Term> &vs) {
  if (vs.empty())
    return false;
  std::unordered_set<Term> target(vs.begin(), vs.end());
  std::unordered_set<Term> seen;
  std::vector<Term> stack{t};
  while (!stack.empty()) {
    Term x = stack.back();
    stack.pop_back();
    if (target.count(x))
      return true;
    if (!seen.insert(x).second)
      continue;
    for (Term k : x->kids)
      stack.push_back(k);
  }
  return false;
}

namespace {
// A set of terms by their creation number: open addressing, no allocation per insert (the
// node-based unordered_set was most of the provers' own time: collectSymbols runs on every
// subterm a proof step looks at).
class TermSet {
public:
  explicit TermSet(size_t expect) {
    size_t cap = 16;
    while (cap < 2 * expect)
      cap *= 2;
    slots_.assign(cap, nullptr);
  }
  bool contains(Term x) const {
    for (size_t i = slot(x);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i] == x)
        return true;
      if (!slots_[i])
        return false;
    }
  }
  // False if x was there already.
  bool insert(Term x) {
    if (2 * (size_ + 1) > slots_.size())
      grow();
    for (size_t i = slot(x);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i] == x)
        return false;
      if (!slots_[i]) {
        slots_[i] = x;
        ++size_;
        return true;
      }
    }
  }

private:
  size_t slot(Term x) const { return (static_cast<size_t>(x->id) * 0x9E3779B97F4A7C15ull >> 20) & (slots_.size() - 1); }
  void grow() {
    std::vector<Term> old;
    old.swap(slots_);
    slots_.assign(old.size() * 2, nullptr);
    size_ = 0;
    for (Term x : old)
      if (x)
        insert(x);
  }
  std::vector<Term> slots_;
  size_t size_ = 0;
};
} // namespace

// Post-order (kids first), each symbol once; a term already in `out` is not entered.
void TermContext::collectSymbols(Term t, std::vector<Term> &out) {
  TermSet seen(out.size() + 16);
  for (Term x : out)
    seen.insert(x);
  postOrder(
      t, [&](Term x) { return !seen.contains(x); },
      [&](Term x) {
        if (seen.insert(x) && (x->kind == Kind::Var || x->kind == Kind::App))
          out.push_back(x);
      });
}

// ---- evaluation ---------------------------------------------------------------------------

static Value normal(int128 n, int128 d) {
  if (d < 0) {
    n = -n;
    d = -d;
  }
  int128 g = gcd(n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  return {n, d};
}

namespace {

// eval() with each shared subterm's value computed once (terms are DAGs: a tree walk can take
// exponential time).
using EvalMemo = std::unordered_map<Term, std::optional<Value>>;
std::optional<Value> evalIn(Term t, const Assignment &a, EvalMemo &memo);

std::optional<Value> evalNode(Term t, const Assignment &a, EvalMemo &memo) {
  switch (t->kind) {
  case Kind::Const: return Value{t->num, t->den};
  case Kind::Var:
  case Kind::App: {
    auto it = a.find(t);
    if (it == a.end())
      return std::nullopt;
    return it->second;
  }
  default: break;
  }
  std::vector<Value> k;
  if (t->kind == Kind::Ite) {
    auto c = evalIn(t->kids[0], a, memo);
    if (!c)
      return std::nullopt;
    return evalIn(c->num ? t->kids[1] : t->kids[2], a, memo);
  }
  for (Term c : t->kids) {
    auto v = evalIn(c, a, memo);
    if (!v)
      return std::nullopt;
    k.push_back(*v);
  }
  auto B = [](bool b) { return Value{b ? 1 : 0, 1}; };
  switch (t->kind) {
  case Kind::Add: {
    Value s{0, 1};
    for (const Value &v : k)
      s = normal(s.num * v.den + v.num * s.den, s.den * v.den);
    return s;
  }
  case Kind::Mul: return normal(k[0].num * k[1].num, k[0].den * k[1].den);
  case Kind::Div: {
    if (k[1].num == 0)
      return std::nullopt;
    int128 x = k[0].num, y = k[1].num, q = x / y, r = x % y;
    if (r < 0)
      q += (y > 0 ? -1 : 1);
    return Value{q, 1};
  }
  case Kind::Mod: {
    if (k[1].num == 0)
      return std::nullopt;
    int128 y = k[1].num, r = k[0].num % y;
    if (r < 0)
      r += (y > 0 ? y : -y);
    return Value{r, 1};
  }
  case Kind::RealDiv:
    if (k[1].num == 0)
      return std::nullopt;
    return normal(k[0].num * k[1].den, k[0].den * k[1].num);
  case Kind::Eq: return B(k[0] == k[1]);
  case Kind::Le: return B(k[0].num * k[1].den <= k[1].num * k[0].den);
  case Kind::Lt: return B(k[0].num * k[1].den < k[1].num * k[0].den);
  case Kind::Not: return B(!k[0].num);
  case Kind::And: {
    for (const Value &v : k)
      if (!v.num)
        return B(false);
    return B(true);
  }
  case Kind::Or: {
    for (const Value &v : k)
      if (v.num)
        return B(true);
    return B(false);
  }
  case Kind::ToReal: return k[0];
  default: return std::nullopt;
  }
}

std::optional<Value> evalIn(Term t, const Assignment &a, EvalMemo &memo) {
  if (t->kids.empty())
    return evalNode(t, a, memo);
  if (auto it = memo.find(t); it != memo.end())
    return it->second;
  std::optional<Value> v = evalNode(t, a, memo);
  memo.emplace(t, v);
  return v;
}

} // namespace

std::vector<Term> subterms(Term t) {
  std::vector<Term> out, todo{t};
  std::unordered_set<Term> seen;
  while (!todo.empty()) {
    Term u = todo.back();
    todo.pop_back();
    if (!seen.insert(u).second)
      continue;
    out.push_back(u);
    todo.insert(todo.end(), u->kids.begin(), u->kids.end());
  }
  return out;
}

std::vector<Term> conjuncts(Term t) {
  std::vector<Term> out, todo{t};
  while (!todo.empty()) {
    Term c = todo.back();
    todo.pop_back();
    if (c->kind == Kind::And)
      todo.insert(todo.end(), c->kids.begin(), c->kids.end());
    else
      out.push_back(c);
  }
  return out;
}

std::optional<Value> eval(Term t, const Assignment &a) {
  EvalMemo memo;
  return evalIn(t, a, memo);
}

} // namespace ksynth::smt
