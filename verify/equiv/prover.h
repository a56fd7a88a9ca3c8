// Equivalence proofs: the Prover class the prove_*.cpp files share (internal to verify/equiv).
#pragma once

#include "verify/equiv/prove.h"

#include "verify/check/symexec.h"
#include "verify/smt/solver.h"

#include <array>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ksynth::equiv::prove_detail {

using check::Status;
using smt::Sort;
using smt::Term;
using smt::TermContext;
using smt::int128;

struct GiveUp {
  std::string why;
};

// The store site `st` of thread copy m, or nullptr (prove_warp.cpp).
const check::AccessSite *storeSite(const check::ThreadModel &m, const ir::Stmt *st);

// t as a sum of canonical monomials (prove_sums.cpp).
Term expandProducts(smt::TermContext &tc, Term t);

// Spec sums as applications ssum.N(lo, hi, params...): the sum over k in [lo, hi) of body;
// products sprod.N(lo, hi, params...) likewise (matched only with a kernel loop's lprod.).
struct SpecSum {
  Term k = nullptr, body = nullptr;
  std::vector<Term> params;
};

// One Prover proves one kernel against one spec (proveAgainstSpec, prove.cpp). Its members
// are defined by part, in the prove_*.cpp file named at each ruler below, and documented there;
// those before the first ruler in prove.cpp, but for partialFunction, divisors and
// sameDivisors (prove_tensor.cpp).
class Prover {
public:
  Prover(const ir::Kernel &k, const spec::Spec &s, const spec::Binding &b, const check::Options &o)
      : k_(k), s_(s), b_(b), opts_(o), solver_(tc_, o.timeoutMs), ownLog_(o.dumpSmtDir) {
    solver_.setLog(o.log ? o.log : &ownLog_);
  }

  static bool nonFiniteLiteral(const ir::Expr &e);
  static bool nonFiniteLiteral(const ir::Block &b);
  static bool partialFunction(const std::string &n);
  // (category, term), by category then creation number (not address: the order reaches queries).
  struct CategoryThenId {
    bool operator()(const std::pair<int, Term> &a, const std::pair<int, Term> &b) const {
      return a.first != b.first ? a.first < b.first : a.second->id < b.second->id;
    }
  };
  using Divisors = std::set<std::pair<int, Term>, CategoryThenId>;
  void divisors(Term t, Divisors &out, std::set<Term> &seen);
  void sameDivisors(Term got, Term want, Term ctx, const std::string &tensor);
  ProofReport run();

private:
  const ir::Kernel &k_;
  const spec::Spec &s_;
  const spec::Binding &b_;
  check::Options opts_;
  TermContext tc_;
  smt::Solver solver_;
  smt::QueryLog ownLog_; // when Options::log names none
  check::GlobalSyms g_;
  check::ThreadSyms w1_, w2_, w3_;
  check::ThreadModel m1_, m1b_, m2_, m3_;
  std::set<int> sharedOk_; // shared arrays whose loads may be read as interval contents
  std::unordered_map<Term, Term> oldLoads_; // load symbol -> initial content of its cell
  std::unordered_map<Term, Term> literalOf_; // a float's exact value -> the spec constant it stands for
  std::map<int, Term> dimTerm_, scalarTerm_;
  std::map<int, int> arrayOf_; // spec tensor -> kernel array
  std::map<std::string, SpecSum> specSums_;
  std::map<int, Term> constCache_;
  std::set<std::string> assumed_;
  std::set<Term> boundsAdded_;
  std::string lastUnknown_;
  int asked_ = 0; // the queries' numbers: NAME.spec.N

public:
  std::vector<std::pair<std::string, bool>> queries; // see ProofReport::queries

private:
  std::vector<Term> threadRange(const check::ThreadSyms &t);

  // What the queries asked inside a scope establish, in words, and the source lines they are
  // about: the header of each dumped query (proof bundles), innermost step last.
  struct StepText {
    std::string what;
    std::vector<unsigned> lines;
  };

  std::vector<StepText> steps_;

  class Step {
  public:
    Step(Prover &p, std::string what, std::vector<unsigned> lines = {}) : p_(p) {
      p_.steps_.push_back({std::move(what), std::move(lines)});
    }
    ~Step() { p_.steps_.pop_back(); }
    Step(const Step &) = delete;
    Step &operator=(const Step &) = delete;

  private:
    Prover &p_;
  };

  static std::vector<unsigned> linesOf(const std::vector<const check::AccessSite *> &sites);

  static std::vector<unsigned> lineOf(const check::AccessSite &x) {
    return x.stmt && x.stmt->loc.line ? std::vector<unsigned>{x.stmt->loc.line} : std::vector<unsigned>{};
  }

  std::string stepHeader() const;
  // Every step query: background ∧ goal, named KERNEL.spec.N and logged (dumped with the
  // steps it serves); unsat() for a step that must hold, solve() for one whose model is used.
  smt::Result ask(Term goal);
  bool unsat(Term goal);
  Term focus(Term ctx, Term about);
  bool unsatFocused(Term ctx, Term rest);
  smt::Result solve(Term goal);

  // ---- the spec as terms (prove_spec.cpp) ------------------------------------------------
  Term floatValue(double v);
  Term realLiteral(const spec::Term &t);
  Term flatOf(int tensor, const std::vector<Term> &idx);
  Term foldApp(const spec::Term &t, const std::string &prefix, std::vector<Term> &slots);

  static Sort foldSort(const std::string &prefix, Term body) {
    return prefix == "ssum." || prefix == "sprod." ? Sort::Real : prefix.rfind("sarg", 0) == 0 ? Sort::Int : body->sort;
  }

  Term tr(const spec::Term &t, std::vector<Term> &slots);
  Term canonicalKernel(Term t);
  Term foldUnder(Term t, Term dom, bool itesOnly = false);

  void delinearise(Term f1, Term f2, const std::vector<Term> &ext, std::vector<Term> &facts) {
    check::delinearise(tc_, f1, f2, ext, facts);
  }

  // ---- sums (prove_sums.cpp) -------------------------------------------------------------
  std::vector<Term> appsWithPrefix(Term t, const std::string &prefix);
  // Whether t holds an App whose name starts with prefix (remembered per term: proof steps
  // ask it of every subterm they walk).
  bool hasAppWithPrefix(Term t, const std::string &prefix);
  std::unordered_map<std::string, std::unordered_map<Term, bool>> prefixMemo_;
  std::string unwrittenIn(Term t);
  const check::SumDef *kernelSum(const std::string &name);
  Term max0(Term x) { return tc_.ite(tc_.lt(x, tc_.intConst(0)), tc_.intConst(0), x); }
  bool equalTerms(Term a, Term b, Term ctx, int depth, std::string &why);
  std::set<Term> specDivisors_; // the spec's divisors in the element being proven (prove_tensor.cpp)
  // The element's spec coordinates elem.jD as the storing thread's (its address's digits),
  // each proven equal under the store's context: the spec's value is read in the kernel's
  // terms in equalTerms' final comparison (prove_tensor.cpp).
  std::unordered_map<Term, Term> coordOf_;
  static bool allChoices(const std::vector<std::vector<std::pair<Term, Term>>> &perVar, size_t limit,
                         std::vector<std::unordered_map<Term, Term>> &out);

  // ---- shared memory (prove_shared.cpp) ----------------------------------------------------
  std::vector<Term> ownStoresBefore(size_t li, bool sameInterval);
  void checkSharedReads();
  void checkOldReads();
  Term resolveShared(Term t, Term ctx, int depth);
  Term writerValue(Term X, int a, Term ctx, bool exclusive = false);
  Term writerByFirstIteration(Term X, int a, Term ctx);
  std::vector<Term> iterationGuesses(const check::AccessSite &S, Term b);
  Term resolveSharedIn(Term t, Term dom);
  std::vector<int128> divisorsOf(Term t, Term x);
  std::vector<int128> residuesOf(Term t, Term x, int128 D);
  // A writer by the digits of its address (prove_digits.cpp): values of the unknowns (those
  // with an extent: values 0 .. extent - 1, 0 for no bound) for which F is v, where F is a
  // mixed radix of them; false when F is not one. A guess, to be checked.
  bool invertDigits(Term F, Term v, const std::unordered_map<Term, int128> &ext, std::unordered_map<Term, Term> &out,
                    int depth = 0);
  std::unordered_map<Term, int128> writerExtents(const check::ThreadSyms &w, const check::ThreadModel &m,
                                                 const check::AccessSite &S);

  // ---- warp exchanges (prove_warp.cpp) ---------------------------------------------------------
  std::unordered_map<Term, Term> laneThread(Term cell);
  // The owner copy's (w3's) iteration of each loop around an exchange, as the reader's (w1's)
  // iteration of that loop: the lanes of a warp run an exchange in a loop in the same round
  // (resolveExchanges). laneThread maps them too.
  std::unordered_map<Term, Term> ownerIter_;
  bool itersOwned(const check::AccessSite &S) const {
    for (Term it : S.iters)
      if (!ownerIter_.count(it))
        return false;
    return true;
  }
  Term laneValue(size_t n, const check::AccessSite &S, Term cell);
  bool namesWriter(Term t);
  Term lanesNamedAgain(Term v);
  bool ownerStores(Term ctx, Term owns);
  Term resolveExchanges(Term t, Term ctx, int depth);
  Term asWriterSums(Term t);
  Term renameToWriter(Term t, bool vars);
  std::string writerFold(const std::string &name);
  std::unordered_map<std::string, std::string> writerFolds_;
  bool sameLeaves(Term v, const std::vector<Term> &xs, int fold);
  std::unordered_map<Term, Term> pinnedCoordinates(Term ctx);
  Term laneSum(Term v, Term ctx, const std::unordered_map<Term, Term> *reader);
  Term resolveWarp(Term t, Term ctx, const std::unordered_map<Term, Term> *reader = nullptr);
  Term resolveWarpInside(Term t, Term ctx, const std::unordered_map<Term, Term> *reader = nullptr);
  Term laneFoldsInside(Term r, Term ctx, const std::unordered_map<Term, Term> *reader = nullptr,
                       bool offerTop = true);
  bool scanRound(Term t);
  Term laneVarOf(Term x, int W);
  bool laneSplit(Term v, const std::vector<Term> &xs, int W, int how, Term ctx, Term rx, bool solve,
                 bool expForms = false, bool prefix = false);
  // ---- running sums kept relative to a running max (online softmax; prove_online.cpp) -----
  Term onlineForm(Term r, Term ctx, const std::unordered_map<Term, Term> *reader);
  Term nameLaneExtrema(Term t, Term ctx, const std::unordered_map<Term, Term> *reader);
  Term laneCofactor(Term v, const std::string &lanev, Term z, Term L);
  Term cofactorAt(Term G, Term z, Term cell, bool values);
  Term rebaseSums(Term t);

  // ---- block tree reductions (prove_tree.cpp) ----------------------------------------------

  // A halving or doubling tree reduction at a store site (treeOf says when a site is one).
  struct Tree {
    int rounds = 0;
    int128 cells = 0;
    std::string fold = "lsum."; // the operation: lsum. (+), lmax. or lmin. (fmaxf, fminf, ...)
  };

  std::map<const ir::Stmt *, std::optional<Tree>> trees_;
  std::map<std::string, check::SumDef> treeSums_; // by application name
  bool oneDim(const std::array<Term, 3> &d, int128 *x);
  std::unordered_map<Term, Term> roundOf(const check::AccessSite &S, Term k, Term r,
                                         const std::array<Term, 3> &bid);
  std::unordered_map<Term, Term> treeWitness(const Tree &t, const check::AccessSite &S,
                                             const std::array<Term, 3> &bid);
  bool aloneDuring(const check::AccessSite &S, Term bc0, int128 T, const std::string &what);
  const Tree *treeOf(const check::AccessSite &S);
  Term treeValue(const Tree &t, const check::AccessSite &S, const std::unordered_map<Term, Term> &w, Term ctx);

  // ---- in-block scans (prove_scan.cpp) ------------------------------------------------------

  // An inclusive scan at a store site (scanOf says when a site is one).
  struct Scan {
    int rounds = 0;
    int128 cells = 0;
    Term firstBase = nullptr, lastBase = nullptr; // R_0, W_{T-1}
  };

  std::map<const ir::Stmt *, std::optional<Scan>> scans_;
  // Stores (site, array, reads d intervals later, exclusive) shown alone for any writer: no
  // other store to the cell the writer stores comes between its store and d intervals later
  // (writerValue: proven once per site instead of once per read).
  std::map<std::tuple<const ir::Stmt *, int, int128, bool>, bool> aloneLemmas_;
  const Scan *scanOf(const check::AccessSite &S);
  Term scanValue(const Scan &sc, const check::AccessSite &S, Term k, Term ctx);

  // ---- index maps between a kernel's iterations and a spec's range (prove_sums.cpp) --------
  std::vector<Term> indexMaps(Term f, Term k, Term g);
  bool affineIn(Term phi, const std::vector<Term> &js, Term &c, std::vector<int128> &slope);
  std::unordered_map<Term, Term> preimageOf(const std::vector<Term> &js, Term c, const std::vector<int128> &slope,
                                            Term k);

  // ---- max and min over a range (prove_extrema.cpp) ----------------------------------------

  struct Candidate {
    std::vector<Term> levels; // iteration symbols of the folds around it, outermost first
    std::vector<Term> conds;  // where it takes part (the levels' ranges included)
    Term term;
  };

  static bool isFoldApp(Term x, const char *prefix) {
    return x->kind == smt::Kind::App && x->name.rfind(prefix, 0) == 0;
  }

  bool generators(Term x, bool isMax, const std::vector<Term> &conds, const std::vector<Term> &levels, Term ctx,
                  std::vector<Candidate> &out, int depth);
  bool beyondEveryInput(Term x, Term r, bool isMax);
  bool extremaEqual(Term t, Term q, Term ctx);
  bool nestedExtremaEqual(Term t, const std::vector<Term> &chain, Term ctx);
  Term coordinateMap(Term s, Term k, Term g);
  std::vector<Term> extremumTerms(Term t, bool isMax);
  void matchExtrema(Term &a, Term &b, Term ctx);

  // ---- argmax and argmin (prove_extrema.cpp) ----------------------------------------------
  bool argEqual(Term l, Term q, Term ctx);

  // ---- argmax and argmin as the best (value, index) pair (prove_lexbest.cpp) ---------------

  // A (value, index) pair the kernel's selection takes part in choosing from.
  struct PairCandidate {
    std::vector<Term> levels; // iteration symbols of the folds around it
    std::vector<Term> conds;  // where it takes part
    Term value, index;
  };

  Term expandLaneValues(Term t);
  bool lexCandidates(Term v, Term i, bool isMax, const std::vector<Term> &conds, const std::vector<Term> &levels,
                     Term ctx, std::vector<PairCandidate> &out, int depth);
  bool lexPick(Term p, Term i1, Term i2, bool isMax, Term &v1, Term &v2);
  bool lexFoldLeaf(Term v, Term i, bool isMax, const std::vector<Term> &conds, const std::vector<Term> &levels,
                   Term ctx, std::vector<PairCandidate> &out);
  bool lexEqual(Term x, Term q, Term ctx);
  Term specTerm(Term q);
  void addHit(const std::vector<Term> &levels, const std::vector<Term> &conds, Term phi, Term k,
              std::vector<Term> &hits, int64_t &modulus);
  bool everyIndexHit(Term ctx, Term lo, Term hi, Term k, const std::vector<Term> &hits, int64_t modulus,
                     bool tryDirect);
  // The least common multiple of m and |s|, or 0 (none) past 2^20 or where either is 0.
  static int64_t commonMultiple(int64_t m, int128 s) {
    int64_t a = static_cast<int64_t>(s < 0 ? -s : s);
    if (m <= 0 || a <= 0 || a > (1 << 20))
      return 0;
    int64_t l = m / std::gcd(m, a) * a;
    return l > (1 << 20) ? 0 : l;
  }
  std::vector<Term> lexTerms(Term t, bool isMax);

  // ---- re-indexed sums (summand bijection) (prove_sums.cpp) --------------------------------
  bool reindexed(Term l, Term q, Term ctx, int depth);
  Term bindIteration(Term body, Term iter, Term to, std::unordered_map<std::string, std::string> &copies);
  Term chunkTemplate(const std::vector<Term> &elems, Term jc);
  std::map<std::pair<std::vector<Term>, Term>, Term> templates_;

  // ---- one output tensor (prove_tensor.cpp) ------------------------------------------------
  std::vector<const check::AccessSite *> storesTo(const check::ThreadModel &m, int a);

  // A symbolic element of tensor t: its index tuple j, flat address e, and j in range.
  struct Element {
    std::vector<Term> j;
    Term e, inRange;
  };

  Element element(int t, const std::vector<Term> &ext);
  Term ensuresAt(int t, const std::vector<Term> &j);
  void proveTensor(int t, TensorProof &tp);
  static bool varRead(const ir::Block &b, int v);

  // ---- accumulation with atomicAdd (prove_tensor.cpp) --------------------------------------
  Term closeLaneFolds(Term v, Term ctx);
  bool foldReadsShared(Term v, std::set<std::string> &seen);
  void proveAtomic(int t, int a, const std::vector<const check::AccessSite *> &s1, const std::vector<Term> &ext,
                   TensorProof &tp);

  // ---- completeness (prove_coverage.cpp) -----------------------------------------------

  struct Witness {
    const check::AccessSite *site;
    Term covers; // the site stores element e with these thread coordinates
  };

  Term reachable(const check::AccessSite &s, const check::ThreadModel *m = nullptr);
  Term withoutWraps(Term t, std::vector<Term> &conds, std::unordered_map<Term, Term> &memo);
  bool completeness(const std::vector<const check::AccessSite *> &sites, const std::vector<Term> &j, Term e,
                    Term elem, const std::vector<Term> &ext, TensorProof &tp);
};

} // namespace ksynth::equiv::prove_detail
