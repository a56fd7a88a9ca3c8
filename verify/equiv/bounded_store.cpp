// Bounded equivalence: the term DAG both sides are built in (Store).
#include "verify/equiv/bounded_detail.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>

namespace ksynth::equiv::bounded_detail {

// ---- the term DAG both sides are built in -------------------------------------------------

int Store::cell(const ir::Array &a, int64_t flat, bool stale, int64_t owner) {
  SNode n;
  n.kind = NK::Leaf;
  n.sort = a.elem.isFloat() ? Sort::Real : Sort::Int;
  n.name = (stale ? "stale " : "") + a.name + "[" + std::to_string(flat) + "]" +
           (owner >= 0 ? " in block " + std::to_string(owner) : "") +
           (owner <= -2 ? " in thread " + std::to_string(-2 - owner) : "") + "#" +
           std::to_string(&a - k_.arrays.data());
  n.input = !stale;
  if (!stale && a.elem.isFloat())
    n.range = a.elem.largestFinite();
  n.array = static_cast<int>(&a - k_.arrays.data());
  n.flat = flat;
  return intern(std::move(n));
}

int Store::param(const ir::Var &v) {
  SNode n;
  n.kind = NK::Leaf;
  n.name = v.name + "#p" + std::to_string(&v - k_.vars.data());
  n.input = true;
  n.range = v.type.isFloat() ? v.type.largestFinite() : 0;
  n.var = static_cast<int>(&v - k_.vars.data());
  return intern(std::move(n));
}

int Store::unknown(const std::string &what) {
  SNode n;
  n.kind = NK::Leaf;
  n.name = "unknown " + std::to_string(unknowns_++) + ": " + what;
  return intern(std::move(n));
}

int Store::constant(const interp::Value &v, bool literal) {
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

int Store::ratConst(Rat r, Sort s) {
  SNode n;
  n.kind = NK::Const;
  n.sort = s;
  n.q = r;
  return intern(std::move(n));
}

std::optional<Rat> Store::constOf(int id) const {
  if (nodes[id].kind == NK::Const)
    return nodes[id].q;
  return std::nullopt;
}

int Store::op(const std::string &name, const std::vector<int> &a) {
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

int Store::intern(SNode n) {
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

Sort Store::resultSort(const std::string &name, const std::vector<int> &a) const {
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
std::optional<int> Store::fold(const std::string &name, const std::vector<int> &a) {
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

} // namespace ksynth::equiv::bounded_detail
