// Bounded equivalence: canonical forms of the DAG's terms (Canon).
#include "verify/equiv/bounded_detail.h"

#include <algorithm>
#include <cfloat>

namespace ksynth::equiv::bounded_detail {

// ---- canonical forms ----------------------------------------------------------------------
// A number is a polynomial: a sum of c * monomial, a monomial a product of atoms with powers.
// Atoms are leaves, large constants, and applications whose arguments are canonical: exp(p),
// inv(p) = 1/p, n-ary max/min (flattened, sorted, deduplicated), ite(b, p, q), toint(p), and
// the conditions pos(p) (p > 0), nonneg(p) (p >= 0), zero(p) (p = 0, sign-normalised), not,
// and, or. Every rewrite is an identity of real arithmetic (plus, for max/min, that inputs
// are finite floats), so equal forms mean equal values; different forms decide nothing.

std::optional<Canon::CV> Canon::of(int node) {
  try {
    return get(node);
  } catch (const Fail &) {
    return std::nullopt;
  }
}

// Whether every place where the kernel's term `got` may have no real value -- a division
// by a non-constant, a function defined on part of the reals (sqrt, log, pow, ...) -- is
// also one of the spec's term `want` (same operation, canonically equal arguments); if not,
// `stray` shows the first that is not.
bool Canon::partialsWithin(int got, int want, std::string &stray) {
  try {
    std::set<std::pair<std::string, std::vector<int>>> allowed;
    for (int d : partialNodes(want))
      allowed.insert(partialKey(d));
    for (int d : partialNodes(got))
      if (!allowed.count(partialKey(d))) {
        stray = text(d, 3);
        return false;
      }
    return true;
  } catch (const Fail &) {
    stray = "an operation without a canonical form";
    return false;
  }
}

// The first leaf of `root` that is not an input (stale or uninitialised memory, an
// unknown), or -1.
int Canon::garbageLeaf(int root) const {
  std::vector<int> todo{root};
  std::set<int> seen;
  while (!todo.empty()) {
    int x = todo.back();
    todo.pop_back();
    if (!seen.insert(x).second)
      continue;
    const SNode &n = st_.nodes[x];
    if (n.kind == NK::Leaf && !n.input)
      return x;
    for (int k : n.kids)
      todo.push_back(k);
  }
  return -1;
}

int Canon::atom(const std::string &tag, std::vector<int> args, double big) {
  auto key = std::make_pair(tag, std::move(args));
  auto it = atomIds_.find(key);
  if (it != atomIds_.end())
    return it->second;
  atoms_.push_back(key);
  atomBig_.push_back(big);
  int id = static_cast<int>(atoms_.size()) - 1;
  atomIds_.emplace(std::move(key), id);
  return id;
}

int Canon::mono(const Mono &m) {
  auto it = monoIds_.find(m);
  if (it != monoIds_.end())
    return it->second;
  monos_.push_back(m);
  int id = static_cast<int>(monos_.size()) - 1;
  monoIds_.emplace(m, id);
  return id;
}

int Canon::poly(Poly p) {
  std::sort(p.begin(), p.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<std::tuple<int, i128, i128>> key;
  for (const auto &[m, c] : p)
    key.emplace_back(m, c.n, c.d);
  auto it = polyIds_.find(key);
  if (it != polyIds_.end())
    return it->second;
  polys_.push_back(std::move(p));
  int id = static_cast<int>(polys_.size()) - 1;
  polyIds_.emplace(std::move(key), id);
  return id;
}

int Canon::constPoly(Rat r) {
  if (r.n == 0)
    return poly({});
  return poly({{mono({}), r}});
}

std::optional<Rat> Canon::constValue(int p) const {
  const Poly &x = polys_[p];
  if (x.empty())
    return Rat{0, 1};
  if (x.size() == 1 && monos_[x[0].first].empty())
    return x[0].second;
  return std::nullopt;
}

// The atom p is exactly (coefficient 1, power 1), or -1.
int Canon::soleAtom(int p) const {
  const Poly &x = polys_[p];
  if (x.size() != 1 || !(x[0].second == Rat{1, 1}))
    return -1;
  const Mono &m = monos_[x[0].first];
  return m.size() == 1 && m[0].second == 1 ? m[0].first : -1;
}

Rat Canon::must(std::optional<Rat> r) {
  if (!r)
    throw Fail{"a coefficient outside 128-bit rationals"};
  return *r;
}

// Sums of coefficients by monomial, and the polynomial they make.
void Canon::accumulate(std::map<int, Rat> &acc, int m, Rat c) {
  auto it = acc.find(m);
  if (it == acc.end())
    acc.emplace(m, c);
  else
    it->second = must(addRat(it->second, c));
}

int Canon::fromTerms(const std::map<int, Rat> &acc) {
  Poly p;
  for (const auto &[m, c] : acc)
    if (c.n != 0)
      p.emplace_back(m, c);
  if (p.size() > kMaxTerms)
    throw Fail{"a polynomial with over 20000 terms"};
  return poly(std::move(p));
}

int Canon::add(int a, int b, Rat scaleB) {
  std::map<int, Rat> acc;
  for (const auto &[m, c] : polys_[a])
    acc[m] = c;
  for (const auto &[m, c] : polys_[b])
    accumulate(acc, m, must(mulRat(c, scaleB)));
  return fromTerms(acc);
}

int Canon::mul(int a, int b) {
  if (polys_[a].size() * polys_[b].size() > kMaxTerms)
    throw Fail{"a polynomial with over 20000 terms"};
  std::map<int, Rat> acc;
  for (const auto &[ma, ca] : polys_[a])
    for (const auto &[mb, cb] : polys_[b]) {
      std::map<int, int> pw;
      for (const auto &[x, e] : monos_[ma])
        pw[x] += e;
      for (const auto &[x, e] : monos_[mb])
        pw[x] += e;
      accumulate(acc, mono(Mono(pw.begin(), pw.end())), must(mulRat(ca, cb)));
    }
  return fromTerms(acc);
}

int Canon::pos(int p) {
  if (auto c = constValue(p))
    return boolConst(c->n > 0);
  return atom("pos", {p});
}

int Canon::nonneg(int p) {
  if (auto c = constValue(p))
    return boolConst(c->n >= 0);
  return atom("nonneg", {p});
}

int Canon::zero(int p) {
  if (auto c = constValue(p))
    return boolConst(c->n == 0);
  if (polys_[p].front().second.n < 0)
    p = scale(p, Rat{-1, 1});
  return atom("zero", {p});
}

int Canon::lnot(int b) {
  if (b == trueId_)
    return falseId_;
  if (b == falseId_)
    return trueId_;
  if (atoms_[b].first == "not")
    return atoms_[b].second[0];
  return atom("not", {b});
}

int Canon::junction(bool isAnd, const std::vector<int> &xs) {
  std::vector<int> args;
  const char *tag = isAnd ? "and" : "or";
  for (int x : xs) {
    if (x == (isAnd ? trueId_ : falseId_))
      continue;
    if (x == (isAnd ? falseId_ : trueId_))
      return x;
    if (atoms_[x].first == tag)
      args.insert(args.end(), atoms_[x].second.begin(), atoms_[x].second.end());
    else
      args.push_back(x);
  }
  std::sort(args.begin(), args.end());
  args.erase(std::unique(args.begin(), args.end()), args.end());
  if (args.empty())
    return boolConst(isAnd);
  if (args.size() == 1)
    return args[0];
  return atom(tag, args);
}

int Canon::numeric(const CV &v) { // a condition used as a number: 1 or 0
  if (!v.isBool)
    return v.id;
  if (v.id == trueId_ || v.id == falseId_)
    return constPoly(Rat{v.id == trueId_ ? 1 : 0, 1});
  return atomPoly(atom("ite", {v.id, constPoly(Rat{1, 1}), constPoly(Rat{0, 1})}));
}

// If p is a float input element or scalar (a finite float of its type): the largest
// magnitude it can have (FLT_MAX or DBL_MAX), else 0.
double Canon::inputRange(int p) const {
  int a = soleAtom(p);
  if (a < 0 || atoms_[a].first != "leaf")
    return 0;
  const SNode &n = st_.nodes[atoms_[a].second[0]];
  return n.input ? n.range : 0;
}

// p is a constant at or beyond -range (max) / range (min).
bool Canon::beyondFloats(int p, bool isMax, double range) const {
  double v;
  if (auto c = constValue(p)) {
    v = ratDouble(*c);
  } else {
    int a = soleAtom(p);
    if (a < 0 || atoms_[a].first != "big")
      return false;
    v = atomBig_[a];
  }
  return isMax ? v <= -range : v >= range;
}

int Canon::extreme(bool isMax, const std::vector<int> &kids) {
  std::vector<int> polys;
  for (int k : kids)
    polys.push_back(numeric(get(k)));
  return extremeOf(isMax, polys);
}

int Canon::extremeOf(bool isMax, const std::vector<int> &polys) {
  const char *tag = isMax ? "max" : "min";
  std::vector<int> args;
  for (int p : polys) {
    int a = soleAtom(p);
    if (a >= 0 && atoms_[a].first == tag)
      args.insert(args.end(), atoms_[a].second.begin(), atoms_[a].second.end());
    else
      args.push_back(p);
  }
  std::sort(args.begin(), args.end());
  args.erase(std::unique(args.begin(), args.end()), args.end());
  // max(c, x, ...) = max(x, ...) when x is a float input and c <= -(x's largest magnitude).
  double range = 0;
  for (int p : args) {
    double r = inputRange(p);
    if (r > 0 && (range == 0 || r < range))
      range = r;
  }
  if (range > 0) {
    size_t before = args.size();
    args.erase(std::remove_if(args.begin(), args.end(), [&](int p) { return beyondFloats(p, isMax, range); }),
               args.end());
    usedFloatRange_ |= args.size() != before;
  }
  bool allConst = true;
  for (int p : args)
    allConst &= constValue(p).has_value();
  if (allConst && !args.empty()) {
    Rat best = *constValue(args[0]);
    for (int p : args) {
      Rat v = *constValue(p);
      auto c = cmpRat(v, best);
      if (!c)
        throw Fail{"a comparison of constants outside 128-bit rationals"};
      if (isMax ? *c > 0 : *c < 0)
        best = v;
    }
    return constPoly(best);
  }
  if (args.size() == 1)
    return args[0];
  return atomPoly(atom(tag, args));
}

bool Canon::partialFunction(const std::string &n) {
  static const std::set<std::string> partial = {"sqrt", "log", "log2", "log10", "log1p", "pow", "acos",
                                                "asin", "acosh", "atanh", "tan", "lgamma", "tgamma"};
  return partial.count(n) > 0;
}

// The nodes of a DAG that may have no real value: "/" by a non-constant, partial functions.
std::vector<int> Canon::partialNodes(int root) {
  std::vector<int> out, todo{root};
  std::set<int> seen;
  while (!todo.empty()) {
    int x = todo.back();
    todo.pop_back();
    if (!seen.insert(x).second)
      continue;
    const SNode &n = st_.nodes[x];
    if (n.kind == NK::Op && ((n.name == "/" && n.kids.size() == 2 && !st_.constOf(n.kids[1])) ||
                             partialFunction(n.name)))
      out.push_back(x);
    for (int k : n.kids)
      todo.push_back(k);
  }
  return out;
}

// A partial node by its operation and canonical arguments (a division by its divisor).
std::pair<std::string, std::vector<int>> Canon::partialKey(int node) {
  const SNode &n = st_.nodes[node];
  if (n.name == "/")
    return {"/", {numeric(get(n.kids[1]))}};
  std::vector<int> args;
  for (int k : n.kids)
    args.push_back(numeric(get(k)));
  return {n.name, args};
}

// A short rendering of a DAG node, for messages.
std::string Canon::text(int node, int depth) const {
  const SNode &n = st_.nodes[node];
  switch (n.kind) {
  case NK::Leaf: return n.name.substr(0, n.name.find('#'));
  case NK::Const: return n.q.d == 1 ? i128Text(n.q.n) : i128Text(n.q.n) + "/" + i128Text(n.q.d);
  case NK::Big: return std::to_string(n.big);
  case NK::Op: break;
  }
  if (depth == 0)
    return "...";
  std::string r = "(" + n.name;
  for (int k : n.kids)
    r += " " + text(k, depth - 1);
  return r + ")";
}

Canon::CV Canon::compute(int node) {
  const SNode &n = st_.nodes[node];
  switch (n.kind) {
  case NK::Leaf: return num(atomPoly(atom("leaf", {node})));
  case NK::Big: return num(atomPoly(atom("big", {node}, n.big)));
  case NK::Const: return n.sort == Sort::Bool ? cond(boolConst(n.q.n != 0)) : num(constPoly(n.q));
  case NK::Op: break;
  }
  const std::string &o = n.name;
  auto P = [&](size_t i) { return numeric(get(n.kids[i])); };
  auto B = [&](size_t i) { return condition(get(n.kids[i])); };
  if (o == "+" || o == "-" || o == "*") {
    int acc = P(0);
    for (size_t i = 1; i < n.kids.size(); ++i)
      acc = o == "+" ? add(acc, P(i)) : o == "-" ? add(acc, P(i), Rat{-1, 1}) : mul(acc, P(i));
    return num(acc);
  }
  if (o == "neg")
    return num(scale(P(0), Rat{-1, 1}));
  if (o == "toreal")
    return num(P(0));
  if (o == "/") {
    int a = P(0), b = P(1);
    if (auto c = constValue(b)) {
      if (c->n == 0)
        throw Fail{"a division by zero"};
      return num(scale(a, *mkRat(c->d, c->n)));
    }
    return num(mul(a, atomPoly(atom("inv", {b}))));
  }
  if (o == "min" || o == "max")
    return num(extreme(o == "max", n.kids));
  if (o == "<" || o == "<=" || o == ">" || o == ">=" || o == "==" || o == "!=") {
    int a = P(0), b = P(1);
    if (o == "<")
      return cond(pos(add(b, a, Rat{-1, 1})));
    if (o == "<=")
      return cond(nonneg(add(b, a, Rat{-1, 1})));
    if (o == ">")
      return cond(pos(add(a, b, Rat{-1, 1})));
    if (o == ">=")
      return cond(nonneg(add(a, b, Rat{-1, 1})));
    int z = zero(add(a, b, Rat{-1, 1}));
    return cond(o == "==" ? z : lnot(z));
  }
  if (o == "not")
    return cond(lnot(B(0)));
  if (o == "bool")
    return cond(B(0));
  if (o == "and" || o == "or") {
    std::vector<int> xs;
    for (size_t i = 0; i < n.kids.size(); ++i)
      xs.push_back(B(i));
    return cond(junction(o == "and", xs));
  }
  if (o == "ite") {
    int c = B(0);
    if (c == trueId_)
      return get(n.kids[1]);
    if (c == falseId_)
      return get(n.kids[2]);
    CV x = get(n.kids[1]), y = get(n.kids[2]);
    if (x.isBool && y.isBool) // (c and x) or (not c and y)
      return cond(junction(false, {junction(true, {c, x.id}), junction(true, {lnot(c), y.id})}));
    int px = numeric(x), py = numeric(y);
    if (px == py)
      return num(px);
    // ite(a > b, a, b) and ite(a >= b, a, b) are max(a, b); with the arms swapped, min.
    const std::string &tag = atoms_[c].first;
    if (tag == "pos" || tag == "nonneg") {
      int p = atoms_[c].second[0];
      if (add(px, py, Rat{-1, 1}) == p)
        return num(extremeOf(true, {px, py}));
      if (add(py, px, Rat{-1, 1}) == p)
        return num(extremeOf(false, {px, py}));
    }
    if (atoms_[c].first == "not") // one orientation: ite(not c, a, b) = ite(c, b, a)
      return num(atomPoly(atom("ite", {atoms_[c].second[0], py, px})));
    return num(atomPoly(atom("ite", {c, px, py})));
  }
  // toint, abs and the math functions: opaque atoms over canonical arguments.
  std::vector<int> args;
  for (size_t i = 0; i < n.kids.size(); ++i)
    args.push_back(P(i));
  return num(atomPoly(atom("fn:" + o, args)));
}

} // namespace ksynth::equiv::bounded_detail
