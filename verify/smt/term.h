// Symbolic terms over Int, Real and Bool: the values the symbolic executor computes and the
// formulas the checkers decide. Terms are immutable and hash-consed in a TermContext (one per
// verification), so structural equality is pointer equality.
//
// Canonical form, enforced by the constructors (consumers may rely on it):
//  - Constants are folded; `x + 0`, `x * 1`, `x * 0`, `ite(true, a, b)`, `and(true, x)`, ...
//    simplify away.
//  - Int sums are linear normal forms: an `Add` node holds terms `c * t` (a `Mul` with a
//    constant first operand, or `t` itself when c = 1) sorted by term id, and at most one
//    constant, last. Multiplying a sum by a constant distributes.
//  - Non-constant products are `Mul` nodes with operands sorted by id.
//  - `Div`/`Mod` are SMT-LIB's Euclidean integer division (the checker encodes C's
//    truncating division on top). By a positive constant y, a linear y*q + r with
//    0 <= r < y by the known ranges (setBounds) folds to q and r.
// Adding a node kind: add it to Kind, to the constructor and folding in term.cpp, to
// eval(), to the SMT-LIB printer and to the Z3 translation in solver.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ksynth::smt {

using int128 = __int128;

enum class Sort : uint8_t { Bool, Int, Real };

enum class Kind : uint8_t {
  Const, // Bool/Int: num; Real: num/den
  Var,   // free constant, by name
  App,   // uninterpreted function application: name(kids)
  Add, Mul, Div, Mod, RealDiv,
  Ite, Eq, Le, Lt, Not, And, Or,
  ToReal,
};

struct Node {
  Kind kind;
  Sort sort;
  int128 num = 0, den = 1;
  std::string name;
  std::vector<const Node *> kids;
  uint32_t id = 0;
};
using Term = const Node *;

// Orders terms by creation (hash-consing) number: deterministic from run to run, unlike their
// addresses. Containers whose order reaches a query or a report use it.
struct TermById {
  bool operator()(Term a, Term b) const { return a->id < b->id; }
};

std::string toString(int128 v);

// A concrete value of a term: an integer, a boolean (0/1) or a rational.
struct Value {
  int128 num = 0, den = 1;
  bool operator==(const Value &o) const { return num * o.den == o.num * den; }
};

// Values of free symbols (Vars and App terms), as a solver model gives them.
using Assignment = std::unordered_map<Term, Value>;

class TermContext {
public:
  TermContext();
  TermContext(const TermContext &) = delete;
  TermContext &operator=(const TermContext &) = delete;

  Term intConst(int128 v);
  Term realConst(int128 num, int128 den = 1);
  Term boolConst(bool b);
  Term tru() { return boolConst(true); }
  Term fls() { return boolConst(false); }
  Term var(const std::string &name, Sort s);
  Term fresh(const std::string &prefix, Sort s); // a var with a name never used before
  Term app(const std::string &fn, Sort result, std::vector<Term> args);

  Term add(Term a, Term b);
  Term sub(Term a, Term b);
  Term neg(Term a);
  Term mul(Term a, Term b);
  Term div(Term a, Term b); // Euclidean (Int)
  Term mod(Term a, Term b); // Euclidean (Int)
  Term realDiv(Term a, Term b);
  Term toReal(Term a);

  Term ite(Term c, Term a, Term b);
  Term eq(Term a, Term b);
  Term ne(Term a, Term b) { return mkNot(eq(a, b)); }
  Term le(Term a, Term b);
  Term lt(Term a, Term b);
  Term ge(Term a, Term b) { return le(b, a); }
  Term gt(Term a, Term b) { return lt(b, a); }
  Term mkNot(Term a);
  Term mkAnd(Term a, Term b);
  Term mkOr(Term a, Term b);
  Term mkAnd(const std::vector<Term> &ts);
  Term mkOr(const std::vector<Term> &ts);
  Term implies(Term a, Term b) { return mkOr(mkNot(a), b); }
  Term inRange(Term x, int128 lo, int128 hi) { return mkAnd(le(intConst(lo), x), le(x, intConst(hi))); }

  // Known integer bounds of vars (set by whoever creates them) and the interval they imply
  // for any Int term. Intervals are conservative: [lo, hi] contains every value. A side at
  // +-kUnbounded is no bound (and is not stated by boundFacts).
  static constexpr int128 kUnbounded = static_cast<int128>(1) << 100;
  void setBounds(Term v, int128 lo, int128 hi);
  std::pair<int128, int128> range(Term t);
  // Known bounds of a compound Int term (a linear combination of sizes, from a precondition
  // such as `H + 2 P >= D (KH - 1) + 1`), used by range() for that term and for it plus a
  // constant; intersected with what is known. boundFacts() states them, as it does setBounds'.
  void tightenTermBounds(Term t, int128 lo, int128 hi);
  // The bounds given to setBounds, as constraints. The simplifier uses bounds as facts, so
  // every query must also assert these.
  std::vector<Term> boundFacts();

  // Substitutes vars (by term) everywhere in t.
  Term substitute(Term t, const std::unordered_map<Term, Term> &m);
  // t with each of its operands k replaced by f(k) (t itself where f changes none).
  Term withKids(Term t, const std::function<Term(Term)> &f);
  bool mentions(Term t, Term v);
  bool mentionsAny(Term t, const std::vector<Term> &vs);
  // All Var and App subterms of t (apps after their arguments).
  void collectSymbols(Term t, std::vector<Term> &out);

  bool isConst(Term t, int128 *v = nullptr) const;
  // t * scale as sum of (term, coefficient) by term id, plus a constant c.
  void linear(Term t, int128 scale, std::map<uint32_t, std::pair<Term, int128>> &lin, int128 &c);
  void recombine(std::map<uint32_t, std::pair<Term, int128>> &lin, int128 &c);

private:
  Term intern(Node n);
  Term mkAddFromLinear(std::map<uint32_t, std::pair<Term, int128>> &lin, int128 c);
  bool splitByConst(Term a, int128 y, Term &q, Term &r);

  // Hash-consing: nodes by their content (kind, sort, value, name, kids).
  struct ContentHash {
    size_t operator()(const Node *n) const;
  };
  struct ContentEq {
    bool operator()(const Node *a, const Node *b) const;
  };
  std::vector<std::unique_ptr<Node>> nodes_;
  std::unordered_set<const Node *, ContentHash, ContentEq> table_;
  std::unordered_map<std::string, unsigned> freshCount_;
  std::unordered_map<Term, std::pair<int128, int128>> bounds_;
  std::unordered_map<Term, std::pair<int128, int128>> rangeMemo_;
  std::unordered_map<Term, std::pair<int128, int128>> termBounds_;
};

// Concrete evaluation; nullopt when a symbol has no value or a division by zero occurs.
std::optional<Value> eval(Term t, const Assignment &a);

// Human-readable infix rendering, for diagnostics and tests.
// Text for people; at most about `limit` characters (then "...").
std::string show(Term t, size_t limit = SIZE_MAX);
// Every distinct subterm of t, t included, each once.
std::vector<Term> subterms(Term t);
// The conjuncts of t: t itself unless it is a conjunction, else those of its operands, last
// operand first (the order callers' queries have always been built in).
std::vector<Term> conjuncts(Term t);

// Walks the DAG under t kids first, without recursion (terms can be deep): a node is entered
// where enter(node) says so (false: already done, or not wanted), and done(node) is called
// once its kids are.
template <class Enter, class Done> void postOrder(Term t, Enter enter, Done done) {
  if (!enter(t))
    return;
  std::vector<std::pair<Term, size_t>> stack{{t, 0}};
  while (!stack.empty()) {
    auto &[x, next] = stack.back();
    if (next < x->kids.size()) {
      Term k = x->kids[next++];
      if (enter(k))
        stack.emplace_back(k, 0); // (x and next are not used after this)
      continue;
    }
    Term finished = x;
    stack.pop_back();
    done(finished);
  }
}

// A self-contained SMT-LIB2 script asserting all `assertions` (check-sat at the end).
// `pushGoal`: a (push 1) before the last assertion (the goal after its background facts), as
// ksynth asks Z3 incrementally: Z3's incremental core answers some nonlinear queries at once
// that its one-shot tactics do not within minutes. cvc5 then needs --incremental.
std::string toSmtLib2(const std::vector<Term> &assertions, const std::string &headerComment,
                      bool pushGoal = false);

} // namespace ksynth::smt
