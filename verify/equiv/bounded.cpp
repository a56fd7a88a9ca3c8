#include "verify/equiv/bounded.h"

#include "verify/interp/interp.h"
#include "verify/smt/solver.h"
#include "verify/smt/term.h"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <unordered_map>

namespace ksynth::equiv {

namespace {

using i128 = __int128;
using spec::Sort;

// ---- exact rationals (128-bit; an overflow is reported, never wrapped) --------------------

struct Rat {
  i128 n = 0, d = 1;
  bool operator==(const Rat &o) const { return n == o.n && d == o.d; }
  bool operator<(const Rat &o) const { return n * o.d < o.n * d; } // only for small values
};

i128 gcd128(i128 a, i128 b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

std::optional<Rat> mkRat(i128 n, i128 d) {
  if (d == 0)
    return std::nullopt;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  i128 g = gcd128(n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  return Rat{n, d};
}

std::optional<Rat> addRat(Rat a, Rat b) {
  i128 x, y, d;
  if (__builtin_mul_overflow(a.n, b.d, &x) || __builtin_mul_overflow(b.n, a.d, &y) ||
      __builtin_add_overflow(x, y, &x) || __builtin_mul_overflow(a.d, b.d, &d))
    return std::nullopt;
  return mkRat(x, d);
}

std::optional<Rat> mulRat(Rat a, Rat b) {
  i128 n, d;
  if (__builtin_mul_overflow(a.n, b.n, &n) || __builtin_mul_overflow(a.d, b.d, &d))
    return std::nullopt;
  return mkRat(n, d);
}

// -1, 0, 1; nullopt when the difference does not fit (never approximated).
std::optional<int> cmpRat(Rat a, Rat b) {
  auto diff = addRat(a, Rat{-b.n, b.d});
  if (!diff)
    return std::nullopt;
  return diff->n < 0 ? -1 : diff->n > 0 ? 1 : 0;
}

// The exact value of a finite double, when it fits.
std::optional<Rat> exactRat(double f) {
  if (!std::isfinite(f))
    return std::nullopt;
  if (f == 0)
    return Rat{0, 1};
  int e = 0;
  double m = std::frexp(f, &e);
  i128 mant = static_cast<i128>(std::ldexp(m, 53));
  e -= 53;
  while (mant % 2 == 0 && e < 0) {
    mant /= 2;
    ++e;
  }
  if (e >= 0)
    return e > 70 ? std::nullopt : std::optional<Rat>(Rat{mant << e, 1});
  if (-e > 120)
    return std::nullopt;
  return mkRat(mant, static_cast<i128>(1) << -e);
}

double ratDouble(Rat r) { return static_cast<double>(r.n) / static_cast<double>(r.d); }

std::string i128Text(i128 v) {
  if (v == 0)
    return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return neg ? "-" + s : s;
}

struct Fail { // the element or tuple cannot be decided (why)
  std::string why;
};

// ---- the term DAG both sides are built in -------------------------------------------------

enum class NK : uint8_t { Leaf, Const, Big, Op };

struct SNode {
  NK kind = NK::Op;
  Sort sort = Sort::Real;
  std::string name; // Leaf: its name; Op: the operation
  Rat q;            // Const
  double big = 0;   // Big: a constant too large for Rat (FLT_MAX, infinities)
  std::vector<int> kids;
  bool input = false;        // Leaf: an input element or scalar
  double range = 0;          // Leaf: a float input lies in [-range, range] (FLT_MAX or DBL_MAX)
  int array = -1;            // Leaf of an array cell
  int64_t flat = -1;
  int var = -1;              // Leaf of a scalar parameter
  int depth = 1;             // longest path to a leaf
};

class Store final : public interp::Symbolic {
public:
  Store(const ir::Kernel &k, std::vector<Rat> specConsts) : k_(k), specConsts_(std::move(specConsts)) {}

  std::vector<SNode> nodes;
  std::set<std::string> notes; // assumptions the terms rely on

  int cell(const ir::Array &a, int64_t flat, bool stale, int64_t owner) override {
    SNode n;
    n.kind = NK::Leaf;
    n.sort = a.elem.isFloat() ? Sort::Real : Sort::Int;
    n.name = (stale ? "stale " : "") + a.name + "[" + std::to_string(flat) + "]" +
             (owner >= 0 ? " in block " + std::to_string(owner) : "") +
             (owner <= -2 ? " in thread " + std::to_string(-2 - owner) : "") + "#" +
             std::to_string(&a - k_.arrays.data());
    n.input = !stale;
    if (!stale && a.elem.isFloat())
      n.range = a.elem.bits == 64 ? DBL_MAX : a.elem.bits == 32 ? FLT_MAX : 0;
    n.array = static_cast<int>(&a - k_.arrays.data());
    n.flat = flat;
    return intern(std::move(n));
  }
  int param(const ir::Var &v) override {
    SNode n;
    n.kind = NK::Leaf;
    n.name = v.name + "#p" + std::to_string(&v - k_.vars.data());
    n.input = true;
    n.range = v.type.bits == 64 ? DBL_MAX : v.type.bits == 32 ? FLT_MAX : 0;
    n.var = static_cast<int>(&v - k_.vars.data());
    return intern(std::move(n));
  }
  int unknown(const std::string &what) override {
    SNode n;
    n.kind = NK::Leaf;
    n.name = "unknown " + std::to_string(unknowns_++) + ": " + what;
    return intern(std::move(n));
  }
  int constant(const interp::Value &v, bool literal) override {
    if (v.kind == interp::Value::Kind::Int)
      return intConst(v.i);
    if (!std::isfinite(v.f))
      return -1; // IEEE infinities and NaN are not reals
    if (literal) {
      // DESIGN: a float literal stands for the spec constant that rounds to the same float.
      float fv = static_cast<float>(v.f);
      for (const Rat &c : specConsts_)
        if (static_cast<float>(ratDouble(c)) == fv) {
          auto exact = exactRat(static_cast<double>(fv));
          if (!exact || !(*exact == c))
            notes.insert("a float literal stands for the spec constant that rounds to the same float");
          return ratConst(c, Sort::Real);
        }
    }
    if (auto r = exactRat(v.f))
      return ratConst(*r, Sort::Real);
    SNode n;
    n.kind = NK::Big;
    n.big = v.f;
    return intern(std::move(n));
  }
  bool isConstant(int id) const override { return nodes[id].kind == NK::Const || nodes[id].kind == NK::Big; }

  int intConst(i128 v) { return ratConst(Rat{v, 1}, Sort::Int); }
  int boolConst(bool b) { return ratConst(Rat{b ? 1 : 0, 1}, Sort::Bool); }
  int ratConst(Rat r, Sort s) {
    SNode n;
    n.kind = NK::Const;
    n.sort = s;
    n.q = r;
    return intern(std::move(n));
  }
  std::optional<Rat> constOf(int id) const {
    if (nodes[id].kind == NK::Const)
      return nodes[id].q;
    return std::nullopt;
  }

  int op(const std::string &name, const std::vector<int> &a) override {
    auto is = [&](std::initializer_list<const char *> ns) {
      for (const char *n : ns)
        if (name == n)
          return true;
      return false;
    };
    // Spellings of the same operation.
    if (is({"fmin"}))
      return op("min", a);
    if (is({"fmax"}))
      return op("max", a);
    if (is({"fabs"}))
      return op("abs", a);
    if (is({"fdivide", "fdiv_rn"}))
      return op("/", a);
    if (is({"fadd_rn"}))
      return op("+", a);
    if (is({"fsub_rn"}))
      return op("-", a);
    if (is({"fmul_rn"}))
      return op("*", a);
    if (is({"fsqrt_rn"}))
      return op("sqrt", a);
    if (is({"rsqrt", "frsqrt_rn"}) && a.size() == 1)
      return op("/", {ratConst(Rat{1, 1}, Sort::Real), op("sqrt", a)});
    if (is({"frcp_rn"}) && a.size() == 1)
      return op("/", {ratConst(Rat{1, 1}, Sort::Real), a[0]});
    if (is({"fma", "fma_rn"}) && a.size() == 3)
      return op("+", {op("*", {a[0], a[1]}), a[2]});
    if (is({"fmod"}))
      return -1;
    for (int x : a)
      if (x < 0)
        return -1;
    if (auto folded = fold(name, a))
      return *folded;
    SNode n;
    n.name = name;
    n.kids = a;
    n.sort = resultSort(name, a);
    return intern(std::move(n));
  }

private:
  const ir::Kernel &k_;
  std::vector<Rat> specConsts_;
  std::unordered_map<std::string, int> table_;
  int unknowns_ = 0;

  int intern(SNode n) {
    std::string key = std::to_string(static_cast<int>(n.kind)) + "|" + std::to_string(static_cast<int>(n.sort)) +
                      "|" + n.name + "|" + i128Text(n.q.n) + "/" + i128Text(n.q.d) + "|";
    if (n.kind == NK::Big) {
      std::ostringstream os;
      os.precision(17);
      os << n.big;
      key += os.str();
    }
    for (int c : n.kids)
      key += std::to_string(c) + ",";
    auto it = table_.find(key);
    if (it != table_.end())
      return it->second;
    for (int c : n.kids)
      n.depth = std::max(n.depth, nodes[c].depth + 1);
    nodes.push_back(std::move(n));
    int id = static_cast<int>(nodes.size()) - 1;
    table_.emplace(std::move(key), id);
    return id;
  }

  Sort resultSort(const std::string &name, const std::vector<int> &a) const {
    static const std::set<std::string> boolOps = {"==", "!=", "<", "<=", ">", ">=", "not", "and", "or", "bool"};
    if (boolOps.count(name))
      return Sort::Bool;
    if (name == "toreal")
      return Sort::Real;
    if (name == "toint")
      return Sort::Int;
    bool arith = name == "+" || name == "-" || name == "*" || name == "neg" || name == "min" || name == "max" ||
                 name == "abs" || name == "ite";
    if (!arith)
      return Sort::Real; // math functions, "/"
    bool real = false;
    for (size_t i = name == "ite" ? 1 : 0; i < a.size(); ++i)
      real |= nodes[a[i]].sort == Sort::Real;
    return real ? Sort::Real : Sort::Int;
  }

  // Folds operations on constants exactly (Rat); nullopt when not all constant or inexact.
  std::optional<int> fold(const std::string &name, const std::vector<int> &a) {
    if (name == "ite") {
      if (auto c = constOf(a[0]))
        return c->n != 0 ? a[1] : a[2];
      if (a[1] == a[2])
        return a[1];
      return std::nullopt;
    }
    if ((name == "neg") && nodes[a[0]].kind == NK::Big) {
      SNode n;
      n.kind = NK::Big;
      n.big = -nodes[a[0]].big;
      return intern(std::move(n));
    }
    std::vector<Rat> v;
    for (int x : a) {
      auto c = constOf(x);
      if (!c)
        return std::nullopt;
      v.push_back(*c);
    }
    Sort s = resultSort(name, a);
    auto num = [&](std::optional<Rat> r) -> std::optional<int> {
      if (!r)
        return std::nullopt;
      return ratConst(*r, s);
    };
    if (name == "+" || name == "-" || name == "*") {
      std::optional<Rat> acc = v[0];
      for (size_t i = 1; i < v.size() && acc; ++i)
        acc = name == "+" ? addRat(*acc, v[i]) : name == "-" ? addRat(*acc, Rat{-v[i].n, v[i].d}) : mulRat(*acc, v[i]);
      return num(acc);
    }
    if (name == "neg")
      return num(Rat{-v[0].n, v[0].d});
    if (name == "abs")
      return num(Rat{v[0].n < 0 ? -v[0].n : v[0].n, v[0].d});
    if (name == "/" && v.size() == 2 && v[1].n != 0)
      return num(mulRat(v[0], *mkRat(v[1].d, v[1].n)));
    if (name == "min" || name == "max") {
      Rat best = v[0];
      for (const Rat &x : v) {
        auto c = cmpRat(x, best);
        if (!c)
          return std::nullopt;
        if (name == "min" ? *c < 0 : *c > 0)
          best = x;
      }
      return num(best);
    }
    if (name == "toreal")
      return ratConst(v[0], Sort::Real);
    if (name == "toint")
      return intConst(v[0].n / v[0].d); // C truncation toward zero
    if (name == "bool")
      return boolConst(v[0].n != 0);
    if (name == "not")
      return boolConst(v[0].n == 0);
    if (name == "and" || name == "or") {
      bool r = name == "and";
      for (const Rat &x : v)
        r = name == "and" ? r && x.n != 0 : r || x.n != 0;
      return boolConst(r);
    }
    if (v.size() == 2) {
      auto cc = cmpRat(v[0], v[1]);
      if (!cc)
        return std::nullopt;
      int c = *cc;
      if (name == "==")
        return boolConst(c == 0);
      if (name == "!=")
        return boolConst(c != 0);
      if (name == "<")
        return boolConst(c < 0);
      if (name == "<=")
        return boolConst(c <= 0);
      if (name == ">")
        return boolConst(c > 0);
      if (name == ">=")
        return boolConst(c >= 0);
    }
    return std::nullopt;
  }
};

// memo[root] = compute(root), computing the kids of every node first and without recursion:
// sums over a grid are chains thousands of nodes deep.
template <class Memo, class F>
auto postOrder(const std::vector<SNode> &nodes, int root, Memo &memo, F compute) -> decltype(memo.at(root)) {
  std::vector<int> todo{root};
  while (!todo.empty()) {
    int x = todo.back();
    if (memo.count(x)) {
      todo.pop_back();
      continue;
    }
    bool ready = true;
    for (int kid : nodes[x].kids)
      if (!memo.count(kid)) {
        todo.push_back(kid);
        ready = false;
      }
    if (!ready)
      continue;
    todo.pop_back();
    auto v = compute(x);
    memo.emplace(x, v);
  }
  return memo.at(root);
}

// ---- canonical forms ----------------------------------------------------------------------
// A number is a polynomial: a sum of c * monomial, a monomial a product of atoms with powers.
// Atoms are leaves, large constants, and applications whose arguments are canonical: exp(p),
// inv(p) = 1/p, n-ary max/min (flattened, sorted, deduplicated), ite(b, p, q), toint(p), and
// the conditions pos(p) (p > 0), nonneg(p) (p >= 0), zero(p) (p = 0, sign-normalised), not,
// and, or. Every rewrite is an identity of real arithmetic (plus, for max/min, that inputs
// are finite floats), so equal forms mean equal values; different forms decide nothing.

class Canon {
public:
  Canon(const Store &st) : st_(st) {
    trueId_ = atom("true", {});
    falseId_ = atom("false", {});
  }

  struct CV {
    bool isBool = false;
    int id = -1; // poly id, or the atom id of a condition
  };

  std::optional<CV> of(int node) {
    try {
      return get(node);
    } catch (const Fail &) {
      return std::nullopt;
    }
  }
  bool usedFloatRange() const { return usedFloatRange_; }

  // Whether every place where the kernel's term `got` may have no real value -- a division
  // by a non-constant, a function defined on part of the reals (sqrt, log, pow, ...) -- is
  // also one of the spec's term `want` (same operation, canonically equal arguments); if not,
  // `stray` shows the first that is not.
  bool partialsWithin(int got, int want, std::string &stray) {
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
  int garbageLeaf(int root) const {
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
  std::string show(int node) const { return text(node, 3); }

private:
  using Mono = std::vector<std::pair<int, int>>; // (atom, power), by atom
  using Poly = std::vector<std::pair<int, Rat>>; // (mono, coefficient), by mono
  static constexpr size_t kMaxTerms = 20000;

  const Store &st_;
  std::vector<std::pair<std::string, std::vector<int>>> atoms_;
  std::map<std::pair<std::string, std::vector<int>>, int> atomIds_;
  std::vector<double> atomBig_; // Big atoms: the value
  std::vector<Mono> monos_;
  std::map<Mono, int> monoIds_;
  std::vector<Poly> polys_;
  std::map<std::vector<std::tuple<int, i128, i128>>, int> polyIds_;
  std::unordered_map<int, CV> memo_;
  int trueId_ = -1, falseId_ = -1;
  bool usedFloatRange_ = false;

  int atom(const std::string &tag, std::vector<int> args, double big = 0) {
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
  int mono(const Mono &m) {
    auto it = monoIds_.find(m);
    if (it != monoIds_.end())
      return it->second;
    monos_.push_back(m);
    int id = static_cast<int>(monos_.size()) - 1;
    monoIds_.emplace(m, id);
    return id;
  }
  int poly(Poly p) {
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
  int constPoly(Rat r) {
    if (r.n == 0)
      return poly({});
    return poly({{mono({}), r}});
  }
  int atomPoly(int a) { return poly({{mono({{a, 1}}), Rat{1, 1}}}); }
  std::optional<Rat> constValue(int p) const {
    const Poly &x = polys_[p];
    if (x.empty())
      return Rat{0, 1};
    if (x.size() == 1 && monos_[x[0].first].empty())
      return x[0].second;
    return std::nullopt;
  }
  // The atom p is exactly (coefficient 1, power 1), or -1.
  int soleAtom(int p) const {
    const Poly &x = polys_[p];
    if (x.size() != 1 || !(x[0].second == Rat{1, 1}))
      return -1;
    const Mono &m = monos_[x[0].first];
    return m.size() == 1 && m[0].second == 1 ? m[0].first : -1;
  }

  static Rat must(std::optional<Rat> r) {
    if (!r)
      throw Fail{"a coefficient outside 128-bit rationals"};
    return *r;
  }

  // Sums of coefficients by monomial, and the polynomial they make.
  static void accumulate(std::map<int, Rat> &acc, int m, Rat c) {
    auto it = acc.find(m);
    if (it == acc.end())
      acc.emplace(m, c);
    else
      it->second = must(addRat(it->second, c));
  }
  int fromTerms(const std::map<int, Rat> &acc) {
    Poly p;
    for (const auto &[m, c] : acc)
      if (c.n != 0)
        p.emplace_back(m, c);
    if (p.size() > kMaxTerms)
      throw Fail{"a polynomial with over 20000 terms"};
    return poly(std::move(p));
  }

  int add(int a, int b, Rat scaleB = Rat{1, 1}) {
    std::map<int, Rat> acc;
    for (const auto &[m, c] : polys_[a])
      acc[m] = c;
    for (const auto &[m, c] : polys_[b])
      accumulate(acc, m, must(mulRat(c, scaleB)));
    return fromTerms(acc);
  }
  int scale(int a, Rat s) { return add(constPoly(Rat{0, 1}), a, s); }
  int mul(int a, int b) {
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

  // Conditions.
  int boolConst(bool b) const { return b ? trueId_ : falseId_; }
  int pos(int p) {
    if (auto c = constValue(p))
      return boolConst(c->n > 0);
    return atom("pos", {p});
  }
  int nonneg(int p) {
    if (auto c = constValue(p))
      return boolConst(c->n >= 0);
    return atom("nonneg", {p});
  }
  int zero(int p) {
    if (auto c = constValue(p))
      return boolConst(c->n == 0);
    if (polys_[p].front().second.n < 0)
      p = scale(p, Rat{-1, 1});
    return atom("zero", {p});
  }
  int lnot(int b) {
    if (b == trueId_)
      return falseId_;
    if (b == falseId_)
      return trueId_;
    if (atoms_[b].first == "not")
      return atoms_[b].second[0];
    return atom("not", {b});
  }
  int junction(bool isAnd, const std::vector<int> &xs) {
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

  int numeric(const CV &v) { // a condition used as a number: 1 or 0
    if (!v.isBool)
      return v.id;
    if (v.id == trueId_ || v.id == falseId_)
      return constPoly(Rat{v.id == trueId_ ? 1 : 0, 1});
    return atomPoly(atom("ite", {v.id, constPoly(Rat{1, 1}), constPoly(Rat{0, 1})}));
  }
  int condition(const CV &v) { // a number used as a condition: != 0
    return v.isBool ? v.id : lnot(zero(v.id));
  }

  // If p is a float input element or scalar (a finite float of its type): the largest
  // magnitude it can have (FLT_MAX or DBL_MAX), else 0.
  double inputRange(int p) const {
    int a = soleAtom(p);
    if (a < 0 || atoms_[a].first != "leaf")
      return 0;
    const SNode &n = st_.nodes[atoms_[a].second[0]];
    return n.input ? n.range : 0;
  }
  // p is a constant at or beyond -range (max) / range (min).
  bool beyondFloats(int p, bool isMax, double range) const {
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

  int extreme(bool isMax, const std::vector<int> &kids) {
    std::vector<int> polys;
    for (int k : kids)
      polys.push_back(numeric(get(k)));
    return extremeOf(isMax, polys);
  }
  int extremeOf(bool isMax, const std::vector<int> &polys) {
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

  static bool partialFunction(const std::string &n) {
    static const std::set<std::string> partial = {"sqrt", "log", "log2", "log10", "log1p", "pow", "acos",
                                                  "asin", "acosh", "atanh", "tan", "lgamma", "tgamma"};
    return partial.count(n) > 0;
  }
  // The nodes of a DAG that may have no real value: "/" by a non-constant, partial functions.
  std::vector<int> partialNodes(int root) {
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
  std::pair<std::string, std::vector<int>> partialKey(int node) {
    const SNode &n = st_.nodes[node];
    if (n.name == "/")
      return {"/", {numeric(get(n.kids[1]))}};
    std::vector<int> args;
    for (int k : n.kids)
      args.push_back(numeric(get(k)));
    return {n.name, args};
  }
  // A short rendering of a DAG node, for messages.
  std::string text(int node, int depth) const {
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

  CV num(int p) { return CV{false, p}; }
  CV cond(int b) { return CV{true, b}; }

  CV get(int node) { return postOrder(st_.nodes, node, memo_, [&](int x) { return compute(x); }); }

  CV compute(int node) {
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
};

// ---- the spec at concrete sizes, in the same DAG ------------------------------------------

class SpecTerms {
public:
  SpecTerms(const spec::Spec &s, const spec::Binding &b, const ir::Kernel &k, Store &st, const Sizes &sz)
      : s_(s), k_(k), st_(st) {
    for (const spec::Dim &d : s.dims)
      dims_.push_back(sz.at(d.name));
    for (const auto &[a, t] : b.tensorOfArray)
      arrayOf_[t] = a;
    scalars_.assign(s.scalars.size(), -1);
    for (const auto &[var, x] : b.scalarOfVar)
      if (spec::isFloat(s.scalars[x].type))
        scalars_[x] = st.param(k.vars[var]);
    consts_.assign(s.defines.size(), -1);
  }

  // Whether the sizes are admitted by the assumptions over dims; those over scalars become
  // facts (for the solver: the scalars are unknown).
  bool admitted() {
    for (const spec::TermPtr &a : s_.assumes) {
      std::vector<int> env;
      int v = eval(*a, env);
      auto c = st_.constOf(v);
      if (!c)
        facts.push_back(v);
      else if (c->n == 0)
        return false;
    }
    return true;
  }
  std::vector<int> facts;

  std::vector<int64_t> shape(int t) {
    std::vector<int64_t> sh;
    for (const spec::TermPtr &e : s_.tensors[t].extents) {
      std::vector<int> env;
      sh.push_back(concrete(eval(*e, env)));
    }
    return sh;
  }

  int element(int t, const std::vector<int64_t> &idx) {
    const spec::Ensures &e = s_.ensures[s_.tensors[t].ensures];
    std::vector<int> env(static_cast<size_t>(e.numSlots), -1);
    for (size_t i = 0; i < idx.size(); ++i)
      env[i] = st_.intConst(idx[i]);
    return eval(*e.body, env);
  }

private:
  const spec::Spec &s_;
  const ir::Kernel &k_;
  Store &st_;
  std::vector<int64_t> dims_;
  std::map<int, int> arrayOf_;
  std::vector<int> scalars_;
  std::vector<int> consts_;
  std::map<std::vector<int>, int> calls_;
  std::map<int, std::vector<int64_t>> shapes_;

  int64_t concrete(int id) {
    auto c = st_.constOf(id);
    if (!c || c->d != 1)
      throw Fail{"an index or range of the spec depends on tensor values"};
    return static_cast<int64_t>(c->n);
  }
  int op(const std::string &name, std::vector<int> a) {
    int r = st_.op(name, a);
    if (r < 0)
      throw Fail{"the spec's '" + name + "' has no symbolic form"};
    return r;
  }

  int read(const spec::Term &t, std::vector<int> &env) {
    auto sh = shapes_.find(t.ref);
    if (sh == shapes_.end())
      sh = shapes_.emplace(t.ref, shape(t.ref)).first;
    int64_t flat = 0;
    for (size_t i = 0; i < t.args.size(); ++i) {
      int64_t x = concrete(eval(*t.args[i], env));
      if (x < 0 || x >= sh->second[i])
        throw Fail{"the spec reads " + s_.tensors[t.ref].name + " outside its shape"};
      flat = flat * sh->second[i] + x;
    }
    auto a = arrayOf_.find(t.ref);
    if (a == arrayOf_.end())
      throw Fail{"tensor '" + s_.tensors[t.ref].name + "' is bound to no kernel parameter"};
    return st_.cell(k_.arrays[a->second], flat, false, -1);
  }

  int eval(const spec::Term &t, std::vector<int> &env) {
    using spec::Op;
    auto a = [&](size_t i) { return eval(*t.args[i], env); };
    switch (t.op) {
    case Op::IntLit: return st_.intConst(t.ival);
    case Op::RealLit: return st_.ratConst(*mkRat(t.num, t.den), Sort::Real);
    case Op::BoolLit: return st_.boolConst(t.ival != 0);
    case Op::Dim: return st_.intConst(dims_[t.ref]);
    case Op::Scalar:
      if (scalars_[t.ref] < 0)
        throw Fail{"Int scalar '" + s_.scalars[t.ref].name + "' (its values are not enumerated)"};
      return scalars_[t.ref];
    case Op::Var: return env[t.ref];
    case Op::Const:
      if (consts_[t.ref] < 0) {
        std::vector<int> e2(static_cast<size_t>(s_.defines[t.ref].numSlots), -1);
        consts_[t.ref] = eval(*s_.defines[t.ref].body, e2);
      }
      return consts_[t.ref];
    case Op::Call: {
      const spec::Define &d = s_.defines[t.ref];
      std::vector<int> e2(static_cast<size_t>(d.numSlots), -1);
      std::vector<int> key{t.ref};
      for (size_t i = 0; i < t.args.size(); ++i) {
        e2[i] = a(i);
        key.push_back(e2[i]);
      }
      auto hit = calls_.find(key);
      if (hit != calls_.end())
        return hit->second;
      int v = eval(*d.body, e2);
      calls_.emplace(std::move(key), v);
      return v;
    }
    case Op::Read:
    case Op::Old: return read(t, env);
    case Op::Ite: {
      int c = a(0);
      if (auto cv = st_.constOf(c))
        return cv->n != 0 ? a(1) : a(2);
      return op("ite", {c, a(1), a(2)});
    }
    case Op::Let: {
      size_t n = t.letVars.size();
      std::vector<int> vals;
      for (size_t i = 0; i < n; ++i)
        vals.push_back(a(i));
      for (size_t i = 0; i < n; ++i)
        env[static_cast<size_t>(t.ref) + i] = vals[i];
      return a(n);
    }
    case Op::And:
    case Op::Or: {
      std::vector<int> xs;
      for (size_t i = 0; i < t.args.size(); ++i)
        xs.push_back(a(i));
      return op(t.op == Op::And ? "and" : "or", xs);
    }
    case Op::Not: return op("not", {a(0)});
    case Op::Implies: {
      int r = a(t.args.size() - 1);
      for (size_t i = t.args.size() - 1; i-- > 0;)
        r = op("or", {op("not", {a(i)}), r});
      return r;
    }
    case Op::Eq:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      const char *name = t.op == Op::Eq ? "==" : t.op == Op::Lt ? "<" : t.op == Op::Le ? "<=" : t.op == Op::Gt ? ">" : ">=";
      std::vector<int> parts;
      for (size_t i = 0; i + 1 < t.args.size(); ++i)
        parts.push_back(op(name, {a(i), a(i + 1)}));
      return parts.size() == 1 ? parts[0] : op("and", parts);
    }
    case Op::Distinct: {
      std::vector<int> vs, parts;
      for (size_t i = 0; i < t.args.size(); ++i)
        vs.push_back(a(i));
      for (size_t x = 0; x < vs.size(); ++x)
        for (size_t y = x + 1; y < vs.size(); ++y)
          parts.push_back(op("!=", {vs[x], vs[y]}));
      return op("and", parts);
    }
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div: {
      const char *name = t.op == Op::Add ? "+" : t.op == Op::Sub ? "-" : t.op == Op::Mul ? "*" : "/";
      int acc = a(0);
      for (size_t i = 1; i < t.args.size(); ++i) {
        int x = a(i);
        if (t.op == Op::Div)
          if (auto c = st_.constOf(x); c && c->n == 0)
            throw Fail{"a division by zero in the spec"};
        acc = op(name, {acc, x});
      }
      return acc;
    }
    case Op::Neg: return op("neg", {a(0)});
    case Op::IntDiv:
    case Op::Mod: {
      i128 x = concrete(a(0)), y = concrete(a(1));
      if (y == 0)
        throw Fail{"div or mod by zero in the spec"};
      i128 q = x / y, r = x % y; // SMT-LIB: Euclidean
      if (r < 0) {
        r += y < 0 ? -y : y;
        q = y < 0 ? q + 1 : q - 1;
      }
      return st_.intConst(t.op == Op::IntDiv ? q : r);
    }
    case Op::Abs: return op("abs", {a(0)});
    case Op::Max:
    case Op::Min: {
      std::vector<int> xs;
      for (size_t i = 0; i < t.args.size(); ++i)
        xs.push_back(a(i));
      return op(t.op == Op::Max ? "max" : "min", xs);
    }
    case Op::ToReal: return op("toreal", {a(0)});
    case Op::Fn: {
      std::vector<int> xs;
      for (size_t i = 0; i < t.args.size(); ++i)
        xs.push_back(a(i));
      return op(t.name, xs);
    }
    default: break;
    }
    // Range binders, unrolled.
    int64_t lo = concrete(a(0)), hi = concrete(a(1));
    if (lo >= hi && spec::needsNonEmptyRange(t.op))
      throw Fail{std::string(spec::opKeyword(t.op)) + " over an empty range"};
    if (hi - lo > 100000)
      throw Fail{"a range of over 100000 terms"};
    const spec::Term &body = *t.args[2];
    bool real = body.sort == Sort::Real;
    std::vector<int> vals;
    for (int64_t x = lo; x < hi; ++x) {
      env[t.ref] = st_.intConst(x);
      vals.push_back(eval(body, env));
    }
    switch (t.op) {
    case Op::Sum:
    case Op::Prod: {
      int acc = t.op == Op::Sum ? (real ? st_.ratConst(Rat{0, 1}, Sort::Real) : st_.intConst(0))
                                : (real ? st_.ratConst(Rat{1, 1}, Sort::Real) : st_.intConst(1));
      for (int v : vals)
        acc = op(t.op == Op::Sum ? "+" : "*", {acc, v});
      return acc;
    }
    case Op::MaxOver:
    case Op::MinOver: return vals.size() == 1 ? vals[0] : op(t.op == Op::MaxOver ? "max" : "min", vals);
    default: {
      // argmax/argmin: the first index attaining the extreme (strict comparison), as a chain
      // of ites in index order.
      bool isMax = t.op == Op::ArgmaxOver;
      int best = vals[0], at = st_.intConst(lo);
      for (size_t i = 1; i < vals.size(); ++i) {
        int better = op(isMax ? ">" : "<", {vals[i], best});
        best = op("ite", {better, vals[i], best});
        at = op("ite", {better, st_.intConst(lo + static_cast<int64_t>(i)), at});
      }
      return at;
    }
    }
  }
};

// ---- Z3, for elements whose canonical forms differ -----------------------------------------

class ToSmt {
public:
  ToSmt(const Store &st, smt::TermContext &tc) : st_(st), tc_(tc) {}

  smt::Term real(int node) { return asSort(get(node), Sort::Real); }
  smt::Term boolean(int node) { return asSort(get(node), Sort::Bool); }
  // Input leaves met so far, with their terms.
  const std::map<int, smt::Term> &leaves() const { return leaves_; }

  smt::Term bigConst(double v) {
    // v = m * 2^e with |m| < 2^53: a product of constants that fit.
    int e = 0;
    double m = std::frexp(v, &e);
    i128 mant = static_cast<i128>(std::ldexp(m, 53));
    e -= 53;
    smt::Term t = tc_.realConst(mant);
    while (e > 0) {
      int step = std::min(e, 60);
      t = tc_.mul(t, tc_.realConst(static_cast<i128>(1) << step));
      e -= step;
    }
    if (e < 0)
      throw Fail{"a tiny constant"};
    return t;
  }

private:
  const Store &st_;
  smt::TermContext &tc_;
  std::unordered_map<int, smt::Term> memo_;
  std::map<int, smt::Term> leaves_;

  Sort sortOf(smt::Term t) const {
    return t->sort == smt::Sort::Bool ? Sort::Bool : t->sort == smt::Sort::Int ? Sort::Int : Sort::Real;
  }
  smt::Term asSort(smt::Term t, Sort s) {
    Sort have = sortOf(t);
    if (have == s)
      return t;
    if (have == Sort::Bool)
      return s == Sort::Int ? tc_.ite(t, tc_.intConst(1), tc_.intConst(0))
                            : tc_.ite(t, tc_.realConst(1), tc_.realConst(0));
    if (s == Sort::Bool)
      return tc_.ne(t, have == Sort::Int ? tc_.intConst(0) : tc_.realConst(0));
    if (s == Sort::Real)
      return tc_.toReal(t);
    throw Fail{"a real value where an integer is needed"};
  }
  smt::Term num(smt::Term t, bool real) { return asSort(t, real ? Sort::Real : Sort::Int); }

  smt::Term get(int node) { return postOrder(st_.nodes, node, memo_, [&](int x) { return compute(x); }); }

  smt::Term compute(int node) {
    const SNode &n = st_.nodes[node];
    switch (n.kind) {
    case NK::Leaf: {
      smt::Term v = tc_.var("in!" + std::to_string(node), n.sort == Sort::Int ? smt::Sort::Int : smt::Sort::Real);
      if (n.input)
        leaves_.emplace(node, v);
      return v;
    }
    case NK::Const:
      if (n.sort == Sort::Bool)
        return tc_.boolConst(n.q.n != 0);
      if (n.sort == Sort::Int)
        return tc_.intConst(n.q.n);
      return tc_.realConst(n.q.n, n.q.d);
    case NK::Big:
      if (!std::isfinite(n.big))
        throw Fail{"an infinite constant"};
      return bigConst(n.big);
    case NK::Op: break;
    }
    const std::string &o = n.name;
    bool real = n.sort == Sort::Real;
    std::vector<smt::Term> k;
    for (int c : n.kids)
      k.push_back(get(c));
    auto R = [&](size_t i) { return num(k[i], real); };
    auto B = [&](size_t i) { return asSort(k[i], Sort::Bool); };
    auto cmpReal = [&]() {
      bool r = sortOf(k[0]) == Sort::Real || sortOf(k[1]) == Sort::Real;
      return std::make_pair(num(k[0], r), num(k[1], r));
    };
    if (o == "+" || o == "-" || o == "*") {
      smt::Term acc = R(0);
      for (size_t i = 1; i < k.size(); ++i)
        acc = o == "+" ? tc_.add(acc, R(i)) : o == "-" ? tc_.sub(acc, R(i)) : tc_.mul(acc, R(i));
      return acc;
    }
    if (o == "neg")
      return tc_.neg(R(0));
    if (o == "/")
      return tc_.realDiv(num(k[0], true), num(k[1], true));
    if (o == "toreal")
      return num(k[0], true);
    if (o == "abs") {
      smt::Term x = R(0);
      return tc_.ite(tc_.lt(x, real ? tc_.realConst(0) : tc_.intConst(0)), tc_.neg(x), x);
    }
    if (o == "min" || o == "max") {
      smt::Term acc = R(0);
      for (size_t i = 1; i < k.size(); ++i) {
        smt::Term x = R(i);
        acc = tc_.ite(o == "max" ? tc_.gt(x, acc) : tc_.lt(x, acc), x, acc);
      }
      return acc;
    }
    if (o == "<" || o == "<=" || o == ">" || o == ">=" || o == "==" || o == "!=") {
      auto [x, y] = cmpReal();
      if (o == "<")
        return tc_.lt(x, y);
      if (o == "<=")
        return tc_.le(x, y);
      if (o == ">")
        return tc_.gt(x, y);
      if (o == ">=")
        return tc_.ge(x, y);
      return o == "==" ? tc_.eq(x, y) : tc_.ne(x, y);
    }
    if (o == "not")
      return tc_.mkNot(B(0));
    if (o == "bool")
      return B(0);
    if (o == "and" || o == "or") {
      std::vector<smt::Term> xs;
      for (size_t i = 0; i < k.size(); ++i)
        xs.push_back(B(i));
      return o == "and" ? tc_.mkAnd(xs) : tc_.mkOr(xs);
    }
    if (o == "ite") {
      Sort s = n.sort;
      if (sortOf(k[1]) == Sort::Bool && sortOf(k[2]) == Sort::Bool)
        s = Sort::Bool;
      return tc_.ite(B(0), asSort(k[1], s), asSort(k[2], s));
    }
    if (o == "toint")
      return tc_.app("toint", smt::Sort::Int, {num(k[0], true)});
    std::vector<smt::Term> args;
    for (size_t i = 0; i < k.size(); ++i)
      args.push_back(num(k[i], true));
    return tc_.app(o, smt::Sort::Real, args);
  }
};

// ---- the driver ---------------------------------------------------------------------------

std::vector<Rat> specConstants(const spec::Spec &s) {
  std::vector<Rat> out;
  std::function<void(const spec::Term &)> walk = [&](const spec::Term &t) {
    if (t.op == spec::Op::RealLit)
      if (auto r = mkRat(t.num, t.den))
        out.push_back(*r);
    for (const spec::TermPtr &a : t.args)
      walk(*a);
  };
  for (const spec::Ensures &e : s.ensures)
    walk(*e.body);
  for (const spec::Define &d : s.defines)
    walk(*d.body);
  for (const spec::TermPtr &a : s.assumes)
    walk(*a);
  return out;
}

double randomReal(std::mt19937 &rng) { return (static_cast<int>(rng() % 33) - 16) / 8.0; }

// Size tuples with every dim in [1, level] and at least one equal to level.
std::vector<Sizes> levelTuples(const spec::Spec &s, int level) {
  std::vector<Sizes> out;
  size_t n = s.dims.size();
  std::vector<int64_t> cur(n, 1);
  while (true) {
    if (std::find(cur.begin(), cur.end(), level) != cur.end() || n == 0) {
      Sizes sz;
      for (size_t i = 0; i < n; ++i)
        sz[s.dims[i].name] = cur[i];
      out.push_back(sz);
    }
    size_t i = 0;
    while (i < n && ++cur[i] > level)
      cur[i++] = 1;
    if (i == n)
      break;
  }
  return out;
}

} // namespace

BoundedReport boundedCheck(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b,
                           const BoundedOptions &o) {
  BoundedReport rep;
  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&]() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto finish = [&]() {
    rep.ms = elapsed() * 1000;
    return rep;
  };
  if (!o.block[0] && !o.block[1] && !o.block[2]) {
    rep.stopped = "no launch (a '// ksynth:launch' line or --block/--grid)";
    return finish();
  }
  for (const spec::Scalar &x : s.scalars)
    if (!spec::isFloat(x.type)) {
      rep.stopped = "Int scalar '" + x.name + "': its values would have to be enumerated too";
      return finish();
    }
  std::vector<Rat> consts = specConstants(s);
  std::map<int, int> arrayOfTensor;
  for (const auto &[a, t] : b.tensorOfArray)
    arrayOfTensor[t] = a;
  std::set<std::string> notes;
  bool floatRange = false;
  unsigned tupleNo = 0;

  for (int level = 1; level <= o.bound; ++level) {
    int admittedHere = 0;
    for (const Sizes &sz : levelTuples(s, level)) {
      if (elapsed() > o.budgetSeconds) {
        rep.stopped = "the time budget (" + std::to_string(static_cast<int>(o.budgetSeconds)) + " s) ran out at " +
                      sizesText(sz);
        rep.result = rep.reached > 0 ? BoundedReport::Result::Agrees : BoundedReport::Result::Stopped;
        return finish();
      }
      auto stop = [&](const std::string &why) {
        rep.stopped = sizesText(sz) + ": " + why;
        rep.result = rep.reached > 0 ? BoundedReport::Result::Agrees : BoundedReport::Result::Stopped;
        return finish();
      };
      Store st(k, consts);
      SpecTerms spec(s, b, k, st, sz);
      try {
        if (!spec.admitted())
          continue;
      } catch (const Fail &f) {
        return stop(f.why);
      }
      // Concrete values to steer the run: random inputs, as the tests draw them.
      std::mt19937 rng(o.seed * 104729u + tupleNo++);
      spec::Inputs in;
      in.dims = sz;
      for (const spec::Scalar &x : s.scalars)
        in.scalars[x.name] = spec::isFloat(x.type) ? randomReal(rng) : 1.0;
      std::map<int, std::vector<int64_t>> shapes;
      try {
        for (size_t t = 0; t < s.tensors.size(); ++t) {
          shapes[static_cast<int>(t)] = spec.shape(static_cast<int>(t));
          const spec::Tensor &T = s.tensors[t];
          if (T.mode == spec::Mode::Out)
            continue;
          spec::TensorValue tv;
          tv.shape = shapes[static_cast<int>(t)];
          int64_t cnt = 1;
          for (int64_t e : tv.shape)
            cnt *= e;
          for (int64_t i = 0; i < cnt; ++i)
            tv.data.push_back(spec::isFloat(T.type) ? randomReal(rng) : static_cast<double>(rng() % 9));
          in.tensors[T.name] = std::move(tv);
        }
      } catch (const Fail &f) {
        return stop(f.why);
      }
      // Scalars that satisfy the spec's assumptions (eps > 0), so that a replay on these
      // inputs can refute (a few draws; the run itself does not depend on them).
      for (int attempt = 0; attempt < 8 && !s.scalars.empty(); ++attempt) {
        spec::EvalResult ev = spec::evaluate(s, in);
        if (ev.ok() || ev.error.find("assumption") == std::string::npos)
          break;
        for (const spec::Scalar &x : s.scalars)
          in.scalars[x.name] = randomReal(rng);
      }
      LaunchEnv le = launchEnv(k, s, b, in, o.block, o.grid);
      if (le.preconditionFails) {
        ++rep.excluded; // not a size the kernel admits
        continue;
      }
      if (!le.ok)
        return stop(le.why);
      le.env.symbolic = &st;
      interp::GridRun run = interp::runGrid(k, le.env);
      if (!run.completed && run.error == "assumption violated" && st.dependence.empty()) {
        ++rep.excluded; // the kernel's own precondition excludes these sizes
        continue;
      }
      if (!run.completed)
        return stop("the run stopped: " + run.error);
      if (!run.faults.empty())
        return stop("the run faulted (the safety obligations speak for it)");
      if (!st.dependence.empty())
        return stop("one run cannot stand for every input (" + st.dependence + ")");
      ++admittedHere;

      // Compare every output element; a failure is replayed on the concrete tests.
      auto replay = [&](const std::optional<spec::Inputs> &given, const std::string &what) {
        ConcreteOptions co;
        co.block = o.block;
        co.grid = o.grid;
        co.sizes = {sz};
        co.inputs = given;
        co.seed = o.seed;
        ConcreteReport cr = testAgainstSpec(k, s, b, co);
        if (cr.outcome != Outcome::Agrees) {
          rep.result = BoundedReport::Result::Refuted;
          rep.refutation = cr;
          return finish();
        }
        return stop(what + "; the concrete replay did not show a difference");
      };
      Canon canon(st);
      for (size_t t = 0; t < s.tensors.size(); ++t) {
        const spec::Tensor &T = s.tensors[t];
        if (T.mode == spec::Mode::In)
          continue;
        int a = arrayOfTensor.at(static_cast<int>(t));
        const std::vector<int64_t> &shape = shapes.at(static_cast<int>(t));
        int64_t cnt = 1;
        for (int64_t e : shape)
          cnt *= e;
        for (int64_t e = 0; e < cnt; ++e) {
          std::vector<int64_t> idx(shape.size());
          for (size_t d = shape.size(), rest = static_cast<size_t>(e); d-- > 0;) {
            idx[d] = static_cast<int64_t>(rest % static_cast<size_t>(shape[d]));
            rest /= static_cast<size_t>(shape[d]);
          }
          std::string elem = T.name;
          for (int64_t x : idx)
            elem += "[" + std::to_string(x) + "]";
          auto w = run.writers.find({a, e});
          if (w == run.writers.end() && T.mode == spec::Mode::Out)
            return replay(std::nullopt, elem + " is never written");
          if (w != run.writers.end() && w->second.threads.size() > 1 && !w->second.atomic)
            return replay(std::nullopt, elem + " is written by two threads");
          int got = -1;
          if (w != run.writers.end()) {
            const interp::Value &v = run.memory.at({a, e});
            got = v.sym >= 0 ? v.sym : st.constant(v, false);
          } else {
            got = st.cell(k.arrays[a], e, false, -1); // inout, untouched
          }
          if (got < 0)
            return stop(elem + ": the kernel stores a value with no real counterpart (an infinity or NaN)");
          int want;
          try {
            want = spec.element(static_cast<int>(t), idx);
          } catch (const Fail &f) {
            return stop(elem + ": " + f.why);
          }
          // Before agreeing: the kernel may divide only by what the spec divides by. Where a
          // divisor of the kernel's alone is 0, the GPU computes an infinity or NaN and the
          // spec a number.
          // Nor may it depend on memory it did not write, which may hold NaN or infinity.
          auto divisorsOk = [&]() {
            int g = canon.garbageLeaf(got);
            if (g >= 0) {
              stop(elem + ": the kernel's value depends on " + canon.show(g) +
                   ", memory the launch did not write (it may hold NaN or infinity)");
              return false;
            }
            std::string stray;
            if (canon.partialsWithin(got, want, stray))
              return true;
            stop(elem + ": the kernel computes " + stray +
                 ", which the spec does not; where that has no real value (a divisor 0, sqrt or log of a "
                 "negative) the kernel computes none");
            return false;
          };
          auto cg = canon.of(got), cw = canon.of(want);
          if (cg && cw && cg->id == cw->id && cg->isBool == cw->isBool) {
            if (!divisorsOk())
              return finish();
            continue;
          }
          // Different forms: first the concrete replay on the inputs that steered the run
          // (cheap, and often enough), then the solver.
          {
            ConcreteOptions co;
            co.block = o.block;
            co.grid = o.grid;
            co.inputs = in;
            co.seed = o.seed;
            ConcreteReport cr = testAgainstSpec(k, s, b, co);
            if (cr.outcome != Outcome::Agrees) {
              rep.result = BoundedReport::Result::Refuted;
              rep.refutation = cr;
              return finish();
            }
          }
          // Z3: kernel != spec for some finite-float inputs?
          ++rep.solverQueries;
          if (!divisorsOk())
            return finish();
          if (std::max(st.nodes[got].depth, st.nodes[want].depth) > 2000)
            return stop(elem + ": the terms differ in form and are too deep for the solver");
          smt::TermContext tc;
          ToSmt tr(st, tc);
          smt::Result r;
          try {
            smt::Term goal = tc.ne(tr.real(got), tr.real(want));
            smt::Solver sv(tc, o.solverMs);
            for (int f : spec.facts)
              sv.addBackground(tr.boolean(f));
            for (const auto &[node, v] : tr.leaves())
              if (v->sort == smt::Sort::Real && st.nodes[node].range > 0) {
                smt::Term lim = tr.bigConst(st.nodes[node].range);
                sv.addBackground(tc.mkAnd(tc.le(tc.neg(lim), v), tc.le(v, lim)));
              }
            r = sv.check(goal);
          } catch (const Fail &f) {
            return stop(elem + ": " + f.why);
          }
          if (r.status == smt::Status::Unsat) {
            floatRange = true;
            continue;
          }
          if (r.status == smt::Status::Unknown)
            return stop(elem + ": the solver gave up (" + r.reason + ")");
          // sat: the model's inputs, replayed.
          spec::Inputs given = in;
          for (const auto &[node, v] : tr.leaves()) {
            auto mv = r.model.find(v);
            if (mv == r.model.end())
              continue;
            double x = static_cast<double>(mv->second.num) / static_cast<double>(mv->second.den);
            const SNode &n = st.nodes[node];
            if (n.array >= 0) {
              auto tt = b.tensorOfArray.find(n.array);
              if (tt != b.tensorOfArray.end())
                given.tensors[s.tensors[tt->second].name].data.at(static_cast<size_t>(n.flat)) = x;
            } else if (n.var >= 0) {
              auto sx = b.scalarOfVar.find(n.var);
              if (sx != b.scalarOfVar.end())
                given.scalars[s.scalars[sx->second].name] = x;
            }
          }
          return replay(given, elem + ": Z3 finds inputs on which the kernel's value differs from the spec's");
        }
      }
      floatRange |= canon.usedFloatRange();
      for (const std::string &n : st.notes)
        notes.insert(n);
      ++rep.tuples;
    }
    (void)admittedHere;
    rep.reached = level;
    rep.levelMs.emplace_back(level, elapsed() * 1000);
  }
  rep.result = rep.tuples > 0 ? BoundedReport::Result::Agrees : BoundedReport::Result::Stopped;
  if (rep.tuples == 0)
    rep.stopped = "the spec admits no sizes with every dim <= " + std::to_string(o.bound);
  if (floatRange)
    notes.insert("float inputs are finite values of their type (f32 within FLT_MAX, f64 within DBL_MAX)");
  rep.assumptions.assign(notes.begin(), notes.end());
  return finish();
}

} // namespace ksynth::equiv
