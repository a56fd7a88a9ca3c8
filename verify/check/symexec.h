// Symbolic execution of one thread of a KIR kernel, by predication: both sides of every
// branch are executed under their path conditions and merged with `ite`, so one pass yields
// every memory access, barrier-controlling condition, arithmetic hazard and assertion of the
// thread, each with the condition under which it happens.
//
// Loops are summarised, never unrolled: every loop instance gets a symbolic iteration number
// i >= 0; each variable the loop modifies is, at iteration i,
//   - v0 + i*d when one iteration adds a loop-invariant d (induction variables, barrier
//     counters),
//   - v0 div 2^(k i) / v0 * 2^(k i) for `v >>= k`, `v /= 2^k`, `v <<= k`, `v *= 2^k`,
//   - otherwise a fresh unconstrained value (an over-approximation, recorded).
// A site inside the loop is reached at iteration i under cond(i). Everything here
// over-approximates the thread's behaviour, so `unsat` proves; `sat` is only a candidate that
// the concrete interpreter must replay.
//
// Barrier intervals: bc counts the __syncthreads a thread has executed, wc additionally the
// __syncwarps (those with a partial mask only where it names the peer thread's lane). Once
// barriers are shown uniform, two accesses of one block are in the same barrier interval iff
// their bc are equal (and, for one warp, their wc).
#pragma once

#include "verify/ir/kir.h"
#include "verify/smt/term.h"

#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ksynth::check {

using smt::Term;

// Symbols shared by all threads: launch dimensions, scalar parameters, array lengths.
struct GlobalSyms {
  std::array<Term, 3> blockDim{}, gridDim{};
  std::map<int, Term> params; // scalar param var id -> value
  std::map<int, Term> lens;   // pointer param array id -> __len
  std::vector<Term> facts;    // constraints on the above (launch limits, ...)
  // Arrays no statement can store to: their contents are fixed while the kernel runs, so a
  // load is a function of the cell (the same for every thread and every load).
  std::set<int> readOnly;
};

std::set<int> readOnlyArrays(const ir::Kernel &k);

// Names of the functions for memory contents, one per array (by id: names can repeat):
// mem.NAME.ID(flat) the content of a read-only array (or an array's content before the
// launch), shm.NAME.ID(bc, flat) a shared array's content at the start of barrier interval bc.
std::string memName(const ir::Kernel &k, int array);
std::string shmName(const ir::Kernel &k, int array);
int arrayOfMemName(const std::string &name); // the ID of such a name, or -1

struct ThreadSyms {
  std::array<Term, 3> tid{}, bid{};
};

struct AccessSite {
  const ir::Stmt *stmt = nullptr;
  int array = -1;
  bool write = false, atomic = false;
  bool pointerKnown = true; // false: the pointer could not be resolved to one array
  Term pc = nullptr;
  Term flat = nullptr;
  std::vector<Term> idx; // per-dimension indices when the array is addressed by dimension
  Term bc = nullptr, wc = nullptr, gc = nullptr;
  std::vector<Term> iters;
  Term value = nullptr;  // Store: the value stored (nullptr for pointers); Atomic: the operand
  Term loaded = nullptr; // Load: the value read (a symbol, mem.A(flat) or shm.S(bc, flat))
};

// A float variable a loop only accumulates into (`acc += f(...)`, also under conditions):
// after n iterations it holds acc0 + name(n, params...), where an application
// name(n, a1..ak) means the sum over j in [0, n) of `body` with `iter` := j and params[m] :=
// a_m (0 when n <= 0). The body is the per-iteration increment over the loop's other
// variables at iteration j.
//
// A float variable a loop only multiplies (`acc *= f(...)`, also under conditions): after n
// iterations it holds acc0 * name(n, params...) with name "lprod.TAG.N", the product over j in
// [0, n) of `body` (1 when n <= 0).
//
// A float variable a loop only folds with max or min (`m = fmaxf(m, f(...))`, `if (x > m) m =
// x`): after n iterations it holds ite(n >= 1, max(m0, name(n, params...)), m0) with name
// "lmax.TAG.N" ("lmin."), an application meaning the max (min) over j in [0, n) of `body`.
// Where the body is kExtremumNone (an `ite` arm: the iteration does not update), that
// iteration contributes nothing. Outside the equivalence prover's matching (prove.h) the
// application is an unknown real.
inline constexpr const char *kExtremumNone = "ext.none";
// Whether x = max(p, q) (isMax) or min(p, q), as symexec and the frontend write them:
// ite(q <= p, p, q), ite(q < p, p, q) (`if (p > q)`), and the mirror images for min.
bool extremumOf(Term x, Term &p, Term &q, bool &isMax);
// -FLT_MAX, FLT_MAX, -DBL_MAX and DBL_MAX as kernel constants (unknown reals of these names:
// they are too large for the term layer's exact rationals).
inline constexpr const char *kLowestF32 = "fconst.-flt_max", *kHighestF32 = "fconst.flt_max",
                            *kLowestF64 = "fconst.-dbl_max", *kHighestF64 = "fconst.dbl_max";
//
// An int variable a loop sets to `payload` exactly when it sets a max (min) fold's variable to
// a new candidate (`if (v > bv) { bv = v; best = c; }`): after n iterations it holds
// larg.TAG.N(n, params..., m0, i0) ("largmin."), the payload of the iteration whose candidate
// `key` was the last to replace the fold's value, where m0 and i0 are the two variables' values
// at the loop's entry (i0 when no candidate replaced m0). `strict`: candidates replace on `>`
// (`<`), so among equal candidates the earliest stays; else on `>=`, the latest.
struct SumDef {
  Term iter = nullptr;
  Term body = nullptr;
  std::vector<Term> params;
  Term key = nullptr; // argmax/argmin folds: the candidate compared at iteration `iter`
  bool strict = false;
  bool isMax = true;
};

enum class ArithKind { SignedOverflow, DivByZero, ShiftAmount };

struct ArithSite {
  const ir::Expr *expr = nullptr;
  ArithKind kind = ArithKind::SignedOverflow;
  Term pc = nullptr;
  Term ok = nullptr; // what must hold
};

struct ControlSite {
  const void *site = nullptr; // the If/Loop statement
  ir::Loc loc;
  bool warpOnly = false;      // controls only __syncwarp
  Term pc = nullptr;
  Term cond = nullptr;
  std::vector<Term> iters;
  bool grid = false; // controls a grid barrier: must be uniform across the whole grid
};

struct AssertSite {
  const ir::Stmt *stmt = nullptr;
  Term pc = nullptr;
  Term cond = nullptr;
};

// A warp barrier with a partial or computed mask the thread reaches: every lane the mask names
// must reach it in the same iterations, with the same mask (checkBarriers).
struct MaskedBarrierSite {
  const ir::Stmt *stmt = nullptr;
  Term pc = nullptr;
  std::vector<Term> iters;
  Term mask = nullptr; // its value (a constant for a constant mask)
};

// Whether `lane` is one the mask names: for a constant, a disjunction of ranges (maskRuns);
// else of `lane == j` and bit j of the mask set (Euclidean div/mod by powers of two).
Term laneInMaskTerm(smt::TermContext &tc, Term mask, Term lane);
// Bit k of a non-negative integer term, 0 or 1 (by its form where that shows the bit).
Term bitOf(smt::TermContext &tc, Term t, int k);
// A thread's lane: its block-linear id mod 32.
Term laneOf(smt::TermContext &tc, const GlobalSyms &g, const ThreadSyms &t);

// An assert.uniform: the value the lane holds there, with its loops' iterations.
struct UniformSite {
  const ir::Stmt *stmt = nullptr;
  Term pc = nullptr;
  Term value = nullptr;
  std::vector<Term> iters;
};

struct LoadSym {
  Term sym = nullptr;
  int array = -1;
  Term flat = nullptr;
};

// A loop summary that assumed no wrap-around: at the end of every iteration that completes,
// the real value must equal the summary's next value (checked by induction on iterations).
struct SummarySite {
  ir::Loc loc;
  std::string var;
  Term pc = nullptr;
  Term ok = nullptr;
};

struct ThreadModel {
  std::vector<SummarySite> summaries;
  std::vector<AccessSite> accesses;
  std::vector<ArithSite> arith;
  std::vector<ControlSite> controls;
  std::vector<AssertSite> asserts;
  std::vector<UniformSite> uniforms;
  std::vector<MaskedBarrierSite> masked;
  // `__activemask()` calls (a Havoc marked warpCollective), with the value this thread got.
  std::vector<MaskedBarrierSite> activeMasks;
  std::vector<Term> assumptions; // pc => cond of every __assume/__requires
  std::vector<Term> facts;       // true facts about abstractions (ranges of UF results, ...)
  std::vector<LoadSym> loads;
  std::map<std::string, SumDef> sums; // by application name ("lsum.TAG.N")
  // Regular loops left after `trips` iterations: (trips, the exit condition conjoined to the
  // path condition after the loop). Whether some trips satisfies it is termination.
  std::vector<std::pair<Term, Term>> exits;
  // The exit conditions of counted loops (their closed-form trip counts make them hold),
  // conjunct by conjunct: true facts a path condition carries, which a proof about another
  // thread's path may leave out rather than re-derive from the closed form's arithmetic.
  std::vector<Term> countedExits;
  // Iteration symbol of a counted loop -> its trip count (closed form): iteration i is
  // reached exactly when i < trips (given the loop is). Loops not listed may skip iterations
  // in the model (the path condition of iteration i only checks the tests at i - 1 and i).
  std::map<Term, Term> trips;
  // For the loops whose test is affine in the iteration with a positive slope (tripCount):
  // iteration symbol -> (X, the test at iteration X: d0 + a X < 0 or <= 0, a > 0), which for
  // X >= 0 holds exactly when iteration X runs (X < trips where the loop is counted: the same
  // fact without the closed form's division). Also for a slope that is not a constant but
  // known positive, where the loop has no closed form. X is a variable of its own, without
  // bounds (the iteration symbol's would fold the test to true).
  std::map<Term, std::pair<Term, Term>> tripTests;
  // Some loop has no closed-form trip count (or has a break/return): whether it ends is not
  // known, so anything after it happens only if it terminates.
  bool uncountedLoops = false;
  std::vector<std::string> abstractions; // over-approximations used (for reports)
  std::vector<const ir::Stmt *> unsupported;
  Term reachEnd = nullptr;
};

// Builds the symbols for the launch; `block`/`grid` entries are nullptr when symbolic.
GlobalSyms makeGlobals(smt::TermContext &tc, const ir::Kernel &k,
                       const std::array<ir::ExprPtr, 3> &block,
                       const std::array<ir::ExprPtr, 3> &grid, std::vector<std::string> &assumptionText);

// Facts true of all integers that relate two flat addresses through extents ext (row-major,
// ext[0] unused): X1*N + Y1 = X2*N + Y2 with 0 <= Y1, Y2 < N implies X1 = X2 and Y1 = Y2,
// for N = ext[d] from the innermost dimension outwards. Nonlinear solvers need them.
void delinearise(smt::TermContext &tc, Term f1, Term f2, const std::vector<Term> &ext, std::vector<Term> &facts);
// A flat address the kernel recomposes from an index X it split itself, `(X mod W) + W * (((X
// div W) mod H) + H * (X div (W * H)))` (any depth, nested or product divisors): the fact
// that, with every divisor >= 1, it is X (Euclidean division). Nothing is added otherwise.
void recomposition(smt::TermContext &tc, Term flat, std::vector<Term> &facts);
// The index X of such an address, and in `positive` the condition (every divisor >= 1) under
// which the address is X; nullptr where the address is not one.
Term recomposedIndex(smt::TermContext &tc, Term flat, Term &positive);
// The per-dimension indices of a flat address into an array of extents ext (outermost first)
// when its form says them (`(r * N + c)` with N the last extent gives r, c); empty if not.
// They are the indices only where each lies within its extent, which the caller must know.
std::vector<Term> coordinates(smt::TermContext &tc, Term flat, const std::vector<Term> &ext);
// t = X * f + Y, splitting t's monomials by whether f is one of their factors; false when
// none has it.
bool splitBy(smt::TermContext &tc, Term t, Term f, Term &X, Term &Y);
// Whether the monomial m is X * f (f one of its factors, at any depth of nested products);
// X in rest.
bool factorOut(smt::TermContext &tc, Term m, Term f, Term &rest);
// The factors a flat address is a multiple of in some monomial (candidate row lengths):
// symbols, and non-constant sums, quotients and remainders (`W - KW + 1`).
std::vector<Term> strideSymbols(smt::TermContext &tc, Term f);
// Facts true of all integers that bound a flat address by an extent that is a product:
// f = X * N + Y and E = A * N with 0 <= Y < N and 0 <= X < A give 0 <= f < E; then the same for
// X and A (`((n * C + c) * H + h) * W + w < B * C * H * W` from each index below its extent).
void boundLemmas(smt::TermContext &tc, Term f, Term E, std::vector<Term> &facts, int depth = 5);
// delinearise by every candidate row length of f1, then again on the quotients (an address
// in three or more symbolic extents, `((n * C + c) * H + h) * W + w`), at most `depth`
// levels deep and `limit` facts in all.
void delineariseNested(smt::TermContext &tc, Term f1, Term f2, std::vector<Term> &facts, int depth = 4,
                       size_t limit = 24);

// Narrows the known ranges (TermContext::setBounds) of symbols that the facts bound on their
// own (`N <= 65535`, `gridDim.x = R`), so the simplifier can drop wrap-around that the
// preconditions rule out (`blockIdx.x * C` in unsigned arithmetic). The facts must hold in
// every query that uses these terms: the launch facts and the global preconditions.
void tightenBounds(smt::TermContext &tc, const std::vector<Term> &facts);

ThreadSyms makeThread(smt::TermContext &tc, const GlobalSyms &g, const std::string &tag);

// The stores to warp-exchange arrays (ir::Array::warpExchange), in program order; the N-th
// is named "wx.N" in terms: wx.N(cell) is the value the lane owning `cell` stored there.
std::vector<const ir::Stmt *> exchangeStores(const ir::Kernel &k);
std::string exchangeName(const ir::Kernel &k, const ir::Stmt *store);

// sharedContent: float and integer loads of shared arrays (of the type the array holds) are
// shm.NAME(bc, flat), the cell's content at the start of the barrier interval; sound only
// where the thread did not store to that cell earlier in the same interval (the equivalence
// prover checks it; the safety checker does not use this).
//
// peer: the other thread of the pair whose accesses are compared (the safety checker): wc then
// counts a warp barrier with a partial mask only where the mask names the peer's lane (it
// orders the two threads only then). Without a peer, such a barrier adds an unknown count.
ThreadModel execute(smt::TermContext &tc, const ir::Kernel &k, const GlobalSyms &g,
                    const ThreadSyms &t, const std::string &tag, bool wrapFreeSummaries = true,
                    bool sharedContent = false, const ThreadSyms *peer = nullptr);

// Evaluates a thread-independent expression (launch line) over the global symbols.
Term evalUniform(smt::TermContext &tc, const ir::Kernel &k, const GlobalSyms &g, const ir::Expr &e);

// Whether an expression or assumption mentions __len(array).
bool mentionsLen(const ir::Kernel &k, int array);

} // namespace ksynth::check
