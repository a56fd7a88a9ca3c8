// Bounded equivalence: the parts the bounded_*.cpp files share (internal to verify/equiv).
#pragma once

#include "verify/equiv/bounded.h"

#include "verify/interp/interp.h"
#include "verify/smt/term.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

// The check itself (boundedCheck) is in bounded.cpp; each part below is defined in the file
// its ruler names, and documented there.
namespace ksynth::equiv::bounded_detail {

using i128 = __int128;
using spec::Sort;

// ---- exact rationals (128-bit; an overflow is reported, never wrapped) (bounded_rat.cpp) --
struct Rat {
  i128 n = 0, d = 1;
  bool operator==(const Rat &o) const { return n == o.n && d == o.d; }
  bool operator<(const Rat &o) const { return n * o.d < o.n * d; } // only for small values
};

i128 gcd128(i128 a, i128 b);
std::optional<Rat> mkRat(i128 n, i128 d);
std::optional<Rat> addRat(Rat a, Rat b);
std::optional<Rat> mulRat(Rat a, Rat b);
std::optional<int> cmpRat(Rat a, Rat b);
std::optional<Rat> exactRat(double f);
double ratDouble(Rat r);
std::string i128Text(i128 v);

struct Fail { // the element or tuple cannot be decided (why)
  std::string why;
};

// ---- the term DAG both sides are built in (bounded_store.cpp) -----------------------------
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

  int cell(const ir::Array &a, int64_t flat, bool stale, int64_t owner) override;
  int param(const ir::Var &v) override;
  int unknown(const std::string &what) override;
  int constant(const interp::Value &v, bool literal) override;
  bool isConstant(int id) const override { return nodes[id].kind == NK::Const || nodes[id].kind == NK::Big; }
  int intConst(i128 v) { return ratConst(Rat{v, 1}, Sort::Int); }
  int boolConst(bool b) { return ratConst(Rat{b ? 1 : 0, 1}, Sort::Bool); }
  int ratConst(Rat r, Sort s);
  std::optional<Rat> constOf(int id) const;
  int op(const std::string &name, const std::vector<int> &a) override;

private:
  const ir::Kernel &k_;
  std::vector<Rat> specConsts_;
  std::unordered_map<std::string, int> table_;
  int unknowns_ = 0;

  int intern(SNode n);
  Sort resultSort(const std::string &name, const std::vector<int> &a) const;
  std::optional<int> fold(const std::string &name, const std::vector<int> &a);
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

// ---- canonical forms (bounded_canon.cpp) --------------------------------------------------
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

  std::optional<CV> of(int node);
  bool usedFloatRange() const { return usedFloatRange_; }
  bool partialsWithin(int got, int want, std::string &stray);
  int garbageLeaf(int root) const;
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

  int atom(const std::string &tag, std::vector<int> args, double big = 0);
  int mono(const Mono &m);
  int poly(Poly p);
  int constPoly(Rat r);
  int atomPoly(int a) { return poly({{mono({{a, 1}}), Rat{1, 1}}}); }
  std::optional<Rat> constValue(int p) const;
  int soleAtom(int p) const;
  static Rat must(std::optional<Rat> r);
  static void accumulate(std::map<int, Rat> &acc, int m, Rat c);
  int fromTerms(const std::map<int, Rat> &acc);
  int add(int a, int b, Rat scaleB = Rat{1, 1});
  int scale(int a, Rat s) { return add(constPoly(Rat{0, 1}), a, s); }
  int mul(int a, int b);

  // Conditions.
  int boolConst(bool b) const { return b ? trueId_ : falseId_; }
  int pos(int p);
  int nonneg(int p);
  int zero(int p);
  int lnot(int b);
  int junction(bool isAnd, const std::vector<int> &xs);
  int numeric(const CV &v);

  int condition(const CV &v) { // a number used as a condition: != 0
    return v.isBool ? v.id : lnot(zero(v.id));
  }

  double inputRange(int p) const;
  bool beyondFloats(int p, bool isMax, double range) const;
  int extreme(bool isMax, const std::vector<int> &kids);
  int extremeOf(bool isMax, const std::vector<int> &polys);
  static bool partialFunction(const std::string &n);
  std::vector<int> partialNodes(int root);
  std::pair<std::string, std::vector<int>> partialKey(int node);
  std::string text(int node, int depth) const;
  CV num(int p) { return CV{false, p}; }
  CV cond(int b) { return CV{true, b}; }
  CV get(int node) { return postOrder(st_.nodes, node, memo_, [&](int x) { return compute(x); }); }
  CV compute(int node);
};

// ---- the spec at concrete sizes, in the same DAG (bounded_spec.cpp) -----------------------
class SpecTerms {
public:
  SpecTerms(const spec::Spec &s, const spec::Binding &b, const ir::Kernel &k, Store &st, const Sizes &sz);
  bool admitted();

  std::vector<int> facts;

  std::vector<int64_t> shape(int t);
  int element(int t, const std::vector<int64_t> &idx);

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

  int64_t concrete(int id);
  int op(const std::string &name, std::vector<int> a);
  int read(const spec::Term &t, std::vector<int> &env);
  int eval(const spec::Term &t, std::vector<int> &env);
};

// ---- Z3, for elements whose canonical forms differ (bounded_smt.cpp) -----------------------
class ToSmt {
public:
  ToSmt(const Store &st, smt::TermContext &tc) : st_(st), tc_(tc) {}
  smt::Term real(int node) { return asSort(get(node), Sort::Real); }
  smt::Term boolean(int node) { return asSort(get(node), Sort::Bool); }

  // Input leaves met so far, with their terms.
  const std::map<int, smt::Term> &leaves() const { return leaves_; }

  smt::Term bigConst(double v);

private:
  const Store &st_;
  smt::TermContext &tc_;
  std::unordered_map<int, smt::Term> memo_;
  std::map<int, smt::Term> leaves_;

  Sort sortOf(smt::Term t) const {
    return t->sort == smt::Sort::Bool ? Sort::Bool : t->sort == smt::Sort::Int ? Sort::Int : Sort::Real;
  }

  smt::Term asSort(smt::Term t, Sort s);
  smt::Term num(smt::Term t, bool real) { return asSort(t, real ? Sort::Real : Sort::Int); }
  smt::Term get(int node) { return postOrder(st_.nodes, node, memo_, [&](int x) { return compute(x); }); }
  smt::Term compute(int node);
};

} // namespace ksynth::equiv::bounded_detail
